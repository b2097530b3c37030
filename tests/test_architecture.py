"""The layers hold, shown by the imports: the game core imports no policy and no application,
the policies import only the core, and no module imports itself again through others.

Every import of every module of the package is read with `ast`, the ones inside functions too
(a lazy import is still an arrow), and resolved to the module it loads. The layers:

- the game core: `pacman` itself and its rules, state, game loop, record, replay, display, errors;
- the policies: `pacman.agents` (searches, evaluations, agents, ghosts, the registry of names),
  `pacman.cs188` (the adapter that lets classic CS188 agents play; the registry builds them)
  and `pacman.chase` (exact survival tables of the food-free chase);
- the applications: everything else (`cli`, `experiments`, `grading`, `demos`, `web`, `envs`,
  `hosting`, `__main__`).

A module may import its own layer and the layers below it, never one above.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pacman"

CORE, POLICY, APPLICATION = 0, 1, 2
LAYER_NAMES = {CORE: "the game core", POLICY: "the policies", APPLICATION: "the applications"}
POLICY_PACKAGES = ("pacman.agents", "pacman.cs188", "pacman.chase")
APPLICATION_PACKAGES = ("pacman.cli", "pacman.experiments", "pacman.grading", "pacman.demos",
                        "pacman.web", "pacman.envs", "pacman.hosting", "pacman.__main__",
                        "pacman.notebook")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The layer a module of the package belongs to."""
    def within(packages: tuple[str, ...]) -> bool:
        return any(module == p or module.startswith(p + ".") for p in packages)

    if within(APPLICATION_PACKAGES):
        return APPLICATION
    if within(POLICY_PACKAGES):
        return POLICY
    return CORE


def _resolve(name: str) -> str | None:
    """The package module `name` loads (the longest prefix that is one), or None if outside."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in MODULES:
            return candidate
        parts.pop()
    return None


def imports(module: str) -> Iterator[tuple[str, int]]:
    """(imported package module, line) for every import in `module`, lazy ones included."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found = _resolve(alias.name)
                if found is not None:
                    yield found, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                # `from pacman import state` loads the module pacman.state; `from pacman
                # import GameState` loads the package pacman itself
                found = _resolve(f"{base}.{alias.name}")
                if found is None or (found == _resolve(base) and f"{base}.{alias.name}" \
                        not in MODULES):
                    found = _resolve(base)
                if found is not None:
                    yield found, node.lineno


GRAPH = {module: sorted({target for target, _ in imports(module) if target != module})
         for module in MODULES}


def test_the_layers_are_found() -> None:
    counts = {number: sum(1 for m in MODULES if layer(m) == number) for number in LAYER_NAMES}
    assert counts[CORE] >= 15 and counts[POLICY] >= 15 and counts[APPLICATION] >= 60, counts
    assert layer("pacman.state") == CORE and layer("pacman.agents.search") == POLICY
    assert layer("pacman.cli.play") == APPLICATION


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = [f"{MODULES[module].relative_to(ROOT)}:{line} ({LAYER_NAMES[layer(module)]}) "
              f"imports {target} ({LAYER_NAMES[layer(target)]})"
              for module in MODULES for target, line in imports(module)
              if layer(target) > layer(module)]
    assert not upward, "\n".join(upward)


def readme_layers() -> dict[int, set[str]]:
    """The top-level modules and packages the README's layout block names, by layer."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## How the code is laid out", 1)[1].split("```")[1]
    labels = {"APPLICATIONS": APPLICATION, "POLICIES": POLICY, "GAME CORE": CORE}
    rows: dict[int, str] = {}
    current = None
    for line in block.splitlines():
        for label, number in labels.items():
            if line.startswith(label):
                current, line = number, line[len(label):]
        if current is not None:
            rows[current] = rows.get(current, "") + " " + line.split("import")[0]
    return {number: {name.removeprefix("pacman.") for name in
                     (part.strip() for part in row.split(",")) if name}
            for number, row in rows.items()}


def test_the_readme_is_short_and_names_every_top_level_module_in_its_layer() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    top = {name.split(".")[1] for name in MODULES if name.count(".") >= 1}
    expected = {number: {name for name in top if layer(f"pacman.{name}") == number}
                for number in LAYER_NAMES}
    assert readme_layers() == expected


def find_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """One import cycle of `graph` as a path that starts and ends at the same module."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = GREY
        stack.append(node)
        for target in graph.get(node, ()):
            if colour.get(target) == GREY:
                return [*stack[stack.index(target):], target]
            if colour.get(target) == WHITE:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        colour[node] = BLACK
        return None

    for node in graph:
        if colour[node] == WHITE:
            found = visit(node)
            if found:
                return found
    return None


