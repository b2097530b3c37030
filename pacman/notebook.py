"""Games in a Jupyter notebook: a record shown inline as the replay viewer, a game played live.

One job: the notebook's view of games. `record_html(record)` is the replay viewer
(`pacman.web.replay_page`, the page `pacman replay G.json --html` writes) as an HTML fragment
for a notebook's output: the whole page sits in an `<iframe srcdoc="...">` with
`sandbox="allow-scripts"`, so its style, its script and its element ids live in a document of
their own (several records in one notebook do not meet, nor do they touch the notebook), and
the page's content security policy forbids every outside request (no server, no network: it
works offline and in a saved notebook). Importing this module in an IPython kernel (or
`%load_ext pacman.notebook`) registers `record_html` as the HTML form of every `GameRecord`
with IPython's display formatter, so a record is shown this way; the record itself, in the game
core, knows nothing of notebooks. `show(record, layout)` does it for a record whose layout is
not a shipped one (the record names its layout; the viewer needs the maze itself).

`play(...)` plays one game in the notebook's process, as `pacman play -q` does with the same
arguments (same seed, same game: same record), and returns its `GameRecord`. Inside a Jupyter
kernel it is live: one output area shows the game as it goes (the window's own drawing,
`pacman.display.render`, as a PNG every `every` Pacman moves) and ends as the replay viewer.
Anywhere else it only returns the record. IPython is needed only for the live view; nothing
here prints.
"""

from __future__ import annotations

import base64
import html
import io
import os
import sys
import time
from typing import TYPE_CHECKING, Any

from pacman.display.protocol import MoveInfo
from pacman.errors import PacmanError, UsageError
from pacman.layout import Layout, load_layout
from pacman.record import GameRecord

if TYPE_CHECKING:
    from pacman.state import GameState

__all__ = ["DEFAULT_MAX_MOVES", "LiveFrames", "Viewer", "load_ipython_extension", "play",
           "record_html", "show"]

#: Pacman's move cap when none is given: `pacman play`'s default
DEFAULT_MAX_MOVES = 3000
#: the longest wait after a live frame (`play(frame_time=...)`), as `pacman play --frame-time`
_MOST_FRAME_TIME = 60.0
#: the viewer's height in pixels (`play(height=...)`)
_LEAST_HEIGHT, _MOST_HEIGHT = 100, 10_000
#: the marker on the element that holds a viewer (tests and styles find it by this class)
VIEWER_CLASS = "pacman-replay"
_MIN_HEIGHT, _MAX_HEIGHT = 560, 1100


def record_html(record: GameRecord, layout: Layout | None = None, *,
                height: int | None = None) -> str:
    """The replay viewer of `record` as a self-contained HTML fragment for a notebook.

    The fragment is `<div class="pacman-replay"><iframe sandbox="allow-scripts" srcdoc=...>`
    holding the whole replay page (the maze, the agents, the search panel of traced moves,
    the scrub bar), HTML-escaped into the attribute. It loads nothing from outside.

    Args:
        record: the game.
        layout: its maze; None loads `record.layout` by name (a shipped layout, `NAME@SYMMETRY`
            or a layout file that is still there).
        height: the frame's height in CSS pixels; None: from the maze's shape (560 to 1100).

    Returns:
        The fragment; never raises: a record that cannot be drawn gives a one-paragraph
        fragment `<p class="pacman-replay-error">` saying why (e.g. a layout not found by
        name, with the way out: `pacman.notebook.show(record, layout)`).
    """
    try:
        from pacman.replay import Replay
        from pacman.web.replay_page import build_replay_page

        if layout is None:
            try:
                layout = load_layout(record.layout)
            except PacmanError:
                return _error_html(f"cannot show this game: its layout {record.layout!r} is "
                                   "neither a shipped layout nor a layout file here (a record "
                                   "names its layout): show it with "
                                   "pacman.notebook.show(record, layout)")
        num_ghosts = len(record.agents) - 1
        if num_ghosts < 0:
            return _error_html("cannot show this game: the record names no agent")
        if num_ghosts > len(layout.ghost_starts):
            return _error_html(f"cannot show this game: it has {num_ghosts} ghosts, layout "
                               f"{layout.name} has {len(layout.ghost_starts)} ghost starts")
        page = build_replay_page(Replay(layout, num_ghosts, record))
        pixels = _height(layout, num_ghosts) if height is None else int(height)
    except Exception as error:  # shown in a notebook's output: a message, never a traceback
        return _error_html(f"cannot show this game: {type(error).__name__}: {error}")
    title = html.escape(f"Pacman replay: {record.layout}, seed {record.seed}", quote=True)
    return (f"<div class=\"{VIEWER_CLASS}\"><iframe title=\"{title}\" "
            f"sandbox=\"allow-scripts\" srcdoc=\"{html.escape(page, quote=True)}\" "
            f"style=\"width:100%;height:{pixels}px;border:0;display:block;"
            "background:#05060c\"></iframe></div>")


