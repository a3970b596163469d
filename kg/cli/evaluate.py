"""`kg eval`: method-extraction precision, recall and F1 against gold."""
from __future__ import annotations

import argparse

from kg.cli.common import EXTRACT_OPTIONS, command, option, print_json


@command("eval",
         option("gold", nargs="+", metavar="GOLD.jsonl", help="gold files, each scored on its own (a split)"),
         option("--json", action="store_true",
                help="print the scores and counts as one JSON object (a list of them for several files)"),
         option("--errors", action="store_true",
                help="also list, per document, the false positives, the misses and the partly right terms"),
         EXTRACT_OPTIONS)
def run(args: argparse.Namespace) -> int:
    """method-extraction precision / recall / F1 against gold

    Score method extraction on gold JSON Lines files of {"id" (or "doc_id"), "text", "methods": [...]}
    records, or SciERC's original {"doc_key", "sentences", "ner"} records: strict (equal after
    normalisation) and lenient (one term's words a contiguous run of the other's) micro precision,
    recall, F1 over distinct normalised strings per document (see docs/method-keywords.md).

    examples:
      kg eval kg/data/gold_sample.jsonl --errors
      kg eval train.jsonl dev.jsonl              # one table per split
      kg eval gold.jsonl --spacy-model en_core_web_sm --json
    """
    from kg.evaluate import evaluate
    from kg.extract import make_pipeline

    nlp = make_pipeline(args.spacy_model)
    reports = [evaluate(gold, nlp, workers=args.workers, with_errors=args.errors) for gold in args.gold]
    if args.json:
        print_json(reports[0] if len(reports) == 1 else reports)
        return 0
    for report in reports:
        print(f"{report['gold']}: {report['documents']} documents, pipeline {report['pipeline']}")
        print(f"{'match':<8} {'precision':>9} {'recall':>7} {'F1':>6}   counts (TP pred / pred, TP gold / gold)")
        for name in ("strict", "lenient"):
            s = report[name]
            print(f"{name:<8} {s['precision']:>9.3f} {s['recall']:>7.3f} {s['f1']:>6.3f}   "
                  f"{s['tp_predicted']}/{s['predicted']}, {s['tp_gold']}/{s['gold']}")
        for doc in report.get("errors", ()):
            print(f"  {doc['id']}")
            for field, title in (("false_positives", "false positive"), ("misses", "missed"),
                                 ("partial", "partly right")):
                if doc[field]:
                    print(f"    {title}: " + "; ".join(doc[field]))
    return 0
