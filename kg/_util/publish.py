"""Publish a folder as a whole: write into a staging folder beside the target, then switch it in.

The folder a user opens always holds one complete build, the old or the new: on Linux the staging
folder and the target are exchanged in one `renameat2(RENAME_EXCHANGE)` call; elsewhere the old
folder is renamed aside and the new one renamed in (two renames, a moment without the folder).
Files in the target that a build did not write (a `.gitkeep`, a user's notes) are carried over.
Staging folders left by a killed build are removed by the next one.
"""
from __future__ import annotations

import contextlib
import ctypes
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

#: The list of what a build wrote, kept in the folder so that the next build knows what is its own.
MANIFEST = ".kg-build.json"
_STAGING = ".kg-staging-"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


@contextlib.contextmanager
def staged(target: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh staging folder beside `target`; on a clean exit it becomes `target`, on an error it is removed.

    Parameters
    ----------
    target : path
        The folder to publish (created if missing).

    Yields
    ------
    Path
        The staging folder to write into; after the `with`, its files are in `target`.

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp()) / "exports"
    >>> with staged(out) as folder:
    ...     _ = (folder / "a.txt").write_text("new")
    >>> sorted(p.name for p in out.iterdir())
    ['.kg-build.json', 'a.txt']
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(target)
    staging = target.parent / f".{target.name}{_STAGING}{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        yield staging
        written = sorted(entry.name for entry in staging.iterdir())
        (staging / MANIFEST).write_text(json.dumps({"files": written}, indent=1) + "\n", encoding="utf-8")
        _carry_over(target, staging, set(written))
        _switch(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # the failed build, or the old folder after the switch


def remove_stale(target: str | os.PathLike[str]) -> list[Path]:
    """Remove the staging folders of `target` whose build process is gone; return them."""
    target = Path(target)
    removed = []
    for entry in target.parent.glob(f".{target.name}{_STAGING}*"):
        pid = entry.name.rpartition("-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # an earlier build of this process that did not finish: stale too
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _carry_over(target: Path, staging: Path, written: set[str]) -> None:
    """Hard-link (or copy) into `staging` what `target` holds that no build of kg wrote."""
    if not target.is_dir():
        return
    try:
        previous = set(json.loads((target / MANIFEST).read_text(encoding="utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        previous = set()
    for entry in target.iterdir():
        if entry.name in written or entry.name in previous or entry.name == MANIFEST:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, staging / entry.name, symlinks=True, copy_function=_link_or_copy)
        else:
            _link_or_copy(entry, staging / entry.name)


def _link_or_copy(source: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
    if os.path.islink(source):
        os.symlink(os.readlink(source), destination)
        return
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def _switch(staging: Path, target: Path) -> None:
    """Make `staging`'s content the `target` folder; the old content ends at `staging`'s path."""
    if not target.exists():
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        return
    aside = staging.with_name(staging.name.replace(_STAGING, f"{_STAGING}old-"))
    os.rename(target, aside)
    os.rename(staging, target)
    os.rename(aside, staging)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with Linux's renameat2; False where the call is not available."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    done = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if done == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: a file system or kernel without exchange
        return False
    raise OSError(errno, os.strerror(errno), str(b))
