"""Output files (issue 46, class 4): every path a command writes (`--record`, `--record-dir`,
`--screenshot`, `--gif`, `--html`) is checked on the disk before a game is played, one line
and exit 2; a file that fails after the game (a full disk) is one line, exit 2, after the
game's `--record` is written. Before: a traceback after the game, and the record lost."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pacman.cli import main
from pacman.replay import load_replay, verify

GAME = ["-l", "testClassic", "-p", "greedy", "--max-moves", "6", "--seed", "1"]


@pytest.fixture(autouse=True)
def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, list[str]]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err.strip().splitlines()


def _unwritable(tmp: Path) -> list[tuple[str, str, str]]:
    """(flag, path, what the line says): outputs no process can write, root's included."""
    (tmp / "file.txt").write_text("x", encoding="utf-8")
    (tmp / "folder.png").mkdir()
    long = "a" * 300
    return [
        ("--gif", f"{tmp}/file.txt/x.gif", "file.txt is a file, not a folder"),
        ("--screenshot", f"{tmp}/file.txt/deeper/x.png", "is a file, not a folder"),
        ("--record-dir", f"{tmp}/file.txt/games", "is a file, not a folder"),
        ("--record-dir", f"{tmp}/file.txt", "is a file: give a folder"),
        ("--gif", f"{tmp}/file.txt", "is a file: give a folder"),  # a folder of PNGs
        ("--screenshot", f"{tmp}/folder.png", "is a folder: give a file name"),
        ("--gif", "/dev/full", "is a device, a pipe or a socket"),
        ("--gif", "/dev/null/x.gif", "/dev/null is a file, not a folder"),
        ("--screenshot", "/dev/null", "is a device, a pipe or a socket"),
        ("--record", "/dev/full", "is a device, a pipe or a socket"),
        ("--gif", "/proc/x.gif", "cannot be written"),
        ("--screenshot", "/proc/self/x.png", "cannot be written"),
        ("--gif", f"{tmp}/{long}.gif", "cannot be made: a name of 304 bytes (this file "
                                       "system takes 255)"),
        ("--gif", f"{tmp}/{long}/x.gif", "a name of 300 bytes"),
        ("--record", f"{tmp}/{long}.json", "a name of 305 bytes"),
        ("--record", f"{tmp}/{'x' * 5000}/{long}.json", "cannot be made: a name of"),
        ("--gif", "", "needs a file name"),
        ("--record-dir", " ", "needs a folder name"),
    ]


def test_every_unwritable_output_is_one_line_before_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for flag, path, message in _unwritable(tmp_path):
        record = tmp_path / "game.json"
        argv = ["play", "-q", *GAME, flag, path]
        if flag != "--record":
            argv += ["--record", str(record)]
        code, out, err = _run(capsys, argv)
        assert code == 2 and out == "" and len(err) == 1, (flag, path, err)
        assert err[0].startswith("pacman: error: ") and message in err[0], (flag, path, err)
        assert len(err[0]) < 400
        assert not record.exists()  # nothing played


