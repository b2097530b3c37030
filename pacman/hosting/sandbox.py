"""The plan of an agent host's world: what it sees, what it may do, and whether this machine can.

`plan(...)` says what `pacman.hosting.jail` builds before the host's Python starts: the Python
installation and `/usr` read-only at their own paths, the package's folder read-only (with the
project's agents, registry and grading code hidden for a student's host: `GAME_VIEW`), the
agent's own files copied into a private working folder (`WORKDIR`), a private `/tmp`, five
harmless devices and a `/proc` of its own. Nothing else of the file system has a path there: not
the class folder, the suite, the results, a store, the user's home, the rest of the package.

`available()` probes once per process whether this machine lets us build it (Linux, with
`unshare` allowed: as root, or in a user namespace); `limitation()` is the one line that says
what is off where it does not.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["CONTROLLERS", "FULL_VIEW", "GAME_VIEW", "HIDDEN_FOR_GAME", "LIBDIR", "PROCESSES",
           "WORKDIR", "Carried", "available", "cgroup_controllers", "command", "limitation",
           "plan", "release"]

#: the host's working folder: its private copy of the agent's files
WORKDIR = "/sandbox"
#: where modules found on the import path (not in the current folder) are copied, inside it
LIB = "lib"
LIBDIR = f"{WORKDIR}/{LIB}"
#: the package's folders a student's host does not see (agents, registry, grading, the
#: applications): what it may import of the package is the game and the CS188 stand-ins
HIDDEN_FOR_GAME = ("agents", "grading", "experiments", "cli", "demos", "envs", "web", "display",
                   "replay")
#: the files of those folders it does see: what a class in this project's API builds on (the
#: agent base class and its settings), none of the project's agents or searches
SHOWN_FOR_GAME = ("agents/__init__.py", "agents/base.py", "agents/settings.py",
                  "agents/search_core.py")
GAME_VIEW, FULL_VIEW = "game", "full"
#: processes and threads a host may run at once
PROCESSES = 64
#: the largest file a host may write, the size of its /tmp and of its working folder, in MB
FILE_MB, TMP_MB, WORK_MB = 64, 64, 64
#: the files a host may have open at once
OPEN_FILES = 256
JAIL = Path(__file__).with_name("jail.py")
#: unused unprivileged uids, one drawn per host, where the referee is root
_UID_BASE, _UID_SPAN = 0x6000_0000, 1 << 28


def _package() -> Path:
    import pacman

    return Path(pacman.__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def _installation() -> list[str]:
    """The folders the host's Python needs, read-only at their own paths: the prefixes (a
    virtual environment's and its base's), the executable's folder, and site folders of the
    import path (without the package's own parent, whose other files are not the host's)."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
               os.path.dirname(os.path.realpath(sys.executable))}
    for entry in sys.path:
        if entry and os.path.basename(entry) in ("site-packages", "dist-packages"):
            folders.add(entry)
    real = sorted({os.path.realpath(f) for f in folders if os.path.isdir(f)} | {
        os.path.abspath(f) for f in folders if os.path.isdir(f)})
    kept: list[str] = []
    for folder in real:  # a folder inside a kept one is there already
        if not any(folder == k or folder.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(folder)
    return kept


@functools.lru_cache(maxsize=1)
def _system() -> tuple[list[list[str]], list[str]]:
    """The links (`/lib -> usr/lib`) and folders of the system the Python needs."""
    links: list[list[str]] = []
    folders = ["/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            links.append([top, os.readlink(top)])
        elif os.path.isdir(top):
            folders.append(top)
    files = [f for f in ("/etc/ld.so.cache", "/etc/localtime") if os.path.isfile(f)]
    return links, folders + files


class Carried:
    """The files a host gets copied into its working folder, gathered from the code its agent
    names (`carry`), and the way back from a copy's path to its source.

    The copies mirror where Python found the code: a file named by its path, or a module in
    the current folder, goes to the working folder (the host's current folder); a module
    found elsewhere on the import path goes to `LIBDIR`, which is on the host's import path
    but is not its current folder. So the host reads every name as this process does (a
    module stays a module's name, `module.py` in the current folder becomes a path)."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}  # name in the working folder -> source
        self.named: dict[str, str] = {}  # a path the host is given -> the target as given

    def carry(self, target: str) -> str:
        """`target` (the code part of `target:Name`: `file.py`, `dir/mod`, or a module's
        name) as the host must name it, its file and the other Python files beside it
        carried (never through a link). An installed module is left as it is: the host sees
        the installation; so is a package outside it (not carried: it will not import)."""
        if target.endswith(".py") or "/" in target or "\\" in target:
            path = Path(target) if Path(target).is_file() else Path(f"{target}.py")
            if not path.is_file():
                return target
            self._add(path.resolve(), "")
            self.named[f"{WORKDIR}/{path.name}"] = target
            return f"{WORKDIR}/{path.name}"
        import importlib.machinery

        here = os.getcwd()
        top = target.partition(".")[0]
        found = importlib.machinery.PathFinder.find_spec(top, [here, *sys.path])
        origin = found.origin if found is not None else None
        if (origin and origin.endswith(".py") and found is not None
                and found.submodule_search_locations is None and not _installed(origin)):
            in_here = os.path.dirname(os.path.abspath(origin)) == os.path.abspath(here)
            self._add(Path(origin).resolve(), "" if in_here else f"{LIB}/")
        return target

    def _add(self, path: Path, folder: str) -> None:
        for file in [path, *_siblings(path)]:
            self.files.setdefault(folder + file.name, str(file))

    def pairs(self) -> list[tuple[str, str]]:
        """(source, name) of each file, for `plan`."""
        return [(source, name) for name, source in self.files.items()]

    def source(self, path: str) -> str:
        """The source of a path the host named (its copy's), or the path as it is."""
        return self.files.get(path.removeprefix(f"{WORKDIR}/"), path)

    def as_given(self, text: str) -> str:
        """`text` of the host's (an agent's description) with each path it was given in
        place of a target written back as the target was written here."""
        for inside, target in self.named.items():
            text = text.replace(inside, target)
        return text


def _siblings(path: Path) -> list[Path]:
    """The other Python files in `path`'s folder (regular files, not links), but a classic
    `pacman.py`, which would shadow the package in the host's working folder (student code
    gets the CS188 stand-in for `import pacman` anyway)."""
    try:
        return [p for p in sorted(path.parent.iterdir()) if p.suffix == ".py"
                and p.name not in (path.name, "pacman.py") and not p.is_symlink()
                and p.is_file()]
    except OSError:
        return []


def _installed(path: str) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(f.rstrip("/") + "/") for f in _installation())


#: the controllers a host's cgroup limits, and where they are found (see `_cgroup_bases`)
CONTROLLERS = ("pids", "cpu", "memory")
#: the folder, in each cgroup hierarchy, that holds the hosts' cgroups
CGROUP_FOLDER = "pacman-hosts"
#: the CPU time a host's processes may use together: this many microseconds per 100 ms
CPU_QUOTA_US, CPU_PERIOD_US = 100_000, 100_000


def _mount_points() -> list[tuple[str, str, set[str]]]:
    """(mount point, file system type, super options) of the cgroup file systems."""
    found = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as table:
            for line in table:
                head, _, tail = line.partition(" - ")
                fields, rest = head.split(), tail.split()
                if len(fields) > 4 and len(rest) > 2 and rest[0] in ("cgroup", "cgroup2"):
                    found.append((fields[4], rest[0], set(rest[2].split(","))))
    except OSError:
        pass
    return found


@functools.lru_cache(maxsize=1)
def _cgroup_bases() -> dict[str, tuple[str, int]]:
    """Where each controller of `CONTROLLERS` gets a host's cgroup: the folder that holds them
    and the cgroup version (1 or 2), for the controllers this process may use; {} but as root
    (an unprivileged user has no cgroup of its own to divide, unless a system delegated one).

    Version 1: the controller's hierarchy, under this process's own cgroup there. Version 2:
    `pacman-hosts` at the top of the unified hierarchy (the top is the one place that may both
    hold processes and give controllers to its children), with the controllers the top has."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return {}
    own: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as table:
            for line in table:
                _, names, path = line.rstrip("\n").split(":", 2)
                for name in names.split(",") if names else [""]:
                    own[name] = path
    except (OSError, ValueError):
        return {}
    bases: dict[str, tuple[str, int]] = {}
    for point, kind, options in _mount_points():
        if kind == "cgroup":
            for name in CONTROLLERS:
                if name in options and name not in bases and name in own:
                    bases[name] = (f"{point}{own[name].rstrip('/')}/{CGROUP_FOLDER}", 1)
    unified = next((point for point, kind, _ in _mount_points() if kind == "cgroup2"), None)
    if unified is not None:
        try:
            with open(f"{unified}/cgroup.controllers", encoding="ascii") as offered:
                there = set(offered.read().split())
        except OSError:
            there = set()
        for name in CONTROLLERS:
            if name in there and name not in bases:
                bases[name] = (f"{unified}/{CGROUP_FOLDER}", 2)
    usable = {}
    for name, (folder, version) in bases.items():
        try:
            os.makedirs(folder, exist_ok=True)
            if version == 2:
                with open(f"{folder}/cgroup.subtree_control", "w", encoding="ascii") as on:
                    on.write(f"+{name}")
        except OSError:
            continue
        usable[name] = (folder, version)
    return usable


def _cgroups(memory_mb: int | None) -> list[list[Any]]:
    """A host's cgroups, as [folder, {file: value}] to create and join (the jail does), with
    every limit the controllers here allow: `PROCESSES` processes, `CPU_QUOTA_US` of CPU per
    `CPU_PERIOD_US` for all of them together, and `memory_mb` of memory for all of them."""
    name = f"host-{os.getpid()}-{secrets.token_hex(6)}"
    groups: dict[str, dict[str, str]] = {}
    for controller, (folder, version) in _cgroup_bases().items():
        settings = groups.setdefault(f"{folder}/{name}", {})
        if controller == "pids":
            settings["pids.max"] = str(PROCESSES)
        elif controller == "cpu":
            if version == 1:
                settings["cpu.cfs_period_us"] = str(CPU_PERIOD_US)
                settings["cpu.cfs_quota_us"] = str(CPU_QUOTA_US)
            else:
                settings["cpu.max"] = f"{CPU_QUOTA_US} {CPU_PERIOD_US}"
        elif memory_mb is not None:
            key = "memory.limit_in_bytes" if version == 1 else "memory.max"
            settings[key] = str(memory_mb << 20)
    return [[folder, settings] for folder, settings in groups.items()]


def release(plan_: Mapping[str, Any]) -> None:
    """Remove the cgroups of a host that has ended (its processes are gone; the kernel lets a
    cgroup go a moment after its last process), and those of hosts whose referee died
    without removing them."""
    for folder, _ in plan_.get("cgroups", ()):
        _remove(folder)
    _sweep()


def _remove(folder: str) -> None:
    import time

    for attempt in range(50):
        try:
            os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:  # busy: its last process is still being reaped
            time.sleep(0.002 * (attempt + 1))


def _sweep() -> None:
    """Remove the empty cgroups of hosts whose referee process is gone."""
    for folder in {folder for folder, _ in _cgroup_bases().values()}:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            parts = name.split("-")
            if len(parts) == 3 and parts[0] == "host" and parts[1].isdigit() and not \
                    os.path.exists(f"/proc/{parts[1]}"):
                with contextlib.suppress(OSError):
                    os.rmdir(f"{folder}/{name}")


def plan(module_argv: Sequence[str], files: Sequence[tuple[str, str]],
         view: str = FULL_VIEW, keep_fds: Sequence[int] = (),
         hide: Sequence[str] = (), memory_mb: int | None = None) -> dict[str, Any]:
    """The jail's plan for a host that runs `module_argv` (its command, the Python first).

    Args:
        module_argv: the host's command line, run in the working folder.
        files: (source path, name) of each file copied into the working folder.
        view: `GAME_VIEW` for a student's host, `FULL_VIEW` for a user's agent.
        keep_fds: file descriptors the host keeps (beside the standard three).
        hide: folders that must stay out of sight even where they lie inside what the host
            sees (a suite shipped in the package, or in the Python installation).
        memory_mb: the memory all the host's processes may use together (a cgroup's limit,
            where there is one; each process has its own cap besides), or None.

    Returns:
        The plan, JSON-ready.
    """
    links, system = _system()
    installation = _installation()
    package = str(_package())
    binds = [[s, s] for s in system] + [[f, f] for f in installation]
    inside = any(package.startswith(f.rstrip("/") + "/") for f in installation)
    if not inside:
        binds.append([package, package])
    hidden = [f"{package}/{name}" for name in HIDDEN_FOR_GAME] if view == GAME_VIEW else []
    shown = [[f"{package}/{name}", f"{package}/{name}"] for name in SHOWN_FOR_GAME] if (
        view == GAME_VIEW) else []
    visible = [target for _, target in binds]
    for folder in (os.path.realpath(f) for f in hide):
        if any(folder == v or folder.startswith(v.rstrip("/") + "/") for v in visible):
            hidden.append(folder)
    uid = _UID_BASE + secrets.randbelow(_UID_SPAN)
    return {"argv": list(module_argv),
            "binds": binds, "links": links, "hide": hidden, "reveal": shown,
            "work": {"path": WORKDIR, "files": [list(pair) for pair in files], "mb": WORK_MB},
            "tmp_mb": TMP_MB, "uid": uid, "gid": uid, "keep_fds": list(keep_fds),
            "limits": {"NPROC": PROCESSES, "FSIZE": FILE_MB << 20, "NOFILE": OPEN_FILES,
                       "CORE": 0},
            "cgroups": _cgroups(memory_mb)}


def command(plan_: Mapping[str, Any]) -> list[str]:
    """The command that builds the plan's world and runs its host there, with the
    environment it is started with (and `HOME` and `TMPDIR` set to the host's own)."""
    return [sys.executable, "-I", "-S", str(JAIL), json.dumps(plan_)]


_PROBE = "import os; print(os.getpid(), os.getppid(), os.getcwd(), flush=True)"


@functools.lru_cache(maxsize=1)
def _probe() -> str:
    """'' if a host's world can be built here, else why not (one line); probed once."""
    if not sys.platform.startswith("linux"):
        return f"not Linux ({sys.platform})"
    from pacman.interrupts import held_interrupts

    the_plan = plan([sys.executable, "-I", "-S", "-c", _PROBE], [])
    try:  # a Ctrl-C in the fork's own handlers would be lost: it comes after the probe
        with held_interrupts():
            done = subprocess.run(command(the_plan), capture_output=True, text=True,
                                  timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as error:
        return f"the sandbox could not start ({error})"
    finally:
        release(the_plan)
    if done.returncode == 0 and done.stdout.split() == ["1", "0", WORKDIR]:
        return ""
    reason = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
    return reason[0].removeprefix("sandbox: ")


def cgroup_controllers() -> list[str]:
    """The controllers whose limits hosts get here (`CONTROLLERS`), in that order."""
    bases = _cgroup_bases()
    return [name for name in CONTROLLERS if name in bases]


def available() -> bool:
    """Whether agent hosts get their own world on this machine."""
    return _probe() == ""


def limitation() -> str:
    """'' where hosts get their own world; else the one line saying what is off and why."""
    reason = _probe()
    if not reason:
        return ""
    return (f"warning: agent code runs without a sandbox here ({reason}): it shares your "
            "files, processes and network; only its time and memory are limited")
