"""kg._util.io: atomic writes leave the old file or the new one, never half of one; JSON layout round-trips."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg._util.io import atomic_open, atomic_write, json_text

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@given(JSON)
def test_json_text_reads_back_as_the_same_value(value):
    assert json.loads(json_text(value)) == value
    assert json_text([value]) == f"[\n  {json.dumps(value, ensure_ascii=False)}\n]"  # an item: as json.dumps writes it


def test_json_text_puts_each_list_item_on_one_line():
    text = json_text({"rows": [{"a": 1, "b": [1, 2]}, {"a": 2}], "n": 2})
    assert text.splitlines() == ['{', '  "rows": [', '    {"a": 1, "b": [1, 2]},', '    {"a": 2}', '  ],',
                                 '  "n": 2', '}']


def test_json_text_of_a_long_list_written_in_pieces_is_one_item_a_line():
    rows = [{"row": i} for i in range(2500)]  # more items than one piece of json_chunks holds
    assert json_text({"rows": rows}).splitlines() == ["{", '  "rows": ['] + [
        f'    {{"row": {i}}}' + ("," if i < 2499 else "") for i in range(2500)] + ["  ]", "}"]


def test_json_text_streams_any_other_iterable_as_the_list_it_yields():
    """A generator (a lazy table) is written item by item, exactly as the list of its items;
    tuples and strings stay values."""
    rows = [{"row": i, "papers": ["p", i]} for i in range(2500)]
    value = {"tables": {"a": rows, "empty": []}, "pair": (1, 2), "s": "text"}
    streamed = {"tables": {"a": (row for row in rows), "empty": iter(())}, "pair": (1, 2), "s": "text"}
    assert json_text(streamed) == json_text(value)
    assert json.loads(json_text(value))["pair"] == [1, 2]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    atomic_write(target, "old\n")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as handle:
            handle.write("half of the new")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]
