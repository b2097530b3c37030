"""The live view's page: the replay viewer's markup and script, plus the live controls.

`build_live_page(state, games)` is the page `pacman play --ui web` serves. It is the replay
viewer (`pacman.web.replay_page.viewer_body`, `assets/replay.js`, `assets/replay.css`) showing
the game's initial state, with a bar of live controls above it and `assets/live.js`, which
follows the server's event stream (`pacman.web.live`) and sends the page's commands. Its
content security policy lets it talk to its own server (`connect-src 'self'`) and nothing
else: no other request leaves the page.

One job: the live page's markup; the server and the game's side are in `pacman.web.live`.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from pacman.web.page import inline_asset, page_shell
from pacman.web.replay_data import start_data
from pacman.web.replay_page import viewer_body

if TYPE_CHECKING:
    from pacman.state import GameState

__all__ = ["LIVE_CONTENT_SECURITY_POLICY", "SPEEDS", "build_live_page"]

#: the page may load nothing but what its own server sends (its events and commands)
LIVE_CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; "
                                "style-src 'unsafe-inline'; img-src data:; "
                                "connect-src 'self'; base-uri 'none'; form-action 'none'")

#: seconds per move the speed menu offers (0: as fast as the agents play)
SPEEDS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)

_BAR = """\
<div id="live-bar">
  <span id="live-state" class="live-state" role="status">connecting&hellip;</span>
  <button id="live-pause" type="button" title="pause or go on (space)">pause</button>
  <button id="live-step" type="button" title="one move while paused: Pacman's and the \
ghosts' replies (n)">step</button>
  <label for="live-speed">speed</label>
  <select id="live-speed" title="seconds per move (+/-)">{speeds}</select>
  <button id="live-restart" type="button" title="the same game again, same seed (r)">\
restart</button>
  <button id="live-stop" type="button" title="stop the games (q)">stop</button>
  <label for="live-games">show</label>
  <select id="live-games" title="the game being played, or a finished one to scrub">\
<option value="live">the game being played</option></select>
  <span id="live-game" class="label"></span>
</div>
<p id="live-hint" class="hint">space: pause &middot; n: step &middot; +/-: speed &middot; \
r: restart &middot; q: stop{keys}</p>"""


def _speed_label(seconds: float) -> str:
    return "max speed" if seconds == 0 else f"{seconds:g} s/move"


def build_live_page(state: GameState, games: int = 1, keyboard: bool = False,
                    frame_time: float = 0.1) -> str:
    """The live page of a run, as text.

    Args:
        state: the first game's initial state (the maze and the agents' starts drawn).
        games: how many games the run plays (`-n`), for the header.
        keyboard: Pacman is played from the page (arrows and WASD steer it).
        frame_time: the seconds per move selected at first (added to the menu if missing).

    Returns:
        A whole HTML page (`page_shell`) whose script finds its server from its own address.
    """
    data = start_data(state, ())
    speeds = sorted(set(SPEEDS) | {frame_time})
    options = "".join(f"<option value=\"{s:g}\"{' selected' if s == frame_time else ''}>"
                      f"{html.escape(_speed_label(s))}</option>" for s in speeds)
    keys = " &middot; arrows/WASD: steer Pacman, x: stop him" if keyboard else ""
    bar = _BAR.format(speeds=options, keys=keys)
    body = bar + "\n" + viewer_body(data, state.layout, "waiting",
                                    f"for the first of {games} game(s)")
    return page_shell(f"Pacman live: {state.layout.name}", body,
                      css=inline_asset("replay.css") + "\n" + inline_asset("live.css"),
                      js=inline_asset("replay.js") + "\n" + inline_asset("live.js"),
                      data=data, data_id="replay-data", csp=LIVE_CONTENT_SECURITY_POLICY)
