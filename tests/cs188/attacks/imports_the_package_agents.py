# Hand in the package's own search agents as this file's classes.
try:
    from pacman.agents.pacman_agents import AlphaBetaAgent as _A
    from pacman.agents.pacman_agents import ExpectimaxAgent as _E
    from pacman.agents.pacman_agents import MinimaxAgent as _M
    print("ATTACK imports_the_package_agents: imported them")
except ImportError as _error:
    print(f"ATTACK imports_the_package_agents: {type(_error).__name__}")
    _M = _A = _E = None
