"""Build an agent host's world, then become the host: run as `python -I -S jail.py PLAN`.

The referee (`pacman.hosting.sandbox`) starts this file, not the host, and hands it a plan (one
JSON argument). It runs before any agent code exists in the process and imports nothing but the
standard library. In order:

1. **Namespaces.** `unshare` of the mount, PID, IPC, network and UTS namespaces, and of the user
   namespace where the referee is not root (its own uid is mapped to itself: the only uid it may
   map). The host gets no network device but a loopback that is down, and sees none of the
   referee's System V objects.
2. **Process 1.** A fork: the child is process 1 of the new PID namespace and the only thing
   that runs agent code; this process waits for it and exits as it exited. The child dies with
   this process (`PR_SET_PDEATHSIG`), and everything in the namespace dies with the child.
3. **A file tree of its own**, built in a fresh tmpfs and made the root (`pivot_root`, the old
   root detached, so nothing outside it has a path any more): the plan's read-only binds (the
   Python installation, `/usr`, the package's files it may import), empty read-only folders over
   the plan's hidden paths, the plan's files copied into a private working folder (never
   followed through a link), a private `/tmp`, a `/dev` of five harmless devices and a `/proc` of
   its own namespace (only its own processes; `subset=pid` where the kernel has it). The root is
   then made read-only; the working folder and `/tmp` are tmpfs of bounded size.
4. **No privileges.** The capability bounding set emptied, `no_new_privs` set; as root, every
   supplementary group dropped and the uid and gid changed to an unused unprivileged id (the
   plan's), so the kernel clears every capability; in a user namespace, the exec clears them
   (the uid inside is not 0). Resource limits from the plan (processes, file size, open files,
   address space; no core files).
5. **Exec** of the plan's command (the host's Python) with this process's environment, in the
   working folder, with no file descriptor open but the standard three and the plan's.

Before all of it, as root, this process joins the cgroups of the plan (made here, with their
limits on the processes, the CPU time and the memory of everything the host will start).

A step that fails ends this process with exit code 71 and one line on stderr (`sandbox: ...`):
nothing runs half-protected.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import platform
import resource
import signal
import stat
import sys
from typing import Any

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21
MNT_DETACH = 2
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 24, 38
#: statvfs's flags -> mount's (a read-only remount of a bind must keep the flags it has)
_KEPT_FLAGS = ((1, MS_RDONLY), (2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC),
               (1024, MS_NOATIME), (2048, MS_NODIRATIME), (4096, MS_RELATIME))
#: pivot_root has no wrapper in the C library: its system call number, by machine
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "ppc64": 203,
               "s390x": 217, "i686": 217, "i386": 217, "armv7l": 218, "armv6l": 218}
FAILED = 71
#: where the tree is built before it becomes the root (shadowed in this mount namespace only)
STAGE = "/tmp"
DEVICES = ("null", "zero", "full", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    """A C call's result: an OSError naming the step if it failed."""
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, kind: str | None, flags: int,
           data: str | None = None) -> None:
    _check(_libc.mount(None if source is None else source.encode(), target.encode(),
                       None if kind is None else kind.encode(), ctypes.c_ulong(flags),
                       None if data is None else data.encode()), f"mount {target}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _make(path: str, folder: bool) -> None:
    """A mount point at `path` in the stage: a folder, or an empty file."""
    os.makedirs(path if folder else os.path.dirname(path), mode=0o755, exist_ok=True)
    if not folder and not os.path.lexists(path):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444))


def _bind_read_only(fd: int, target: str, folder: bool) -> None:
    """Bind what `fd` opened (its path may be shadowed by now) at `target`, read-only."""
    _make(target, folder)
    _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | MS_REC)
    kept = os.statvfs(target).f_flag
    flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV
    flags |= sum(ms for st, ms in _KEPT_FLAGS if kept & st)
    _mount(None, target, None, flags)


