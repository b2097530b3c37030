"""The stall matrix: a full-marks CS188 file with one stall put in one place.

`stalled(kind, place)` is the correct submission with `STALL()` called first thing in `place`
(at import, in `MultiAgentSearchAgent.__init__`, in a `registerInitialState` it is given, in
each agent's `getAction`, in `evaluationFunction`, in `betterEvaluationFunction`), where `STALL`
is one of `KINDS`: an endless loop, a sleep, a loop that ignores SIGTERM, SIGINT and SIGALRM, or
busy threads that the code waits for. `LOSES[place]` are the questions that run that code;
`STALL_LINES[kind]` the lines (of the file) where the code is stuck.
"""

from __future__ import annotations

from classroom import CORRECT

KINDS = {
    "loop": '''
def STALL():
    while True:
        pass
''',
    "sleep": '''
def STALL():
    import time
    time.sleep(10 ** 6)
''',
    "deaf_loop": '''
def STALL():
    import signal
    for name in ("SIGTERM", "SIGINT", "SIGALRM"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        pass
''',
    "busy_threads": '''
def STALL():
    import threading
    def spin():
        while True:
            pass
    threads = [threading.Thread(target=spin, daemon=True) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
''',
}

#: where the stall goes: (the line after which `STALL()` is put, its indentation)
PLACES = {
    "import": ("def betterEvaluationFunction(currentGameState: GameState):", None),
    "MultiAgentSearchAgent.__init__":
        ("    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):", "        "),
    "registerInitialState": ("class MultiAgentSearchAgent(Agent):", None),
    "ReflexAgent.getAction": ("class ReflexAgent(Agent):", "getAction"),
    "evaluationFunction":
        ("    def evaluationFunction(self, currentGameState: GameState, action):", "        "),
    "MinimaxAgent.getAction": ("class MinimaxAgent(MultiAgentSearchAgent):", "getAction"),
    "AlphaBetaAgent.getAction": ("class AlphaBetaAgent(MultiAgentSearchAgent):", "getAction"),
    "ExpectimaxAgent.getAction": ("class ExpectimaxAgent(MultiAgentSearchAgent):", "getAction"),
    "betterEvaluationFunction": ("def betterEvaluationFunction(currentGameState: GameState):",
                                 "    "),
}

#: the questions that run each place's code (and lose their points)
LOSES = {
    "import": ("q1", "q2", "q3", "q4", "q5"),
    "MultiAgentSearchAgent.__init__": ("q2", "q3", "q4", "q5"),
    "registerInitialState": ("q2", "q3", "q4", "q5"),
    "ReflexAgent.getAction": ("q1",),
    "evaluationFunction": ("q1",),
    "MinimaxAgent.getAction": ("q2",),
    "AlphaBetaAgent.getAction": ("q3",),
    "ExpectimaxAgent.getAction": ("q4", "q5"),
    "betterEvaluationFunction": ("q5",),
}


def stalled(kind: str, place: str) -> str:
    """The correct file with a stall of `kind` in `place`."""
    lines = CORRECT.read_text(encoding="utf-8").split("\n")
    anchor, how = PLACES[place]
    at = lines.index(anchor)
    if place == "import":  # a call at the end of the module, after every definition
        lines.append("STALL()")
    elif place == "registerInitialState":  # a method the class did not have
        lines[at + 1:at + 1] = ["    def registerInitialState(self, gameState):",
                                "        STALL()", ""]
    elif how == "getAction":
        start = next(i for i in range(at, len(lines)) if "def getAction" in lines[i])
        lines.insert(start + 1, "        STALL()")
    else:
        assert how is not None
        lines.insert(at + 1, f"{how}STALL()")
    imports = max(i for i, line in enumerate(lines) if line.startswith(("import ", "from ")))
    lines[imports + 1:imports + 1] = KINDS[kind].split("\n")
    return "\n".join(lines)


def stall_lines(text: str) -> set[int]:
    """The line numbers, in `text`, where the stall's code waits or spins (inside `STALL`)."""
    lines = text.split("\n")
    start = lines.index("def STALL():")
    end = next(i for i in range(start + 1, len(lines)) if lines[i] and not lines[i][0].isspace())
    return {i + 1 for i in range(start + 1, end)
            if lines[i].strip() in ("pass", "time.sleep(10 ** 6)", "thread.join()",
                                    "while True:")}
