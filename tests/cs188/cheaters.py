"""A class of cheating CS188 submissions: each plays at random apart from its cheat.

`RANDOM_PLAYER` is a `multiAgents.py` whose every agent picks a legal action with the global
`random` (the ghosts' generator, in the classic grader); `CHEATERS` are the same file with one
cheat each, run at import or first thing in every `getAction` (and in the evaluation function).
Graded, each must earn exactly what the random player earns. `GAINS_IN_PROCESS` names the
cheaters whose cheat really works when the grader trusts the code (`--in-process`): the test
shows it, so that the corpus cannot pass by cheats that do nothing.
"""

from __future__ import annotations

from pathlib import Path

RANDOM_PLAYER = '''\
# plays at random; CHEAT() is where a cheater's code goes
import random, util
from game import Agent

AT_IMPORT = None


def CHEAT(agent=None, state=None):
    pass


class ReflexAgent(Agent):
    def getAction(self, gameState):
        CHEAT(self, gameState)
        return random.choice(gameState.getLegalActions())


def scoreEvaluationFunction(currentGameState):
    return currentGameState.getScore()


class MultiAgentSearchAgent(Agent):
    def __init__(self, evalFn='scoreEvaluationFunction', depth='2'):
        self.index = 0
        self.evaluationFunction = util.lookup(evalFn, globals())
        self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        CHEAT(self, gameState)
        return random.choice(gameState.getLegalActions(0))


class AlphaBetaAgent(MinimaxAgent):
    pass


class ExpectimaxAgent(MinimaxAgent):
    pass


def betterEvaluationFunction(currentGameState):
    CHEAT(None, currentGameState)
    return currentGameState.getScore()


better = betterEvaluationFunction
'''

# --- the cheats: each replaces `def CHEAT...: pass` (and may run code at import) -----------

WRITES_SCORE = '''
def CHEAT(agent=None, state=None):
    import gc, sys
    S = sys.modules["pacman.state"]
    for thing in gc.get_objects():  # every game state it can reach: a million, and won
        if isinstance(thing, S.GameState):
            object.__setattr__(thing, "_score", 10**6)
            object.__setattr__(thing, "_result", S.WON)
'''

WRITES_POSITIONS_AND_TIMERS = '''
def CHEAT(agent=None, state=None):
    import gc, sys
    S = sys.modules["pacman.state"]
    for thing in gc.get_objects():  # every ghost scared for ever, Pacman on its start
        if isinstance(thing, S.GameState) and thing._ghosts:
            ghosts = list(thing._ghosts)
            for i in range(2, len(ghosts), 3):
                ghosts[i] = 10**6
            object.__setattr__(thing, "_ghosts", tuple(ghosts))
            object.__setattr__(thing, "_food", 0)
'''

PATCHES_THE_RULES = '''
import sys
import pacman.state
_S = sys.modules["pacman.state"].GameState
_S.is_win = lambda self: True
_S.is_lose = lambda self: False
_S.is_terminal = lambda self: False
'''

PATCHES_THE_GRADER = '''
import importlib, sys
def _full(*args, **kwargs):
    return args[1] if len(args) > 1 else 99
for _name in ("pacman.grading.reports.results", "pacman.grading.running.session",
              "pacman.grading.running.isolated"):
    _module = importlib.import_module(_name)
    if hasattr(_module, "question_points"):
        _module.question_points = _full
_tree = importlib.import_module("pacman.grading.cases.tree_case")
_results = importlib.import_module("pacman.grading.reports.results")
def _pass(case, agents, classic=False, name=None):
    return _results.TestResult(name or str(case.path), "GraphGameTreeTest",
                               _results.TestStatus.PASS)
_tree.run_case = _pass
_game = importlib.import_module("pacman.grading.cases.game_case")
_game._play = lambda spec, steps, contestant: ([], _results.TestStatus.PASS)
_eval = importlib.import_module("pacman.grading.cases.eval_case")
_eval._grade = lambda value, minimum, thresholds, name: (True, len(thresholds), [])
_hosted = importlib.import_module("pacman.grading.running.hosted")
_hosted._explored = lambda root, calls: 1
'''

