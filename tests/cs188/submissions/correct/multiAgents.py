# multiAgents.py
# --------------
# A classic-style student submission for the multi-agent search assignment,
# written for this project's compatibility tests.  It uses the CS188 student
# API (camelCase GameState methods, util.lookup for evalFn, global random).

from util import manhattanDistance
from game import Directions
import random, util

from game import Agent
from pacman import GameState


class ReflexAgent(Agent):
    """
    A reflex agent chooses an action at each choice point by examining
    its alternatives via a state evaluation function.
    """

    def getAction(self, gameState: GameState):
        # Collect legal moves and successor states
        legalMoves = gameState.getLegalActions()

        # Choose one of the best actions
        scores = [self.evaluationFunction(gameState, action) for action in legalMoves]
        bestScore = max(scores)
        bestIndices = [index for index in range(len(scores)) if scores[index] == bestScore]
        chosenIndex = random.choice(bestIndices)  # Pick randomly among the best

        return legalMoves[chosenIndex]

    def evaluationFunction(self, currentGameState: GameState, action):
        successorGameState = currentGameState.generatePacmanSuccessor(action)
        newPos = successorGameState.getPacmanPosition()
        newFood = successorGameState.getFood()
        newGhostStates = successorGameState.getGhostStates()
        newScaredTimes = [ghostState.scaredTimer for ghostState in newGhostStates]

        if successorGameState.isWin():
            return 1e9
        if successorGameState.isLose():
            return -1e9

        score = successorGameState.getScore()

        # get closer to the nearest food
        foodList = newFood.asList()
        if foodList:
            closest = min(manhattanDistance(newPos, food) for food in foodList)
            score += 10.0 / (closest + 1)

        # stay away from active ghosts, chase scared ones
        for ghostState, scared in zip(newGhostStates, newScaredTimes):
            dist = manhattanDistance(newPos, ghostState.getPosition())
            if scared > dist:
                score += 50.0 / (dist + 1)
            elif dist <= 1:
                score -= 500
            elif dist <= 3:
                score -= 20.0 / dist

        # standing still is almost never useful
        if action == Directions.STOP:
            score -= 5

        return score


