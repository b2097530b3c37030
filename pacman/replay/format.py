"""The replay file format: what a replay file holds, its digest, and writing it.

A replay file is one JSON object: `GameRecord.to_dict()` plus `format` (`FORMAT`,
"pacman-replay"), `format_version` (`FORMAT_VERSION`), `package_version` (the pacman that
wrote it), `layout_text` (the maze itself, so a replay needs neither the layout file nor the
agents), `num_ghosts` and `digest`. `save_replay` writes it with `json.dumps(..., indent=1)`
and a final newline, refusing NaN and infinities.

**The digest** is `{"algorithm": "sha256", "fields": {name: hex, ...}}` with one entry per
field of `DIGEST_FIELDS`, everything the game itself determines: `layout`, `layout_text`,
`num_ghosts`, `seed`, `agents`, `outcome`, `score`, `pacman_moves`, `actions`, `fault_agent`,
`fault`, `pacman_nodes`. An entry is `field_digest(name, value)`: the SHA-256 of the UTF-8 text
`"pacman-replay <name> <canonical JSON of value>"`, where the canonical JSON (`canonical_json`)
has its keys sorted, separators `,` and `:`, ASCII only and no NaN. The values hashed are the
ones the file holds (what `json.loads` reads back from what `json.dumps` writes), so a reader
can check each field on its own. `INFORMATIONAL_FIELDS` (`package_version`, `think_time`,
`pacman_move_times`, `pacman_traces`) are measurements and provenance, not results: the digest
leaves them out.

The digest makes edits evident, not impossible: it is a plain hash that whoever edits the file
could recompute. Reading a file strictly is `pacman.replay.reader`; checking it against the
rules and the digest is `pacman.replay.verify`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pacman.layout import Layout
from pacman.record import GameRecord
from pacman.release import RELEASE

FORMAT = "pacman-replay"
FORMAT_VERSION = 1
DIGEST_ALGORITHM = "sha256"
#: the fields the digest covers: everything the game itself determines
DIGEST_FIELDS = ("layout", "layout_text", "num_ghosts", "seed", "agents", "outcome", "score",
                 "pacman_moves", "actions", "fault_agent", "fault", "pacman_nodes")
#: fields shown but never checked: measurements and provenance
INFORMATIONAL_FIELDS = ("package_version", "think_time", "pacman_move_times", "pacman_traces")


def canonical_json(value: Any) -> str:
    """The JSON text the digest hashes: sorted keys, no spaces, ASCII, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)


def field_digest(name: str, value: Any) -> str:
    """The SHA-256 (hex) of one field's JSON value, bound to the field's name."""
    text = f"{FORMAT} {name} {canonical_json(value)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def make_digest(data: Mapping[str, Any]) -> dict[str, Any]:
    """The `digest` entry of a replay dict: one SHA-256 per field of `DIGEST_FIELDS`."""
    return {"algorithm": DIGEST_ALGORITHM,
            "fields": {name: field_digest(name, data[name]) for name in DIGEST_FIELDS}}


def replay_dict(record: GameRecord, layout: Layout, num_ghosts: int) -> dict[str, Any]:
    """The JSON-ready replay of a finished game, with its digest."""
    data: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                            "package_version": RELEASE}
    data.update(record.to_dict())
    data["layout_text"] = layout.text
    data["num_ghosts"] = num_ghosts
    # what json.dumps writes and json.loads reads back: the digest is of the file's values
    data["digest"] = make_digest(json.loads(canonical_json({k: data[k] for k in DIGEST_FIELDS})))
    return data


def save_replay(path: str | Path, record: GameRecord, layout: Layout,
                num_ghosts: int | None = None) -> Path:
    """Write a game's replay as JSON; returns the path."""
    path = Path(path)
    if num_ghosts is None:
        num_ghosts = len(record.agents) - 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay_dict(record, layout, num_ghosts), indent=1,
                               allow_nan=False) + "\n", encoding="utf-8")
    return path


def replay_file_name(index: int, seed: int) -> str:
    """The file name of game `index` (1-based) in a `--record-dir`."""
    return f"game-{index:03d}-seed-{seed}.json"
