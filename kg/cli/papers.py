"""`kg papers`: what was read, records and problems."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, option, print_json, report_problems, source_options


@command("papers", source_options(aliases=False, extract=False),
         option("--json", action="store_true", help="print a JSON list of records"))
def run(args: argparse.Namespace) -> int:
    """what was read: records and problems

    Print the records read from the inputs; problems go to stderr.

    examples:
      kg papers listing.txt
      kg papers scopus.csv --json | jq '.[0]'
    """
    from kg.readers import read
    from kg.records import paper_to_dict

    result = read(args.inputs or None, format=args.format, strict=args.strict, quiet=args.quiet)
    report_problems(result.problems)
    if args.json:
        print_json([paper_to_dict(p) for p in result.papers])
    else:
        for paper in result.papers:
            track = paper.track.label if paper.track else "(no track)"
            names = ", ".join(a.name for a in paper.authors) + (" et al." if paper.authors_truncated else "")
            print(f"{paper.display_id}\t{track}\t{names}")
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0
