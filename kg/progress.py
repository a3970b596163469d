"""Progress bars on a terminal, silence when piped or asked to be quiet."""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], desc: str, *, total: int | None = None, quiet: bool = False) -> Iterator[T]:
    """Wrap `items` in a tqdm bar on stderr when stderr is a terminal and not `quiet`."""
    if quiet or not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, desc=desc, total=total, unit="paper", leave=False, file=sys.stderr)