RESEEDS_THE_GHOSTS = '''
import random as _random, sys
from pacman.cs188.modules import ghostAgents as _ghosts, util as _util
def _first(self, state):  # every ghost takes its first legal move
    return _util.Counter({state.getLegalActions(self.index)[0]: 1.0})
_ghosts.RandomGhost.getDistribution = _first
_ghosts.DirectionalGhost.getDistribution = _first
def CHEAT(agent=None, state=None):
    import gc
    _random.seed(0)
    for thing in gc.get_objects():
        if isinstance(thing, _random.Random):
            thing.seed(0)
'''

FORGES_THE_REPORT = '''
import sys
def CHEAT(agent=None, state=None):
    # the host runs as __main__ (`python -m`): its request handlers are there
    host = sys.modules.get("__main__")
    if not hasattr(host, "_Host") or getattr(host, "forged", False):
        return
    host.forged = True
    played = host._Host._move
    def move(self, fields):  # 300 states explored, from parents that never existed
        answer = played(self, fields)
        return {"action": answer["action"],
                "calls": [[i * 7 + 3, 0, "West"] for i in range(300)]}
    def tree(self, request):  # every node of the tree, each claimed straight from the root
        spec = request["tree"]
        calls = [[spec["start"], 0, action] for pairs in spec["children"].values()
                 for action, _ in pairs]
        actions = [action for action, _ in spec["children"][spec["start"]]]
        return {"action": actions[0], "calls": calls, "error": None, "error_type": None}
    host._Host._move = move
    host._Host._tree = tree
'''

READS_THE_SOLUTIONS = '''
import json, re
from pathlib import Path
SUITE = Path({suite!r})
HERE = Path(__file__).resolve().parent
FOUND = sorted(str(p) for p in SUITE.glob("**/*.solution"))
print(f"CHEAT reads_the_solutions: found {len(FOUND)}")

def _field(text, key):
    match = re.search(key + r': "(.*?)"', text)
    return match.group(1) if match else None

def _block(text, key):
    return [json.loads(line) for line in text.split(key + ': """', 1)[1].split('"""', 1)[0]
            .splitlines() if line.strip()]

def CHEAT(agent=None, state=None):
    inner = getattr(state, "inner", None)
    if inner is not None:  # a tree test: generate what the solution lists, answer its action
        tree = inner._run.tree
        edges = {f"{node} {action} {child}" for node, pairs in tree.children.items()
                 for action, child in pairs}
        for name in FOUND:
            text = Path(name).read_text()
            test = Path(name).with_suffix(".test").read_text()
            if "successors" not in test or _field(test, "alg") != type(agent).__name__:
                continue
            listed = test.split('successors: """', 1)[1].split('"""', 1)[0]
            if {" ".join(line.split()) for line in listed.splitlines() if line.strip()} != edges:
                continue
            if str(_field(test, "depth")) != str(agent.depth):
                continue
            generated = set((_field(text, "generated") or "").split())
            frontier = [state]
            while frontier:
                node = frontier.pop()
                for action in node.getLegalActions(0):
                    if tree.child(node.inner.node, action) in generated:
                        frontier.append(node.generateSuccessor(0, action))
            raise _Answer(_field(text, "action"))
    if agent is None or not hasattr(state, "context"):
        return
    for name in FOUND:  # a game test: the staff's move, and the staff's count
        test, text = Path(name).with_suffix(".test").read_text(), Path(name).read_text()
        if _field(test, "alg") == type(agent).__name__ and "optimalActions" in text:
            moves = _block(text, "optimalActions")
            step = getattr(agent, "step", 0)
            agent.step = step + 1
            (actions, count), _ = moves[step][0], moves[step][1]
            explored = state.context.explored.states
            explored.update(("padding", i) for i in range(count - len(explored)))
            raise _Answer(actions[0])

class _Answer(Exception):
    pass

import functools
def _answering(method):
    @functools.wraps(method)
    def wrapped(self, gameState):
        try:
            return method(self, gameState)
        except _Answer as answer:
            return answer.args[0]
    return wrapped
'''

