"""Each `kg_methods` rule's contribution on SciERC train and dev: F1 with every rule, then with one off.

    python benchmarks/extraction_ablation.py [--data DIR]

DIR defaults to `../shared/data` beside the repository (`scierc_train.jsonl`, `scierc_dev.jsonl`).
A row's delta is F1 without the rule minus F1 with all rules: a negative delta is what the rule
adds. Prints a Markdown table (the one in docs/method-keywords.md) and returns the figures.
"""
from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from kg.evaluate import evaluate
from kg.extract import make_pipeline
from kg.extract.component import RULES

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SPLITS = ("train", "dev")


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, tuple[float, float]]]:
    """Print the ablation table; return `{row: {split: (lenient F1, strict F1)}}`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    figures: dict[str, dict[str, tuple[float, float]]] = {}
    for row in ("all rules", *RULES):
        nlp = make_pipeline(disabled=() if row == "all rules" else (row,))
        figures[row] = {}
        for split in SPLITS:
            report = evaluate(args.data / f"scierc_{split}.jsonl", nlp)
            figures[row][split] = (report["lenient"]["f1"], report["strict"]["f1"])
    base = figures["all rules"]
    print("| without | train lenient | train strict | dev lenient | dev strict |")
    print("| --- | --- | --- | --- | --- |")
    for row, by_split in figures.items():
        cells = []
        for split in SPLITS:
            for k in (0, 1):
                value = by_split[split][k]
                cells.append(f"{value:.3f}" if row == "all rules" else f"{value:.3f} ({value - base[split][k]:+.3f})")
        print(f"| {row} | " + " | ".join(cells) + " |")
    return figures


if __name__ == "__main__":
    main()
