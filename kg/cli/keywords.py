"""`kg keywords`: method and dataset concepts per paper, with their mentions."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, option, print_json, report_problems, source_options


@command("keywords", source_options(aliases=False),
         option("--json", action="store_true",
                help="print a JSON list: id, authors, methods and datasets (benchmarks too) with mentions"))
def run(args: argparse.Namespace) -> int:
    """method and dataset concepts per paper, with their mentions

    Extract method and dataset terms from each record and print its canonical concepts (label and
    mention count; --json adds alternative labels and every mention's text, character offsets into the
    cleaned abstract, and sentence). Records need only an id and an abstract/text.

    examples:
      kg keywords listing.txt
      kg keywords papers.jsonl --json | jq '.[0].methods'
      kg keywords listing.txt --spacy-model en_core_web_sm --workers 4
    """
    from kg.extract import extract_concepts, keywords_records, make_pipeline
    from kg.readers import read

    nlp = make_pipeline(args.spacy_model)
    result = read(args.inputs or None, format=args.format, strict=args.strict, require_authors=False,
                  quiet=args.quiet)
    report_problems(result.problems)
    methods, datasets = extract_concepts(result.papers, nlp=nlp, workers=args.workers, quiet=args.quiet)
    if args.json:
        print_json(keywords_records(result.papers, methods, datasets))
    else:
        for paper in result.papers:
            found = "; ".join(f"{m.label} ({m.count})" for m in methods.get(paper.key, ()))
            data = "; ".join(f"{d.label} ({d.count})" for d in datasets.get(paper.key, ()))
            print(f"{paper.display_id}\t{found}" + (f"\tdatasets: {data}" if data else ""))
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0