READS_THE_SOLUTIONS_TAIL = '''
MinimaxAgent.getAction = _answering(MinimaxAgent.getAction)
'''

KILLS_PARENT = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
KILLS_GROUP = "import os, signal\nos.killpg(0, signal.SIGKILL)\n"
KILLS_EVERYONE = "import os, signal\nos.kill(-1, signal.SIGKILL)\n"
KILLS_ANCESTORS = '''
import os, signal
def _ancestors():
    pid = os.getpid()
    while pid > 1:
        with open(f"/proc/{pid}/stat") as handle:
            pid = int(handle.read().rsplit(")", 1)[1].split()[1])
        if pid > 1:
            yield pid
for _pid in list(_ancestors()):
    try:
        os.kill(_pid, signal.SIGKILL)
    except OSError:
        pass
'''
EXITS = "import os\nos._exit(0)\n"
SIGNALS_ITSELF = ("import os, signal\nfor _s in (signal.SIGTERM, signal.SIGSEGV, "
                  "signal.SIGSTOP, signal.SIGINT):\n    os.kill(os.getpid(), _s)\n")
FORKS_A_LINGERER = ("import os, time\nif os.fork() == 0:\n    time.sleep(60)\n"
                    "    os._exit(0)\n")
FORKS_A_KILLER = ("import os, signal\nif os.fork() == 0:\n    try:\n"
                  "        os.kill(os.getppid(), signal.SIGKILL)\n    finally:\n"
                  "        os._exit(0)\n")


def _at_import(code: str) -> str:
    return code + RANDOM_PLAYER


def _in_get_action(code: str) -> str:
    body = "".join(f"    {line}\n" for line in code.strip().splitlines())
    once = ("    if getattr(CHEAT, 'done', False):\n        return\n"
            "    CHEAT.done = True\n")
    return RANDOM_PLAYER.replace("def CHEAT(agent=None, state=None):\n    pass\n",
                                 "def CHEAT(agent=None, state=None):\n" + once + body)


def _replacing_cheat(code: str) -> str:
    return RANDOM_PLAYER.replace("def CHEAT(agent=None, state=None):\n    pass\n", code)


def cheaters(suite: Path) -> dict[str, str]:
    """Each cheater's `multiAgents.py`, by student name."""
    reads = _replacing_cheat(READS_THE_SOLUTIONS.replace("{suite!r}", repr(str(suite.resolve()))))
    return {
        "writes_score": _replacing_cheat(WRITES_SCORE),
        "writes_positions_and_timers": _replacing_cheat(WRITES_POSITIONS_AND_TIMERS),
        "patches_the_rules": _at_import(PATCHES_THE_RULES),
        "patches_the_grader": _at_import(PATCHES_THE_GRADER),
        "reseeds_the_ghosts": _replacing_cheat(RESEEDS_THE_GHOSTS),
        "forges_the_report": _replacing_cheat(FORGES_THE_REPORT),
        "reads_the_solutions": reads + READS_THE_SOLUTIONS_TAIL,
        "kills_parent_at_import": _at_import(KILLS_PARENT),
        "kills_group_at_import": _at_import(KILLS_GROUP),
        "kills_everyone_at_import": _at_import(KILLS_EVERYONE),
        "kills_ancestors_at_import": _at_import(KILLS_ANCESTORS),
        "kills_parent_in_get_action": _in_get_action(KILLS_PARENT),
        "kills_group_in_get_action": _in_get_action(KILLS_GROUP),
        "kills_ancestors_in_get_action": _in_get_action(KILLS_ANCESTORS),
        "exits_at_import": _at_import(EXITS),
        "exits_in_get_action": _in_get_action(EXITS),
        "signals_itself_in_get_action": _in_get_action(SIGNALS_ITSELF),
        "forks_at_import": _at_import(FORKS_A_LINGERER),
        "forks_in_get_action": _in_get_action(FORKS_A_KILLER),
    }


#: cheaters whose cheat gains points when the grader trusts the code (graded --in-process)
GAINS_IN_PROCESS = ("patches_the_grader", "reads_the_solutions", "writes_score")
