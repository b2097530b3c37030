"""How much the window slows a game: moves/s with no display vs the window at frame time 0.

Plays the same seeded games on a layout (random Pacman, random ghosts, a move cap) four ways:
no display (`-q`), the window at `--frame-time 0` (it draws at most 60 frames a second and
skips the rest), the window drawing every move, and the off-screen renderer (`--gif` path).
Uses the real display when DISPLAY is set (e.g. under `xvfb-run`), else SDL's dummy driver.

    python scripts/bench_display.py [--layout mediumClassic] [--games 10] [--moves 300]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pacman import GameState, load_layout, run_game
from pacman.agents.ghosts import RandomGhost
from pacman.agents.simple import RandomAgent
from pacman.display.protocol import Display, NullDisplay


def play(layout_name: str, games: int, moves: int, display: Display,
         repeat: int = 1) -> tuple[int, float]:
    """(agent moves played, seconds: the best of `repeat` runs) over `games` seeded games."""
    layout = load_layout(layout_name)
    best = float("inf")
    total = 0
    for _ in range(repeat):
        total, started = 0, time.perf_counter()
        for seed in range(games):
            ghosts = [RandomGhost(i + 1) for i in range(len(layout.ghost_starts))]
            record = run_game(layout, RandomAgent(), ghosts, seed=seed, max_moves=moves,
                              display=display)
            total += len(record.actions)
        best = min(best, time.perf_counter() - started)
    return total, best


@contextmanager
def patched_share(share: float) -> Iterator[None]:
    """Let the window spend `share` of the time drawing (1.0: draw every move)."""
    from pacman.display import window
    saved = window.DRAW_SHARE
    window.DRAW_SHARE = share
    try:
        yield
    finally:
        window.DRAW_SHARE = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layout", default="mediumClassic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=300, help="Pacman move cap per game")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N runs")
    args = parser.parse_args()

    from pacman.display.render import Renderer
    from pacman.display.window import DRAW_SHARE, open_window

    driver = os.environ.get("SDL_VIDEODRIVER") or f"x11 {os.environ.get('DISPLAY', '')}"
    print(f"{args.layout}, {args.games} games of random agents capped at {args.moves} "
          f"Pacman moves, best of {args.repeat}; video: {driver}")
    rows: list[tuple[str, int, float, int | None]] = []
    play(args.layout, 1, 10, NullDisplay())  # warm-up: the layout's tables are built once
    moves, seconds = play(args.layout, args.games, args.moves, NullDisplay(), args.repeat)
    rows.append(("no display (-q)", moves, seconds, None))
    for label, fps, share in (("window, --frame-time 0", 60.0, DRAW_SHARE),
                              ("window, every move drawn", 1e9, 1.0)):
        window = open_window(frame_time=0.0, end_wait=0, allow_dummy=True, max_fps=fps)
        try:
            play(args.layout, 1, 10, window)  # warm-up: opening the window, the maze
            window.frames_drawn = 0
            with patched_share(share):
                moves, seconds = play(args.layout, args.games, args.moves, window, args.repeat)
            rows.append((label, moves, seconds, window.frames_drawn // args.repeat))
        finally:
            window.close()
    layout = load_layout(args.layout)
    renderer = Renderer(layout)
    state, rng, frames = GameState.initial(layout), random.Random(1), 0
    started = time.perf_counter()
    while frames < 300:
        for agent in range(state.num_agents):
            state = state.successor(agent, rng.choice(state.legal_actions(agent)))
            if state.is_terminal():
                state = GameState.initial(layout)
                break
        renderer.render(state)
        frames += 1
    rows.append(("off-screen render() array", frames, time.perf_counter() - started, frames))

    base = rows[0][1] / rows[0][2]
    print(f"{'':28} {'moves/s':>10} {'slowdown':>9} {'frames/s':>9}")
    for label, count, secs, drawn in rows:
        rate = count / secs
        frames_text = f"{drawn / secs:9.0f}" if drawn is not None else f"{'':9}"
        print(f"{label:28} {rate:10.0f} {base / rate:8.1f}x {frames_text}")


if __name__ == "__main__":
    main()
