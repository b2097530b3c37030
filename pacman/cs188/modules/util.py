"""The `util` module CS188 student code imports: distances, `Counter`, containers and sampling.

Every random draw here uses the global `random` module, because in CS188 the ghosts and the
student's code share that one stream: a recorded classic game replays only if each ghost move
draws exactly one `random.random()`, in the classic order (see `sample`).
"""

from __future__ import annotations

import heapq
import importlib
import inspect
import io
import os
import random
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, NoReturn, TypeVar

T = TypeVar("T")


def manhattanDistance(xy1: Sequence[float], xy2: Sequence[float]) -> float:
    """|x1 - x2| + |y1 - y2|."""
    return abs(xy1[0] - xy2[0]) + abs(xy1[1] - xy2[1])


# --------------------------------------------------------------------------- Counter


class Counter(dict[Any, float]):
    """A dict of numbers where a missing key reads as 0 and, as in the classic Counter, is
    inserted by that read (so `len`, `argMax` and `sortedKeys` see it afterwards)."""

    def __missing__(self, key: Any) -> float:
        self[key] = 0
        return 0

    def incrementAll(self, keys: Iterable[Any], count: float) -> None:
        """Add `count` to the value of every key in `keys`."""
        for key in keys:
            self[key] += count

    def argMax(self) -> Any:
        """The key with the largest value (the first inserted on a tie); None when empty."""
        if not self:
            return None
        best_key, best_value = None, None
        for key, value in self.items():
            if best_value is None or value > best_value:
                best_key, best_value = key, value
        return best_key

    def sortedKeys(self) -> list[Any]:
        """The keys by value, largest first (ties keep insertion order)."""
        return sorted(self, key=lambda key: -self[key])

    def totalCount(self) -> float:
        """The sum of the values."""
        return sum(self.values())

    def normalize(self) -> None:
        """Scale the values in place so that they sum to 1 (nothing happens when they sum to 0)."""
        total = float(self.totalCount())
        if total == 0:
            return
        for key in list(self):
            self[key] = self[key] / total

    def divideAll(self, divisor: float) -> None:
        """Divide every value by `divisor`, in place."""
        divisor = float(divisor)
        for key in list(self):
            self[key] = self[key] / divisor

    def copy(self) -> Counter:
        """A new Counter with the same items."""
        return Counter(self)

    def __mul__(self, other: Mapping[Any, float]) -> float:
        """The dot product: sum of value products over the keys both have."""
        # Walk the smaller one, as the classic one does: the float sum's order follows it.
        small, large = (other, self) if len(self) > len(other) else (self, other)
        product = 0.0
        for key in small:
            if key in large:
                product += small[key] * large[key]
        return product

    def __add__(self, other: Mapping[Any, float]) -> Counter:
        """A new Counter with the values of both summed key by key."""
        result = Counter()
        for key in self:
            result[key] = self[key] + other[key] if key in other else self[key]
        for key in other:
            if key not in self:
                result[key] = other[key]
        return result

    def __radd__(self, other: Mapping[Any, float] | int) -> Counter:
        """`other + counter` as a new Counter; `0 + counter` is a copy, so `sum(counters)`
        works (the classic one added into itself and returned None)."""
        if isinstance(other, int) and other == 0:
            return self.copy()
        if not isinstance(other, Mapping):
            return NotImplemented
        result = Counter(other)
        for key, value in self.items():
            result[key] += value
        return result

    def __sub__(self, other: Mapping[Any, float]) -> Counter:
        """A new Counter: self's values minus other's, key by key (missing reads 0)."""
        result = Counter()
        for key in self:
            result[key] = self[key] - other[key] if key in other else self[key]
        for key in other:
            if key not in self:
                result[key] = -1 * other[key]
        return result


# --------------------------------------------------------------------------- containers


class Stack(Generic[T]):
    """Last in, first out; `list` holds the items bottom to top."""

    def __init__(self) -> None:
        self.list: list[T] = []

    def push(self, item: T) -> None:
        """Put `item` on top."""
        self.list.append(item)

    def pop(self) -> T:
        """Remove and return the top item."""
        return self.list.pop()

    def isEmpty(self) -> bool:
        """True when there is nothing to pop."""
        return not self.list


class Queue(Generic[T]):
    """First in, first out; `list` holds the items newest first."""

    def __init__(self) -> None:
        self.list: list[T] = []

    def push(self, item: T) -> None:
        """Add `item` at the back."""
        self.list.insert(0, item)

    def pop(self) -> T:
        """Remove and return the oldest item."""
        return self.list.pop()

    def isEmpty(self) -> bool:
        """True when there is nothing to pop."""
        return not self.list


