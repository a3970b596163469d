"""`kg eval` scoring rules, the SciERC figures, and the `kg keywords` / `kg eval` commands."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.evaluate import GoldDoc, evaluate, normalize_term, score

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SCIERC = DATA / "scierc_dev.jsonl"


def test_normalize_term():
    assert normalize_term("The Expectation–Maximization (EM) algorithms") == "expectation maximization em algorithm"
    assert normalize_term("C++ and C# for .NET") == "c++ c# .net"
    assert normalize_term("gas of class models") == "gas class model"  # `ss` and short words keep their s


def test_strict_and_lenient_counting():
    gold = [GoldDoc("d", "", ("weight quantization error", "SGD", "SGD", "beam search"))]
    s = score(gold, [["quantization", "SGD", "dropout"]])
    assert (s["strict"]["tp_predicted"], s["strict"]["predicted"], s["strict"]["gold"]) == (1, 3, 3)
    assert (s["lenient"]["tp_predicted"], s["lenient"]["tp_gold"]) == (2, 2)
    assert s["lenient"]["precision"] == pytest.approx(2 / 3) and s["lenient"]["recall"] == pytest.approx(2 / 3)
    assert score(gold, [[]])["strict"]["f1"] == 0.0


@pytest.mark.skipif(not SCIERC.exists(), reason="shared SciERC data not present")
def test_scierc_blank_pipeline_beats_the_target():
    report = evaluate(SCIERC)
    assert report["documents"] == 50 and report["strict"]["gold"] == 196
    assert report["lenient"]["f1"] >= 0.5


def test_kg_eval_command(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "1", "text": "We propose FlashSketch, a sketching kernel based on SGD.",
                                "methods": ["FlashSketch", "SGD"]}) + "\n", encoding="utf-8")
    assert main(["eval", str(gold), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["strict"]["recall"] == 1.0 and report["pipeline"] == "blank:en"
    assert main(["eval", str(gold)]) == 0
    assert "lenient" in capsys.readouterr().out


def test_kg_eval_bad_gold_is_an_error(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": 1}\n', encoding="utf-8")
    assert main(["eval", str(gold)]) == 1
    assert "gold.jsonl:1:" in capsys.readouterr().err


def test_kg_keywords_json_on_id_and_abstract_records(tmp_path, capsys):
    data = tmp_path / "papers.jsonl"
    text = "Quantization-aware training (QAT) is studied. We propose FlashSketch for QAT."
    data.write_text(json.dumps({"id": "p1", "abstract": text}) + "\n", encoding="utf-8")
    assert main(["keywords", str(data), "--json", "-q"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["id"] == "p1" and record["authors"] == []
    qat, flash = record["methods"]
    assert (qat["label"], qat["alt_labels"]) == ("quantization-aware training", ["QAT"])
    assert [(m["text"], m["start"], m["end"]) for m in qat["mentions"]] == [
        ("Quantization-aware training", 0, 27), ("QAT", 29, 32), ("QAT", 73, 76)]
    assert flash["mentions"][0]["sentence"] == "We propose FlashSketch for QAT."


def test_kg_keywords_text_output(capsys):
    sample = Path(__file__).resolve().parents[1] / "kg" / "data" / "sample_listing.txt"
    assert main(["keywords", str(sample), "-q"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 20 and "FlashSketch (3)" in lines[4]
