"""`pacman play`: games in the window, as text or headless, and the CS188 summary."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pacman.cli.options import (
    DEFAULT_MAX_MOVES,
    add_isolation_option,
    add_output_options,
    check_output_paths,
    make_display,
    non_negative_int,
    number_in,
    parse_settings,
    positive_int,
    seconds,
    seed_int,
    split_agent,
    with_export,
)
from pacman.display.protocol import GameRestart, NullDisplay
from pacman.errors import UsageError
from pacman.layout import check_playable, ghosts_in_play, load_layout
from pacman.limits import TimeLimits
from pacman.record import GameRecord, Outcome

if TYPE_CHECKING:
    from collections.abc import Callable

    from pacman.cli.options import Commands
    from pacman.display.protocol import Display
    from pacman.game import Agent
    from pacman.hosting.watched import WatchedGames
    from pacman.layout import Layout
    from pacman.specs import GameSpec


def add_parser(commands: Commands) -> None:
    """The `play` subcommand and its flags."""
    play = commands.add_parser(
        "play", help="play games (window, text or headless)",
        description="Play games in the window (-t text, -q none) and print the classic "
                    "summary. The classic pacman.py spellings work too: --numGames, "
                    "--agentArgs, --frameTime, -z/--zoom, --textGraphics, "
                    "--quietTextGraphics, --numghosts, --fixRandomSeed, -c. Window keys: "
                    "space pause, n step, +/- speed, r restart, t search panel, v search "
                    "tree (with --trace), q quit.")
    play.add_argument("-l", "--layout", default="mediumClassic",
                      help="layout name or .lay path (default: mediumClassic)")
    play.add_argument("-p", "--pacman", default="keyboard",
                      help="Pacman agent: class name, short name, module:Class, "
                           "file.py:Class, or a class of --agents (default: keyboard); "
                           "NAME@k=v,k=v gives its settings as -a does")
    play.add_argument("-g", "--ghosts", default="RandomGhost",
                      help="ghost agent (default: RandomGhost); NAME@k=v,k=v gives every "
                           "ghost the settings, as --ghost-args k=v,k=v does")
    play.add_argument("--agents", metavar="FILE.py", default=None,
                      help="a file of agent classes (a CS188 multiAgents.py works unmodified): "
                           "-p/-g may then name its classes, e.g. --agents multiAgents.py "
                           "-p MinimaxAgent -a depth=3,evalFn=better")
    play.add_argument("-k", "--num-ghosts", "--numghosts", dest="num_ghosts",
                      type=non_negative_int, default=None,
                      help="number of ghosts (default: all the layout has)")
    play.add_argument("-n", "--num-games", "--numGames", dest="num_games", type=positive_int,
                      default=1)
    play.add_argument("-a", "--agent-args", "--agentArgs", dest="agent_args", default=None,
                      help="Pacman settings k=v,k=v, e.g. depth=3,evaluation=better "
                           "(a classic agent gets them as strings, e.g. evalFn=better)")
    play.add_argument("--ghost-args", action="append", default=None, metavar="[N:]SETTINGS",
                      help="ghost settings k=v,k=v for every ghost; N:k=v,k=v for ghost agent "
                           "N only (Pacman is agent 0, the ghosts 1, 2, ...), over the shared "
                           "ones; repeat the option, e.g. --ghost-args prob_attack=0.5 "
                           "--ghost-args 2:prob_attack=0.9")
    view = play.add_mutually_exclusive_group()
    view.add_argument("-q", "--quiet", "--quietTextGraphics", dest="quiet",
                      action="store_true", help="no display")
    view.add_argument("-t", "--text", "--textGraphics", dest="text", action="store_true",
                      help="text display")
    view.add_argument("--ui", choices=("window", "web"), default="window",
                      help="where to show the game: the pygame window (default) or web: a "
                           "page in your browser, served from 127.0.0.1 only with a secret "
                           "token in its address (for machines with no display: SSH, "
                           "JupyterHub, Codespaces, WSL); the games start when the page opens")
    play.add_argument("--no-browser", action="store_true",
                      help="with --ui web, only print the page's address (default: also open "
                           "it in a browser when this machine shows windows)")
    play.add_argument("-f", "--fix-seed", "--fixRandomSeed", dest="fix_seed",
                      action="store_true", help="the same seed (0) for every game")
    play.add_argument("--seed", type=seed_int, default=None,
                      help="seed of the first game; game i uses seed+i (default: random)")
    add_isolation_option(play)
    play.add_argument("--max-moves", type=non_negative_int, default=DEFAULT_MAX_MOVES,
                      help="cap on Pacman moves: a capped game is recorded as 'capped' "
                           f"(default {DEFAULT_MAX_MOVES}; 0 lifts the cap)")
    play.add_argument("--move-timeout", "--timeout", dest="move_time_limit",
                      type=seconds, default=None,
                      help="seconds allowed per agent move; a slower move is stopped and the "
                           "game recorded as 'timeout'")
    play.add_argument("--game-timeout", dest="game_time_limit", type=seconds,
                      default=None,
                      help="seconds allowed per game; a longer game is stopped and recorded "
                           "as 'timeout'")
    play.add_argument("--frame-time", "--frameTime", dest="frame_time",
                      type=number_in(0, 60), default=0.1,
                      help="seconds per move in the window or text display (default 0.1)")
    play.add_argument("-z", "--zoom", type=number_in(0.25, 8), default=1.0,
                      help="window scale, 0.25 to 8 (default 1.0)")
    play.add_argument("-c", "--catchExceptions", dest="catch_exceptions", action="store_true",
                      help="accepted for habit: agent errors are always caught and recorded "
                           "as the game's 'crash'")
    add_output_options(play)
    play.add_argument("--record", metavar="FILE.json", default=None,
                      help="save the game as a JSON replay (see `pacman replay`)")
    play.add_argument("--trace", action="store_true",
                      help="trace each Pacman move's search: the value of every root move, "
                           "the principal variation, nodes, cuts (a minimax, alphabeta or "
                           "expectimax Pacman; for mcts, each root move's visits and mean). "
                           "The window shows it (t: panel, v: tree "
                           "view); --record/--record-dir keep it in the replay")
    play.add_argument("--record-dir", metavar="DIR", default=None,
                      help="save every game as DIR/game-NNN-seed-S.json")

def student_class_note(resolved: str, given: str, role: str) -> str | None:
    """The one line saying that `given`, the class name of a built-in agent too, is the class
    of a `*gents.py` file of the current folder (`resolve_name`, as the classic `pacman.py`
    plays it), else None."""
    from pacman.agents.registry import registered

    if ":" in given or ":" not in resolved:
        return None
    entry = registered(given, role)
    if entry is None:
        return None
    file = Path(resolved.rpartition(":")[0]).name
    return (f"pacman: note: {given} is {file}'s class here, as python pacman.py plays it "
            f"(the built-in one is -{'p' if role == 'pacman' else 'g'} {entry.short})")


def run(args: argparse.Namespace) -> int:
    """`pacman play`: run games and print the CS188 summary."""
    from pacman.agents.registry import accepts_setting, agent_class, resolve_name
    from pacman.specs import AgentSpec, GameSpec

    check_output_paths(args)
    _take_inline_settings(args)
    layout = load_layout(args.layout)
    if args.agents:  # the names of --agents FILE are read by importing it here: limited
        from pacman.hosting.local import loading
        from pacman.limits import load_limit

        with loading(args.agents, load_limit(args.game_time_limit)):
            pacman_name = resolve_name(args.pacman, "pacman", args.agents)
            ghost_name = resolve_name(args.ghosts, "ghost", args.agents)
    else:
        pacman_name = resolve_name(args.pacman, "pacman", args.agents)
        ghost_name = resolve_name(args.ghosts, "ghost", args.agents)
    pacman_settings = parse_settings(args.agent_args)
    from pacman.cli.ghost_args import parse_ghost_args

    ghost_args = parse_ghost_args(args.ghost_args)
    if args.trace:
        if (args.quiet or args.text) and not args.record and not args.record_dir:
            raise UsageError("--trace keeps each move's search in the replay: add --record "
                             "FILE.json (or --record-dir DIR), or drop -q/-t to see it in the "
                             "window (key t)")
        if not accepts_setting(pacman_name, "pacman", "trace"):
            raise UsageError(f"--trace: {agent_class(pacman_name, 'pacman').__name__} does "
                             "not trace its search (the minimax, alphabeta, expectimax "
                             "and mcts agents do)")
        pacman_settings = {**pacman_settings, "trace": True}
    if args.pacman.lower() in ("keyboard", "keyboardagent") and (args.quiet or args.text):
        raise UsageError("the keyboard agent needs the window: drop -q/-t")
    num_ghosts = ghosts_in_play(layout, args.num_ghosts, clamp=True)
    check_playable(layout, num_ghosts)
    base_seed = 0 if args.fix_seed else args.seed
    if base_seed is None:
        base_seed = int.from_bytes(os.urandom(4), "big") >> 1  # 31 bits, as --seed takes
    if args.record and args.num_games > 1:
        raise UsageError("--record saves one game; use --record-dir DIR with -n")
    pacman_spec = AgentSpec.of(pacman_name, pacman_settings)
    ghost_spec = ghost_args.specs(ghost_name, num_ghosts, layout.name)  # one, or one per ghost

    def game_of(seed: int) -> GameSpec:
        """Game `seed` of this command, as the one game description every host plays."""
        return GameSpec.of(layout, pacman_spec, ghost_spec, num_ghosts, seed,
                           max_moves=args.max_moves or None,
                           limits=TimeLimits(move=args.move_time_limit,
                                             game=args.game_time_limit))

    keyboard = args.pacman.lower() in ("keyboard", "keyboardagent")
    # With a time limit the agents play in a child process that can be stopped (the keyboard
    # agent needs this process's window: it keeps the in-process limits)
    watched = None
    if (args.move_time_limit or args.game_time_limit) and not keyboard:
        from pacman.hosting.watched import WatchedGames

        watched = WatchedGames(isolation=args.isolation)
    try:
        return _play_games(args, layout, num_ghosts, base_seed, game_of, watched, keyboard,
                           (pacman_name, ghost_name))
    finally:
        if watched is not None:
            watched.close()


def _take_inline_settings(args: argparse.Namespace) -> None:
    """`-p NAME@k=v,k=v` and `-g NAME@k=v,k=v`, as `pacman batch` and `compare` take them:
    the part after `@` becomes `-a` (Pacman; giving both is a mistake) or one more shared
    `--ghost-args` (the ghosts; the same key both ways is a mistake, as for two of those)."""
    args.pacman, inline = split_agent(args.pacman)
    if inline is not None and inline.strip():
        if args.agent_args is not None:
            raise UsageError(f"-p {args.pacman}@{inline}: Pacman's settings go after @ or in "
                             "-a, not both")
        args.agent_args = inline
    args.ghosts, inline = split_agent(args.ghosts)
    if inline is not None and inline.strip():
        args.ghost_args = [inline, *(args.ghost_args or [])]


def _play_games(args: argparse.Namespace, layout: Layout, num_ghosts: int, base_seed: int,
                game_of: Callable[[int], GameSpec], watched: WatchedGames | None,
                keyboard: bool, names: tuple[str, str]) -> int:
    """The games of `pacman play`, once its options are known to be good."""
    from pacman.hosting.agent_host import HostedAgent
    from pacman.hosting.local import build_agents, play_built

    pacman_name, ghost_name = names
    # build the agents once before playing: a bad name or setting, or code that does not
    # load in time, is one line before anything; with a time limit they are built in the
    # child (`WatchedGames.check`), and this process never runs the agents' code
    built: tuple[Agent, list[Agent]] | None = None
    if watched is None:
        built = build_agents(game_of(0), args.isolation)
    else:
        watched.check(game_of(0))
    for name, given, role in ((pacman_name, args.pacman, "pacman"),
                              (ghost_name, args.ghosts, "ghost")):
        note = student_class_note(name, given, role)
        if note:
            print(note, file=sys.stderr)
    if layout.unknown_characters:  # notes once the command is known to be good
        print(f"pacman: note: {layout.name}: {' '.join(map(repr, layout.unknown_characters))} "
              "read as empty floor, as the classic loader does", file=sys.stderr)
    if args.catch_exceptions:
        print("pacman: note: -c/--catchExceptions is always on here: an agent's error ends its "
              "game as a recorded 'crash'", file=sys.stderr)
    display = _web_display(args, layout, num_ghosts, keyboard) if args.ui == "web" \
        else make_display(args)
    if _window_failed(args, display) and _browser_accepted():
        display = _web_display(args, layout, num_ghosts, keyboard)
    if args.trace and (args.move_time_limit or args.game_time_limit) and getattr(
            display, "takes_keyboard", False):
        print("pacman: note: with --timeout/--game-timeout the agents play in a child process "
              "and the window's search panel shows no trace (--record keeps them)",
              file=sys.stderr)
    if keyboard and not getattr(display, "takes_keyboard", False):
        raise UsageError("the keyboard agent needs the window, which could not be opened "
                         "(--ui web plays in a browser)")
    display = with_export(display, args)
    records: list[GameRecord] = []
    game = 0
    while game < args.num_games:
        seed = base_seed if args.fix_seed else base_seed + game
        try:
            spec = game_of(seed)
            if watched is not None:
                record = watched.play(spec, display)
            else:
                # the first game plays the agents built above, each next one fresh ones
                pacman, ghosts = built if built is not None else build_agents(
                    spec, args.isolation)
                built = None
                if hasattr(pacman, "attach") and not isinstance(display, NullDisplay):
                    pacman.attach(display)
                record = play_built(spec, pacman, ghosts, display=display)
        except GameRestart:
            continue
        if watched is None:  # what a hosted agent printed, as it would have printed here
            for agent in (pacman, *ghosts):
                if isinstance(agent, HostedAgent):
                    sys.stderr.write(agent.printed())
        records.append(record)
        if args.num_games > 1 or args.quiet:
            fault = f" ({record.fault})" if record.fault else ""
            print(f"game {game + 1}: seed {seed}, {record.outcome.value}, score "
                  f"{record.score}, {record.pacman_moves} moves{fault}")
        game += 1
        _save_replays(args, record, layout, num_ghosts, game)
        failure = getattr(display, "failure", None)  # a --gif/--screenshot not written
        if failure is not None or record.outcome is Outcome.STOPPED or getattr(
                display, "quit_requested", False):
            break
    close = getattr(display, "close", None)
    if callable(close):
        close()
    print(summary(records))
    for written in getattr(display, "written", ()):
        print(f"wrote {written}")
    if args.record_dir and records:
        print(f"recorded {len(records)} game(s) in {args.record_dir}")
    failure = getattr(display, "failure", None)
    if failure is not None:  # the game and its record are kept; the file is one line, exit 2
        raise failure
    return 0


def _web_display(args: argparse.Namespace, layout: Layout, num_ghosts: int,
                 keyboard: bool) -> Display:
    """`--ui web`: the live page's server (`pacman.web.live`), its address printed (and
    opened in a browser if this machine shows windows); returns once a page has opened it."""
    from pacman.state import GameState
    from pacman.web.live import LiveView

    between = 1.0 if args.num_games > 1 and args.frame_time > 0 and not args.no_wait else 0.0
    view = LiveView(GameState.initial(layout, num_ghosts), games=args.num_games,
                    frame_time=args.frame_time, between_games=between, keyboard=keyboard)
    print(f"pacman: watch the game at {view.url} (it starts when the page opens; Ctrl-C stops)",
          flush=True)
    if not args.no_browser and _shows_windows():
        import contextlib
        import webbrowser

        with contextlib.suppress(Exception):  # no browser: the address printed is enough
            webbrowser.open(view.url)
    view.wait_for_page()
    return view


def _window_failed(args: argparse.Namespace, display: Display) -> bool:
    """Whether the window was asked for and could not be opened (text display instead)."""
    from pacman.display.text import TextDisplay

    return args.ui == "window" and not args.quiet and not args.text and isinstance(
        display, TextDisplay)


def _browser_accepted() -> bool:
    """With no window, ask (only someone at a terminal: a script is never kept waiting)
    whether to watch in a browser instead of as text. Enter, `y` or `yes` accept."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        answer = input("pacman: watch in a browser instead (a page served to this machine "
                       "only)? [Y/n] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("", "y", "yes")


def _shows_windows() -> bool:
    """Whether a browser may open a window here (never a text browser in this terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _save_replays(args: argparse.Namespace, record: GameRecord, layout: Layout,
                  num_ghosts: int, index: int) -> None:
    if not args.record and not args.record_dir:
        return
    from pacman.replay import replay_file_name, save_replay
    try:
        if args.record:
            save_replay(args.record, record, layout, num_ghosts)
        if args.record_dir:
            save_replay(os.path.join(args.record_dir, replay_file_name(index, record.seed)),
                        record, layout, num_ghosts)
    except OSError as error:
        raise UsageError(f"cannot save the replay: {error.strerror or error}: "
                         f"{error.filename or ''}".rstrip(": ")) from None


def summary(records: Sequence[GameRecord]) -> str:
    """The familiar CS188 summary lines, plus the outcome counts."""
    if not records:
        return "No games played."
    scores = [r.score for r in records]
    wins = sum(r.won for r in records)
    counts = {o.value: sum(r.outcome is o for r in records) for o in Outcome}
    lines = [
        f"Average Score: {sum(scores) / len(scores)}",
        f"Scores:        {', '.join(f'{float(s)}' for s in scores)}",
        f"Win Rate:      {wins}/{len(records)} ({wins / len(records):.2f})",
        f"Record:        {', '.join('Win' if r.won else 'Loss' if r.outcome is Outcome.LOSS else r.outcome.value.capitalize() for r in records)}",  # noqa: E501
        "Outcomes:      " + ", ".join(f"{name} {n}" for name, n in counts.items() if n),
    ]
    return "\n".join(lines)
