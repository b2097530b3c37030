"""Fuzzing the live view's server (`pacman.web.live`): clients that leave early, hostile
command bodies, `Last-Event-ID` values, 200 clients without a token at once.

The promise, for every input: nothing reaches the user's terminal (the server runs in this
process and the test reads the very stderr, `capfd`, the terminal would get: a client's fault
is logged at debug, never printed); a command is answered 204, or with one line of 400 and the
game untouched; an event stream starts after a valid `Last-Event-ID` (from the first event
otherwise) and sends each event once; after `LiveView.close()` no request's thread is alive.
Every wait is for an event (an answer, the end of a connection, a thread's end); the time
limits only stop a hang.

The default run is seeded (`derandomize=True`, the same inputs on every machine); the `slow`
run draws ten times as many at random.
"""

from __future__ import annotations

import contextlib
import json
import logging
import selectors
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pacman import GameState, load_layout, run_game
from pacman.agents.registry import make_agent
from pacman.web import live
from pacman.web.live import LiveView, parse_number

LAYOUT = load_layout("smallClassic")
FEW = 40         # inputs per kind in the default run
MANY = 10 * FEW  # in the slow run
HANG = 60.0      # seconds: only a hang takes this long
COMMANDS = ("pause", "resume", "step", "speed", "restart", "stop", "key", "done")


# ------------------------------------------------------------------------------- helpers
@contextlib.contextmanager
def served(**options: Any) -> Iterator[LiveView]:
    """A live server in this process; closed at the end, which must leave no thread behind."""
    before = set(threading.enumerate())
    view = LiveView(GameState.initial(LAYOUT), grace=0, **options)
    try:
        yield view
    except BaseException:
        view.close()
        raise
    closing = threading.Thread(target=view.close)
    closing.start()
    closing.join(HANG)
    assert not closing.is_alive(), "close() hung"
    assert [t.name for t in set(threading.enumerate()) - before] == []


def quiet(capfd: pytest.CaptureFixture[str]) -> None:
    """Nothing was printed on the terminal (stdout and stderr)."""
    out, err = capfd.readouterr()
    assert (out, err) == ("", ""), err[-2000:]


def connect(view: LiveView) -> socket.socket:
    return socket.create_connection(("127.0.0.1", view.port), timeout=HANG)


def reset(connection: socket.socket) -> None:
    """Close with a TCP reset (RST), as a client that crashes or is killed."""
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.close()


def read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes (a reset counts as the end)."""
    chunks = []
    while True:
        try:
            chunk = connection.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def get(view: LiveView, path: str, *, token: bool = True, headers: tuple[str, ...] = ()
        ) -> bytes:
    query = f"?token={view.token}" if token else ""
    lines = [f"GET {path}{query} HTTP/1.1", f"Host: 127.0.0.1:{view.port}", *headers, "", ""]
    return "\r\n".join(lines).encode("latin-1")


def post(view: LiveView, body: bytes, *, length: str | None = None, token: bool = True
         ) -> bytes:
    query = f"?token={view.token}" if token else ""
    lines = [f"POST /command{query} HTTP/1.1", f"Host: 127.0.0.1:{view.port}",
             f"Content-Length: {len(body) if length is None else length}", "", ""]
    return "\r\n".join(lines).encode("latin-1") + body


def exchange(view: LiveView, raw: bytes) -> tuple[int, bytes]:
    """Send a whole request, read the whole answer: its status and body."""
    with connect(view) as connection:
        connection.sendall(raw)
        answer = read_all(connection)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def game_of(view: LiveView) -> tuple[Any, ...]:
    """What a command could change: the game's pause, step, restart, stop, key and speed."""
    return (view._paused, view._step, view._restart, view.quit_requested, view._direction,
            view.frame_time, len(view._log))


def events(stream: bytes) -> list[tuple[int, str]]:
    """The (id, kind) of each event in an event stream's text."""
    found = []
    for block in stream.decode("utf-8").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if "id" in fields:
            found.append((int(fields["id"]), fields["event"]))
    return found


def stream_events(stream: bytes) -> list[tuple[str, dict[str, Any]]]:
    """The (kind, data) of each whole event in an event stream's text."""
    found = []
    for block in stream.decode("utf-8").split("\n\n")[:-1]:
        fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


