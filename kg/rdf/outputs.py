"""Where the writers write: a path (written atomically) or a file the caller opened in binary mode."""
from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from typing import IO, Union

from kg._util.io import atomic_open

#: A writer's target: a path, or a file opened for binary writing (left open).
Output = Union[str, "os.PathLike[str]", IO[bytes]]


@contextlib.contextmanager
def text_output(target: Output) -> Iterator[IO[str]]:
    """A text handle (UTF-8, `\\n` line ends) on `target`: a temporary file renamed over the path
    on success, or a wrapper around the caller's binary file, flushed and detached at the end."""
    if hasattr(target, "write"):
        handle = io.TextIOWrapper(target, encoding="utf-8", newline="\n")  # type: ignore[arg-type]
        try:
            yield handle
            handle.flush()
        finally:
            handle.detach()
    else:
        with atomic_open(target) as handle:
            yield handle


@contextlib.contextmanager
def binary_output(target: Output) -> Iterator[IO[bytes]]:
    """A binary handle on `target`, as `text_output`."""
    if hasattr(target, "write"):
        yield target  # type: ignore[misc]
    else:
        with atomic_open(target, "wb") as handle:
            yield handle
