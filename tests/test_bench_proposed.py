"""benchmarks/proposed_names.py: the names a proposal sentence gives, and the count of those found."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import proposed_names  # noqa: E402


def test_the_names_a_proposal_gives_and_modifiers_skipped():
    names = [name for name, _ in proposed_names.proposed_names(
        "We propose DRCFS, a doubly robust method. This paper introduces a framework named FREDIS to "
        "handle it. We propose a novel RL-based approach. We study SGD.")]
    assert names == ["DRCFS", "FREDIS"]


def test_counts_found_names_per_input(tmp_path, capsys):
    path = tmp_path / "papers.jsonl"
    records = [{"id": "1", "abstract": "We propose DRCFS, a doubly robust feature selection method.",
                "authors": ["A. Author"]},
               {"id": "2", "abstract": "We present OBELIX-Q2 for sparse graphs. It scales.", "authors": ["B. Author"]},
               {"id": "3", "abstract": "We design a measure called STIR for representations.", "authors": ["C. Author"]}]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert proposed_names.main([str(path), "--misses", "5"]) == {str(path): (2, 3)}
    out = capsys.readouterr().out
    assert "2/3 proposed names found" in out and "  STIR | We design a measure called STIR" in out
