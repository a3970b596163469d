"""Any bytes or text fed to any reader parse or raise a kg.errors error, never another exception."""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import KgError
from kg.readers import FORMATS, read

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Text built from the pieces the formats care about, so the parsers get past their first byte.
PIECES = list("ab Z,;.等·•–—\n\r\t\"'{}[]@=$\\*:%\ufeff\u00e9") + [
    "et al.", " and ", "@article{k,", "abstract", '{"abstract": "', "authors", "\n\n", " · ", "$\\epsilon$"]
MARKUP = st.lists(st.sampled_from(PIECES), max_size=120).map("".join)


def _read_all_ways(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(data)
        for format in ("auto", *FORMATS):
            for strict in (False, True):
                try:
                    result = read([path], format=format, strict=strict, require_authors=not strict)
                except KgError:
                    continue
                assert all(p.key and (p.text or p.title or p.authors) for p in result.papers)
                assert result.skipped >= 0 and all(p.file == str(path) and p.line >= 1 for p in result.problems)


@SETTINGS
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data):
    _read_all_ways(data)


@SETTINGS
@given(MARKUP)
def test_arbitrary_markup_text(text):
    _read_all_ways(text.encode("utf-8"))