def read_until(connection: socket.socket, wanted: bytes) -> bytes:
    got = b""
    while wanted not in got:
        chunk = connection.recv(65536)
        assert chunk, got
        got += chunk
    return got


# ------------------------------------------------------------------------------- class 1
def _silent(view: LiveView, c: socket.socket) -> None:
    """Says nothing: the server's read times out (the timeout made short by the test)."""
    assert read_all(c) == b""


def _body_stops(view: LiveView, c: socket.socket) -> None:
    """Headers and part of a body, then silence: the body's read times out."""
    c.sendall(post(view, b'{"comm', length="100"))
    read_all(c)


CLIENT_FAULTS: dict[str, Callable[[LiveView, socket.socket], None]] = {
    "reset before sending": lambda view, c: reset(c),
    "reset in the request line": lambda view, c: (c.sendall(b"GET /?tok"), reset(c)),
    "reset in the headers": lambda view, c: (c.sendall(get(view, "/")[:-7]), reset(c)),
    "reset before the page is written": lambda view, c: (c.sendall(get(view, "/")), reset(c)),
    "close before the page is read": lambda view, c: (c.sendall(get(view, "/")), c.close()),
    "half-close in the headers": lambda view, c: (
        c.sendall(get(view, "/")[:-7]), c.shutdown(socket.SHUT_WR), read_all(c)),
    "reset in the body": lambda view, c: (
        c.sendall(post(view, b'{"comm', length="100")), reset(c)),
    "half-close in the body": lambda view, c: (
        c.sendall(post(view, b'{"comm', length="100")), c.shutdown(socket.SHUT_WR),
        read_all(c)),
    "reset before the answer to a command": lambda view, c: (
        c.sendall(post(view, b'{"command": "resume"}')), reset(c)),
    "reset in the event stream": lambda view, c: (
        c.sendall(get(view, "/events")), read_until(c, b"event: hello"), reset(c)),
    "close in the event stream": lambda view, c: (
        c.sendall(get(view, "/events")), read_until(c, b"event: hello"), c.close()),
    "reset after the stream's headers": lambda view, c: (
        c.sendall(get(view, "/events")), read_until(c, b"\r\n\r\n"), reset(c)),
    "reset a refused request": lambda view, c: (
        c.sendall(get(view, "/", token=False)), reset(c)),
    "reset a refused command": lambda view, c: (
        c.sendall(post(view, b'{"command": "stop"}', token=False)), reset(c)),
    "silent until the timeout": _silent,
    "a body that stops until the timeout": _body_stops,
}


