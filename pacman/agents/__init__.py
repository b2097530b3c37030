"""The policies: how moves are chosen. Searches, evaluations, Pacman agents, ghosts, the registry.

This layer imports only the game core. Each name below is loaded on first use
(`pacman.lazy`), so `from pacman.agents import AlphaBetaAgent` costs only what that agent needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pacman.lazy import lazy_exports

if TYPE_CHECKING:
    from pacman.agents.anytime import AnytimeDecision, iterative_search
    from pacman.agents.base import BaseAgent
    from pacman.agents.evaluation import WeightedEvaluation, resolve_evaluation
    from pacman.agents.expectiminimax_agent import ExpectiminimaxAgent
    from pacman.agents.ghosts import AdversarialGhost, DirectionalGhost, GhostAgent, RandomGhost
    from pacman.agents.maxn_ghost import MaxnGhost
    from pacman.agents.mcts import MCTSAgent, MCTSDecision, mcts_search
    from pacman.agents.mcts_ghosts import GhostMCTSDecision, MCTSGhost, ghost_mcts_search
    from pacman.agents.multiplayer import expectiminimax, maxn
    from pacman.agents.noisy_hunter import InformedExpectimaxAgent, NoisyHunterGhost
    from pacman.agents.pacman_agents import (
        AlphaBetaAgent,
        ExpectimaxAgent,
        IterativeAlphaBetaAgent,
        IterativeExpectimaxAgent,
        MinimaxAgent,
        SearchAgent,
    )
    from pacman.agents.registry import AGENTS, make_agent, register
    from pacman.agents.search import alphabeta, expectimax, minimax
    from pacman.agents.search_core import Decision, SearchState
    from pacman.agents.settings import AgentSettings, setting
    from pacman.agents.simple import GreedyAgent, RandomAgent, ReflexAgent
    from pacman.agents.team_ghosts import TeamGhost
    from pacman.agents.trace import SearchTrace, traced_search

__all__ = [
    # searches: pure functions over a SearchState, returning a Decision
    "SearchState", "Decision", "minimax", "alphabeta", "expectimax", "traced_search",
    "SearchTrace", "iterative_search", "AnytimeDecision", "maxn", "expectiminimax",
    "mcts_search", "MCTSDecision", "ghost_mcts_search", "GhostMCTSDecision",
    # evaluations
    "resolve_evaluation", "WeightedEvaluation",
    # Pacman agents
    "RandomAgent", "GreedyAgent", "ReflexAgent", "MinimaxAgent", "AlphaBetaAgent",
    "ExpectimaxAgent", "IterativeAlphaBetaAgent", "IterativeExpectimaxAgent",
    "ExpectiminimaxAgent", "InformedExpectimaxAgent", "MCTSAgent", "SearchAgent",
    # ghosts
    "GhostAgent", "RandomGhost", "DirectionalGhost", "AdversarialGhost", "TeamGhost",
    "NoisyHunterGhost", "MaxnGhost", "MCTSGhost",
    # writing an agent: typed settings
    "BaseAgent", "AgentSettings", "setting",
    # names to agents
    "AGENTS", "make_agent", "register",
]

_HOMES = {
    "SearchState": "pacman.agents.search_core", "Decision": "pacman.agents.search_core",
    "minimax": "pacman.agents.search", "alphabeta": "pacman.agents.search",
    "expectimax": "pacman.agents.search", "traced_search": "pacman.agents.trace",
    "SearchTrace": "pacman.agents.trace", "iterative_search": "pacman.agents.anytime",
    "AnytimeDecision": "pacman.agents.anytime", "maxn": "pacman.agents.multiplayer",
    "expectiminimax": "pacman.agents.multiplayer",
    "resolve_evaluation": "pacman.agents.evaluation",
    "WeightedEvaluation": "pacman.agents.evaluation",
    "RandomAgent": "pacman.agents.simple", "GreedyAgent": "pacman.agents.simple",
    "ReflexAgent": "pacman.agents.simple", "MinimaxAgent": "pacman.agents.pacman_agents",
    "AlphaBetaAgent": "pacman.agents.pacman_agents",
    "ExpectimaxAgent": "pacman.agents.pacman_agents",
    "IterativeAlphaBetaAgent": "pacman.agents.pacman_agents",
    "IterativeExpectimaxAgent": "pacman.agents.pacman_agents",
    "SearchAgent": "pacman.agents.pacman_agents",
    "MCTSAgent": "pacman.agents.mcts", "MCTSDecision": "pacman.agents.mcts",
    "mcts_search": "pacman.agents.mcts",
    "MCTSGhost": "pacman.agents.mcts_ghosts", "GhostMCTSDecision": "pacman.agents.mcts_ghosts",
    "ghost_mcts_search": "pacman.agents.mcts_ghosts",
    "ExpectiminimaxAgent": "pacman.agents.expectiminimax_agent",
    "InformedExpectimaxAgent": "pacman.agents.noisy_hunter",
    "NoisyHunterGhost": "pacman.agents.noisy_hunter",
    "GhostAgent": "pacman.agents.ghosts", "RandomGhost": "pacman.agents.ghosts",
    "DirectionalGhost": "pacman.agents.ghosts", "AdversarialGhost": "pacman.agents.ghosts",
    "TeamGhost": "pacman.agents.team_ghosts", "MaxnGhost": "pacman.agents.maxn_ghost",
    "BaseAgent": "pacman.agents.base", "AgentSettings": "pacman.agents.settings",
    "setting": "pacman.agents.settings",
    "AGENTS": "pacman.agents.registry", "make_agent": "pacman.agents.registry",
    "register": "pacman.agents.registry",
}

__getattr__, __dir__ = lazy_exports(__name__, _HOMES)
