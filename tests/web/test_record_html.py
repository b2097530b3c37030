"""A `GameRecord` shows itself in a notebook as the replay viewer (registered with IPython's
display formatter by `pacman.notebook`; the record itself knows no notebook): the replay
page itself in a sandboxed `<iframe srcdoc>`, loading nothing; two records in one page are two
viewers that do not meet; a record that cannot be drawn is a short message, never an
exception. The live frames of `pacman.notebook.LiveFrames` change nothing in the game.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pacman import load_layout, parse_layout, run_game
from pacman.agents.registry import make_agent
from pacman.notebook import LiveFrames, record_html, show
from pacman.record import GameRecord
from pacman.replay import Replay
from pacman.web.replay_page import build_replay_page

#: an `src=` or `href=` that would load something from another host
REMOTE = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)

TINY = """\
%%%%%%%
%P.  G%
% %%% %
%.  o.%
%%%%%%%
"""


class Frames(HTMLParser):
    """The iframes of a fragment: their attributes, the srcdoc unescaped."""

    def __init__(self) -> None:
        super().__init__()
        self.iframes: list[dict[str, str | None]] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "iframe":
            self.iframes.append(dict(attrs))


def frames_of(fragment: str) -> Frames:
    parser = Frames()
    parser.feed(fragment)
    parser.close()
    return parser


def game(seed: int, layout: str = "smallClassic", depth: int = 1,
         trace: bool = False) -> GameRecord:
    maze = load_layout(layout)
    settings: dict[str, Any] = {"depth": depth, **({"trace": True} if trace else {})}
    return run_game(maze, make_agent("alphabeta", "pacman", settings),
                    [make_agent("DirectionalGhost", "ghost", index=i) for i in (1, 2)],
                    seed=seed, max_moves=40)


def shown(record: GameRecord) -> str:
    """What an IPython kernel that imported `pacman.notebook` shows of `record`, as HTML."""
    from IPython.core.interactiveshell import InteractiveShell

    from pacman.notebook import load_ipython_extension

    shell = InteractiveShell.instance()
    load_ipython_extension(shell)
    formatted, _ = shell.display_formatter.format(record)
    html: str = formatted["text/html"]
    return html


@pytest.fixture(scope="module")
def records() -> tuple[GameRecord, GameRecord]:
    return game(1, trace=True), game(2)


def test_the_fragment_is_the_replay_page_in_a_sandboxed_frame(
        records: tuple[GameRecord, GameRecord]) -> None:
    record = records[0]
    fragment = shown(record)
    parsed = frames_of(fragment)
    assert parsed.tags == ["div", "iframe"]  # the page is inside the attribute, not markup
    assert fragment.startswith('<div class="pacman-replay"><iframe ')
    [frame] = parsed.iframes
    assert frame["sandbox"] == "allow-scripts"
    page = build_replay_page(Replay(load_layout("smallClassic"), 2, record))
    assert frame["srcdoc"] == page  # the viewer itself, not a copy of it
    assert "<title>Pacman replay: smallClassic" in page and 'id="replay-data"' in page
    assert '"method":"alphabeta"' in page  # the traces reach the search panel
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not REMOTE.search(page) and not REMOTE.search(fragment)
    assert re.search(r"height:(\d+)px", fragment)
    assert record_html(record, height=700).count("height:700px") == 1


def test_two_records_give_two_distinct_fragments(records: tuple[GameRecord, GameRecord]
                                                  ) -> None:
    first, second = (shown(record) for record in records)
    assert first != second
    for fragment in (first, second):
        assert 'id="' not in fragment.split("srcdoc=")[0]  # no id outside the frame to clash


def test_a_record_whose_layout_is_not_found_is_a_message(tmp_path: Path) -> None:
    maze = parse_layout(TINY, "my-maze")
    record = run_game(maze, make_agent("alphabeta", "pacman", {"depth": 1}),
                      [make_agent("random", "ghost", index=1)], seed=0, max_moves=10)
    message = shown(record)
    assert message == ("<p class=\"pacman-replay-error\">cannot show this game: its layout "
                       "&#x27;my-maze&#x27; is neither a shipped layout nor a layout file "
                       "here (a record names its layout): show it with "
                       "pacman.notebook.show(record, layout)</p>")
    viewer = show(record, maze)._repr_html_()
    assert frames_of(viewer).iframes[0]["srcdoc"] == build_replay_page(Replay(maze, 1, record))
    path = tmp_path / "my.lay"
    path.write_text(TINY, encoding="utf-8")
    assert frames_of(show(record, str(path))._repr_html_()).iframes[0]["srcdoc"] \
        == build_replay_page(Replay(load_layout(path), 1, record))


@pytest.mark.parametrize("change", ["no agents", "too many ghosts", "illegal moves",
                                    "impossible agent count"])
def test_a_broken_record_never_raises(records: tuple[GameRecord, GameRecord],
                                      change: str) -> None:
    record = records[1]
    broken = {
        "no agents": dataclasses.replace(record, agents=()),
        "too many ghosts": dataclasses.replace(record, agents=("a",) * 9),
        "illegal moves": dataclasses.replace(record, actions=("North",) * 30),
        "impossible agent count": dataclasses.replace(record, agents=("Pacman",)),
    }[change]
    fragment = shown(broken)
    assert fragment.startswith(("<p class=\"pacman-replay-error\">cannot show this game: ",
                                '<div class="pacman-replay"><iframe ')), fragment
    assert "\n" not in fragment.split("srcdoc=")[0]
    if change == "illegal moves":  # the viewer shows the playable prefix and says why
        assert "incomplete" in frames_of(fragment).iframes[0]["srcdoc"]  # type: ignore[operator]
    if change == "no agents":
        assert fragment == ("<p class=\"pacman-replay-error\">cannot show this game: the "
                            "record names no agent</p>")
    if change == "too many ghosts":
        assert fragment == ("<p class=\"pacman-replay-error\">cannot show this game: it has 8 "
                            "ghosts, layout smallClassic has 2 ghost starts</p>")


def test_live_frames_show_the_game_and_end_with_the_viewer() -> None:
    maze = load_layout("smallClassic")
    shown: list[str] = []

    def agents() -> tuple[Any, list[Any]]:
        return (make_agent("alphabeta", "pacman", {"depth": 1}),
                [make_agent("DirectionalGhost", "ghost", index=i) for i in (1, 2)])

    pacman, ghosts = agents()
    live = LiveFrames(shown.append, maze, every=3, zoom=0.5)
    record = run_game(maze, pacman, ghosts, seed=4, max_moves=20, display=live)
    pacman, ghosts = agents()
    assert record == run_game(maze, pacman, ghosts, seed=4, max_moves=20)  # same game
    rounds = record.pacman_moves if record.outcome.value == "capped" else None
    assert rounds == 20  # the cap: every round was completed
    assert live.frames == 1 + 20 // 3  # the start, then rounds 3, 6, ..., 18
    assert len(shown) == live.frames + 1
    assert all(frame.startswith('<img class="pacman-frame" alt="the game" ')
               and "src=\"data:image/png;base64," in frame for frame in shown[:-1])
    assert shown[-1] == record_html(record, maze)


def test_a_frame_that_cannot_be_drawn_is_the_text_board() -> None:
    from pacman.state import GameState

    maze = load_layout("smallClassic")
    live = LiveFrames(lambda markup: None, maze)
    live._renderer = object()  # no render(): drawing fails
    state = GameState.initial(maze, 2)
    assert live.frame_html(state) == ("<pre class=\"pacman-frame\" style=\"line-height:1.1\">"
                                      f"{str(state).replace('<', '&lt;').replace('>', '&gt;')}"
                                      "</pre>")


def test_two_viewers_in_one_page_work_apart(visit: Any, tmp_path: Path,
                                            records: tuple[GameRecord, GameRecord]) -> None:
    page = tmp_path / "notebook.html"
    page.write_text("<!DOCTYPE html><html><body>" + "".join(
        shown(record) for record in records) + "</body></html>", encoding="utf-8")
    opened = visit.open(page)
    opened.wait_for_function("document.querySelectorAll('iframe').length == 2")
    first, second = opened.frames[1:]
    for frame, record in zip((first, second), records):
        frame.wait_for_selector("#agents-layer > *", state="attached")
        assert frame.evaluate("document.getElementById('moves-total').textContent") \
            == str(len(record.actions))
        assert frame.evaluate("document.querySelectorAll('#maze circle.food').length") == 55
    first.click("#last")
    assert first.evaluate("document.getElementById('move').textContent") \
        == str(len(records[0].actions))
    assert second.evaluate("document.getElementById('move').textContent") == "0"
    assert visit.outside_requests() == []
    assert visit.errors == []


def test_a_viewer_that_fails_to_build_is_a_message(records: tuple[GameRecord, GameRecord],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import pacman.web.replay_page

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(pacman.web.replay_page, "build_replay_page", broken)
    assert shown(records[0]) == ("<p class=\"pacman-replay-error\">cannot show this "
                                        "game: RuntimeError: boom</p>")


def test_the_core_shows_no_html_until_the_notebook_module_is_loaded() -> None:
    """In IPython a record is its repr until `pacman.notebook` is imported (or loaded as an
    extension): then it is the viewer."""
    pytest.importorskip("IPython")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        import pacman
        from pacman.agents.registry import make_agent
        record = pacman.run_game(pacman.load_layout("testClassic"),
                                 make_agent("alphabeta", "pacman", {"depth": 1}),
                                 [make_agent("random", "ghost", index=1)], seed=1)
        import sys
        print("pacman.notebook" in sys.modules, "text/html" in
              shell.display_formatter.format(record)[0])
        import pacman.notebook
        print(shell.display_formatter.format(record)[0]["text/html"][:27])
        fresh = InteractiveShell()
        fresh.run_line_magic("load_ext", "pacman.notebook")
        print(fresh.display_formatter.format(record)[0]["text/html"][:27])
    """)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["False False", '<div class="pacman-replay">',
                                           '<div class="pacman-replay">']
