"""The grading worker: a child process that grades one submission and reports as it goes.

Started by `pacman.grading.running.isolated` with `pacman.hosting.isolation.Child`. This process
is the referee: it parses the tests and the solutions, plays, counts and adds up the points, and
never imports the submission, which runs in a host process of its own
(`pacman.grading.running.hosted`). It reads one request (the suite's paths, the questions, the
submission, the memory cap), then sends `loaded` (or
`load_failed`), a `question_start`, `test_start` and `test_done` for every test, a
`question_done` per question, and `done`. Whatever the submission does to this process, the
parent keeps what was sent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from pacman.errors import GradingError, SuiteError
from pacman.grading.cases.suite import Question, find_suite
from pacman.grading.reports.results import QuestionResult, TestResult
from pacman.grading.running.contestant import Contestant, Graded
from pacman.grading.running.hosted import HostedContestant
from pacman.grading.running.session import grade_suite, relative_name
from pacman.grading.running.stalls import STALL_FD_ENV
from pacman.hosting.isolation import child_setup, printable


def main() -> None:
    """Serve one grading request on the channel."""
    channel = child_setup()
    request = channel.receive()
    if request is None:
        return
    hosted: list[HostedContestant] = []
    _answer_stall_requests(hosted)
    submission = request.get("submission")
    agent_random = str(request.get("agent_random", "shared"))
    contestant: Graded | None = None
    try:
        if submission is not None:  # its code runs only in a host process, which starts
            # loading it now, while this process reads the suite; the host does not see the
            # suite (its sandbox has a copy of the submission's files and nothing else)
            contestant = HostedContestant(submission, request.get("memory_mb"),
                                          hide=suite_folders(request["paths"]), wait=False,
                                          agent_random=agent_random)
            hosted.append(contestant)
        try:
            suite = find_suite(request["paths"])
            if request.get("questions"):
                suite = suite.select(request["questions"])
            suite = replace(suite, strict=bool(request.get("strict")))
        except SuiteError as error:  # the suite changed under us: say so, do not crash
            channel.send({"event": "load_failed", "error": f"the test suite: {error}"})
            return
        if isinstance(contestant, HostedContestant):
            contestant.loaded()
        else:  # our own agents play here
            contestant = Contestant(None, agent_random)
    except GradingError as error:
        if contestant is not None:
            contestant.close()
        channel.send({"event": "load_failed", "error": str(error)})
        return
    channel.send({"event": "loaded"})
    started: set[str] = set()

    def on_start(question: Question, path: Path) -> None:
        if question.name not in started:
            started.add(question.name)
            channel.send({"event": "question_start", "question": question.name})
        channel.send({"event": "test_start", "question": question.name,
                      "test": relative_name(suite, path)})

    def on_result(question: Question, result: TestResult) -> None:
        channel.send({"event": "test_done", "question": question.name, "result": result.to_dict()})

    def on_question(result: QuestionResult) -> None:
        channel.send({"event": "question_done", "result": result.to_dict()})

    try:
        grade_suite(suite, contestant, on_start, on_result, on_question)
    finally:
        printed = contestant.close()
        if printed:  # what the submission printed joins this worker's output
            sys.stdout.write(printed)
            sys.stdout.flush()
    channel.send({"event": "done"})


def _answer_stall_requests(hosted: list[HostedContestant]) -> None:
    """On `SIGUSR1` from the parent (about to stop this worker at a hard limit), write where
    the submission's code is (`stalls.where_stuck`) as one line to the parent's pipe."""
    text = os.environ.get(STALL_FD_ENV)
    if not text or not text.isdigit():
        return
    fd = int(text)

    def answer(number: int, frame: Any) -> None:
        where = hosted[0].where_stuck() if hosted else ""
        with contextlib.suppress(OSError):
            os.write(fd, (printable(where).replace("\n", " ")[:2000] + "\n").encode())

    signal.signal(signal.SIGUSR1, answer)


def suite_folders(paths: list[str]) -> list[str]:
    """The folders of a suite given as `paths` (a folder, or a test file's folder)."""
    folders = {Path(p).resolve() if Path(p).is_dir() else Path(p).resolve().parent
               for p in paths}
    return sorted(str(f) for f in folders)


if __name__ == "__main__":
    main()