def test_replay_checks_its_outputs_the_same_way(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.json"
    assert _run(capsys, ["play", "-q", *GAME, "--record", str(game)])[0] == 0
    for flag, path, message in [*_unwritable(tmp_path),
                                ("--html", "/dev/full", "is a device"),
                                ("--html", f"{tmp_path}/file.txt/p.html", "is a file, not a")]:
        if flag.startswith("--record"):
            continue
        code, out, err = _run(capsys, ["replay", str(game), "-q", flag, path])
        assert code == 2 and out == "" and len(err) == 1, (flag, path, err)
        assert message in err[0], (flag, path, err)


def test_two_outputs_on_one_path_are_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    same = str(tmp_path / "x.png")
    code, _, err = _run(capsys, ["play", "-q", *GAME, "--record", same, "--screenshot", same])
    assert code == 2 and err == [f"pacman: error: --record and --screenshot both write {same}: "
                                 "give each its own name"]


def test_the_check_leaves_nothing_behind(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The check makes the missing file or folder and removes it: a refused command (here for
    a bad agent, after the paths are checked) leaves the disk as it was."""
    argv = ["play", "-q", *GAME, "-p", "nosuchagent", "--record", f"{tmp_path}/a/b/r.json",
            "--gif", f"{tmp_path}/frames", "--screenshot", f"{tmp_path}/s.png",
            "--record-dir", f"{tmp_path}/games"]
    assert _run(capsys, argv)[0] == 2
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("output", "written"), [
    (["--gif", "game.gif"], "game.gif"), (["--gif", "game.webp"], "game.webp"),
    (["--screenshot", "end.png"], "end.png"), (["--gif", "frames"], "frames"),
])
def test_a_failure_after_the_game_keeps_the_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        output: list[str], written: str) -> None:
    """A full disk while the picture is written: the record is written, the summary shown,
    then one line and exit 2; no half-written picture is left."""
    pytest.importorskip("PIL")
    from pacman.display import export

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    for name in ("save_gif", "save_webp", "save_png"):
        monkeypatch.setattr(export, name, full)
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, ["play", "-q", *GAME, "--record", "game.json", *output])
    assert code == 2
    assert err == [f"pacman: error: cannot write {written}: No space left on device"]
    assert "Outcomes:" in out and f"wrote {written}" not in out
    assert verify(load_replay(tmp_path / "game.json")).matches


def test_a_full_disk_is_one_line_and_the_record_is_kept(tmp_path: Path) -> None:
    """A real limit on the file size (RLIMIT_FSIZE: EFBIG while the GIF is written) in a
    command of its own: the record (small) is written, the GIF (large) is not, and is gone."""
    pytest.importorskip("PIL")
    script = ("import resource, sys; from pacman.cli import main; "
              "resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000)); "
              "sys.exit(main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", script, "play", "-q", "-l", "mediumClassic",
                           "-k", "0", "-p", "random", "--max-moves", "150", "--seed", "1",
                           "--record", "game.json", "--gif", "game.gif"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 2, done.stderr
    assert done.stderr == "pacman: error: cannot write game.gif: File too large\n"
    assert verify(load_replay(tmp_path / "game.json")).matches
    assert not (tmp_path / "game.gif").exists()


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's tmp_path is root's own)."""
    folder = Path(tempfile.mkdtemp(prefix="pacman-outputs-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _nobody_can_run() -> bool:
    if os.geteuid() != 0 or not hasattr(os, "setuid"):
        return False
    import pwd

    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return False
    return os.access(sys.executable, os.X_OK)


def _as_nobody(as_root: bool) -> dict[str, Any]:
    """`subprocess.run` arguments that run as nobody (its group too: root's group would
    keep the folders of root's Python closed) when `as_root`."""
    if not as_root:
        return {}
    import grp
    import pwd

    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": grp.getgrgid(nobody.pw_gid).gr_gid,
            "extra_groups": []}


def test_read_only_folders_and_files_are_refused_for_a_user(shared_folder: Path) -> None:
    """Permissions, which root does not meet: as `nobody` (the tests run as root here) or as
    the user running the tests."""
    read_only = shared_folder / "read-only"
    read_only.mkdir()
    (shared_folder / "locked.json").write_text("{}", encoding="utf-8")
    (shared_folder / "locked.json").chmod(0o444)
    read_only.chmod(0o555)
    as_root = os.geteuid() == 0
    if as_root and not _nobody_can_run():
        pytest.skip("root meets no permissions, and there is no user nobody to run as")
    for flag, path, message in [
            ("--gif", f"{read_only}/x.gif", "cannot be written: Permission denied"),
            ("--gif", f"{read_only}/frames", "cannot be written: Permission denied"),
            ("--screenshot", f"{read_only}/deeper/x.png", "cannot be written in"),
            ("--record-dir", f"{read_only}/games", "Permission denied"),
            ("--record", f"{shared_folder}/locked.json", "permission denied")]:
        done = subprocess.run(
            [sys.executable, "-m", "pacman", "play", "-q", *GAME, flag, path],
            capture_output=True, text=True, cwd=shared_folder,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "HOME": str(shared_folder)},
            **_as_nobody(as_root))
        assert done.returncode == 2 and done.stdout == "", (flag, done.stderr)
        assert done.stderr.count("\n") == 1 and message in done.stderr, (flag, done.stderr)
