"""List the places that catch one error and raise another: `except X as e: raise Y(... e ...)`.

    python scripts/retyping_sites.py [--all] [paths...]

A site is a `raise Y(...)` inside an `except` clause (`Y` a class name, by its capital letter)
whose arguments use the caught error, or that ends `from e` / `from None`. Each is marked
`retype` when the message is kept as it is (`Y(str(e))`, `Y(e)`, `Y(f"{e}")`, `Y(e.args[0])`,
with `from e` or `from None`) and only the class changes, or `adds` when the new message says
more (names the file, the agent, the option). Prints one line a site and the counts; `--all`
lists the `adds` sites too. Defaults to the `pacman` package; the students' classic CS188
modules are left out.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _uses(node: ast.AST, name: str | None) -> bool:
    """Whether `node` reads the name `name`."""
    return name is not None and any(
        isinstance(sub, ast.Name) and sub.id == name for sub in ast.walk(node))


def _kept(arg: ast.expr, names: set[str]) -> bool:
    """Whether `arg` is the caught error's message unchanged (`names`: the error's name and
    the names the handler gave its message)."""
    text = ast.unparse(arg)
    return any(text in {name, f"str({name})", f"f'{{{name}}}'", f"{name}.args[0]",
                        f"{name}.message"} for name in names)


def _message_names(handler: ast.ExceptHandler) -> set[str]:
    """The caught error's name and the names the handler binds to its message unchanged."""
    names = {handler.name} if handler.name else set()
    for node in handler.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and _kept(node.value, names)):
            names.add(node.targets[0].id)
    return names


def sites(path: Path) -> list[tuple[int, str, str, str]]:
    """(line, kind, caught, raise text) for each re-raise of another class in `path`."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for handler in ast.walk(tree):
        if not isinstance(handler, ast.ExceptHandler) or handler.type is None:
            continue
        caught = ast.unparse(handler.type)
        for node in ast.walk(handler):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            func = node.exc.func
            cls = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if not cls[:1].isupper():
                continue
            args = [*node.exc.args, *(k.value for k in node.exc.keywords)]
            cause_none = isinstance(node.cause, ast.Constant) and node.cause.value is None
            from_caught = node.cause is not None and _uses(node.cause, handler.name)
            names = _message_names(handler)
            uses = any(_uses(arg, name) for arg in args for name in names)
            if not (uses or from_caught or cause_none):
                continue
            kept = len(args) == 1 and _kept(args[0], names)
            found.append((node.lineno, "retype" if kept else "adds", caught, ast.unparse(node)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT / "pacman")])
    parser.add_argument("--all", action="store_true", help="list the sites that add words too")
    args = parser.parse_args()
    counts = {"retype": 0, "adds": 0}
    for top in map(Path, args.paths):
        for path in sorted(top.rglob("*.py")) if top.is_dir() else [top]:
            if "cs188/modules" in path.as_posix():
                continue
            for line, kind, caught, text in sites(path):
                counts[kind] += 1
                if kind == "retype" or args.all:
                    where = path.resolve().relative_to(ROOT).as_posix()
                    print(f"{where}:{line}: {kind}: except {caught}: {text}")
    print(f"{counts['retype']} retype, {counts['adds']} adds")


if __name__ == "__main__":
    main()
