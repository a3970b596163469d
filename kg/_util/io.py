"""Output: every file kg writes goes to a temporary file beside it, then is renamed; JSON layout."""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import IO, Any, BinaryIO, Union

#: A writer's target: a path (written atomically), or a file opened for binary writing (left open).
Output = Union[str, "os.PathLike[str]", BinaryIO]


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w", *, encoding: str = "utf-8",
                errors: str = "strict") -> Iterator[IO]:
    """Open a temporary file next to `path`; on success rename it over `path`, on error remove it.

    Text is written with `encoding` and `errors` (e.g. ASCII with `xmlcharrefreplace` for XML).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        kwargs = {} if "b" in mode else {"encoding": encoding, "errors": errors, "newline": "\n"}
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


@contextlib.contextmanager
def open_output(target: Output, *, encoding: str = "utf-8",
                errors: str = "strict") -> Iterator[IO[str]]:
    """A text stream onto `target`: a path, written atomically (`atomic_open`), or an open binary
    file, which is flushed and left open (as NetworkX's writers take either)."""
    if not hasattr(target, "write"):
        with atomic_open(target, encoding=encoding, errors=errors) as handle:
            yield handle
        return
    stream = io.TextIOWrapper(target, encoding=encoding, errors=errors, newline="\n")
    try:
        yield stream
        stream.flush()
    finally:
        stream.detach()


def written(target: str | os.PathLike[str] | BinaryIO) -> Path | None:
    """What a writer that takes a path or an open binary file returns: the path as a Path, or None
    for a file (the caller has it)."""
    return None if hasattr(target, "write") else Path(target)


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> Path:
    """Write `data` (text as UTF-8, or bytes) to `path` atomically; return the path."""
    with atomic_open(path, "wb" if isinstance(data, bytes) else "w") as handle:
        handle.write(data)
    return Path(path)


def json_encoder(*, sort_keys: bool = False, default: Callable[[Any], object] | None = None
                 ) -> Callable[[object], str]:
    """`json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, default=default)` through json's
    C encoder made once: `dumps` makes one per call, which was half the time of writing the report
    of 10,000 papers item by item. (The C encoder is CPython's; elsewhere, the public encoder.)

    Parameters
    ----------
    sort_keys : bool
        Write each object's keys sorted.
    default : callable, optional
        Turns an object json cannot encode into one it can (`kg.records.mention_to_dict` for the
        mention records of the graph's evidence); None: such an object is a TypeError.

    Returns
    -------
    callable
        value -> its compact JSON text.

    Examples
    --------
    >>> json_encoder(sort_keys=True, default=sorted)({"b": {2, 1}, "a": None})
    '{"a": null, "b": [1, 2]}'
    """
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=sort_keys, default=default)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    c_encode = make(None, encoder.default, json.encoder.encode_basestring, None, encoder.key_separator,
                    encoder.item_separator, sort_keys, False, True)  # no circularity check, NaN allowed
    return lambda value: "".join(c_encode(value, 0))


_compact_json = json_encoder()


#: List items encoded and joined per piece of `json_chunks`.
_ITEMS_PER_CHUNK = 1000


def json_text(value: object) -> str:
    """JSON with objects laid out key by key and each list item on one compact line (`json_chunks`)."""
    return "".join(json_chunks(value))


def write_json(path: Output, value: object) -> Path | None:
    """Write `value` as `json_text` plus a newline, piece by piece, to `path` (atomically; the path
    is returned) or to an open binary file (None is returned), as `open_output`."""
    with open_output(path) as handle:
        handle.writelines(json_chunks(value))
        handle.write("\n")
    return written(path)


def json_chunks(value: object, indent: int = 0) -> Iterator[str]:
    """The pieces of `json_text(value)`, in order: nothing is joined twice, and a writer can
    stream them to a file. A list, or any other iterable that is no string, mapping or tuple (a
    generator, a lazy `kg.analysis.Table`), is read once, item by item, so a table made as it is
    written is never held whole.

    Readable and diffable like `json.dumps(indent=...)`, but each item is written by json's C
    encoder: `indent=` makes json fall back to pure Python, which takes tens of seconds on the
    report of 10,000 papers.
    """
    pad = " " * (indent + 2)
    if isinstance(value, dict) and value:
        separator = "{\n"
        for key, item in value.items():
            yield f"{separator}{pad}{_compact_json(key)}: "
            yield from json_chunks(item, indent + 2)
            separator = ",\n"
        yield "\n" + " " * indent + "}"
    elif isinstance(value, list) or _is_stream(value):
        yield from _list_chunks(value, pad, indent)
    else:
        yield _compact_json(value)


def _is_stream(value: object) -> bool:
    """Whether `value` is written as a JSON list item by item: an iterable that is no string,
    mapping or tuple (a generator, a lazy table), made as it is read."""
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, tuple, dict))


def _list_chunks(items: Iterable, pad: str, indent: int) -> Iterator[str]:
    """The pieces of a list or stream of items, `_ITEMS_PER_CHUNK` items a piece, each read once."""
    separator = f",\n{pad}"
    items = iter(items)
    batch = list(islice(items, _ITEMS_PER_CHUNK))
    if not batch:
        yield "[]"
        return
    yield "[\n" + pad + separator.join(map(_compact_json, batch))
    while batch := list(islice(items, _ITEMS_PER_CHUNK)):  # a million-row table is not one string
        yield separator + separator.join(map(_compact_json, batch))
    yield "\n" + " " * indent + "]"


def line_ranges(path: str | os.PathLike[str], size: int) -> Iterator[tuple[int, int]]:
    """Byte ranges (start, end) of about `size` bytes covering the file, each ending just after a
    `\\n` (or at the file's end): parts of a line-based file (JSONL, N-Triples) that can be read or
    copied on their own. Only the cut points are read (a seek and a line each).

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "lines.txt"
    >>> _ = path.write_bytes(b"one\\ntwo\\nthree\\n")
    >>> list(line_ranges(path, 5))
    [(0, 8), (8, 14)]
    """
    total, start, size = os.path.getsize(path), 0, max(size, 1)
    with open(path, "rb") as handle:
        while start < total:
            handle.seek(min(start + size, total))
            handle.readline()  # to the end of the line the cut falls in
            end = min(handle.tell(), total)
            yield start, end
            start = end
