"""Progress bars on a terminal, silence when piped or asked to be quiet."""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], desc: str, *, total: int | None = None, unit: str = "paper",
             quiet: bool = False, describe: Callable[[T], str] | None = None) -> Iterator[T]:
    """Yield `items`, drawing a tqdm bar on stderr when stderr is a terminal and not `quiet`.

    `describe(item)` names the item being worked on (shown after the bar), for steps of unequal size.
    """
    if quiet or not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm

    with tqdm(items, desc=desc, total=total, unit=unit, leave=False, file=sys.stderr, dynamic_ncols=True) as bar:
        for item in bar:
            if describe is not None:
                bar.set_postfix_str(describe(item), refresh=True)
            yield item
