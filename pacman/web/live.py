"""The live web view (`pacman play --ui web`): a `Display` that serves the game to a browser.

The referee plays in this process exactly as with `-q`; `LiveView` is one more display (as the
window and the text display are, `pacman.display.protocol`). Each of its hooks publishes what
changed to a local web server, and the page (`pacman.web.live_page`: the replay viewer's look)
draws it as it comes:

- `start` sends the game's initial state, `update` each move (the page's step, the dots and
  capsules eaten, the events, Pacman's nodes, time and traced search, stamped with
  `time.time()`), `finish` the whole finished game in the replay viewer's format
  (`pacman.web.replay_data.page_data`), which the page then scrubs. Several games (`-n`) come
  one after another; the page keeps each finished one.
- The page's commands come back as small POSTs: pause, resume, step (one move while paused:
  Pacman's move and the ghosts' replies, as the window's `n`), speed (seconds per move),
  restart (the same game again, same seed: `GameRestart`), stop (`GameStopped`), and the
  keyboard Pacman's keys. Pausing blocks `update` at the end of a round, as the window's pause
  does; the keyboard agent (`pacman.agents.keyboard.KeyboardAgent`) reads the page's keys
  through `take_direction` and `wait_for_direction` with the window's timing rules. A pause
  sent between two games holds: the next game waits at its start (a restart starts unpaused).

The server (standard library only: `http.server.ThreadingHTTPServer`, Server-Sent Events for
the server-to-page stream, plain POSTs for the commands) listens on 127.0.0.1 only, on a free
port the system picks, and answers only requests that carry the run's secret token
(`secrets.token_urlsafe`) in their query, whose Host header is `127.0.0.1:PORT` or
`localhost:PORT` (a page of another site that resolves its name to 127.0.0.1 is refused) and
whose Origin header, if any, is this server's own. Anything else gets 403 and nothing else.

What a client sends is bounded before it is used: a command's body (at most 4096 bytes,
arrays and objects nested at most 8 deep), and every number the server reads (a command's
JSON numbers, `Content-Length`, `Last-Event-ID`) by one strict function, `parse_number`:
ASCII digits, at most 20 characters, finite. A command that breaks a bound is answered with
one line of 400 and changes nothing. A `Last-Event-ID` that is not a whole number of at most
20 digits is ignored: the stream starts from the first event. A client that resets, closes
or stays silent on its connection at any point (its request half sent, before or while the
answer or the event stream is written) costs its own request only: the fault is logged at
debug level (`logging`, logger `pacman.web.live`) and never printed.

Each request has a thread of its own (200 clients at once are each answered: the listen
queue holds 256). `close()` ends it all: it sends the page the end of the run, waits until
the page says it has it (or `grace` seconds, or not at all when no page is connected), stops
the server, wakes every request still open (the event streams end, a half-sent request reads
its end) and joins every thread it started, each request's included. A Ctrl-C ends the
process, and with it the server's threads (daemon threads: they never keep the process alive).

One job: the live display and its server; the page's markup is `pacman.web.live_page`'s.
It is over 500 lines because the display's hooks, the commands and the server that carries
them (with its bounds on what a client sends) share one lock and one event log: split,
each half would reach into the other's state.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import re
import secrets
import socket
import sys
import threading
import time
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from pacman.display.protocol import GameRestart, GameStopped, MoveInfo
from pacman.rules import Direction
from pacman.web.live_page import build_live_page
from pacman.web.replay_data import page_data, start_data, step_change, trace_entry

if TYPE_CHECKING:
    from pacman.record import GameRecord
    from pacman.state import GameState

__all__ = ["GRACE_SECONDS", "LiveView", "parse_number"]

_LOG = logging.getLogger(__name__)

#: how long `close` waits for a connected page to confirm it has the end of the run
GRACE_SECONDS = 5.0
#: a connection that sends nothing for this long is dropped (it cannot hold the server open)
_SOCKET_TIMEOUT = 10.0
#: the longest command body read
_MAX_BODY = 4096
#: the deepest nesting of arrays and objects in a command (a command is one flat object)
_MAX_NESTING = 8
#: the longest number the server reads (a JSON number, Content-Length, Last-Event-ID)
_MAX_NUMBER = 20
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", re.ASCII)
_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_BAD_COMMAND = (f"a command is a JSON object of at most {_MAX_BODY} bytes, nested at most "
                f"{_MAX_NESTING} deep, its numbers of at most {_MAX_NUMBER} characters")
#: how many clients may wait to be accepted (200 at once are each answered)
_QUEUE = 256
#: how long `close` lets open requests end by themselves before it cuts their connections
_CLOSE_WAIT = 1.0
#: how often a blocked wait looks again (a Ctrl-C is handled between two looks)
_TICK = 0.25
_DIRECTIONS = {d.value: d for d in Direction}


def parse_number(text: str, *, whole: bool = False) -> float:
    """The one way the live server reads a number a client sent: a JSON number (`-12.5e3`),
    or with `whole` a non-negative whole number (`Content-Length`, `Last-Event-ID`).

    Only ASCII digits in JSON's grammar (no `+`, `_`, spaces or other scripts' digits), at
    most 20 characters, and a finite value: no text makes a huge integer, an infinite float
    or a long conversion.

    Raises:
        ValueError: anything else.
    """
    if len(text) > _MAX_NUMBER or not (_WHOLE if whole else _NUMBER).fullmatch(text):
        raise ValueError(f"not a number of at most {_MAX_NUMBER} characters")
    if whole:
        return int(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("a number too large")
    return value


def _refuse_constant(name: str) -> float:
    """JSON's extensions NaN and Infinity are no numbers of a command."""
    raise ValueError(f"{name} is not a number")


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in a JSON text (what is inside strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _parse_command(body: bytes) -> dict[str, Any]:
    """A command's body as a JSON object, its nesting and numbers bounded.

    Raises:
        ValueError: anything else (one family for every parse error: bad UTF-8 and JSON,
            nesting too deep, a number out of bounds, another JSON value than an object).
    """
    text = body.decode("utf-8")
    if _nesting(text) > _MAX_NESTING:
        raise ValueError("nested too deep")
    try:
        payload = json.loads(text, parse_int=parse_number, parse_float=parse_number,
                             parse_constant=_refuse_constant)
    except (RecursionError, OverflowError) as error:  # bounded above; kept as the last wall
        raise ValueError(str(error)) from None
    if not isinstance(payload, dict):
        raise ValueError("not an object")
    return payload


class _Server(ThreadingHTTPServer):
    """The HTTP server of one `LiveView`: each request in a daemon thread of its own, tracked
    so that `server_close` joins every one (`ThreadingMixIn` joins no daemon thread)."""

    daemon_threads = True
    allow_reuse_address = False
    request_queue_size = _QUEUE

    def __init__(self, view: LiveView) -> None:
        self._requests: dict[threading.Thread, socket.socket] = {}
        self._requests_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)
        self.view = view

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the request in a new thread, kept until it ends."""
        thread = threading.Thread(target=self.process_request_thread,
                                  args=(request, client_address), daemon=True,
                                  name=f"pacman-live-{self.server_address[1]}-request")
        with self._requests_lock:
            self._requests[thread] = request
        try:
            thread.start()
        except BaseException:
            with self._requests_lock:
                del self._requests[thread]
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """One request's thread (it forgets itself when the request ends)."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._requests_lock:
                self._requests.pop(threading.current_thread(), None)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that raised: never printed. A client's fault (a connection reset,
        closed or silent: every `OSError`) is logged at debug; anything else, a fault of this
        server, is one line at error level (its stack at debug)."""
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            _LOG.debug("live view: a client left (%r)", error)
            return
        _LOG.error("live view: a request failed: %s", repr(error)[:200])
        _LOG.debug("live view: the failed request's stack", exc_info=True)

    def server_close(self) -> None:
        """Close the listening socket, end every open request and join its thread: a request
        still reading gets the end of its input at once, a stream writing has `_CLOSE_WAIT`
        seconds to finish before its connection is cut."""
        super().server_close()
        with self._requests_lock:
            open_requests = list(self._requests.items())
        for _, connection in open_requests:
            with contextlib.suppress(OSError):  # already gone
                connection.shutdown(socket.SHUT_RD)
        deadline = time.monotonic() + _CLOSE_WAIT
        for thread, connection in open_requests:
            thread.join(max(0.0, deadline - time.monotonic()))
            if thread.is_alive():
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                thread.join()


class _Handler(BaseHTTPRequestHandler):
    """One request: refused (403) unless its host, origin and token are the run's own."""

    server: _Server
    timeout = _SOCKET_TIMEOUT
    disable_nagle_algorithm = True  # each event leaves at once
    server_version = "pacman-live"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:
        """`http.server`'s own notes (each request, a request line that timed out, a malformed
        request): at debug level, never printed (the CLI prints, the server does not)."""
        _LOG.debug("live view: " + format, *args)

    def do_GET(self) -> None:
        """The page (`/`) or the event stream (`/events`)."""
        path = self._allowed()
        if path == "/":
            view = self.server.view
            self._send(200, view.page, "text/html; charset=utf-8")
        elif path == "/events":
            self.server.view._stream(self)
        elif path is not None:
            self._send(404, b"not found\n", "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        """A command of the page (`/command`, a JSON object)."""
        path = self._allowed()
        if path is None:
            return
        if path != "/command":
            self._send(404, b"not found\n", "text/plain; charset=utf-8")
            return
        try:
            length = int(parse_number(self.headers.get("Content-Length", ""), whole=True))
            if length > _MAX_BODY:
                raise ValueError("too long")
            payload = _parse_command(self.rfile.read(length))
        except ValueError:  # every parse error of the body (see `_parse_command`)
            self._send(400, _BAD_COMMAND.encode("utf-8") + b"\n", "text/plain; charset=utf-8")
            return
        problem = self.server.view.command(payload)
        if problem is None:
            self._send(204, b"", None)
            if payload.get("command") == "done":
                self.server.view._acknowledge()
        else:
            self._send(400, (problem + "\n").encode("utf-8"), "text/plain; charset=utf-8")

    def _allowed(self) -> str | None:
        """The request's path if its Host, Origin and token are this run's; else None (and
        403 sent)."""
        view = self.server.view
        port = self.server.server_address[1]
        host = self.headers.get("Host", "")
        origin = self.headers.get("Origin")
        parts = urlsplit(self.path)
        tokens = parse_qs(parts.query).get("token", [])
        good_token = len(tokens) == 1 and hmac.compare_digest(
            tokens[0].encode("utf-8"), view.token.encode("utf-8"))
        if host not in (f"127.0.0.1:{port}", f"localhost:{port}") or (
                origin is not None and origin not in (f"http://127.0.0.1:{port}",
                                                      f"http://localhost:{port}")) \
                or not good_token:
            self._send(403, b"forbidden\n", "text/plain; charset=utf-8")
            return None
        return parts.path

    def _send(self, status: int, body: bytes, kind: str | None) -> None:
        self.send_response(status)
        self._common_headers()
        if kind is not None:
            self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def _common_headers(self) -> None:
        from pacman.web.live_page import LIVE_CONTENT_SECURITY_POLICY

        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy",
                         LIVE_CONTENT_SECURITY_POLICY + "; frame-ancestors 'none'")


class LiveView:
    """A `Display` that shows the game in a browser page served from 127.0.0.1 (see the
    module's description). It implements the keyboard agent's `KeyboardSource` too.

    Args:
        state: the first game's initial state (the page draws its maze at once).
        games: how many games the run plays (shown on the page).
        frame_time: seconds per move (per round of Pacman's move and the ghosts' replies),
            as the window's `--frame-time`; the page's speed menu changes it.
        between_games: seconds the finished game stays before the next one starts.
        keyboard: Pacman is played from the page (its hint names the keys).
        grace: the longest `close` waits for a connected page to take the end of the run.
    """

    takes_keyboard = True

    def __init__(self, state: GameState, *, games: int = 1, frame_time: float = 0.1,
                 between_games: float = 0.0, keyboard: bool = False,
                 grace: float = GRACE_SECONDS) -> None:
        self.token = secrets.token_urlsafe(24)
        self.frame_time = frame_time
        self.between_games = between_games
        self.grace = grace
        self.games = games
        self.quit_requested = False
        self.keyboard_mode = False
        #: what the game is blocked on: "paused", "input" (the keyboard Pacman) or None
        self.blocked: str | None = None
        self._state = state
        self._lock = threading.Condition()  # an RLock: a publish may happen under it
        self._log: list[bytes] = []          # every event so far, as sent
        self._clients = 0                    # event streams open now
        self._pages = 0                      # event streams ever opened
        self._acknowledged = False
        self._stopping = False
        self._closed = False
        self._paused = self._step = self._restart = False
        self._direction: Direction | None = None
        self._game = 0
        self._restarting = False
        self._number = 0
        self._pacman_moves = 0
        self._traced = False
        self._food_index: dict[tuple[int, int], int] = {}
        self._capsule_index: dict[tuple[int, int], int] = {}
        self.page = build_live_page(state, games=games, keyboard=keyboard,
                                    frame_time=frame_time).encode("utf-8")
        self._server = _Server(self)
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05},
                                        name=f"pacman-live-{self.port}", daemon=True)
        self._thread.start()
        self._publish("hello", {"games": games})

    @property
    def url(self) -> str:
        """The page's address, token included: `http://127.0.0.1:PORT/?token=...`."""
        return f"http://127.0.0.1:{self.port}/?token={self.token}"

    @property
    def threads(self) -> tuple[threading.Thread, ...]:
        """The server's own thread (each request's thread is joined by `close` too)."""
        return (self._thread,)

    def wait_for_page(self, timeout: float | None = None) -> bool:
        """Block until a page has opened the event stream (or `timeout` seconds).

        Returns:
            True once a page is connected (or has been), False at the timeout.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._pages == 0:
                left = _TICK if deadline is None else min(_TICK, deadline - time.monotonic())
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    # ----------------------------------------------------------------- Display protocol
    def start(self, state: GameState, agents: tuple[str, ...]) -> None:
        """Send the game's initial state; a restarted game keeps its number. A pause sent
        before (between two games) holds: the game waits at its start until a step or resume
        (a restart starts the game again unpaused)."""
        with self._lock:
            if self._restarting:
                self._paused = self._step = False
            self._restart = False
            self._direction = None
            if not self._restarting:
                self._game += 1
            self._restarting = False
            self._state, self._number, self._pacman_moves, self._traced = state, 0, 0, False
            layout = state.layout
            self._food_index = {cell: i for i, cell in enumerate(layout.food)}
            self._capsule_index = {cell: i for i, cell in enumerate(layout.capsules)}
            self._publish("game", {"game": self._game, "games": self.games,
                                   "data": start_data(state, agents)})
            self._publish_state()
            self._check()
            if self._paused:
                self._hold()

    def update(self, state: GameState, move: MoveInfo) -> None:
        """Send the move; at the end of a round wait `frame_time`, and while paused block.

        Raises:
            GameStopped: the page asked to stop.
            GameRestart: the page asked for the same game again.
        """
        self._number += 1
        if move.agent == 0:
            self._pacman_moves = move.pacman_moves
        change = step_change(self._number, self._state, state, move.agent, move.action,
                             move.pacman_moves, self._food_index, self._capsule_index)
        pacman = None
        if move.agent == 0:
            pacman = {"nodes": move.nodes, "time": round(move.seconds, 6),
                      "trace": self._trace(move)}
        self._state = state
        with self._lock:
            self._publish("move", {"n": self._number, **change, "seconds": round(
                move.seconds, 6), "pacman": pacman, "t": time.time()})
            self._check()
            if move.agent == state.num_agents - 1 or state.is_terminal():
                self._pace()

    def finish(self, state: GameState, record: GameRecord) -> None:
        """Send the finished game (the page scrubs it); wait `between_games` seconds."""
        from pacman.replay import Replay

        data = page_data(Replay(state.layout, state.num_agents - 1, record))
        with self._lock:
            self._publish("finish", {"game": self._game, "seed": record.seed, "data": data})
            if self.between_games <= 0 or self.quit_requested:
                return
            deadline = time.monotonic() + self.between_games
            while not self.quit_requested and not self._restart:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._lock.wait(min(left, _TICK))
            if self._restart:
                self._restart, self._restarting = False, True
                raise GameRestart

    def close(self) -> None:
        """End the run: tell the page, wait until it has the end (at most `grace` seconds;
        no wait without a page), stop the server and join its threads. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._publish("end", {"games": self._game})
            deadline = time.monotonic() + self.grace
            while self._clients > 0 and not self._acknowledged:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(min(left, _TICK))
            self._stopping = True
            self._lock.notify_all()
        self._server.shutdown()
        self._server.server_close()  # joins every request's thread
        self._thread.join()

    # ----------------------------------------------------------------- keyboard agent
    def enable_keyboard(self) -> None:
        """The page's arrows and WASD now steer Pacman."""
        with self._lock:
            self.keyboard_mode = True
            self._publish_state()

    def take_direction(self) -> Direction | None:
        """The direction the page sent since the last call, if any.

        Raises:
            GameStopped: the page asked to stop.
        """
        with self._lock:
            if self.quit_requested:
                raise GameStopped
            direction, self._direction = self._direction, None
            return direction

    def wait_for_direction(self) -> Direction | None:
        """Block until the page sends a direction; None when it asked for a restart.

        Raises:
            GameStopped: the page asked to stop.
        """
        with self._lock:
            self.blocked = "input"
            self._publish_state()
            try:
                while True:
                    if self.quit_requested:
                        raise GameStopped
                    if self._restart:
                        return None  # the next update raises GameRestart
                    if self._direction is not None:
                        direction, self._direction = self._direction, None
                        return direction
                    self._lock.wait(_TICK)
            finally:
                self.blocked = None
                self._publish_state()

    # ----------------------------------------------------------------- the page's commands
    def command(self, payload: Mapping[str, Any]) -> str | None:
        """Apply one command of the page; returns None, or what is wrong with it.

        Commands (`{"command": NAME, ...}`): `pause`, `resume`, `step` (one round while
        paused; pauses when running), `speed` with `frame_time` (seconds, 0 to 60),
        `restart`, `stop`, `key` with `direction` (North, South, East, West or Stop), `done`
        (the page has the end of the run).
        """
        name = payload.get("command")
        with self._lock:
            if name == "pause":
                self._paused = True
            elif name == "resume":
                self._paused = False
            elif name == "step":
                if self._paused:
                    self._step = True
                else:
                    self._paused = True
            elif name == "speed":
                value = payload.get("frame_time")
                # compared before any conversion: a huge int or NaN is refused, never converted
                if isinstance(value, bool) or not isinstance(value, (int, float)) \
                        or not 0 <= value <= 60:
                    return "speed: frame_time must be a number of seconds from 0 to 60"
                self.frame_time = float(value)
            elif name == "restart":
                self._restart = True
            elif name == "stop":
                self.quit_requested = True
            elif name == "key":
                value = payload.get("direction")
                direction = _DIRECTIONS.get(value) if isinstance(value, str) else None
                if direction is None:
                    return "key: direction must be North, South, East, West or Stop"
                self._direction = direction
            elif name == "done":
                pass  # acknowledged once the answer is sent (`_acknowledge`)
            elif isinstance(name, str):
                return f"unknown command {name[:40]!r}"
            else:
                return "a command's name is a string (\"command\": \"pause\", ...)"
            self._lock.notify_all()
            if name not in ("key", "done"):
                self._publish_state()
        return None

    # ----------------------------------------------------------------- internals
    def _trace(self, move: MoveInfo) -> dict[str, Any] | None:
        """A traced Pacman move's search, as the page shows it (`trace_entry`)."""
        summary = getattr(move.trace, "summary", None)
        try:
            result = summary() if callable(summary) else None
        except Exception:  # agent code: a broken trace is no trace, as in the record
            return None
        if not isinstance(result, dict):
            return None
        self._traced = True
        return trace_entry(result, self._state)

    def _check(self) -> None:
        """Raise what the page asked for (call with the lock held)."""
        if self.quit_requested:
            raise GameStopped
        if self._restart:
            self._restart, self._restarting = False, True
            raise GameRestart

    def _pace(self) -> None:
        """The end of a round: wait `frame_time` (from the round's end), then block while
        paused until a step or resume (call with the lock held)."""
        started = time.monotonic()
        while not self._paused:
            left = started + self.frame_time - time.monotonic()
            if left <= 0:
                return
            self._lock.wait(min(left, _TICK))
            self._check()
        self._hold()

    def _hold(self) -> None:
        """Block while paused until a step or resume (call with the lock held)."""
        self.blocked = "paused"
        self._publish_state()
        try:
            while self._paused and not self._step:
                self._lock.wait(_TICK)
                self._check()
        finally:
            self.blocked = None
        self._step = False
        self._publish_state()

    def _publish_state(self) -> None:
        self._publish("state", {"paused": self._paused, "blocked": self.blocked,
                                "frame_time": self.frame_time, "keyboard": self.keyboard_mode,
                                "game": self._game, "moves": self._pacman_moves})

    def _publish(self, kind: str, payload: Mapping[str, Any]) -> None:
        """Add one event to the stream every page reads (and wake the streams)."""
        data = json.dumps(payload, separators=(",", ":"), allow_nan=False)
        with self._lock:
            message = f"id: {len(self._log)}\nevent: {kind}\ndata: {data}\n\n"
            self._log.append(message.encode("utf-8"))
            self._lock.notify_all()

    def _acknowledge(self) -> None:
        with self._lock:
            self._acknowledged = True
            self._lock.notify_all()

    def _stream(self, handler: _Handler) -> None:
        """Serve the event stream to one page: every event from the first (or after the
        `Last-Event-ID` it reconnects with, if that is a whole number: anything else is
        ignored), then each new one as it comes, until the run ends."""
        try:
            index = int(parse_number(handler.headers.get("Last-Event-ID", ""), whole=True)) + 1
        except ValueError:
            index = 0
        handler.send_response(200)
        handler._common_headers()
        handler.send_header("Content-Type", "text/event-stream; charset=utf-8")
        handler.end_headers()
        with self._lock:
            self._clients += 1
            self._pages += 1
            self._lock.notify_all()
        try:
            handler.wfile.write(b"retry: 2000\n\n")
            while True:
                with self._lock:
                    while index >= len(self._log) and not self._stopping:
                        self._lock.wait(_TICK)
                    batch = self._log[index:]
                    stopping = self._stopping
                if batch:
                    handler.wfile.write(b"".join(batch))
                    handler.wfile.flush()
                    index += len(batch)
                elif stopping:
                    return
        except OSError:
            return  # the page went away
        finally:
            with self._lock:
                self._clients -= 1
                self._lock.notify_all()
