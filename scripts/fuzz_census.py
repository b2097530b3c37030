"""Run N random command lines of the CLI fuzz suite and print how they ended.

    python scripts/fuzz_census.py [N]

The inputs are those of tests/test_fuzz_cli.py (random play command lines with random layouts,
and the other commands with likely-wrong arguments). Each ends as `ok` (exit 0), `checked`
(exit 1 of grade/replay), `clean error` (exit 2, one line), or breaks the promise: a traceback,
another exit status, more than one line, or a hang past its limit.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]


def _fuzz_module() -> object:
    spec = importlib.util.spec_from_file_location("fuzz_cli", REPO / "tests" / "test_fuzz_cli.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    fuzz: object = _fuzz_module()
    tally: Counter[str] = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)

        @settings(max_examples=count, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def one(data: st.DataObject) -> None:
            play = data.draw(st.integers(0, 3)) > 0
            argv = (data.draw(fuzz.play_argv(scratch / "fuzz.lay"))  # type: ignore[attr-defined]
                    if play else data.draw(fuzz.other_argv(scratch)))  # type: ignore[attr-defined]
            try:
                tally[fuzz.verdict(argv)] += 1  # type: ignore[attr-defined]
            except fuzz.Hang:  # type: ignore[attr-defined]
                tally["hang"] += 1
                failures.append(f"hang: {argv}")
            except AssertionError as error:
                tally["broken promise"] += 1
                failures.append(str(error)[:300])

        one()
    print(json.dumps({"inputs": sum(tally.values()), **tally}, indent=1))
    for failure in failures[:30]:
        print(failure)


if __name__ == "__main__":
    main()
