"""`pacman bound LAYOUT`: the best chance any Pacman has to win the layout, or a bound on it."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from pacman.cli.options import DEFAULT_MAX_MOVES, non_negative_int, number_in, positive_int

if TYPE_CHECKING:
    from pacman.cli.options import Commands

#: the most positions `pacman bound` values before it calls a layout too big to count
DEFAULT_POSITIONS = 1_000_000
#: the most `--positions` can ask for (each position takes about 800 bytes)
MOST_POSITIONS = 10_000_000


def add_parser(commands: Commands) -> None:
    """The `bound` subcommand."""
    bound = commands.add_parser(
        "bound", help="the best chance any Pacman has to win a layout, exactly where it can "
                      "be counted, else an upper bound",
        description="The highest probability with which any Pacman agent wins LAYOUT against "
                    "ghosts of known move probabilities: exact where every position of the "
                    "game can be valued, else an upper bound (the chance of surviving the "
                    "fewest moves that eat every dot).")
    bound.add_argument("layout", metavar="LAYOUT", help="a layout name or .lay file")
    bound.add_argument("-k", "--num-ghosts", dest="num_ghosts", type=non_negative_int,
                       default=None, help="number of ghosts (default: all the layout has)")
    bound.add_argument("-g", "--ghosts", default="DirectionalGhost",
                       choices=("DirectionalGhost", "RandomGhost"),
                       help="the ghosts' kind (default: DirectionalGhost)")
    bound.add_argument("--max-moves", type=positive_int, default=DEFAULT_MAX_MOVES,
                       help=f"the game's cap in Pacman moves (default: {DEFAULT_MAX_MOVES:,}, "
                            "as pacman play)")
    bound.add_argument("--positions", type=number_in(1, MOST_POSITIONS, int),
                       default=DEFAULT_POSITIONS,
                       metavar="N", help="value at most N positions exactly (default: "
                                         f"{DEFAULT_POSITIONS:,}); a bigger game gets a bound")


def run(args: argparse.Namespace) -> int:
    """`pacman bound`: one line with the number, one with the reason."""
    from pacman.chase.bound import chase_bound, exact_win_chance
    from pacman.layout import check_playable, ghosts_in_play, load_layout

    layout = load_layout(args.layout)
    ghosts = ghosts_in_play(layout, args.num_ghosts, clamp=True)
    check_playable(layout, ghosts)
    against = f"{ghosts} {args.ghosts}{'s' if ghosts != 1 else ''}"
    found = exact_win_chance(layout, ghosts, args.ghosts, max_moves=args.max_moves,
                             limit=args.positions)
    if found is not None:
        exact = f" ({found.fraction})" if found.fraction is not None else ""
        print(f"{layout.name}, {against}: the best chance of a win is "
              f"{found.chance:.10g}{exact}")
        print(f"  {found.reason}")
        return 0
    if not ghosts:
        print(f"{layout.name}, no ghosts: more than {args.positions:,} positions, too many to "
              "count exactly (and without a ghost there is no chase to bound it)")
        return 0
    bound = chase_bound(layout, ghosts, args.ghosts)
    if bound.holds:
        print(f"{layout.name}, {against}: the best chance of a win is at most "
              f"{bound.chance:.10g}")
    else:
        print(f"{layout.name}, {against}: the best chance of a win is not known; the chase "
              f"alone gives {bound.chance:.10g}")
    print(f"  {bound.reason}; the game itself has more than {args.positions:,} positions, "
          "too many to count exactly")
    return 0
