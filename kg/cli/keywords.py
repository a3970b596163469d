"""`kg keywords`: method concepts per paper, with their mentions."""

from __future__ import annotations

import argparse
import sys

from kg.cli.common import add_extract_options, add_inputs, add_read_options, print_json, report_problems


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the command's parser (options, help, examples) and its handler."""
    p = subparsers.add_parser(
        "keywords",
        help="method concepts per paper, with their mentions",
        description="Extract method terms from each record and print its canonical method concepts "
        "(label and mention count; --json adds alternative labels and every mention's "
        "text, character offsets into the cleaned abstract, and sentence). Records need "
        "only an id and an abstract/text.",
        epilog="examples:\n  kg keywords listing.txt\n  kg keywords papers.jsonl --json | jq '.[0].methods'\n"
        "  kg keywords listing.txt --spacy-model en_core_web_sm --workers 4",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_inputs(p)
    p.add_argument("--json", action="store_true", help="print a JSON list: id, authors, methods with mentions")
    add_extract_options(p)
    add_read_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kg.extract import extract, keywords_records, make_pipeline
    from kg.readers import read

    nlp = make_pipeline(args.spacy_model)
    result = read(args.inputs or None, format=args.format, strict=args.strict, require_authors=False, quiet=args.quiet)
    report_problems(result.problems)
    methods = extract(result.papers, nlp=nlp, workers=args.workers, quiet=args.quiet)
    if args.json:
        print_json(keywords_records(result.papers, methods))
    else:
        for paper in result.papers:
            found = methods.get(paper.key, ())
            print(f"{paper.display_id}\t" + "; ".join(f"{m.label} ({m.count})" for m in found))
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0
