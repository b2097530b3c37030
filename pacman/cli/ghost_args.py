"""`--ghost-args` as typed: settings for every ghost, and settings for one ghost by its index.

`--ghost-args k=v,k=v` gives every ghost the settings; `--ghost-args N:k=v,k=v` gives them to
the ghost that is agent N of the game only (Pacman is agent 0, the ghosts agents 1 to the number
of ghosts), on top of the shared ones: for that ghost a key given both ways takes the indexed
value. The option may be repeated; the same key twice for the same ghosts (shared, or one index)
is a mistake. Each `k=v,k=v` part is read by `pacman.settings_text.parse_settings`, so values are
typed as `-a` types them. Every mistake here is a `UsageError` (one line, exit 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pacman.cli.options import parse_settings
from pacman.errors import UsageError
from pacman.specs import AgentSpec, Setting

__all__ = ["GhostArgs", "parse_ghost_args"]


@dataclass(frozen=True)
class GhostArgs:
    """The settings of the `--ghost-args` options of one command."""

    #: the settings every ghost gets (`--ghost-args k=v` without an index)
    shared: Mapping[str, Setting] = field(default_factory=dict)
    #: agent index -> the settings only that ghost gets, over `shared`
    by_index: Mapping[int, Mapping[str, Setting]] = field(default_factory=dict)

    def specs(self, name: str, num_ghosts: int, where: str = ""
              ) -> AgentSpec | tuple[AgentSpec, ...]:
        """The ghosts of a game with `num_ghosts` ghosts of class `name`.

        Args:
            name: the ghost agent's resolved name (as `AgentSpec` takes it).
            num_ghosts: how many ghosts play (agents 1 to `num_ghosts`).
            where: the layout's name, for the error message.

        Returns:
            One `AgentSpec` (every ghost alike) when no index was given, else one spec per
            ghost in agent order, each with the shared settings updated by its own.

        Raises:
            UsageError: an index that is not one of this game's ghosts.
        """
        for index in self.by_index:
            if not 1 <= index <= num_ghosts:
                raise UsageError(f"--ghost-args {index}:...: {_no_ghost(index, num_ghosts, where)}")
        if not self.by_index:
            return AgentSpec.of(name, dict(self.shared))
        return tuple(AgentSpec.of(name, {**self.shared, **self.by_index.get(index, {})})
                     for index in range(1, num_ghosts + 1))


def _no_ghost(index: int, num_ghosts: int, where: str) -> str:
    """Why agent `index` is no ghost of a game of `num_ghosts` ghosts."""
    on = f" on {where}" if where else ""
    if num_ghosts == 0:
        playing = f"no ghosts play{on}"
    elif num_ghosts == 1:
        playing = f"1 ghost plays{on} (agent 1)"
    else:
        playing = f"{num_ghosts} ghosts play{on} (agents 1 to {num_ghosts})"
    if index == 0:
        return f"agent 0 is Pacman (its settings go in -a); {playing}"
    return f"there is no ghost {index}: {playing}"


def split_index(text: str) -> tuple[int | None, str]:
    """One `--ghost-args` value as (agent index or None, the `k=v,k=v` settings text).

    The index is a prefix `N:` before the first `=` (a setting's name never holds `:`, while
    a value may, as in `evaluation=score:1,food:-1.5`).

    Raises:
        UsageError: a prefix that is not a whole number, an empty or doubled prefix, nothing
            after the prefix, or a second `N:` inside the same value.
    """
    head = text.partition("=")[0]
    if ":" not in head:
        return None, text
    prefix, _, rest = text.partition(":")
    digits = prefix.strip()
    shown = text if len(text) <= 40 else text[:37] + "..."
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 3:
        named = digits if len(digits) <= 12 else f"{digits[:9]}..."  # int() of 4,300 digits fails
        raise UsageError(f"--ghost-args {shown!r}: {named!r} before ':' is not a ghost's "
                         "agent index: write N:k=v,k=v, N a whole number from 1 to 999 (1 is "
                         "the first ghost)")
    if rest.startswith(":"):
        raise UsageError(f"--ghost-args {shown!r}: one ':' after the index: write "
                         f"{int(digits)}:{rest.lstrip(':')}")
    if not rest.strip():
        raise UsageError(f"--ghost-args {shown!r}: no settings after {digits}: (write "
                         f"{int(digits)}:k=v,k=v)")
    for piece in rest.split(","):
        name = piece.partition("=")[0]
        if "=" in piece and ":" in name and name.partition(":")[0].strip().isdigit():
            raise UsageError(f"--ghost-args {shown!r}: one ghost index per --ghost-args; "
                             "repeat the option for another ghost")
    return int(digits), rest


def parse_ghost_args(texts: str | Sequence[str] | None) -> GhostArgs:
    """The `--ghost-args` values of a command line (one text, several, or none) as `GhostArgs`.

    Raises:
        UsageError: a malformed index prefix (`split_index`), a bad `k=v` piece, or the same
            key given twice for every ghost or twice for the same ghost index.
    """
    if texts is None:
        texts = []
    elif isinstance(texts, str):
        texts = [texts]
    shared: dict[str, Setting] = {}
    by_index: dict[int, dict[str, Setting]] = {}
    for text in texts:
        index, rest = split_index(text)
        settings = parse_settings(rest)
        into = shared if index is None else by_index.setdefault(index, {})
        for key, value in settings.items():
            if key in into:
                whom = "every ghost" if index is None else f"ghost {index}"
                raise UsageError(f"--ghost-args: setting {key!r} given twice for {whom}")
            into[key] = value
    return GhostArgs(shared, by_index)


def has_index(texts: Sequence[str] | None) -> str | None:
    """The first of `texts` that names a ghost by index (`N:k=v`), else None; a malformed
    prefix is a UsageError as in `split_index`."""
    for text in texts or ():
        if split_index(text)[0] is not None:
            return text
    return None
