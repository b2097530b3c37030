# multiAgents.py
# Written for this project's compatibility tests (the correct file, its
# betterEvaluationFunction reading state.data): a submission in the style
# of a CS188 multi-agent search student (camelCase GameState API, evalFn
# looked up by name with util.lookup, the global random module).

from util import manhattanDistance
from game import Directions
import random, util

from game import Agent
from pacman import GameState


class ReflexAgent(Agent):
    """Looks one move ahead and takes the move whose successor scores best."""

    def getAction(self, gameState: GameState):
        actions = gameState.getLegalActions()
        values = [self.evaluationFunction(gameState, a) for a in actions]
        top = max(values)
        ties = [a for a, v in zip(actions, values) if v == top]
        return random.choice(ties)  # break ties at random

    def evaluationFunction(self, currentGameState: GameState, action):
        nextState = currentGameState.generatePacmanSuccessor(action)
        if nextState.isWin():
            return 1e9
        if nextState.isLose():
            return -1e9

        pacPos = nextState.getPacmanPosition()
        value = nextState.getScore()

        # head for the closest pellet
        pellets = nextState.getFood().asList()
        if pellets:
            nearest = min(manhattanDistance(pacPos, p) for p in pellets)
            value += 10.0 / (nearest + 1)

        # keep clear of ghosts that can hurt us, go after the frightened ones
        for ghost in nextState.getGhostStates():
            d = manhattanDistance(pacPos, ghost.getPosition())
            if ghost.scaredTimer > d:
                value += 50.0 / (d + 1)
            elif d <= 1:
                value -= 500
            elif d <= 3:
                value -= 20.0 / d

        # waiting in place wastes time
        if action == Directions.STOP:
            value -= 5

        return value


def scoreEvaluationFunction(currentGameState: GameState):
    """Default evaluation for the search agents: the game score."""
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    """Shared set-up: Pacman's index, the evaluation function and the depth."""

    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        # evalFn and depth may arrive as strings from the command line
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    """Plain minimax; one ply = Pacman and then every ghost once."""

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
    """Minimax with alpha-beta pruning (prunes only on strict inequality)."""

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
    """Expectimax: every ghost moves uniformly at random."""

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
    The correct file's evaluation, written as several real students write it:
    everything read through currentGameState.data (the classic GameStateData)
    instead of the getters.
    """
    data = currentGameState.data
    if data._win:
        return 100000 + data.score
    if data._lose:
        return -100000 + data.score

    pos = data.agentStates[0].configuration.pos
    foodGrid = data.food
    foodList = [(x, y) for x in range(data.layout.width)
                for y in range(data.layout.height) if foodGrid[x][y]]
    capsules = data.capsules
    ghostStates = data.agentStates[1:]

    score = float(data.score)
    assert not data.layout.walls.data[pos[0]][pos[1]]  # Pacman never stands in a wall

    if foodList:
        closestFood = min(manhattanDistance(pos, food) for food in foodList)
        score += 10.0 / (closestFood + 1)
    score -= 4 * len(foodList)
    score -= 20 * len(capsules)

    for ghost in ghostStates:
        dist = manhattanDistance(pos, ghost.configuration.pos)
        if ghost.scaredTimer > dist:
            score += 200.0 / (dist + 1)
        elif dist < 2:
            score -= 300
        elif dist < 4:
            score -= 30.0 / dist

    return score


# short name for -a evalFn=better
better = betterEvaluationFunction
