"""The `pacman` command: the only place that reads argv and prints.

One module per command (`COMMANDS`), each with `add_parser(commands)` and `run(args)`; this
module builds the parser, imports only the command that runs (so `pacman --version` or
`pacman play` loads nothing of `batch` or `grade`), and turns every user mistake (a
`PacmanError`) into one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType

from pacman.cli.options import Parser, parse_settings
from pacman.errors import PacmanError, UsageError
from pacman.interrupts import mark_user_interrupts
from pacman.suggest import did_you_mean

__all__ = ["COMMANDS", "UsageError", "build_parser", "main", "parse_settings"]

#: each command: the module of `pacman.cli` that holds it, and the function that runs it. The
#: listing order is the order of `pacman --help`.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("play", "run"), "layouts": ("layouts", "run"), "agents": ("agents", "run"),
    "grade": ("grade", "run"), "explain": ("explain", "run"), "replay": ("replay", "run"),
    "batch": ("batch", "run"), "compare": ("compare", "run"),
    "tournament": ("tournament", "run"), "tune": ("tune", "run"),
    "table": ("table", "run_table"), "plot": ("table", "run_plot"), "store": ("store", "run"),
    "export": ("export", "run"), "assumptions": ("assumptions", "run"), "demo": ("demo", "run"),
    "bound": ("bound", "run"),
}


def _module(name: str) -> ModuleType:
    return import_module(f"pacman.cli.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: of every subcommand, or with `only`, of that one alone (a command
    imports what it needs only when it is the one that runs; `--version` needs none)."""
    from pacman import __version__

    parser = Parser(prog="pacman", description="The classic Pacman multi-agent environment.")
    parser.add_argument("--version", action="version", version=f"pacman {__version__}")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    if only == "--version":  # prints the version and exits: no command is needed
        modules = []
    elif only in COMMANDS:
        modules = [COMMANDS[only][0]]
    else:  # `pacman --help`, or a command to say is unknown: all of them
        modules = list(dict.fromkeys(module for module, _ in COMMANDS.values()))
    for module in modules:
        _module(module).add_parser(commands)
    return parser


def _check_command(name: str) -> None:
    """A misspelled command with a close one (`plya`): a UsageError suggesting it. Else
    argparse says the name is no command, listing them (one line: `Parser.error`)."""
    hint = did_you_mean(name, COMMANDS)
    if hint:
        raise UsageError(f"unknown command {name!r} {hint}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `pacman` console script."""
    mark_user_interrupts()
    warnings.formatwarning = _one_line_warning
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "play")  # the classic `python pacman.py -p ... -l ...` habit
    try:
        if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
            _check_command(argv[0])
        parser = build_parser(argv[0] if argv else None)
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        module, function = COMMANDS[args.command]
        run: Callable[[argparse.Namespace], int] = getattr(_module(module), function)
        from pacman.hosting.isolation import not_dumpable

        not_dumpable()  # it referees games of agent code: nothing of the user's may read it
        return run(args)
    except PacmanError as error:  # every user-facing error: one line, exit 2
        print(f"pacman: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pacman: interrupted", file=sys.stderr)
        return 130
    except RuntimeError as error:
        # Python wraps an exception raised while it sets up a class (`__set_name__`, as when
        # a Ctrl-C lands while the standard library imports `platform`) in a RuntimeError
        if not isinstance(error.__cause__, KeyboardInterrupt):
            raise
        print("pacman: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str,
                      lineno: int, line: str | None = None) -> str:
    """A warning as the command line shows it: one line, as its errors are."""
    text = " ".join(str(message).split())
    return f"pacman: warning: {text}\n"


if __name__ == "__main__":
    sys.exit(main())