class PriorityQueue(Generic[T]):
    """Lowest priority first; equal priorities come out in the order they were pushed."""

    def __init__(self) -> None:
        # Entries are (priority, push number, item): the push number breaks ties, so items
        # themselves are never compared.
        self.heap: list[tuple[Any, int, T]] = []
        self.count = 0

    def push(self, item: T, priority: Any) -> None:
        """Add `item` with `priority`."""
        heapq.heappush(self.heap, (priority, self.count, item))
        self.count += 1

    def pop(self) -> T:
        """Remove and return the item of lowest priority."""
        return heapq.heappop(self.heap)[2]

    def isEmpty(self) -> bool:
        """True when there is nothing to pop."""
        return not self.heap

    def update(self, item: T, priority: Any) -> None:
        """Lower `item`'s priority to `priority` if it is queued with a higher one; push it if
        it is not queued; leave it alone if it is queued with an equal or lower one."""
        for position, (queued_priority, number, queued) in enumerate(self.heap):
            if queued == item:
                if queued_priority <= priority:
                    return
                self.heap[position] = (priority, number, item)
                heapq.heapify(self.heap)
                return
        self.push(item, priority)


class PriorityQueueWithFunction(PriorityQueue[T]):
    """A priority queue whose items' priorities come from `priorityFunction(item)`."""

    def __init__(self, priorityFunction: Callable[[T], Any]) -> None:
        super().__init__()
        self.priorityFunction = priorityFunction

    def push(self, item: T, priority: Any = None) -> None:
        """Add `item` with the priority the function gives it."""
        super().push(item, self.priorityFunction(item))


# --------------------------------------------------------------------------- not implemented


class NotDefinedError(Exception):
    """A method the student has still to write was called (raised by `raiseNotDefined`)."""

    def __init__(self, function: str, line: int, filename: str) -> None:
        super().__init__(
            f"Method not implemented: {function} at line {line} of {os.path.basename(filename)}")
        self.function, self.line, self.filename = function, line, filename


def raiseNotDefined() -> NoReturn:
    """Raise `NotDefinedError` naming the calling function, its line and its file.

    The classic one prints and exits the process; an exception lets the grader report it as
    that test's failure and go on.
    """
    frame = inspect.currentframe()
    caller = frame.f_back if frame is not None else None
    if caller is None:
        raise NotDefinedError("<unknown>", 0, "<unknown>")
    raise NotDefinedError(caller.f_code.co_name, caller.f_lineno, caller.f_code.co_filename)


# --------------------------------------------------------------------------- distributions


def normalize(vectorOrCounter: Any) -> Any:
    """A normalised copy of a Counter or a list of numbers (returned as is when it sums to 0)."""
    if isinstance(vectorOrCounter, Counter):
        total = float(vectorOrCounter.totalCount())
        if total == 0:
            return vectorOrCounter
        scaled = Counter()
        for key, value in vectorOrCounter.items():
            scaled[key] = value / total
        return scaled
    vector_sum = float(sum(vectorOrCounter))
    if vector_sum == 0:
        return vectorOrCounter
    return [element / vector_sum for element in vectorOrCounter]


def _weights_and_values(distribution: Any, values: Sequence[Any] | None
                        ) -> tuple[list[float], list[Any]]:
    """A distribution given as a mapping (its items sorted by key) or as weights + values."""
    if isinstance(distribution, Mapping):
        items = sorted(distribution.items())
        return [weight for _, weight in items], [value for value, _ in items]
    if values is None:
        raise TypeError("sample: a list of weights needs the list of values they belong to")
    return list(distribution), list(values)


def nSample(distribution: Sequence[float], values: Sequence[T], n: int) -> list[T]:
    """`n` samples of `values` weighted by `distribution`, in the order of `values`."""
    weights = list(distribution)
    if sum(weights) != 1:
        weights = normalize(weights)
    draws = sorted(random.random() for _ in range(n))
    samples: list[T] = []
    index, cumulative = 0, weights[0]
    for draw in draws:
        while draw >= cumulative and index < len(weights) - 1:
            index += 1
            cumulative += weights[index]
        samples.append(values[index])
    return samples


def sample(distribution: Any, values: Sequence[Any] | None = None) -> Any:
    """One value drawn with exactly one `random.random()`.

    A Counter (or any mapping) is sampled over its items sorted by key; a list of weights over
    `values`. The weights are normalised when their sum is not exactly 1, then the draw `r`
    picks the first item whose running total is not below it (`not r > total`), as CS188 does,
    so seeded classic games replay exactly.
    """
    weights, choices = _weights_and_values(distribution, values)
    if not weights:
        raise ValueError("sample: the distribution is empty")
    if sum(weights) != 1:
        weights = normalize(weights)
    draw = random.random()
    total = 0.0
    for index, weight in enumerate(weights):
        total = weight if index == 0 else total + weight
        if not draw > total:
            return choices[index]
    # Rounding left the running total a hair under the draw; the classic code would run off the
    # end here. Take the last item that has any weight.
    for index in range(len(weights) - 1, -1, -1):
        if weights[index] > 0:
            return choices[index]
    return choices[-1]


def sampleFromCounter(ctr: Mapping[Any, float]) -> Any:
    """One key of `ctr` drawn with probability proportional to its value (see `sample`)."""
    return sample(ctr)


