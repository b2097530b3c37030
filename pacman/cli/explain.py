"""`pacman explain`: the search tree behind a move, as text, an HTML page or an SVG picture.

Three sources: a tree test case (`CASE.test`, with its reference search and, with --agents, a
student's agent beside it), a replay's Pacman move (`game.json --move N`: the recorded Pacman
agent's search re-run on the state before that move) and a position (`--layout NAME` or a
`.lay` file: its start position). A replay's move by an MCTS Pacman has no tree to draw: it is
shown by its root statistics (`pacman.cli.explain_mcts`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeAlias, TypeVar

from pacman.agents.search_core import MAX_SEARCH_MOVES
from pacman.cli.options import positive_int
from pacman.errors import UsageError

if TYPE_CHECKING:
    from pacman.agents.search_core import ActionGenerator, ChanceModel, SearchState, SearchTrace
    from pacman.cli.explain_mcts import MCTSMove
    from pacman.cli.options import Commands
    from pacman.game_tree import TreeState
    from pacman.grading.cases.parser import TreeCase
    from pacman.state import GameState

#: the kind of state a problem searches: a game's `GameState`, or a tree case's `TreeState`
State = TypeVar("State", bound="SearchState")

DESCRIPTION = """\
Show the tree a search explores, node by node: each node's value, the alpha-beta window it was
searched with, and each cut with the moves it never generated.

sources:
  pacman explain CASE.test                  an autograder tree case (with its .solution): the
                                            reference search for the case's algorithm
  pacman explain game.json --move 12        Pacman's search before its 12th move in a replay
                                            (method, depth and evaluation from the recorded
                                            agent, e.g. "AlphaBetaAgent depth=2 better"; an
                                            MCTS agent's root visits and means, searched again
                                            with a playout or node budget)
  pacman explain --layout smallClassic      a layout's start position (a .lay file places
                                            Pacman and the ghosts anywhere)

