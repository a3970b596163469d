"""`kg eval`: method-extraction precision, recall and F1 against gold."""

from __future__ import annotations

import argparse

from kg.cli.common import add_extract_options, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the command's parser (options, help, examples) and its handler."""
    p = subparsers.add_parser(
        "eval",
        help="method-extraction precision / recall / F1 against gold",
        description='Score method extraction on a gold JSON Lines file of {"id", "text", '
        '"methods": [...]} records: strict (equal after normalisation) and lenient '
        "(one term's words a contiguous run of the other's) micro precision, recall, F1 "
        "over distinct normalised strings per document (see docs/method-keywords.md).",
        epilog="examples:\n  kg eval ../shared/data/scierc_dev.jsonl\n"
        "  kg eval gold.jsonl --spacy-model en_core_web_sm --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("gold", metavar="GOLD.jsonl")
    p.add_argument("--json", action="store_true", help="print the scores and counts as one JSON object")
    add_extract_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.evaluate import evaluate
    from kg.extract import make_pipeline

    report = evaluate(args.gold, make_pipeline(args.spacy_model), workers=args.workers)
    if args.json:
        print_json(report)
        return 0
    print(f"{report['gold']}: {report['documents']} documents, pipeline {report['pipeline']}")
    print(f"{'match':<8} {'precision':>9} {'recall':>7} {'F1':>6}   counts (TP pred / pred, TP gold / gold)")
    for name in ("strict", "lenient"):
        s = report[name]
        print(
            f"{name:<8} {s['precision']:>9.3f} {s['recall']:>7.3f} {s['f1']:>6.3f}   "
            f"{s['tp_predicted']}/{s['predicted']}, {s['tp_gold']}/{s['gold']}"
        )
    return 0
