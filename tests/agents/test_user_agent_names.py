"""One agent description and names of the user's own: `AgentSpec.parse("alphabeta@depth=3")`
types its settings once; `register(name, "module:Class")` and the `pacman.agents` /
`pacman.ghosts` entry points name a user's agent class, which is only another way to write its
`module:Class`: resolved to it, played in a host of its own, never trusted as a built-in."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pacman.agents import registry
from pacman.errors import RegistryError, SettingsError
from pacman.specs import AgentSpec

AGENT_FILE = textwrap.dedent("""
    class Hugger:
        '''Plays its first legal move.'''

        def get_action(self, state):
            return state.legal_actions(0)[0]
""")


@pytest.mark.parametrize(("text", "name", "settings"), [
    ("alphabeta@depth=3", "alphabeta", {"depth": 3}),
    ("expectimax@depth=2,evaluation=score:1,food:-1.5", "expectimax",
     {"depth": 2, "evaluation": "score:1,food:-1.5"}),
    ("mcts@time=0.1,trace=true", "mcts", {"time": 0.1, "trace": True}),
    ("greedy", "greedy", {}),
])
def test_a_spec_is_parsed_once_with_typed_settings(text: str, name: str,
                                                   settings: dict[str, object]) -> None:
    spec = AgentSpec.parse(text)
    assert spec == AgentSpec.of(name, settings)  # type: ignore[arg-type]
    assert AgentSpec.parse(spec.text_form()) == spec


@pytest.mark.parametrize("text", ["", "@depth=2", "alphabeta@depth", "alphabeta@=3"])
def test_a_spec_that_cannot_be_read_is_a_settings_error(text: str) -> None:
    with pytest.raises(SettingsError):
        AgentSpec.parse(text)


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on the path holding an agent module and an installed distribution whose
    entry points name it (as `pip install` of a package with the entry points would)."""
    (tmp_path / "plug_agents.py").write_text(AGENT_FILE, encoding="utf-8")
    info = tmp_path / "pacman_plug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pacman-plug\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[pacman.agents]\nhugger = plug_agents:Hugger\n\n"
        "[pacman.ghosts]\ndirectional = plug_agents:Hugger\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.delitem(sys.modules, "plug_agents", raising=False)
    return tmp_path


def test_a_registered_name_is_its_module_and_class_and_never_trusted(plugin: Path) -> None:
    from pacman.hosting.agent_host import trusted

    registry.register("mine", "plug_agents:Hugger")
    assert registry.resolve_name("Mine", "pacman") == "plug_agents:Hugger"
    assert type(registry.make_agent("mine", "pacman")).__name__ == "Hugger"
    assert not trusted("mine", "pacman", {})  # the user's code: played in a host
    assert registry.plugin_target("mine", "ghost") is None  # a name is per role
    with pytest.raises(RegistryError, match="built-in pacman agent's name"):
        registry.register("alphabeta", "plug_agents:Hugger")
    with pytest.raises(RegistryError, match="write module:Class"):
        registry.register("other", "plug_agents.Hugger")
    with pytest.raises(RegistryError, match="bad role"):
        registry.register("other", "plug_agents:Hugger", role="referee")


def test_an_entry_point_names_an_agent_without_importing_it(plugin: Path) -> None:
    assert registry.plugin_target("hugger", "pacman") == "plug_agents:Hugger"
    assert "plug_agents" not in sys.modules  # names are read from the metadata alone
    assert registry.plugin_target("directional", "ghost") is None  # a built-in name stays
    with pytest.raises(RegistryError, match="did you mean 'hugger'"):
        registry.resolve_name("huger", "pacman")


def test_an_entry_point_agent_plays_from_the_command_line(plugin: Path) -> None:
    environment = {**os.environ, "PYTHONPATH": str(plugin), "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "pacman", "play", "-p", "hugger", "-l",
                           "testClassic", "-q", "--seed", "1", "--record", "game.json"],
                          cwd=plugin, env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "game 1: seed 1" in done.stdout
    from pacman.replay import load_replay

    assert load_replay(plugin / "game.json").record.agents[0] == "Hugger"
    listed = subprocess.run([sys.executable, "-m", "pacman", "agents"], cwd=plugin,
                            env=environment, capture_output=True, text=True, timeout=300)
    assert "yours: plug_agents:Hugger" in listed.stdout