def test_there_is_no_import_cycle() -> None:
    # a package's front file importing its own modules is how a package is built; a module of
    # the package importing the front file back is the cycle that counts, and it is still one
    cycle = find_cycle(GRAPH)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": ["b"], "b": ["c"], "c": ["a"], "d": []}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": ["b"], "b": [], "c": ["a"]}) is None


def test_an_upward_import_inside_a_function_is_seen(tmp_path: Path) -> None:
    source = textwrap.dedent("""
        def late():
            from pacman.cli import main
            return main
    """)
    tree = ast.parse(source)
    found = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert found == ["pacman.cli"] and layer("pacman.cli") > layer("pacman.state")


# --- a user's folder may hold an `agents.py` or an `agents/` --------------------------------


SHADOWS = {
    "agents.py": "raise SystemExit('the user agents.py was imported')\n",
    "agents/__init__.py": "raise SystemExit('the user agents/ was imported')\n",
}


@pytest.mark.parametrize("shadow", sorted(SHADOWS))
def test_a_users_agents_module_breaks_nothing(shadow: str, tmp_path: Path) -> None:
    target = tmp_path / shadow
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(SHADOWS[shadow], encoding="utf-8")
    env_command = [sys.executable, "-m", "pacman", "play", "-q", "-p", "alphabeta", "-a",
                   "depth=1", "-l", "testClassic", "-n", "1", "--seed", "1"]
    done = subprocess.run(env_command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "game 1: seed" in done.stdout
    api = textwrap.dedent("""
        from pacman import load_layout, run_game
        from pacman.agents.registry import make_agent
        record = run_game(load_layout("testClassic"), make_agent("alphabeta", "pacman",
                          {"depth": 1}), [make_agent("random", "ghost", index=1)], seed=1)
        print(record.outcome.value)
    """)
    done = subprocess.run([sys.executable, "-c", api], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() in ("win", "loss")
    pytest.importorskip("gymnasium")
    env = textwrap.dedent("""
        import gymnasium as gym
        env = gym.make("pacman.envs:pacman/Pacman-v0")
        observation, info = env.reset(seed=1)
        print(env.action_space)
    """)
    done = subprocess.run([sys.executable, "-c", env], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Discrete(5)" in done.stdout


# --- each package's front file ---------------------------------------------------------------


FRONT_FILES = sorted(name for name, path in MODULES.items() if path.name == "__init__.py")


@pytest.mark.parametrize("package", FRONT_FILES)
def test_every_name_a_front_file_exports_is_there(package: str) -> None:
    if package == "pacman.envs":
        pytest.importorskip("gymnasium")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import importlib
        module = importlib.import_module({package!r})
        missing = [name for name in getattr(module, "__all__", ()) if not hasattr(module, name)]
        assert not missing, missing
        print(len(getattr(module, "__all__", ())))
    """)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_the_main_front_files_export_a_grouped_api() -> None:
    for package in ("pacman", "pacman.agents", "pacman.experiments", "pacman.grading",
                    "pacman.replay", "pacman.errors"):
        source = MODULES[package].read_text(encoding="utf-8")
        assert "__all__ = [\n    # " in source, f"{package}: __all__ grouped by job, with comments"


def test_the_release_is_the_one_pyproject_names() -> None:
    import tomllib

    from pacman.release import RELEASE

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == RELEASE