def _height(layout: Layout, num_ghosts: int) -> int:
    """A frame height that shows the maze, its controls and the agents table without a
    scroll bar in a notebook about 1,000 pixels wide (the maze column is 640 to 760 wide)."""
    maze = 640 * layout.height / max(1, layout.width)
    return int(min(_MAX_HEIGHT, max(_MIN_HEIGHT, 390 + maze + 30 * num_ghosts)))


def load_ipython_extension(ipython: Any) -> None:
    """Show every `GameRecord` as the replay viewer in `ipython` (`%load_ext pacman.notebook`;
    importing this module in a running IPython does it too)."""
    ipython.display_formatter.formatters["text/html"].for_type(GameRecord, record_html)


def _register_in_running_ipython() -> None:
    """`load_ipython_extension` for the IPython this module is imported in, if any."""
    found = sys.modules.get("IPython")
    shell = getattr(found, "get_ipython", lambda: None)() if found is not None else None
    if shell is not None and getattr(shell, "display_formatter", None) is not None:
        load_ipython_extension(shell)


def _error_html(message: str) -> str:
    return f"<p class=\"pacman-replay-error\">{html.escape(message)}</p>"


class Viewer:
    """A record with its layout, shown in a notebook as the replay viewer (`record_html`)."""

    def __init__(self, record: GameRecord, layout: Layout | None = None,
                 height: int | None = None) -> None:
        self.record, self.layout, self.height = record, layout, height

    def _repr_html_(self) -> str:
        return record_html(self.record, self.layout, height=self.height)


def show(record: GameRecord, layout: Layout | str | None = None, *,
         height: int | None = None) -> Viewer:
    """The replay viewer of `record` as a notebook output (the last line of a cell shows it).

    Args:
        record: the game.
        layout: its maze, or a layout name or file; None: the one `record.layout` names.
        height: the frame's height in pixels (None: from the maze's shape).

    Returns:
        A `Viewer`: its `_repr_html_` is `record_html(record, layout, height=height)`.

    Raises:
        LayoutError: `layout` is a name or file that cannot be loaded.
    """
    if isinstance(layout, str):
        layout = load_layout(layout)
    return Viewer(record, layout, height)


