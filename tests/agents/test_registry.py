"""The agent registry: every registered name resolves and plays; `module:Class`; errors."""

from __future__ import annotations

import importlib
import inspect
import textwrap
from pathlib import Path

import pytest

from pacman import Outcome, parse_layout, run_game
from pacman.agents.registry import AGENTS, AgentEntry, agent_names, find_agent, make_agent
from pacman.errors import RegistryError

SMALL = parse_layout("""
    %%%%%%%%%
    %P.. o .%
    % %%%%% %
    %.. G  .%
    %%%%%%%%%
""")


@pytest.mark.parametrize("entry", AGENTS, ids=[f"{e.role}-{e.class_name}" for e in AGENTS])
def test_every_registered_name_resolves_for_its_role(entry: AgentEntry) -> None:
    module = importlib.import_module(entry.module)
    cls = getattr(module, entry.class_name, None)
    assert inspect.isclass(cls), f"{entry.module} has no class {entry.class_name}"
    assert entry.load() is cls
    for name in (entry.class_name, entry.short, entry.class_name.lower()):
        assert find_agent(name, entry.role) == entry
    index = 0 if entry.role == "pacman" else 1
    agent = make_agent(entry.class_name, entry.role, {}, index=index)
    assert isinstance(agent, cls)
    assert agent.index == index
    assert callable(agent.get_action)
    assert entry.summary


@pytest.mark.parametrize("entry", [e for e in AGENTS if e.short != "keyboard"],
                         ids=[f"{e.role}-{e.class_name}" for e in AGENTS if e.short != "keyboard"])
def test_every_registered_agent_plays_a_short_game(entry: AgentEntry) -> None:
    if entry.role == "pacman":
        pacman = make_agent(entry.short, "pacman", index=0)
        ghosts = [make_agent("RandomGhost", "ghost", index=1)]
    else:
        pacman = make_agent("RandomAgent", "pacman", index=0)
        ghosts = [make_agent(entry.short, "ghost", index=1)]
    record = run_game(SMALL, pacman, ghosts, seed=1, max_moves=15)
    assert record.fault is None, record.fault
    assert record.outcome in (Outcome.WIN, Outcome.LOSS, Outcome.CAPPED)


def test_short_names_are_per_role() -> None:
    assert isinstance(find_agent("random", "pacman"), AgentEntry)
    pacman_random = find_agent("random", "pacman")
    ghost_random = find_agent("random", "ghost")
    assert isinstance(pacman_random, AgentEntry) and isinstance(ghost_random, AgentEntry)
    assert pacman_random.class_name == "RandomAgent"
    assert ghost_random.class_name == "RandomGhost"
    assert agent_names("ghost") == [e.class_name for e in AGENTS if e.role == "ghost"]
    assert "DirectionalGhost" not in agent_names("pacman")


def test_registered_names_are_unique_per_role() -> None:
    for role in ("pacman", "ghost"):
        names = [n.lower() for e in AGENTS if e.role == role for n in (e.class_name, e.short)]
        assert len(names) == len(set(names)), role


def test_a_name_of_the_other_role_is_unknown() -> None:
    with pytest.raises(RegistryError) as caught:
        find_agent("DirectionalGhost", "pacman")
    assert "RandomAgent" in str(caught.value)


def test_unknown_name_lists_the_known_names() -> None:
    for role in ("pacman", "ghost"):
        with pytest.raises(RegistryError) as caught:
            find_agent("NoSuchAgent", role)
        message = str(caught.value)
        assert "NoSuchAgent" in message
        for entry in AGENTS:
            if entry.role == role:
                assert entry.class_name in message and entry.short in message
        assert "module:Class" in message
    assert issubclass(RegistryError, ValueError)


MODULE = """
    from pacman import Direction

    class MyAgent:
        def __init__(self, index=0, speed=1):
            self.index = index
            self.speed = speed

        def get_action(self, state):
            return Direction.STOP

    class NoIndex:
        def get_action(self, state):
            return state.legal_actions(self.index)[0]

    not_a_class = 3
"""


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = f"user_agents_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_module_colon_class(user_module: str) -> None:
    found = find_agent(f"{user_module}:MyAgent", "pacman")
    assert inspect.isclass(found) and found.__name__ == "MyAgent"
    agent = make_agent(f"{user_module}:MyAgent", "pacman", {"speed": 3}, index=0)
    assert (agent.index, agent.speed) == (0, 3)
    ghost = make_agent(f"{user_module}:MyAgent", "ghost", index=2)
    assert ghost.index == 2
    plain = make_agent(f"{user_module}:NoIndex", "ghost", index=1)
    assert plain.index == 1  # set after construction for a class without `index`
    record = run_game(SMALL, agent, [plain], seed=0, max_moves=3)
    assert record.outcome is Outcome.CAPPED


def test_module_colon_class_errors(user_module: str) -> None:
    with pytest.raises(RegistryError, match="no class 'Missing'"):
        find_agent(f"{user_module}:Missing", "pacman")
    with pytest.raises(RegistryError, match="no class 'not_a_class'"):
        find_agent(f"{user_module}:not_a_class", "pacman")
    with pytest.raises(RegistryError, match="no_such_module_for_tests"):
        find_agent("no_such_module_for_tests:Agent", "pacman")


def test_bad_settings_name_what_the_agent_accepts(user_module: str) -> None:
    with pytest.raises(RegistryError) as caught:
        make_agent(f"{user_module}:MyAgent", "pacman", {"depth": 3})
    assert "speed" in str(caught.value)
    with pytest.raises(RegistryError):
        make_agent("DirectionalGhost", "ghost", {"prob_attack": 2.0}, index=1)
    with pytest.raises(RegistryError):
        make_agent("greedy", "pacman", {"depth": 2}, index=0)


def test_an_unknown_setting_is_named_without_python_internals() -> None:
    with pytest.raises(RegistryError) as caught:
        make_agent("alphabeta", "pacman", {"quiescence": 1}, index=0)
    assert str(caught.value) == ("bad settings for AlphaBetaAgent: unknown setting 'quiescence' "
                                 "(it accepts: depth, evaluation, allow_stop, tie_break, "
                                 "repetition, cycles, trace)")
    with pytest.raises(RegistryError) as caught:
        make_agent("DirectionalGhost", "ghost", {"depth": 2}, index=1)
    assert "unknown setting 'depth'" in str(caught.value) and "__init__" not in str(caught.value)


@pytest.mark.parametrize("entry", [e for e in AGENTS if e.class_name != "KeyboardAgent"],
                         ids=lambda e: f"{e.role}-{e.short}")
def test_an_agent_carries_the_spec_a_batch_stores_for_it(entry: AgentEntry) -> None:
    """`agent.spec`, like a Gymnasium env's `env.spec`: the canonical spec (the one
    `canonical_agent` resolves for a batch), which builds an agent with the same spec."""
    from pacman.agents.resolve import canonical_agent
    from pacman.specs import AgentSpec

    index = 0 if entry.role == "pacman" else 1
    agent = make_agent(entry.short, entry.role, index=index)
    assert agent.spec == canonical_agent(AgentSpec(entry.short), entry.role, index)[0]
    again = make_agent(agent.spec.name, entry.role, agent.spec.settings_dict(), index=index)
    assert again.spec == agent.spec and agent.spec.name == entry.class_name
