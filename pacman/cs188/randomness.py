"""Where an agent test's student draws its random numbers: the ghosts' stream or one of its own.

The classic grader seeds the global `random` once per agent test, and the student's draws
(`random.choice` among equally good moves) interleave with the random ghosts' on that one
stream. That makes the ghosts steerable: a Mersenne Twister's next words follow from 624 words
it has given, so a submission that draws 624 numbers knows every later ghost move and can push
them away by drawing one or two numbers more at the right time (in the classic grader, or here,
with `--agent-random shared`).

With a stream of its own (`agent_stream`, `pacman grade --agent-random own`), the student's
module-level `random` functions draw from a generator seeded from the test's `randomSeed` alone,
and the ghosts from the global one: nothing the student draws moves a ghost, and the games are
still the same on every run and machine. A student that draws no random numbers plays exactly
the classic games either way; one that breaks ties at random plays other games, whose points may
differ from the classic grader's by luck (12 of 40 real submissions' q1 points did, at either of
two seeds, half up and half down). So the shared stream is the default: the classic points.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

__all__ = ["MODULE_FUNCTIONS", "agent_stream", "drawing_from"]

#: the module-level functions of `random` (bound methods of its hidden generator), which
#: student code calls (`random.choice`, `random.random`, ...)
MODULE_FUNCTIONS = tuple(name for name in random.__all__ if isinstance(
    getattr(getattr(random, name, None), "__self__", None), random.Random))


def agent_stream(seed: int) -> random.Random:
    """The student's own generator for an agent test seeded with `seed`: seeded from a text
    (a SHA-512 of it, the same in every process), so its words are unrelated to the ghosts'
    generator seeded with the number itself.

    Args:
        seed: the test's `randomSeed`.

    Returns:
        A fresh generator; the same `seed` gives the same numbers everywhere.
    """
    return random.Random(f"pacman agent test stream {seed}")


@contextlib.contextmanager
def drawing_from(generator: random.Random) -> Iterator[None]:
    """Within the block, the module-level functions of `random` are `generator`'s (for code that
    looks them up when it calls them, as `random.choice(...)` does); restored after it.

    Args:
        generator: where the block's draws come from.
    """
    saved = {name: getattr(random, name) for name in MODULE_FUNCTIONS}
    try:
        for name in MODULE_FUNCTIONS:
            setattr(random, name, getattr(generator, name))
        yield
    finally:
        for name, function in saved.items():
            setattr(random, name, function)
