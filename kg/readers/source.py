"""Opening input files: missing/empty files as `InputError`, bytes that are not UTF-8 as `RecordError`.

Every reader goes through here, so BOMs, CRLF line ends and undecodable bytes are handled once.
"""
from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

from kg.errors import InputError, RecordError

_BOM = b"\xef\xbb\xbf"
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
