"""Opening input files: missing/empty files as `InputError`, bytes that are not UTF-8 as `RecordError`.

Every reader goes through here, so BOMs, CRLF line ends and undecodable bytes are handled once.
"""
from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from kg.errors import InputError, RecordError

_BOM = b"\xef\xbb\xbf"
_P = ParamSpec("_P")
_T = TypeVar("_T")
_SNIFF_BYTES = 65536


def check_file(path: str | os.PathLike[str]) -> Path:
    """The path if it is a readable, non-empty file; else an `InputError` that says what to fix."""
    file = Path(path)
    if not file.exists():
        raise InputError(f"{path}: no such file; check the path")
    if not file.is_file():
        raise InputError(f"{path}: not a file; give the path of an input file")
    head = head_bytes(file)
    if file.stat().st_size <= len(head) and not head.removeprefix(_BOM).strip():
        raise InputError(f"{path}: empty input, no records to read")
    return file


def head_bytes(path: str | os.PathLike[str]) -> bytes:
    """The first 64 KiB of a file, for format detection and emptiness checks."""
    with open(path, "rb") as handle:
        return handle.read(_SNIFF_BYTES)


def not_utf8(path: str | os.PathLike[str], line: int, data: bytes, error: UnicodeDecodeError) -> RecordError:
    """The problem for bytes that do not decode: where, which byte, and the fix."""
    byte = data[error.start:error.start + 1].hex().upper()
    column = error.start - data.rfind(b"\n", 0, error.start)
    return RecordError(str(path), line, f"not UTF-8 (byte 0x{byte} at column {column}); "
                                        "re-save the file as UTF-8")


def iter_lines(path: str | os.PathLike[str], span: tuple[int, int, int] | None = None
               ) -> Iterator[tuple[int, str, RecordError | None]]:
    """Stream `(line number, text without its line end, problem)`; problem is None for a UTF-8 line.

    A line that is not UTF-8 comes with its problem and its text decoded with U+FFFD replacements, so a
    reader can still tell where its record ends. A leading BOM is dropped; lines end in `\\n` or `\\r\\n`.
    `span` = (start, end, first line) reads only bytes start..end (cut at line ends), numbering the
    lines from `first line`: a part of a file read on its own (`kg.engine`).
    """
    start, end, first = span if span is not None else (0, None, 1)
    with open(path, "rb") as handle:
        handle.seek(start)
        lines = io.BytesIO(handle.read(end - start)) if end is not None else handle
        for number, raw in enumerate(lines, start=first):
            if number == 1 and start == 0:
                raw = raw.removeprefix(_BOM)
            raw = raw.removesuffix(b"\n").removesuffix(b"\r")
            try:
                yield number, raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, raw.decode("utf-8", errors="replace"), not_utf8(path, number, raw, exc)


def read_text(path: str | os.PathLike[str]) -> str:
    """The whole file as text (BOM dropped, line ends kept); RecordError at the first non-UTF-8 line."""
    data = Path(path).read_bytes().removeprefix(_BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(path, data.count(b"\n", 0, exc.start) + 1, data, exc) from None


def reads_text(parse: Callable[Concatenate[str, str, _P], Iterator[_T]]
               ) -> Callable[Concatenate[str | os.PathLike[str], _P], Iterator[_T | RecordError]]:
    """A reader of a file from a parser of its text: `parse(text, file, ...)` becomes `read(path, ...)`.

    The file is read whole (`read_text`); one that is not UTF-8 is a single RecordError (the line of
    its first bad byte) and nothing else. `file` is the path as problems name it.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> @reads_text
    ... def lines(text, file):
    ...     yield from ((file.endswith(".txt"), line) for line in text.splitlines())
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = path.write_bytes(b"one\\ntwo\\n\\xff\\n")
    >>> [(problem.line, problem.message) for problem in lines(path)]
    [(3, 'not UTF-8 (byte 0xFF at column 1); re-save the file as UTF-8')]
    >>> _ = path.write_bytes(b"one\\ntwo\\n")
    >>> list(lines(path))
    [(True, 'one'), (True, 'two')]
    """
    @functools.wraps(parse)
    def read(path: str | os.PathLike[str], *args: _P.args, **kwargs: _P.kwargs) -> Iterator[_T | RecordError]:
        try:
            text = read_text(path)
        except RecordError as exc:
            yield exc
            return
        yield from parse(text, str(path), *args, **kwargs)
    return read
