"""Draw the headline's margins: the lecture's pattern on every family layout and every image.

    python scripts/assumptions_margins.py [--games 100] [-o results/assumptions.db]
        [--png docs/assumptions-margins.png]

Plays (or resumes: a full store plays nothing) `pacman assumptions --symmetries` on the whole
family, then draws one column per layout with a point per image (the layout turned and
mirrored): its `pattern_margin`, the smallest of the four win-rate margins, in points of win
rate. A filled point is an image where the whole pattern holds; an open one, an image where
some condition fails (a margin below 0, a capped Minimax game, a non-negative average score
of Expectimax against the hunter, or Expectimax slower against the random ghost). Prints the
per-layout figures as a Markdown table for docs/assumptions.md. Needs matplotlib (the `plots`
extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pacman.experiments import headline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("-o", "--out", default="results/assumptions.db")
    parser.add_argument("--png", default="docs/assumptions-margins.png")
    parser.add_argument("-j", "--jobs", type=int, default=None)
    args = parser.parse_args()
    layouts = [image for name in headline.LAYOUTS for image in headline.images(name)]
    tables, result = headline.run(args.games, layouts=layouts, store=args.out, jobs=args.jobs)
    print(f"{result.stored} games played, {result.already} already stored")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 4.2), dpi=110)
    print("| layout | images where the pattern holds | smallest margin (image, cell) | "
          "largest margin |")
    print("|---|---|---|---|")
    by_family = headline.families(tables)
    for column, name in enumerate(headline.LAYOUTS):
        images = by_family[name]
        margins = [(headline.pattern_margin(t.cells), t) for t in images]
        for (margin, _), table in margins:
            holds = not table.failures()
            axes.scatter(column, margin * 100, s=36, zorder=3,
                         facecolors="tab:blue" if holds else "none",
                         edgecolors="tab:blue" if holds else "tab:red")
        (low, where), weakest = min(margins, key=lambda pair: pair[0][0])
        high = max(margin for (margin, _), _ in margins)
        holding = sum(not table.failures() for table in images)
        print(f"| `{name}` | {holding} of {len(images)} | {low * 100:+.0f} "
              f"(`{weakest.layout}`, {where}) | {high * 100:+.0f} |")
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xticks(range(len(headline.LAYOUTS)),
                    [name.replace("assumptions-", "") for name in headline.LAYOUTS],
                    rotation=20)
    axes.set_ylabel("margin of the pattern (points of win rate)")
    axes.set_title(f"Assumptions vs. Reality on every layout and image, {args.games} games "
                   "per cell (open: the pattern fails)")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    Path(args.png).parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(args.png)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