@pytest.fixture
def short_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A silent client is dropped after 0.3 s, not 10 s (the event waited for is the drop)."""
    monkeypatch.setattr(live._Handler, "timeout", 0.3)


@pytest.mark.parametrize("fault", CLIENT_FAULTS)
def test_a_client_that_leaves_early_prints_nothing(
        fault: str, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
        short_timeout: None) -> None:
    caplog.set_level(logging.DEBUG, logger="pacman.web.live")
    with served() as view:
        for _ in range(3):  # the same fault three times, the server answers after each
            CLIENT_FAULTS[fault](view, connect(view))
        assert exchange(view, get(view, "/"))[0] == 200
    quiet(capfd)
    assert all(r.levelno == logging.DEBUG for r in caplog.records), caplog.records


REQUESTS = ("page", "events", "command", "refused", "refused command", "not found")


def _request(view: LiveView, kind: str) -> bytes:
    return {"page": get(view, "/"), "events": get(view, "/events"),
            "command": post(view, b'{"command": "speed", "frame_time": 0.5}'),
            "refused": get(view, "/", token=False),
            "refused command": post(view, b'{"command": "stop"}', token=False),
            "not found": get(view, "/nothing")}[kind]


def _fuzz_client_faults(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(kinds=st.lists(st.sampled_from(REQUESTS), min_size=1, max_size=4),
           cut=st.floats(0, 1), ending=st.sampled_from(("reset", "close", "half-close")),
           read_first=st.booleans())
    def test(kinds: list[str], cut: float, ending: str, read_first: bool,
             capfd: pytest.CaptureFixture[str], short_timeout: None) -> None:
        with served() as view:
            game = game_of(view)
            for kind in kinds:
                raw = _request(view, kind)
                sent = raw[:round(cut * len(raw))]
                connection = connect(view)
                connection.sendall(sent)
                whole = sent == raw
                if read_first and whole:
                    with contextlib.suppress(OSError):
                        connection.recv(1)  # the answer has begun
                if ending == "reset":
                    reset(connection)
                elif ending == "close":
                    connection.close()
                else:
                    connection.shutdown(socket.SHUT_WR)
                    # a stream goes on until the end (http.server takes headers cut by the
                    # end of input as whole: a stream may start even when not all was sent)
                    if kind != "events":
                        read_all(connection)
                    connection.close()
            assert game_of(view)[:4] == game[:4]  # not paused, stepped, restarted or stopped
        quiet(capfd)
    return test


test_fuzzed_client_faults = _fuzz_client_faults(FEW)
test_many_fuzzed_client_faults = pytest.mark.slow(_fuzz_client_faults(MANY))


# ------------------------------------------------------------------------------- class 2
DIGITS_400 = "9" * 400
BODIES: dict[str, bytes] = {
    "frame_time of 400 digits": f'{{"command":"speed","frame_time":{DIGITS_400}}}'.encode(),
    "frame_time of 400 digits, negative": f'{{"command":"speed","frame_time":-{DIGITS_400}}}'
    .encode(),
    "frame_time of 4000 digits": ('{"command":"speed","frame_time":' + "1" * 4000 + "}")
    .encode(),
    "4000 [": b"[" * 4000,
    "800 nested objects": b'{"a":' * 800,
    "nesting 9 deep": b'{"command":"pause","x":' + b"[" * 8 + b"]" * 8 + b"}",
    "a huge exponent": b'{"command":"speed","frame_time":1e400}',
    "a huge negative exponent": b'{"command":"speed","frame_time":-1e400}',
    "an exponent of 4000 digits": ('{"command":"speed","frame_time":1e' + "9" * 4000 + "}")
    .encode(),
    "a fraction of 400 digits": f'{{"command":"speed","frame_time":0.{DIGITS_400}}}'.encode(),
    "NaN": b'{"command":"speed","frame_time":NaN}',
    "Infinity": b'{"command":"speed","frame_time":Infinity}',
    "-Infinity": b'{"command":"speed","frame_time":-Infinity}',
    "frame_time out of range": b'{"command":"speed","frame_time":61}',
    "frame_time negative": b'{"command":"speed","frame_time":-0.5}',
    "frame_time a string": b'{"command":"speed","frame_time":"5"}',
    "frame_time true": b'{"command":"speed","frame_time":true}',
    "frame_time null": b'{"command":"speed","frame_time":null}',
    "frame_time a list": b'{"command":"speed","frame_time":[5]}',
    "frame_time missing": b'{"command":"speed"}',
    "a number as command": b'{"command":5}',
    "a 400-digit command": f'{{"command":{DIGITS_400}}}'.encode(),
    "a list as command": b'{"command":["pause"]}',
    "an object as command": b'{"command":{"pause":1}}',
    "null as command": b'{"command":null}',
    "no command": b"{}",
    "an unknown command": b'{"command":"explode"}',
    "a lone surrogate": b'{"command":"\\ud800"}',
    "a NUL in the command": b'{"command":"pause\\u0000"}',
    "a newline in the command": b'{"command":"pause\\nstop"}',
    "a key of 400 digits": f'{{"command":"key","direction":{DIGITS_400}}}'.encode(),
    "a key as a list": b'{"command":"key","direction":["North"]}',
    "a key in lower case": b'{"command":"key","direction":"north"}',
    "bad UTF-8": b'{"command":"\xff\xfe"}',
    "not JSON": b"pause",
    "an unclosed object": b'{"command":"pause"',
    "a trailing comma": b'{"command":"pause",}',
    "a list": b'["pause"]',
    "a string": b'"pause"',
    "a number": b"1",
    "a huge number": DIGITS_400.encode(),
    "null": b"null",
    "empty": b"",
    "spaces": b"   ",
    "4096 spaces then an object": b" " * 4080 + b'{"command":1}',
}
LENGTHS = {  # Content-Length values (the body is a valid pause)
    "missing": None, "empty": "", "negative": "-1", "with +": "+20", "with _": "2_0",
    "hex": "0x14", "float": "20.0", "exponent": "2e1", "400 digits": DIGITS_400,
    "over 4096": "4097", "two values": "20, 20", "trailing space": "20 ",
}


@pytest.mark.parametrize("case", BODIES)
def test_a_hostile_command_is_one_line_of_400_and_changes_nothing(
        case: str, capfd: pytest.CaptureFixture[str]) -> None:
    with served() as view:
        game = game_of(view)
        status, text = exchange(view, post(view, BODIES[case]))
        assert status == 400, text
        assert text.endswith(b"\n") and text.count(b"\n") == 1 and len(text) < 200, text
        assert game_of(view) == game
        assert exchange(view, post(view, b'{"command": "pause"}'))[0] == 204  # it still works
        assert view._paused
    quiet(capfd)


@pytest.mark.parametrize("case", LENGTHS)
def test_a_content_length_that_is_no_plain_number_is_refused(
        case: str, capfd: pytest.CaptureFixture[str]) -> None:
    body = b'{"command":"pause"}'
    with served() as view:
        raw = post(view, body, length=LENGTHS[case])
        if LENGTHS[case] is None:
            raw = raw.replace(f"Content-Length: {len(body)}\r\n".encode(), b"")
        status, text = exchange(view, raw)
        assert status == 400 and text.count(b"\n") == 1, text
        assert not view._paused
    quiet(capfd)


def test_numbers_are_read_by_one_strict_function() -> None:
    assert parse_number("0") == 0.0 and parse_number("-12.5e1") == -125.0
    assert parse_number("12", whole=True) == 12 and parse_number("007", whole=True) == 7
    for text in ("", " 1", "1 ", "+1", "1_0", "\u0663", "0x10", "1.", ".5", "01.5", "NaN",
                 "Infinity", "1e400", "-1e999", "9" * 21, "1e" + "9" * 19):
        with pytest.raises(ValueError):
            parse_number(text)
    for text in ("-1", "1.0", "1e3", "9" * 21, "\u0663", " 3"):
        with pytest.raises(ValueError):
            parse_number(text, whole=True)


def test_the_library_command_refuses_huge_and_odd_values() -> None:
    """`LiveView.command` called directly (no JSON between) with values no JSON parse
    could make: a huge int, NaN, a self-containing list."""
    looped: list[Any] = []
    looped.append(looped)
    with served() as view:
        game = game_of(view)
        for payload in ({"command": "speed", "frame_time": 10 ** 5000},
                        {"command": "speed", "frame_time": float("nan")},
                        {"command": "speed", "frame_time": float("inf")},
                        {"command": 10 ** 5000}, {"command": looped},
                        {"command": "key", "direction": 10 ** 5000},
                        {"command": "key", "direction": looped}):
            problem = view.command(payload)
            assert problem is not None and "\n" not in problem and len(problem) < 100
        assert game_of(view) == game


NUMBER_TEXTS = st.one_of(
    st.from_regex(r"-?[0-9]{1,500}(\.[0-9]{1,50})?([eE][-+]?[0-9]{1,6})?", fullmatch=True),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0", "0.5", "60", "1e-400"]))


def _json_texts() -> st.SearchStrategy[str]:
    """JSON-ish texts: any value, with hostile numbers, odd strings and deep lists."""
    scalars = st.one_of(
        st.sampled_from(["null", "true", "false", '"\\ud800"', '"North"', '"pause"', '""']),
        NUMBER_TEXTS, st.text(max_size=20).map(json.dumps))
    values = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
        st.lists(st.tuples(st.sampled_from(['"command"', '"a"', '"frame_time"']), inner),
                 max_size=3).map(lambda pairs: "{" + ",".join(f"{k}:{v}" for k, v in pairs)
                                 + "}")), max_leaves=12)
    deep = st.tuples(st.integers(1, 5000), st.sampled_from(["[", '{"a":', "[{\"a\":"])).map(
        lambda nest: nest[1] * nest[0])
    return st.one_of(values, deep)


@st.composite
def command_bodies(draw: st.DrawFn) -> bytes:
    """A command-like object with hostile values, any JSON text, or raw bytes."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(st.binary(max_size=300))
    if kind == 1:
        return draw(_json_texts()).encode("utf-8", "surrogatepass")
    name = draw(st.one_of(st.sampled_from(COMMANDS).map(json.dumps), _json_texts()))
    fields = [f'"command":{name}']
    for key in draw(st.lists(st.sampled_from(["frame_time", "direction", "x"]), max_size=3)):
        fields.append(f'"{key}":{draw(_json_texts())}')
    return ("{" + ",".join(fields) + "}").encode("utf-8", "surrogatepass")