def scoreEvaluationFunction(currentGameState: GameState):
    """
    This default evaluation function just returns the score of the state.
    """
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    """
    Common elements of the adversarial search agents.
    """

    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0  # Pacman is always agent index 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    """
    Your minimax agent (question 2)
    """

    def getAction(self, gameState: GameState):
        numAgents = gameState.getNumAgents()

        def value(state, agentIndex, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nextAgent = agentIndex + 1
            nextDepth = depth
            if nextAgent == numAgents:
                nextAgent = 0
                nextDepth = depth + 1
            scores = [value(state.generateSuccessor(agentIndex, action), nextAgent, nextDepth)
                      for action in state.getLegalActions(agentIndex)]
            if agentIndex == 0:
                return max(scores)
            return min(scores)

        bestAction = None
        bestScore = float('-inf')
        for action in gameState.getLegalActions(0):
            if numAgents > 1:
                score = value(gameState.generateSuccessor(0, action), 1, 0)
            else:
                score = value(gameState.generateSuccessor(0, action), 0, 1)
            if score > bestScore:
                bestScore = score
                bestAction = action
        return bestAction


class AlphaBetaAgent(MultiAgentSearchAgent):
    """
    Your minimax agent with alpha-beta pruning (question 3)
    """

    def getAction(self, gameState: GameState):
        numAgents = gameState.getNumAgents()

        def value(state, agentIndex, depth, alpha, beta):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            if agentIndex == 0:
                return maxValue(state, depth, alpha, beta)
            return minValue(state, agentIndex, depth, alpha, beta)

        def maxValue(state, depth, alpha, beta):
            v = float('-inf')
            for action in state.getLegalActions(0):
                if numAgents > 1:
                    v = max(v, value(state.generateSuccessor(0, action), 1, depth, alpha, beta))
                else:
                    v = max(v, value(state.generateSuccessor(0, action), 0, depth + 1, alpha, beta))
                if v > beta:
                    return v
                alpha = max(alpha, v)
            return v

        def minValue(state, agentIndex, depth, alpha, beta):
            v = float('inf')
            nextAgent = agentIndex + 1
            nextDepth = depth
            if nextAgent == numAgents:
                nextAgent = 0
                nextDepth = depth + 1
            for action in state.getLegalActions(agentIndex):
                v = min(v, value(state.generateSuccessor(agentIndex, action), nextAgent, nextDepth, alpha, beta))
                if v < alpha:
                    return v
                beta = min(beta, v)
            return v

        alpha = float('-inf')
        beta = float('inf')
        bestAction = None
        bestScore = float('-inf')
        for action in gameState.getLegalActions(0):
            if numAgents > 1:
                score = value(gameState.generateSuccessor(0, action), 1, 0, alpha, beta)
            else:
                score = value(gameState.generateSuccessor(0, action), 0, 1, alpha, beta)
            if score > bestScore:
                bestScore = score
                bestAction = action
            alpha = max(alpha, bestScore)
        return bestAction


class ExpectimaxAgent(MultiAgentSearchAgent):
    """
    Your expectimax agent (question 4)
    """

    def getAction(self, gameState: GameState):
        numAgents = gameState.getNumAgents()

        def value(state, agentIndex, depth):
            if state.isWin() or state.isLose() or depth == self.depth:
                return self.evaluationFunction(state)
            nextAgent = agentIndex + 1
            nextDepth = depth
            if nextAgent == numAgents:
                nextAgent = 0
                nextDepth = depth + 1
            actions = state.getLegalActions(agentIndex)
            if agentIndex == 0:
                return max(value(state.generateSuccessor(0, action), nextAgent, nextDepth)
                           for action in actions)
            # ghosts pick uniformly at random among their legal moves
            prob = 1.0 / len(actions)
            total = 0.0
            for action in actions:
                total += prob * value(state.generateSuccessor(agentIndex, action), nextAgent, nextDepth)
            return total

        bestAction = None
        bestScore = float('-inf')
        for action in gameState.getLegalActions(0):
            if numAgents > 1:
                score = value(gameState.generateSuccessor(0, action), 1, 0)
            else:
                score = value(gameState.generateSuccessor(0, action), 0, 1)
            if score > bestScore:
                bestScore = score
                bestAction = action
        return bestAction


def betterEvaluationFunction(currentGameState: GameState):
    """
    Your extreme ghost-hunting, pellet-nabbing, food-gobbling, unstoppable
    evaluation function (question 5).

    DESCRIPTION: start from the game score; reward being close to the nearest
    food and having little food and few capsules left; hunt scared ghosts that
    can still be reached before they recover; keep a safe distance from the
    active ones.
    """
    if currentGameState.isWin():
        return 100000 + currentGameState.getScore()
    if currentGameState.isLose():
        return -100000 + currentGameState.getScore()

    pos = currentGameState.getPacmanPosition()
    foodList = currentGameState.getFood().asList()
    capsules = currentGameState.getCapsules()
    ghostStates = currentGameState.getGhostStates()

    score = currentGameState.getScore()

    if foodList:
        closestFood = min(manhattanDistance(pos, food) for food in foodList)
        score += 10.0 / (closestFood + 1)
    score -= 4 * len(foodList)
    score -= 20 * len(capsules)

    for ghost in ghostStates:
        dist = manhattanDistance(pos, ghost.getPosition())
        if ghost.scaredTimer > dist:
            score += 200.0 / (dist + 1)
        elif dist < 2:
            score -= 300
        elif dist < 4:
            score -= 30.0 / dist

    return score


# Abbreviation
better = betterEvaluationFunction
