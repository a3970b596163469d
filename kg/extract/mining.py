"""Head nouns learned from annotated abstracts: which words head method terms and which never do.

    python -m kg.extract.mining ../shared/data/scierc_train.jsonl > kg/extract/mined_heads.txt

Every annotated entity (SciERC's `entities`: Method, Task, Material, Metric, OtherScientificTerm,
Generic) votes for its head, the singular lower-case last word (after its last dash). A head seen
at least `min_count` times is a *method head* when at least `method_share` of its entities are
Methods (`classifier`, `parser`, `grammar`), and a *non-method head* when at most `other_share` are
(`translation`, `recognition`, `corpus`, `accuracy`: tasks, materials, metrics). Only plain
lower-case words count (acronyms and names head nothing). `vocab.py` reads the written file;
the thresholds and the counts behind each line are written with it, so the list can be checked
and made again from the training split alone.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from kg.errors import RecordError
from kg.extract.normalize import singular

METHOD = "Method"


def entity_heads(records: Iterable[dict]) -> dict[str, Counter[str]]:
    """Head word -> entity type counts, over the records' `entities` (`{"text", "type"}`)."""
    heads: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        for entity in record.get("entities", ()):
            words = entity["text"].split()
            if not words:
                continue
            last = words[-1].split("-")[-1]
            if not (last.isalpha() and last.islower() and len(last) >= 3):
                continue
            heads[singular(last)][entity["type"]] += 1
    return heads


def classify(heads: dict[str, Counter[str]], *, min_count: int = 4, method_share: float = 0.6,
             other_share: float = 0.15) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """`(method heads, non-method heads)`, each a sorted list of `(head, methods, entities)`."""
    method, other = [], []
    for head, counts in sorted(heads.items()):
        n = sum(counts.values())
        m = counts[METHOD]
        if n < min_count:
            continue
        if m >= method_share * n:
            method.append((head, m, n))
        elif m <= other_share * n:
            other.append((head, m, n))
    return method, other


def read_records(path: Path) -> list[dict]:
    """The JSON lines of `path`; a malformed line raises RecordError."""
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except ValueError as exc:
                raise RecordError(str(path), number, f"not JSON ({exc})") from exc
    return records


def main(argv: Sequence[str] | None = None) -> int:
    """Print the mined head file for the gold files given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="+", type=Path)
    parser.add_argument("--min-count", type=int, default=4)
    parser.add_argument("--method-share", type=float, default=0.6)
    parser.add_argument("--other-share", type=float, default=0.15)
    args = parser.parse_args(argv)
    records = [r for path in args.gold for r in read_records(path)]
    method, other = classify(entity_heads(records), min_count=args.min_count, method_share=args.method_share,
                             other_share=args.other_share)
    out = sys.stdout
    out.write(f"# Mined by `python -m kg.extract.mining {' '.join(p.name for p in args.gold)}` "
              f"(min count {args.min_count}, method share >= {args.method_share}, <= {args.other_share}).\n"
              "# `method: HEAD` heads method terms; `other: HEAD` heads tasks, materials, metrics, never a method.\n"
              "# The comment gives the Method entities / all entities with that head.\n")
    for kind, rows in (("method", method), ("other", other)):
        for head, m, n in rows:
            out.write(f"{kind}: {head}  # {m}/{n}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