def _fuzz_commands(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, derandomize=examples == FEW,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(bodies=st.lists(command_bodies(), min_size=1, max_size=5))
    def test(bodies: list[bytes], capfd: pytest.CaptureFixture[str]) -> None:
        with served() as view:
            for body in bodies:
                game = game_of(view)
                status, text = exchange(view, post(view, body))
                if status == 400:
                    assert text.endswith(b"\n") and text.count(b"\n") == 1, text
                    assert game_of(view) == game, body[:200]
                else:
                    assert status == 204, (status, text)
                    assert json.loads(body)["command"] in COMMANDS, body[:200]
        quiet(capfd)
    return test


test_fuzzed_command_bodies = _fuzz_commands(FEW)
test_many_fuzzed_command_bodies = pytest.mark.slow(_fuzz_commands(MANY))


# ------------------------------------------------------------------------------- class 3
LAST_EVENT_IDS = {  # Last-Event-ID -> the first event id streamed (the log holds 0-4)
    None: 0, "0": 1, "3": 4, "4": 5, "": 0, "-1": 0, "-50": 0, "-1000000000000": 0,
    "abc": 0, "1e3": 0, "1_0": 0, "+3": 0, "3 ": 0, "3.0": 0, "0x3": 0, DIGITS_400: 0,
    "99999999999999999999": None,  # past the end: no event of this run
}


@pytest.mark.parametrize("last", LAST_EVENT_IDS)
def test_a_stream_starts_after_a_valid_last_event_id_and_sends_each_event_once(
        last: str | None, capfd: pytest.CaptureFixture[str]) -> None:
    first = LAST_EVENT_IDS[last]
    with served() as view:
        for name in ("pause", "resume", "pause", "resume"):
            assert view.command({"command": name}) is None
        assert len(view._log) == 5
        connection = connect(view)
        headers = () if last is None else (f"Last-Event-ID: {last}",)
        connection.sendall(get(view, "/events", headers=headers))
        got = read_until(connection, b"retry: 2000\n\n" if first in (None, 5)
                         else b"id: 4\n")
    # closed: the end of the run (id 5) was sent, and the stream ended
    got += read_all(connection)
    connection.close()
    ids = [number for number, _ in events(got.partition(b"\r\n\r\n")[2])]
    assert ids == ([] if first is None else list(range(first, 6))), ids[:20]
    quiet(capfd)


def test_close_joins_every_request_thread_whatever_it_waits_for(
        capfd: pytest.CaptureFixture[str]) -> None:
    before = set(threading.enumerate())
    view = LiveView(GameState.initial(LAYOUT), grace=0)
    name = f"pacman-live-{view.port}-request"
    clients = [connect(view) for _ in range(5)]
    stream, half_line, half_headers, half_body, _silent = clients
    stream.sendall(get(view, "/events"))
    half_line.sendall(b"GET /?to")
    half_headers.sendall(get(view, "/")[:-7])
    half_body.sendall(post(view, b'{"comm', length="100"))
    read_until(stream, b"event: hello")
    while sum(t.name == name for t in threading.enumerate()) < 5:  # all five are served
        time.sleep(0.01)
    closing = threading.Thread(target=view.close)
    closing.start()
    closing.join(HANG)
    assert not closing.is_alive()
    assert [t.name for t in set(threading.enumerate()) - before] == []
    assert b"event: end" in read_all(stream)
    for client in clients:
        client.close()
    quiet(capfd)


def test_a_pause_between_two_games_holds_the_next_one(
        capfd: pytest.CaptureFixture[str]) -> None:
    def agents() -> tuple[Any, list[Any]]:
        return (make_agent("greedy", "pacman", {}),
                [make_agent("RandomGhost", "ghost", {}, index=i) for i in (1, 2)])

    first_over, go_on = threading.Event(), threading.Event()
    records: list[Any] = []

    def games(view: LiveView) -> None:
        records.append(run_game(LAYOUT, *agents(), seed=4, max_moves=5, display=view))
        first_over.set()
        go_on.wait()
        records.append(run_game(LAYOUT, *agents(), seed=5, max_moves=5, display=view))

    with served(frame_time=0, games=2) as view:
        stream = connect(view)
        stream.sendall(get(view, "/events"))
        player = threading.Thread(target=games, args=(view,))
        player.start()
        assert first_over.wait(HANG)
        assert exchange(view, post(view, b'{"command": "pause"}'))[0] == 204  # between games
        go_on.set()
        got = b""
        while not any(kind == "state" and data["blocked"] == "paused" and data["game"] == 2
                      for kind, data in stream_events(got)):
            chunk = stream.recv(65536)
            assert chunk and player.is_alive(), "the second game did not wait"
            got += chunk
        kinds = [kind for kind, _ in stream_events(got)]
        second = kinds[len(kinds) - kinds[::-1].index("game"):]
        assert "move" not in second, second  # held at its start
        assert exchange(view, post(view, b'{"command": "resume"}'))[0] == 204
        player.join(HANG)
        assert not player.is_alive()
        stream.close()
    assert records[1] == run_game(LAYOUT, *agents(), seed=5, max_moves=5)  # the same game
    quiet(capfd)


# ------------------------------------------------------------------------------- 200 clients
def refuse_all(view: LiveView, clients: int) -> list[tuple[bytes, float]]:
    """`clients` connections without a token at once (GETs of the page and the stream, and
    POSTs of `stop`), all connected before any sends: each one's answer and the seconds from
    the first request sent to that answer's end."""
    connections = [connect(view) for _ in range(clients)]
    requests = [get(view, "/", token=False), get(view, "/events", token=False),
                post(view, b'{"command": "stop"}', token=False),
                get(view, "/", token=False, headers=(f"Last-Event-ID: -{DIGITS_400}",))]
    answers: dict[socket.socket, bytes] = dict.fromkeys(connections, b"")
    seconds: dict[socket.socket, float] = {}
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    for i, connection in enumerate(connections):
        connection.sendall(requests[i % len(requests)])
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ)
    while len(seconds) < clients:
        ready = selector.select(HANG)
        assert ready, f"{clients - len(seconds)} clients got no answer in {HANG} s"
        for key, _ in ready:
            connection = key.fileobj
            assert isinstance(connection, socket.socket)
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                chunk = b""
            answers[connection] += chunk
            if not chunk:
                seconds[connection] = time.monotonic() - started
                selector.unregister(connection)
                connection.close()
    selector.close()
    return [(answers[c], seconds[c]) for c in connections]


def test_200_clients_without_a_token_are_each_refused_and_the_game_goes_on(
        capfd: pytest.CaptureFixture[str]) -> None:
    def agents() -> tuple[Any, list[Any]]:
        return (make_agent("greedy", "pacman", {}),
                [make_agent("RandomGhost", "ghost", {}, index=i) for i in (1, 2)])

    records: list[Any] = []
    with served(frame_time=0.005) as view:
        player = threading.Thread(target=lambda: records.append(
            run_game(LAYOUT, *agents(), seed=9, max_moves=40, display=view)))
        player.start()
        answers = refuse_all(view, 200)
        player.join(HANG)
        assert not player.is_alive()
        assert not view.quit_requested
    assert [a.split(b"\r\n", 1)[0] for a, _ in answers] == [b"HTTP/1.0 403 Forbidden"] * 200
    assert records == [run_game(LAYOUT, *agents(), seed=9, max_moves=40)]  # the game of -q
    quiet(capfd)
