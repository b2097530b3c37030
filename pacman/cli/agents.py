"""`pacman agents`: the shipped agents, and the settings each takes (from its settings class)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.cli.options import Commands


def add_parser(commands: Commands) -> None:
    """The `agents` subcommand."""
    agents = commands.add_parser(
        "agents", help="list the shipped agents, or the settings of one",
        description="Without a name: every shipped agent, its short name and what it does. "
                    "With a name (class or short name; -g for a ghost): the settings it "
                    "takes with -a / --ghost-args, their defaults and meaning. --markdown "
                    "prints every agent's settings as Markdown tables.")
    agents.add_argument("name", nargs="?", default=None, help="an agent's class or short name")
    agents.add_argument("-g", "--ghost", action="store_true",
                        help="the name is a ghost's (random, directional, ...)")
    agents.add_argument("--markdown", action="store_true",
                        help="every agent's settings as Markdown tables (docs/agents.md)")


def run(args: argparse.Namespace) -> int:
    """`pacman agents [NAME]`: the list, or one agent's settings."""
    from pacman.agents.registry import AGENTS, AgentEntry, find_agent, plugin_names

    if args.markdown:
        print(settings_markdown(), end="")
        return 0
    if args.name is None:
        listing = [("role", "class", "short", "what it does")]
        listing += [(e.role, e.class_name, e.short, e.summary) for e in AGENTS]
        listing += [(role, target.rpartition(":")[2], name, f"yours: {target}")
                    for role in ("pacman", "ghost") for name, target in plugin_names(role).items()]
        widths = [max(len(row[i]) for row in listing) for i in range(3)]
        for row in listing:
            print("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3])
        return 0
    found = find_agent(args.name, "ghost" if args.ghost else "pacman")
    if not isinstance(found, AgentEntry):
        raise UsageError(f"{args.name} is not a shipped agent: its settings are its "
                         "__init__'s keyword arguments")
    print(f"{found.class_name} ({found.short}): {found.summary}")
    rows = settings_rows(found.load())
    if not rows:
        print("no settings")
        return 0
    rows.insert(0, ("setting", "default", "meaning"))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for name, default, doc in rows:
        print(f"{name.ljust(widths[0])}  {default.ljust(widths[1])}  {doc}")
    return 0


def settings_rows(cls: type) -> list[tuple[str, str, str]]:
    """(setting, default as typed on the command line, meaning) for each setting of `cls`."""
    from pacman.agents.registry import typed_settings

    typed = typed_settings(cls)
    if typed is None:
        return []
    return [(item.name, _shown(item.default), item.doc) for item in typed.fields()]


def settings_markdown() -> str:
    """Every shipped agent's settings as Markdown: a heading and a table per agent."""
    from pacman.agents.registry import AGENTS

    parts: list[str] = []
    for entry in AGENTS:
        rows = settings_rows(entry.load())
        if not rows:
            continue
        parts.append(f"#### `{entry.class_name}` (`-{'p' if entry.role == 'pacman' else 'g'} "
                     f"{entry.short}`)\n\n| setting | default | meaning |\n|---|---|---|\n")
        parts.append("".join(f"| `{name}` | `{default}` | {doc} |\n"
                             for name, default, doc in rows) + "\n")
    return "".join(parts)


def _shown(value: object) -> str:
    """A default as `-a` takes it: `true`, `0.1`, `score`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