# --------------------------------------------------------------------- playing live
class LiveFrames:
    """A display (`pacman.display.protocol.Display`) that draws the game into one notebook
    output: a PNG of the position (the window's drawing, with its status lines) at the start,
    after every `every`-th Pacman move's round and at the end of the game, then the replay
    viewer in its place.

    `publish(html)` shows or replaces the output (`IPython.display`'s display handle in
    `play`); a frame that cannot be drawn as a picture is the text board in `<pre>`.
    """

    def __init__(self, publish: Any, layout: Layout, *, every: int = 1, zoom: float = 1.0,
                 frame_time: float = 0.0, height: int | None = None) -> None:
        self.publish, self.layout, self.every = publish, layout, every
        self.zoom, self.frame_time, self.height = zoom, frame_time, height
        self.frames = 0  # frames shown so far (the viewer not counted)
        self._agents: tuple[str, ...] = ()
        self._renderer: Any = None

    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Show the start position."""
        self._agents = agents
        self._show(state, None)

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Show the position after the last agent's move of every `every`-th round."""
        if move.agent == state.num_agents - 1 and move.pacman_moves % self.every == 0:
            self._show(state, move)

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Replace the frames with the replay viewer of the finished game."""
        self.publish(record_html(record, self.layout, height=self.height))

    def _show(self, state: GameState, move: MoveInfo | None) -> None:
        self.publish(self.frame_html(state, move))
        self.frames += 1
        if self.frame_time > 0:
            time.sleep(self.frame_time)

    def frame_html(self, state: GameState, move: MoveInfo | None = None) -> str:
        """One position as `<img src="data:image/png;base64,...">` (the text board in `<pre>`
        if it cannot be drawn)."""
        try:
            return self._png_html(state, move)
        except Exception:  # no pygame font or video: the board as text still shows the game
            return (f"<pre class=\"pacman-frame\" style=\"line-height:1.1\">"
                    f"{html.escape(str(state))}</pre>")

    def _png_html(self, state: GameState, move: MoveInfo | None) -> str:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner in the output
        import pygame

        from pacman.display.render import Renderer

        if self._renderer is None:
            self._renderer = Renderer(self.layout, self.zoom)
        frame = self._renderer.render(state, self._agents, move)
        height, width = frame.shape[:2]
        surface = pygame.image.frombytes(frame.tobytes(), (width, height), "RGB")
        buffer = io.BytesIO()
        pygame.image.save(surface, buffer, "frame.png")
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        return (f"<img class=\"pacman-frame\" alt=\"the game\" width=\"{width}\" "
                f"height=\"{height}\" style=\"max-width:100%;height:auto\" "
                f"src=\"data:image/png;base64,{data}\">")


def _kernel_publisher() -> Any:
    """A function that shows or replaces one output of the running Jupyter kernel, or None
    outside a kernel (no IPython, a plain script, or the terminal IPython, which cannot show
    HTML)."""
    import importlib

    try:  # typed Any: IPython is optional, and so are its type hints
        ipython: Any = importlib.import_module("IPython")
        shown: Any = importlib.import_module("IPython.display")
    except ImportError:
        return None
    shell = ipython.get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    handle = shown.display(shown.HTML("<p>starting the game...</p>"), display_id=True)

    def publish(markup: str) -> None:
        handle.update(shown.HTML(markup))

    return publish


def play(pacman: str = "expectimax", ghosts: str = "DirectionalGhost",
         layout: str | Layout = "smallClassic", *, seed: int = 0,
         num_ghosts: int | None = None, max_moves: int | None = DEFAULT_MAX_MOVES,
         trace: bool = False, move_time_limit: float | None = None,
         game_time_limit: float | None = None, isolation: str = "process",
         live: bool | None = None, every: int = 1, frame_time: float = 0.0,
         zoom: float = 1.0, height: int | None = None) -> GameRecord:
    """Play one game and return its record; in a Jupyter kernel, show it live as it goes.

    The game is the one `pacman play -q -p NAME -a SETTINGS -g GHOST -l LAYOUT --seed SEED`
    plays (same record): the agents are built the same way (`pacman.hosting.local`), with the
    same ghost count rule and move cap.

    Args:
        pacman: the Pacman as the command line names it, with settings after `@` as
            `pacman batch -p` writes them: `"expectimax"`, `"expectimax@depth=3"`,
            `"alphabeta@depth=2,evaluation=better"`, `"my_agents.py:MyAgent"`. Not
            `keyboard` (a notebook cell has no keyboard for it).
        ghosts: the ghosts' agent, the same way (`"DirectionalGhost@prob_attack=0.9"`).
        layout: a layout name (`smallClassic`, `NAME@SYMMETRY`), a `.lay` file, or a `Layout`.
        seed: the game's seed (a whole number >= 0), as `--seed`.
        num_ghosts: how many ghosts (None: all the layout has; more are cut to that), as `-k`.
        max_moves: the cap on Pacman's moves (`capped` outcome); None or 0: no cap.
        trace: record each Pacman move's search (`--trace`), shown in the viewer's panel
            (the minimax, alphabeta, expectimax and mcts agents).
        move_time_limit: seconds per move, as `--timeout` (the soft, in-process limit of
            `run_game`); None: none.
        game_time_limit: seconds for the whole game, as `--game-timeout`; None: none.
        isolation: `process` (an agent of the user's runs in a process of its own, as in
            `pacman play`) or `none`.
        live: show the game as it goes; None: only inside a Jupyter kernel. True outside one
            is a UsageError.
        every: a frame after every `every`-th Pacman move (>= 1).
        frame_time: seconds to wait after each frame (0: as fast as the agents play).
        zoom: the frames' scale (1.0 is the window's 30 pixels a cell).
        height: the viewer's height in pixels (None: from the maze).

    Returns:
        The game's `GameRecord` (it shows itself as the replay viewer in a notebook).

    Raises:
        PacmanError: a bad name, setting, layout or number, as one line (`RegistryError`,
            `SettingsError`, `LayoutError`, `LimitError`, `UsageError`).
    """
    from pacman.agents.registry import accepts_setting, agent_class
    from pacman.hosting.local import build_agents, play_built
    from pacman.layout import check_playable, ghosts_in_play
    from pacman.limits import TimeLimits
    from pacman.specs import AgentSpec, GameSpec

    # every argument's type and range first: a wrong one is one line (a UsageError, a
    # LimitError for the time limits), never a TypeError from deep inside
    _check_whole("seed", seed, 0, 2**63 - 1)
    _check_whole("every", every, 1)
    if num_ghosts is not None:
        _check_whole("num_ghosts", num_ghosts, 0)
    if max_moves is not None:
        _check_whole("max_moves", max_moves, 0)
    limits = TimeLimits(move=move_time_limit, game=game_time_limit)  # LimitError if wrong
    if isinstance(frame_time, bool) or not isinstance(frame_time, (int, float)) or not (
            0 <= frame_time <= _MOST_FRAME_TIME):
        raise UsageError(f"frame_time must be seconds from 0 to {_MOST_FRAME_TIME:g}, got "
                         f"{_shown(frame_time)}")
    if isinstance(zoom, bool) or not isinstance(zoom, (int, float)) or not 0.25 <= zoom <= 8:
        raise UsageError(f"zoom must be a number from 0.25 to 8, got {_shown(zoom)}")
    if height is not None:
        _check_whole("height", height, _LEAST_HEIGHT, _MOST_HEIGHT)
    for name, flag in (("trace", trace), ("live", live)):
        if not isinstance(flag, bool) and not (name == "live" and flag is None):
            allowed = "True, False or None" if name == "live" else "True or False"
            raise UsageError(f"{name} must be {allowed}, got {_shown(flag)}")
    if not isinstance(layout, (str, Layout)):
        raise UsageError("layout must be a layout name (\"smallClassic\"), a .lay file or a "
                         f"Layout, got {_shown(layout)}")
    the_layout = layout if isinstance(layout, Layout) else load_layout(layout)
    pacman_name, pacman_settings = _agent(pacman, "pacman")
    ghost_name, ghost_settings = _agent(ghosts, "ghosts", "ghost")
    if pacman_name.lower() in ("keyboard", "keyboardagent"):
        raise UsageError("the keyboard agent needs the window: in a notebook, name an agent "
                         "(e.g. pacman=\"expectimax@depth=2\")")
    if trace:
        if not accepts_setting(pacman_name, "pacman", "trace"):
            raise UsageError(f"trace: {agent_class(pacman_name, 'pacman').__name__} does not "
                             "trace its search (the minimax, alphabeta, expectimax and mcts "
                             "agents do)")
        pacman_settings = {**pacman_settings, "trace": True}
    ghost_count = ghosts_in_play(the_layout, num_ghosts, clamp=True)
    check_playable(the_layout, ghost_count)
    spec = GameSpec.of(the_layout, AgentSpec.of(pacman_name, pacman_settings),
                       AgentSpec.of(ghost_name, ghost_settings), ghost_count, seed,
                       max_moves=max_moves or None,
                       limits=limits)
    publish = _kernel_publisher() if live is not False else None
    if live and publish is None:
        raise UsageError("live=True needs a Jupyter kernel (with IPython); leave live unset "
                         "to get the record without a live view")
    pacman_agent, ghost_agents = build_agents(spec, isolation)
    display = None if publish is None else LiveFrames(
        publish, the_layout, every=every, zoom=zoom, frame_time=frame_time, height=height)
    return play_built(spec, pacman_agent, ghost_agents, display=display)


def _agent(text: str, what: str, role: str | None = None) -> tuple[str, dict[str, Any]]:
    """`NAME@k=v,k=v` as (the registry's name, typed settings), as `pacman batch -p` reads it."""
    from pacman.agents.registry import resolve_name
    from pacman.settings_text import parse_settings, split_agent

    if not isinstance(text, str):
        raise UsageError(f"{what} must be an agent name such as \"expectimax@depth=2\", got "
                         f"{type(text).__name__}")
    name, settings = split_agent(text)
    return resolve_name(name, role or what, None), parse_settings(settings)


def _check_whole(name: str, value: Any, low: int, high: int | None = None) -> None:
    """A whole number (not a bool) from `low` (to `high`), else a one-line `UsageError`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        wanted = f">= {low}" if high is None else f"from {low} to {high}"
        raise UsageError(f"{name} must be a whole number {wanted}, got {_shown(value)}")


def _shown(value: Any) -> str:
    """A wrong argument in a one-line message: its repr, cut short; a type's name for a value
    whose repr says little or is long (a list, an object)."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else \
            f"a whole number of {len(str(abs(value)))} digits"
        return text if len(text) <= 60 else text[:57] + "..."
    kind = type(value).__name__
    return f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind}"


_register_in_running_ipython()
