"""Typed agent settings: one frozen dataclass per agent gives the names, defaults, checks,
errors, batch keys and the docs' tables."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pacman.agents.ghosts import DirectionalGhost, DirectionalSettings
from pacman.agents.mcts import MCTSSettings
from pacman.agents.pacman_agents import (
    AlphaBetaAgent,
    AnytimeExpectimaxSettings,
    ExpectimaxSettings,
    IterativeExpectimaxAgent,
    TracedSearchSettings,
)
from pacman.agents.registry import AGENTS, make_agent, typed_settings
from pacman.agents.settings import AgentSettings
from pacman.cli.agents import settings_markdown
from pacman.errors import RegistryError, SettingsError

DOCS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


@pytest.mark.parametrize("entry", AGENTS, ids=lambda entry: entry.class_name)
def test_every_shipped_agent_but_the_keyboard_has_typed_settings(entry: object) -> None:
    cls = entry.load()  # type: ignore[attr-defined]
    typed = typed_settings(cls)
    if entry.class_name == "KeyboardAgent":  # type: ignore[attr-defined]
        assert typed is None
        return
    assert typed is not None and issubclass(typed, AgentSettings)
    assert typed.__dataclass_params__.frozen  # type: ignore[attr-defined]
    for item in typed.fields():
        assert item.doc, f"{cls.__name__}.{item.name} has no documentation"
    agent = make_agent(entry.class_name, entry.role, {},  # type: ignore[attr-defined]
                       index=0 if entry.role == "pacman" else 1)  # type: ignore[attr-defined]
    assert agent.settings == typed()


def test_keywords_and_a_settings_object_build_the_same_agent() -> None:
    by_keywords = AlphaBetaAgent(depth=3, evaluation="better")
    by_object = AlphaBetaAgent(settings=TracedSearchSettings(depth=3, evaluation="better"))
    assert by_keywords.settings == by_object.settings
    assert by_keywords.describe() == by_object.describe() == "AlphaBetaAgent depth=3 better"
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_keywords.settings.depth = 4  # type: ignore[misc]


def test_a_settings_object_is_checked_when_it_is_made() -> None:
    with pytest.raises(SettingsError, match="depth must be a positive integer, got 0"):
        TracedSearchSettings(depth=0)
    with pytest.raises(SettingsError, match=r"unknown ghost_model 'smart' \(choose uniform or "):
        ExpectimaxSettings(ghost_model="smart")
    with pytest.raises(SettingsError, match="cutoff is a probability below 1, got 1"):
        AnytimeExpectimaxSettings(cutoff=1)
    with pytest.raises(SettingsError, match="prob_attack must be a number between 0 and 1"):
        DirectionalSettings(prob_attack=1.5)


def test_settings_errors_name_the_agent_and_what_it_accepts() -> None:
    with pytest.raises(SettingsError) as caught:
        AlphaBetaAgent(depht=3)
    assert str(caught.value) == ("AlphaBetaAgent: unknown setting 'depht' (it accepts: depth, "
                                 "evaluation, allow_stop, tie_break, repetition, cycles, "
                                 "trace)")
    with pytest.raises(SettingsError, match="give a settings object or keyword settings"):
        AlphaBetaAgent(settings=TracedSearchSettings(), depth=2)
    with pytest.raises(SettingsError, match="its settings are a TracedSearchSettings"):
        AlphaBetaAgent(settings=DirectionalSettings())  # type: ignore[arg-type]
    with pytest.raises(RegistryError, match="bad settings for DirectionalGhost: prob_attack"):
        make_agent("directional", "ghost", {"prob_attack": -1}, index=1)


def test_batch_settings_leave_out_observing_and_late_settings_at_their_default() -> None:
    settings = AnytimeExpectimaxSettings.batch_settings({"time": 0, "nodes": 500,
                                                         "escape": 0, "quiescence": 2})
    assert settings["time"] == 0 and isinstance(settings["time"], int)  # as given
    assert "escape" not in settings and settings["quiescence"] == 2
    assert {"forward", "singular"}.isdisjoint(settings)
    assert settings["depth"] == 64 and settings["evaluation"] == "wary"
    assert "trace" not in TracedSearchSettings.batch_settings({"trace": True})
    late = [item.name for item in AnytimeExpectimaxSettings.fields() if item.late]
    assert late == ["repetition", "quiescence", "forward", "singular", "escape", "survival",
                    "survival_margin", "survival_weight"]
    assert {"survival", "survival_margin", "survival_weight"}.isdisjoint(settings)
    assert "repetition" not in settings  # at its default: old results keep their keys
    mcts = MCTSSettings.batch_settings({"nodes": 6000})
    # the tables became the junction tree's default and changed its play, so its keys name them
    assert (mcts["chase"], mcts["chase_margin"]) == ("auto", 0.01)
    assert MCTSSettings.batch_settings({"nodes": 6000, "chase": 15})["chase"] == 15


def test_the_changed_settings_are_the_ones_not_at_their_default() -> None:
    agent = IterativeExpectimaxAgent(nodes=500, ghost_model="directional")
    assert agent.settings.changed() == {"nodes": 500, "ghost_model": "directional"}
    assert DirectionalGhost(2).settings.changed() == {}


def test_the_docs_tables_are_the_settings_classes() -> None:
    text = DOCS.read_text(encoding="utf-8")
    generated = re.search(r"<!-- settings: generated by [^\n]*-->\n(.*?)\n<!-- end of the "
                          r"generated settings -->", text, re.DOTALL)
    assert generated, "docs/agents.md lost its generated settings tables"
    assert generated.group(1) == settings_markdown().rstrip(), (
        "docs/agents.md is out of date: paste `pacman agents --markdown` between the markers")


def test_the_narrative_tables_of_the_docs_agree_with_the_fields() -> None:
    text = DOCS.read_text(encoding="utf-8").split("### Every setting of every")[0]
    tables = re.findall(r"^\| setting \| default \| meaning \|\n\|---\|---\|---\|\n((?:\|.*\n)+)",
                        text, re.MULTILINE)
    rows = [row for table in tables
            for row in re.findall(r"^\| `(\w+)` \| `([^`]*)` \|", table, re.MULTILINE)]
    defaults: dict[str, set[str]] = {}
    for entry in AGENTS:
        typed = typed_settings(entry.load())
        for item in typed.fields() if typed else ():
            shown = ("true" if item.default else "false") if isinstance(item.default, bool) \
                else f"{item.default:g}" if isinstance(item.default, float) else str(item.default)
            defaults.setdefault(item.name, set()).add(shown)
    assert len(rows) >= 15
    for name, default in rows:
        assert name in defaults, f"docs/agents.md documents a setting {name!r} no agent has"
        assert default in defaults[name], (name, default, defaults[name])