def _copy(fd: int, target: str, owner: tuple[int, int] | None, budget: list[int]) -> None:
    """Copy the regular file open at `fd` to `target` (within `budget` bytes in all)."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_size > budget[0]:
        return
    budget[0] -= info.st_size
    os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
    if owner is not None:
        os.chown(os.path.dirname(target), *owner)
    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        while chunk := os.read(fd, 1 << 20):
            os.write(out, chunk)
        if owner is not None:
            os.fchown(out, *owner)
    finally:
        os.close(out)


def _build(plan: dict[str, Any], root_user: bool) -> None:
    """Step 3: the tree, built in the stage, then made the root (run as process 1)."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    # every source is opened before the stage's tmpfs can shadow it
    binds = [(os.open(source, os.O_PATH | os.O_CLOEXEC), target, os.path.isdir(source))
             for source, target in plan["binds"] if os.path.exists(source)]
    copies = []
    for source, name in plan["work"]["files"]:
        try:
            copies.append((os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC
                                   | os.O_NONBLOCK), name))
        except OSError:  # a link, a file gone: not copied
            continue
    devices = [(os.open(f"/dev/{name}", os.O_PATH | os.O_CLOEXEC), name) for name in DEVICES]
    reveals = [(os.open(source, os.O_PATH | os.O_CLOEXEC), target)
               for source, target in plan.get("reveal", ()) if os.path.isfile(source)]
    _mount("tmpfs", STAGE, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0755")
    stage = STAGE
    # the private /tmp first: a bind below /tmp (a virtual environment there) goes on top of it
    os.makedirs(stage + "/tmp", exist_ok=True)
    _mount("tmpfs", stage + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={plan['tmp_mb']}m,mode=1777")
    for link, text in plan["links"]:
        os.makedirs(os.path.dirname(stage + link), exist_ok=True)
        os.symlink(text, stage + link)
    for fd, target, folder in binds:
        _bind_read_only(fd, stage + target, folder)
        os.close(fd)
    for target in plan["hide"]:  # folders: an empty read-only tmpfs over each one there,
        path = stage + target  # with the files of it the host may see bound back in
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=0755")
            for fd, shown in reveals:
                if os.path.dirname(shown) == target:
                    _bind_read_only(fd, stage + shown, False)
            _mount(None, path, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    for fd, _ in reveals:
        os.close(fd)
    owner = (plan["uid"], plan["gid"]) if root_user else None
    work = stage + plan["work"]["path"]
    os.makedirs(work, mode=0o755, exist_ok=True)
    _mount("tmpfs", work, "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={plan['work']['mb']}m,mode=0755")
    budget = [plan["work"]["mb"] << 20]
    for fd, name in copies:
        _copy(fd, os.path.join(work, name), owner, budget)
        os.close(fd)
    if owner is not None:
        os.chown(work, *owner)
    os.makedirs(stage + "/dev", exist_ok=True)
    _mount("tmpfs", stage + "/dev", "tmpfs", MS_NOSUID, "size=4k,mode=0755")
    for fd, name in devices:
        _make(stage + f"/dev/{name}", False)
        _mount(f"/proc/self/fd/{fd}", stage + f"/dev/{name}", None, MS_BIND)
        os.close(fd)
    os.makedirs(stage + "/proc", exist_ok=True)
    proc_flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    try:
        _mount("proc", stage + "/proc", "proc", proc_flags, "subset=pid")
    except OSError:  # a kernel before 5.8
        _mount("proc", stage + "/proc", "proc", proc_flags)
    number = _PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(f"pivot_root: unknown machine {platform.machine()}")
    os.chdir(stage)
    _check(_libc.syscall(number, b".", b"."), "pivot_root")
    _check(_libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir(plan["work"]["path"])


def _drop(plan: dict[str, Any], root_user: bool) -> None:
    """Step 4: no capabilities, no way back to any, and the limits."""
    for cap in range(plan["cap_last"] + 1):
        _check(_libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"drop capability {cap}")
    if root_user:
        os.setgroups([])
        os.setresgid(plan["gid"], plan["gid"], plan["gid"])
        os.setresuid(plan["uid"], plan["uid"], plan["uid"])
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    # a change of uid clears the parent-death signal: ask for it again
    _check(_libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0), "die with the parent")
    for name, value in plan["limits"].items():
        limit = getattr(resource, f"RLIMIT_{name}")
        resource.setrlimit(limit, (value, value))


def _child(plan: dict[str, Any], root_user: bool) -> None:
    """Process 1: build, drop, exec (it never returns)."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0), "die with the parent")
    _build(plan, root_user)
    _drop(plan, root_user)
    keep = {0, 1, 2, *plan["keep_fds"]}
    for fd in os.listdir("/proc/self/fd"):
        if int(fd) not in keep:
            with contextlib.suppress(OSError):
                os.close(int(fd))
    for fd in plan["keep_fds"]:
        os.set_inheritable(fd, True)
    os.execve(plan["argv"][0], plan["argv"],
              {**os.environ, "HOME": plan["work"]["path"], "TMPDIR": "/tmp"})


def _join_cgroups(plan: dict[str, Any]) -> None:
    """Step 0, as root: the plan's cgroups made, their limits written, and this process moved
    into them (the host, forked next, starts there, with everything it will start)."""
    for folder, settings in plan.get("cgroups", ()):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o755)
        for name, value in settings.items():
            try:
                _write(f"{folder}/{name}", value)
            except OSError as error:
                raise OSError(f"cgroup {folder}/{name}: {error.strerror}") from None
        try:
            _write(f"{folder}/cgroup.procs", str(os.getpid()))
        except OSError as error:
            raise OSError(f"cgroup {folder}: {error.strerror}") from None


def main() -> None:
    """Run the plan in `sys.argv[1]`."""
    plan = json.loads(sys.argv[1])
    root_user = os.geteuid() == 0
    # ignored until the host has its own use for it (an ignored signal stays so across exec)
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    try:  # read while the machine's /proc is there
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as last:
            plan["cap_last"] = int(last.read())
    except (OSError, ValueError):
        plan["cap_last"] = 40
    try:
        _join_cgroups(plan)
        flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS
        if not root_user:
            uid, gid = os.geteuid(), os.getegid()
            _check(_libc.unshare(flags | CLONE_NEWUSER), "unshare")
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        else:
            _check(_libc.unshare(flags), "unshare")
    except OSError as error:
        os.write(2, f"sandbox: {error}\n".encode())
        os._exit(FAILED)
    pid = os.fork()
    if pid == 0:
        try:
            _child(plan, root_user)
        except BaseException as error:
            os.write(2, f"sandbox: {error}\n".encode())
        os._exit(FAILED)
    for fd in (0, 1):  # the channel is the child's: its end shows when the child ends
        os.close(fd)
    # a referee's request for the host's stacks (its `faulthandler`), passed on to it
    signal.signal(signal.SIGUSR1, lambda number, frame: os.kill(pid, signal.SIGUSR1))
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else FAILED)


if __name__ == "__main__":
    main()
