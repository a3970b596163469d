"""Atomic output: every file kg writes goes to a temporary file beside it, then is renamed."""
from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """Open a temporary file next to `path`; on success rename it over `path`, on error remove it."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically; return the path."""
    with atomic_open(path, "wb" if isinstance(data, bytes) else "w") as handle:
        handle.write(data)
    return Path(path)