def getProbability(value: Any, distribution: Sequence[float], values: Sequence[Any]) -> float:
    """The total weight `distribution` gives to `value` (it may appear more than once)."""
    total = 0.0
    for weight, candidate in zip(distribution, values):
        if candidate == value:
            total += weight
    return total


def flipCoin(p: float) -> bool:
    """True with probability `p` (one `random.random()`)."""
    return random.random() < p


def chooseFromDistribution(distribution: Any) -> Any:
    """One element drawn from a Counter/dict (see `sample`) or a list of (probability, element)."""
    if isinstance(distribution, Mapping):
        return sample(distribution)
    draw = random.random()
    total = 0.0
    last: Any = None
    for probability, element in distribution:
        total += probability
        last = element
        if draw <= total:
            return element
    return last


# --------------------------------------------------------------------------- grids and numbers


def nearestPoint(pos: Sequence[float]) -> tuple[int, int]:
    """The grid point nearest to `pos` (halves round up)."""
    return int(pos[0] + 0.5), int(pos[1] + 0.5)


def sign(x: float) -> int:
    """1 for x >= 0, else -1."""
    return 1 if x >= 0 else -1


def arrayInvert(array: Sequence[Sequence[T]]) -> list[list[T]]:
    """The transpose of a list of lists: result[j][i] == array[i][j]."""
    return [list(column) for column in zip(*array)]


def matrixAsList(matrix: Sequence[Sequence[Any]], value: Any = True) -> list[tuple[int, int]]:
    """The (row, column) cells of `matrix` equal to `value`, row by row."""
    return [(row, column) for row in range(len(matrix)) for column in range(len(matrix[row]))
            if matrix[row][column] == value]


# --------------------------------------------------------------------------- lookup


class NameLookupError(LookupError):
    """`lookup` found no object, or more than one, for a name."""


def lookup(name: str, namespace: Mapping[str, Any]) -> Any:
    """The object called `name`, as seen from a module whose globals are `namespace`.

    `'package.module.name'` imports the module and takes the attribute. A plain name is taken
    from `namespace` itself when it is there; otherwise from the modules `namespace` holds
    (found in exactly one of them, or it is ambiguous).
    """
    if "." in name:
        module_name, _, attribute = name.rpartition(".")
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise NameLookupError(f"cannot find {name!r}: no module {module_name!r}") from error
        try:
            return getattr(module, attribute)
        except AttributeError:
            raise NameLookupError(f"cannot find {name!r}: module {module_name!r} has no "
                                  f"{attribute!r}") from None
    if name in namespace:
        return namespace[name]
    found = [(key, getattr(module, name)) for key, module in namespace.items()
             if isinstance(module, types.ModuleType) and hasattr(module, name)]
    if len(found) == 1:
        return found[0][1]
    if found:
        where = ", ".join(key for key, _ in found)
        raise NameLookupError(f"{name!r} is ambiguous: it is in the modules {where}; "
                              f"write it as module.{name}")
    raise NameLookupError(f"{name!r} is not defined as a function or class here, nor in a "
                          "module imported here")


# --------------------------------------------------------------------------- interaction


def pause() -> None:
    """Wait for the user to press enter."""
    print("<Press enter/return to continue>")
    input()


class TimeoutFunctionException(Exception):
    """A `TimeoutFunction` call ran past its time limit."""


class TimeoutFunction:
    """Wrap `function` so that a call longer than `timeout` seconds raises
    `TimeoutFunctionException`.

    With SIGALRM (Unix, main thread) the call is interrupted when the time is up; elsewhere it
    runs to the end and raises afterwards if it took too long.
    """

    def __init__(self, function: Callable[..., Any], timeout: float) -> None:
        self.function = function
        self.timeout = timeout

    def handle_timeout(self, signum: object, frame: object) -> NoReturn:
        """Raise the timeout (the alarm signal's handler)."""
        raise TimeoutFunctionException()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function with the time limit."""
        if hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGALRM, self.handle_timeout)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
            try:
                return self.function(*args, **kwargs)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        start = time.perf_counter()
        result = self.function(*args, **kwargs)
        if time.perf_counter() - start >= self.timeout:
            self.handle_timeout(None, None)
        return result


class _PrintMute:
    """Where `mutePrint` keeps the real stdout while printing is muted."""

    saved: Any = None


def mutePrint() -> None:
    """Silence `print` (stdout goes nowhere) until `unmutePrint`."""
    if _PrintMute.saved is not None:
        return
    _PrintMute.saved = sys.stdout
    sys.stdout = _Discard()


def unmutePrint() -> None:
    """Give `print` its stdout back after `mutePrint`."""
    if _PrintMute.saved is None:
        return
    sys.stdout = _PrintMute.saved
    _PrintMute.saved = None


class _Discard(io.TextIOBase):
    """A text stream that drops what it is given."""

    def write(self, text: str) -> int:
        """Drop `text`."""
        return len(text)