The text tree is printed by default. --html FILE writes a self-contained page (no network):
the tree drawn with shapes by node kind, stepping forward and back through the algorithm
(buttons or arrow keys), minimax, alpha-beta and expectimax on the same tree side by side,
and collapsed subtrees that open on a click. --svg FILE writes a static picture for slides,
headed by the lines the text view prints first (the move, the chosen action and its value,
nodes generated, evaluations, cuts and moves pruned).
With --agents on a tree case, that file's agent runs on the case too: nodes it did not
generate, or generated beyond the solution, are marked (in the page, side by side with the
expected search) and the first difference is named; the exit status is then 1."""

_METHODS = {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta",
            "ExpectimaxAgent": "expectimax"}
_METHOD_CHOICES = ("minimax", "alphabeta", "expectimax")
DEFAULT_MAX_NODES = 5000
DEFAULT_MAX_SHOWN = 120


def add_parser(commands: Commands) -> None:
    """The `explain` subcommand."""
    explain = commands.add_parser(
        "explain", help="show the search tree behind a move: a tree test case, a replay's "
                        "move or a position (text, HTML page, SVG)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    explain.add_argument("source", nargs="?", default=None, metavar="CASE.test|GAME.json",
                         help="a tree test case, or a replay with --move")
    explain.add_argument("--agents", default=None, metavar="FILE.py",
                         help="with a tree case: also run this file's agent for the case's "
                              "algorithm (a CS188 multiAgents.py works) and mark where it departs")
    explain.add_argument("--move", type=positive_int, default=None, metavar="N",
                         help="with a replay: explain Pacman's N-th move (1 = the first)")
    explain.add_argument("--layout", default=None, metavar="NAME|FILE.lay",
                         help="explain Pacman's first move at this layout's start position")
    explain.add_argument("--ghosts", type=positive_int, default=None, metavar="N",
                         help="with --layout: keep only the first N ghosts")
    explain.add_argument("--method", choices=_METHOD_CHOICES, default=None,
                         help="the search (default: the recorded agent's; alphabeta for a "
                              "layout)")
    explain.add_argument("--depth", type=positive_int, default=None,
                         help="search depth in plies of all agents (default: the recorded "
                              "agent's; 2 for a layout); depth x agents is at most "
                              f"{MAX_SEARCH_MOVES}")
    explain.add_argument("--evaluation", default=None, metavar="NAME",
                         help="evaluation function, e.g. score or better (default: the "
                              "recorded agent's; better for a layout)")
    explain.add_argument("--compare", action="store_true",
                         help="also run minimax, alpha-beta and expectimax on the same tree and "
                              "print their totals (the HTML page always compares)")
    explain.add_argument("--html", default=None, metavar="FILE",
                         help="write the interactive tree page (self-contained HTML)")
    explain.add_argument("--svg", default=None, metavar="FILE",
                         help="write the tree as a static SVG picture, headed by the text "
                              "view's summary lines")
    explain.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES,
                         metavar="N", help="record at most N nodes of each search (the rest "
                                           f"is only counted; default {DEFAULT_MAX_NODES})")
    explain.add_argument("--max-shown", type=positive_int, default=DEFAULT_MAX_SHOWN,
                         metavar="N", help="draw at most N nodes before collapsing subtrees "
                                           f"(the page opens them on a click; default "
                                           f"{DEFAULT_MAX_SHOWN})")


@dataclass
class Problem(Generic[State]):
    """A position to search and how: what every source comes down to."""

    title: str
    root: Callable[[], State]  # a fresh root state (a tree case's counts its own run)
    method: str
    depth: int
    evaluate: Callable[[State], float]
    actions: ActionGenerator | None = None
    chance: ChanceModel | None = None
    label: Callable[[State], str] | None = None
    context: list[str] = field(default_factory=list)


#: what a source comes down to: a position of a game, or a tree case's tree
Explainable: TypeAlias = "Problem[GameState] | Problem[TreeState]"


def search(problem: Explainable, method: str, max_nodes: int) -> SearchTrace:
    """The tree `method` searches on the problem; a search that cannot run is a UsageError."""
    from pacman.agents.trace import traced_search
    from pacman.game_tree import TreeError

    try:
        decision = traced_search(method, problem.root(), problem.depth, problem.evaluate,
                                 actions=problem.actions,
                                 chance=problem.chance if method == "expectimax" else None,
                                 max_nodes=max_nodes, label=problem.label)
    except (TreeError, ValueError) as error:
        raise UsageError(f"{problem.title}: the search cannot run: {error}") from None
    assert decision.trace is not None
    return decision.trace


def run(args: argparse.Namespace) -> int:
    """`pacman explain`: print the tree (and write the page or picture); 1 when a student's
    agent departs from the solution."""
    from pacman.agents.trace import format_tree, summary_line

    found, case = _problem(args)
    if args.agents is not None and case is None:
        raise UsageError("--agents needs a tree case (CASE.test)")
    if not isinstance(found, Problem):
        return _run_mcts(args, found)
    problem: Explainable = found
    trace = search(problem, problem.method, args.max_nodes)
    student = None
    if args.agents is not None and case is not None:
        from pacman.grading.side_by_side import compare_student

        student = compare_student(case, args.agents)
    methods = list(_METHOD_CHOICES)
    traces = {problem.method: trace}
    if args.compare or args.html:
        for method in methods:
            if method not in traces:
                traces[method] = search(problem, method, args.max_nodes)
    for line in problem.context:
        print(line)
    print(format_tree(trace, student.notes if student else {}))
    if args.compare:
        print("compared on the same tree:")
        for method in methods:
            print("  " + summary_line(traces[method]))
    if student is not None:
        for line in student.summary:
            print(line)
    if args.html:
        from pacman.web.tree_page import render_page, view_data

        views = []
        for method in methods:
            view = view_data(traces[method].to_json(), _TITLES[method],
                             max_shown=args.max_shown)
            view["primary"] = method == problem.method
            views.append(view)
        page = render_page(problem.title, views, heading=" ".join(problem.context),
                           student=None if student is None else student.page_data())
        _write(args.html, page)
        print(f"wrote {args.html}")
    if args.svg:
        from pacman.web.tree_page import render_svg

        _write(args.svg, render_svg(trace.to_json(), max_shown=args.max_shown,
                                    title=f"{problem.title}: {_TITLES[problem.method]}",
                                    summary=summary_lines(problem, trace)))
        print(f"wrote {args.svg}")
    return 0 if student is None or student.passed else 1


_TITLES = {"minimax": "minimax", "alphabeta": "alpha-beta", "expectimax": "expectimax"}


def summary_lines(problem: Explainable, trace: SearchTrace) -> list[str]:
    """The lines the text view prints first, before the tree: the problem's context (for a
    replay, the move, the recorded agent and how it is searched) and the search in one line
    (`pacman.agents.trace.summary_line`: the chosen move and its value, nodes generated,
    evaluations, cuts and moves pruned). The SVG picture carries the same lines."""
    from pacman.agents.trace import summary_line

    return [*problem.context, summary_line(trace)]


def _run_mcts(args: argparse.Namespace, move: MCTSMove) -> int:
    """`pacman explain` of an MCTS move: its root statistics as text (no tree to draw)."""
    from pacman.cli.explain_mcts import explain_mcts

    drawn = [flag for flag, value in (("--html", args.html), ("--svg", args.svg),
                                      ("--compare", args.compare)) if value]
    if drawn:
        raise UsageError(f"{move.title}: {', '.join(drawn)} draw{'s' if len(drawn) == 1 else ''}"
                         " a tree search's nodes, and MCTS keeps none (only each root move's "
                         "visits and mean value); add --method alphabeta (or minimax, "
                         "expectimax) to search this position with a tree search")
    lines, status = explain_mcts(move)
    for line in lines:
        print(line)
    return status


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _problem(args: argparse.Namespace) -> tuple[Explainable | MCTSMove, TreeCase | None]:
    """The problem of the command line, and the tree case if it is one."""
    given = [name for name, value in (("a file", args.source), ("--layout", args.layout))
             if value is not None]
    if len(given) != 1:
        raise UsageError("give one thing to explain: CASE.test, GAME.json --move N, or "
                         "--layout NAME" if not given else
                         "give either a file or --layout, not both")
    if args.layout is not None:
        if args.move is not None:
            raise UsageError("--move goes with a replay file, not --layout")
        return _position_problem(args), None
    if args.ghosts is not None:
        raise UsageError("--ghosts goes with --layout")
    if args.source.endswith(".json") or args.move is not None:
        if args.move is None:
            raise UsageError(f"{args.source}: a replay needs --move N (Pacman's N-th move)")
        return _replay_problem(args), None
    from pacman.grading.cases.parser import load_case

    case = load_case(args.source)
    if any(v is not None for v in (args.method, args.depth, args.evaluation)):
        raise UsageError("--method, --depth and --evaluation go with a replay or a layout; a "
                         "tree case has its own")
    return _case_problem(args.source, case), case


def _case_problem(path: str, case: TreeCase) -> Problem[TreeState]:
    from pacman.game_tree import TreeRun, tree_evaluation

    method = _METHODS.get(case.alg)
    if method is None:
        raise UsageError(f"{path}: cannot explain alg {case.alg!r} (one of "
                         f"{', '.join(_METHODS)})")
    return Problem(path, lambda: TreeRun(case.tree).root(), method, case.depth,
                   tree_evaluation, label=lambda state: str(state.node))


def _position_problem(args: argparse.Namespace) -> Problem[GameState]:
    from pacman import GameState
    from pacman.layout import load_layout

    layout = load_layout(args.layout)  # LayoutError (a PacmanError): the CLI's one line
    state = GameState.initial(layout, args.ghosts)  # --ghosts is at least 1
    if state.is_terminal():
        raise UsageError(f"{args.layout}: the start position is already won or lost")
    method = args.method or "alphabeta"
    depth = args.depth or 2
    evaluation = args.evaluation or "better"
    evaluate = _evaluation(evaluation)
    return Problem(f"{layout.name} start", lambda: state, method, depth, evaluate,
                   context=[f"{layout.name}, start position: Pacman at "
                            f"{state.agent_position(0)}; {method}, depth {depth}, "
                            f"evaluation {evaluation}"])


def _evaluation(name: str) -> Callable[[GameState], float]:
    from pacman.agents.evaluation import resolve_evaluation
    from pacman.agents.pacman_agents import score_evaluation

    if name == "score":
        return score_evaluation
    try:
        function = resolve_evaluation(name)
    except (ValueError, ImportError, AttributeError) as error:
        raise UsageError(f"--evaluation {name}: {error}") from None

    def checked(state: GameState) -> float:
        try:
            value = function(state)
        except Exception as error:  # the user's function: its failure is a usage error
            raise UsageError(f"evaluation {name} failed: {type(error).__name__}: "
                             f"{error}") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UsageError(f"evaluation {name} returned {type(value).__name__}, not a "
                             "number")
        return float(value)
    return checked


def _replay_problem(args: argparse.Namespace) -> Problem[GameState] | MCTSMove:
    from pacman.replay import load_replay, replay_states

    path = args.source
    try:
        replay = load_replay(path)
        states = replay_states(replay)
    except OSError as error:
        raise UsageError(f"{path}: {error.strerror or error}") from None
    agents = states[0].num_agents
    moves = len(range(0, len(replay.record.actions), agents))
    index = (args.move - 1) * agents
    if args.move > moves or index >= len(states) - 1:
        raise UsageError(f"{path}: Pacman made {moves} move{'' if moves == 1 else 's'}, "
                         f"there is no move {args.move}")
    state = states[index]
    recorded = replay.record.actions[index]
    description = replay.record.agents[0] if replay.record.agents else ""
    settings = _described(description)
    from pacman.cli.replay import printable

    if args.method is None and settings.get("class") == "MCTSAgent":
        from pacman.cli.explain_mcts import MCTSMove

        if args.depth is not None or args.evaluation is not None:
            raise UsageError("--depth and --evaluation go with --method (a tree search): an "
                             "MCTS move is searched again with its recorded settings")
        return MCTSMove(f"{Path(path).name} move {args.move}",
                        printable(f"{Path(path).name}, Pacman's move {args.move} (recorded: "
                                  f"{recorded}) by {description}"),
                        replay, states, index, description)
    method = args.method or _METHODS.get(settings.get("class", ""))
    depth = args.depth or _int(settings.get("depth"))
    evaluation = args.evaluation or settings.get("evaluation")
    if method is None or depth is None or evaluation is None:
        missing = [flag for flag, value in (("--method", method), ("--depth", depth),
                                            ("--evaluation", evaluation)) if value is None]
        raise UsageError(f"{path}: Pacman was {description or 'not described'!r}, so its "
                         f"search is unknown: give {', '.join(missing)}")
    actions = chance = None
    if settings.get("allow_stop") == "False":
        from pacman.agents.search_core import actions_without_stop

        actions = actions_without_stop
    if settings.get("ghost_model") == "directional":
        from pacman.agents.ghosts import directional_distribution

        chance = directional_distribution
    evaluate = _evaluation(evaluation)
    return Problem(f"{Path(path).name} move {args.move}", lambda: state, method, depth,
                   evaluate, actions=actions, chance=chance,
                   context=[printable(f"{Path(path).name}, Pacman's move {args.move} "
                                      f"(recorded: {recorded}) by {description}; searched "
                                      f"with {method}, depth {depth}, evaluation "
                                      f"{evaluation}")])


def _described(description: str) -> dict[str, str]:
    """An agent's one-line description (`AlphaBetaAgent depth=2 better`) as settings: the
    class, `key=value` words, and the one bare word, the evaluation."""
    words = description.split()
    settings: dict[str, str] = {"class": words[0]} if words else {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if sep:
            settings[key] = value
        elif "evaluation" not in settings:
            settings["evaluation"] = word
    return settings


def _int(text: str | None) -> int | None:
    """A recorded `depth=N`: ASCII digits only (`isdigit` alone takes `٣` as 3)."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text) or None
