"""Did you mean: a misspelled agent, ghost, layout, evaluation, demo or command name is one line
on stderr suggesting the closest name, exit status 2; a name close to none lists them as before."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pacman.agents.evaluation import resolve_evaluation
from pacman.agents.registry import find_agent, resolve_name
from pacman.cli import main
from pacman.errors import LayoutError, RegistryError, UnknownDemo
from pacman.layout import load_layout
from pacman.suggest import CUTOFF, close_name, did_you_mean

# --------------------------------------------------------------------------- the library


@pytest.mark.parametrize(("name", "choices", "expected"), [
    ("alphabet", ["minimax", "alphabeta", "expectimax"], "alphabeta"),
    ("plya", ["play", "layouts", "replay"], "play"),           # a swap in four letters
    ("horizn", ["depth", "horizon", "mixed"], "horizon"),      # a letter left out
    ("bettr", ["score", "better", "wary"], "better"),
    ("fly", ["play", "layouts", "replay"], None),              # 0.57: not close
    ("human", ["team", "maxn"], None),                         # 0.67: not close
    ("zzz", ["play"], None),
    ("", ["play"], None),
    ("play", [], None),
])
def test_close_name_is_the_closest_choice_or_none(name: str, choices: list[str],
                                                  expected: str | None) -> None:
    assert close_name(name, choices) == expected


def test_close_name_ignores_case_and_answers_in_the_choices_spelling() -> None:
    assert close_name("smallclassic", ["mediumClassic", "smallClassic"]) == "smallClassic"
    assert close_name("PLYA", ["play"]) == "play"


def test_close_name_gives_one_name_the_closest() -> None:
    assert close_name("expectmax", ["expectiminimax", "expectimax"]) == "expectimax"
    assert close_name("expectiminmax", ["expectimax", "expectiminimax"]) == "expectiminimax"


def test_close_name_never_suggests_the_name_itself() -> None:
    assert close_name("play", ["play"]) is None
    assert close_name("Play", ["play"]) == "play"


def test_close_name_compares_by_the_key_and_returns_the_choice() -> None:
    def no_suffix(text: str) -> str:
        return text.casefold().removesuffix("agent")

    # by the whole name `myagent` is 0.75 like `mctsagent`; without the suffix `my` is not
    assert close_name("MyAgent", ["MCTSAgent", "RandomAgent"]) == "MCTSAgent"
    assert close_name("MyAgent", ["MCTSAgent", "RandomAgent"], key=no_suffix) is None
    assert close_name("RandumAgent", ["MCTSAgent", "RandomAgent"], key=no_suffix) == "RandomAgent"


def test_the_cutoff_is_a_bound_on_difflibs_ratio() -> None:
    assert 0.6 <= CUTOFF <= 0.8
    assert close_name("ab", ["abcd"]) is None              # 0.67
    assert close_name("ab", ["abcd"], cutoff=0.6) == "abcd"


def test_did_you_mean_is_the_phrase_or_nothing() -> None:
    assert did_you_mean("alphabet", ["alphabeta"]) == "(did you mean 'alphabeta'?)"
    assert did_you_mean("zzz", ["alphabeta"]) == ""


# ----------------------------------------------------------------- where names are rejected


@pytest.mark.parametrize(("name", "role", "suggested"), [
    ("alphabet", "pacman", "alphabeta"),
    ("Alphabet", "pacman", "alphabeta"),
    ("AlphaBetAgent", "pacman", "AlphaBetaAgent"),   # a class name suggests a class name
    ("RandomGhost", "pacman", "RandomAgent"),        # the other role's class
    ("directonal", "ghost", "directional"),
    ("DirectionalGhots", "ghost", "directional"),   # no class ending: a short name
    ("mtcs", "ghost", "mcts"),
])
def test_a_misspelled_agent_name_suggests_one(name: str, role: str, suggested: str) -> None:
    for lookup in (find_agent, resolve_name):
        with pytest.raises(RegistryError) as caught:
            lookup(name, role)
        who = "Pacman" if role == "pacman" else "ghost"
        assert str(caught.value) == f"unknown {who} agent {name!r} (did you mean {suggested!r}?)"


@pytest.mark.parametrize(("name", "role"), [
    ("MyAgent", "pacman"), ("nosuchagent", "pacman"), ("NoSuchGhost", "ghost"),
    ("Casper", "ghost"), ("DirectionalGhost", "pacman"), ("human", "ghost")])
def test_an_agent_name_close_to_none_lists_the_known_ones(name: str, role: str) -> None:
    with pytest.raises(RegistryError) as caught:
        find_agent(name, role)
    message = str(caught.value)
    assert "did you mean" not in message
    assert "; known: " in message and "module:Class" in message


def test_a_misspelled_layout_evaluation_and_demo_suggest_one() -> None:
    from pacman.demos import find_demo

    with pytest.raises(LayoutError, match=r"^smallclassic: no such layout \(did you mean "
                                          r"'smallClassic'\?\)$"):
        load_layout("smallclassic")
    with pytest.raises(ValueError, match=r"^unknown evaluation 'bettr' \(did you mean "
                                         r"'better'\?\)$"):
        resolve_evaluation("bettr")
    with pytest.raises(UnknownDemo, match=r"^unknown demo 'horizn' \(did you mean "
                                          r"'horizon'\?\)$"):
        find_demo("horizn")


def test_names_close_to_none_list_the_choices_as_before() -> None:
    from pacman.demos import find_demo

    with pytest.raises(LayoutError, match=r"no such layout \(shipped layouts: .*smallClassic"):
        load_layout("zzzz")
    with pytest.raises(ValueError, match=r"unknown evaluation 'zzzz': use one of .*better"):
        resolve_evaluation("zzzz")
    with pytest.raises(UnknownDemo, match=r"unknown demo 'zzzz'; demos: .*horizon"):
        find_demo("zzzz")


# --------------------------------------------------------------------------- the command line

CLI_MISTAKES: list[tuple[str, list[str], str]] = [
    ("agent", ["play", "-p", "alphabet", "-q"],
     "unknown Pacman agent 'alphabet' (did you mean 'alphabeta'?)"),
    ("ghost", ["play", "-p", "random", "-g", "directonal", "-q"],
     "unknown ghost agent 'directonal' (did you mean 'directional'?)"),
    # with a time limit the agents are built in a host process: the name is checked before
    ("ghost with a time limit", ["play", "-p", "random", "-g", "directonal", "-q",
                                 "--timeout", "1"],
     "unknown ghost agent 'directonal' (did you mean 'directional'?)"),
    ("batch agent", ["batch", "-p", "alphabet", "-l", "testClassic", "-n", "1"],
     "unknown Pacman agent 'alphabet' (did you mean 'alphabeta'?)"),
    ("layout", ["play", "-p", "random", "-l", "smallclassic", "-q"],
     "smallclassic: no such layout (did you mean 'smallClassic'?)"),
    ("evaluation", ["play", "-p", "alphabeta", "-a", "evaluation=bettr", "-q"],
     "bad settings for AlphaBetaAgent: unknown evaluation 'bettr' (did you mean 'better'?)"),
    ("demo", ["demo", "horizn", "-q"], "unknown demo 'horizn' (did you mean 'horizon'?)"),
    ("command", ["plya", "-p", "random"], "unknown command 'plya' (did you mean 'play'?)"),
    ("command in capitals", ["Layouts"], "unknown command 'Layouts' (did you mean 'layouts'?)"),
]


@pytest.mark.parametrize(("argv", "message"), [(m[1], m[2]) for m in CLI_MISTAKES],
                         ids=[m[0] for m in CLI_MISTAKES])
def test_a_misspelled_name_is_one_line_with_one_suggestion_and_exit_2(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", f"pacman: error: {message}\n")


@pytest.mark.parametrize("argv", [["fly"], ["play", "-p", "random", "-g", "Casper", "-q"],
                                  ["demo", "zzzz", "-q"]], ids=["command", "ghost", "demo"])
def test_a_name_close_to_none_is_one_line_without_a_suggestion(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("pacman: error: ") and err.count("\n") == 1
    assert "did you mean" not in err and argv[-1 if argv[-1] != "-q" else -2] in err


def test_a_real_process_says_it_in_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "pacman", "plya"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "pacman: error: unknown command 'plya' (did you mean 'play'?)\n"
