"""Replays: a game saved as JSON, read strictly, re-simulated through the rules and played back.

One module per job:

- `format`: what a replay file holds, its per-field SHA-256 digest, and writing it
  (`save_replay`, `replay_dict`, `replay_file_name`);
- `reader`: reading a file strictly (`load_replay`, `decode_json`, `parse_replay`) into a
  `Replay`; a file that is not JSON, not a replay, or has a field of the wrong type is a
  one-line `ReplayError`;
- `verify`: the recorded actions played again and every field checked against them and the
  digest (`verify` -> `Verdict` with its `Difference`s; `replay_states`); a readable file that
  does not add up is a `Verdict`, never an exception;
- `playback`: scripted agents that make the recorded moves, so `run_game` shows a replay.

This is game core: it depends only on the layout, state, rules, record and display protocol
modules, never on agents, experiments, grading or the CLI. The names below are its API.
"""

from pacman.errors import ReplayError
from pacman.replay.format import (
    DIGEST_ALGORITHM,
    DIGEST_FIELDS,
    FORMAT,
    FORMAT_VERSION,
    INFORMATIONAL_FIELDS,
    field_digest,
    make_digest,
    replay_dict,
    replay_file_name,
    save_replay,
)
from pacman.replay.playback import ScriptedAgent, scripted_agents
from pacman.replay.reader import Difference, Replay, decode_json, load_replay, parse_replay
from pacman.replay.verify import SIMULATED_FIELDS, Verdict, replay_states, verify

__all__ = [
    # the file format and writing it (format)
    "FORMAT", "FORMAT_VERSION", "DIGEST_ALGORITHM", "DIGEST_FIELDS", "INFORMATIONAL_FIELDS",
    "field_digest", "make_digest", "replay_dict", "save_replay", "replay_file_name",
    # reading a file strictly (reader)
    "ReplayError", "Replay", "Difference", "load_replay", "decode_json", "parse_replay",
    # re-simulating and checking it (verify)
    "SIMULATED_FIELDS", "Verdict", "verify", "replay_states",
    # playing it back (playback)
    "ScriptedAgent", "scripted_agents",
]
