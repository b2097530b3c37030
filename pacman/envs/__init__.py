"""Reset/step environments for RL libraries: a Gymnasium env and PettingZoo AEC/Parallel envs.

Needs the `envs` extra (`pip install '.[envs]'` in a clone). Importing this package
registers the Gymnasium id `pacman/Pacman-v0`, so `gymnasium.make("pacman.envs:pacman/Pacman-v0")`
works from any process. See docs/envs.md.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (the extra installs both; fail early and in one line)
except ImportError as _error:  # pragma: no cover - exercised in a subprocess by the tests
    from pacman.extras import install_command

    raise ImportError(f"pacman.envs needs the envs extra ({_error.name} is missing): "
                      f"{install_command('envs')}") from None

from pacman.envs.common import ACTIONS, NUM_CHANNELS, HeadlessWindowWarning

ENV_ID = "pacman/Pacman-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="pacman.envs.gym_env:PacmanEnv")

from pacman.envs.gym_env import PacmanEnv  # noqa: E402
from pacman.envs.pz_env import PacmanAECEnv, PacmanParallelEnv, env, parallel_env  # noqa: E402

__all__ = ["ACTIONS", "ENV_ID", "NUM_CHANNELS", "HeadlessWindowWarning", "PacmanAECEnv",
           "PacmanEnv", "PacmanParallelEnv", "env", "parallel_env"]
