"""The `kg` command. Each subcommand is a thin call into the Python API (`kg build` = `kg.build()`).

Exit codes: 0 ok, 1 problems found (fatal error, or any problem with --strict), 2 usage error.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from kg.errors import KgError, UsageError


def _print_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _report_problems(problems: Sequence[object]) -> None:
    for problem in problems:
        print(f"kg: {problem}", file=sys.stderr)


def _add_read_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by every subcommand that reads input files."""
    parser.add_argument("--format", default="auto",
                        choices=["auto", "listing", "json", "jsonl", "csv", "bibtex"],
                        help="input format (default: by extension and content)")
    parser.add_argument("--strict", action="store_true",
                        help="make the first malformed record fatal instead of reporting and skipping it")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars, no summary")


# ---------------------------------------------------------------------------------- build
def _cmd_build(args: argparse.Namespace) -> int:
    from kg.build import build

    result = build(args.inputs or None, out_dir=args.output, format=args.format, strict=args.strict,
                   quiet=args.quiet)
    _report_problems(result.problems)
    if not args.quiet:
        print(result.summary())
    return 0


# --------------------------------------------------------------------------------- papers
def _cmd_papers(args: argparse.Namespace) -> int:
    from kg.readers import read

    result = read(args.inputs, format=args.format, strict=args.strict)
    _report_problems(result.problems)
    if args.json:
        _print_json([paper_to_json(p) for p in result.papers])
    else:
        for paper in result.papers:
            track = paper.track.label if paper.track else "(no track)"
            names = ", ".join(a.name for a in paper.authors) + (" et al." if paper.authors_truncated else "")
            print(f"{paper.display_id}\t{track}\t{names}")
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0


def paper_to_json(paper) -> dict:
    """The `kg papers --json` shape of one record (documented in the README)."""
    return {
        "id": paper.id,
        "key": paper.key,
        "title": paper.title,
        "authors": [a.name for a in paper.authors],
        "authors_truncated": paper.authors_truncated,
        "track": None if paper.track is None else {"area": paper.track.area, "subarea": paper.track.subarea},
        "abstract": paper.abstract,
        "text": paper.text,
        "source": None if paper.source is None else {"file": paper.source.file, "line": paper.source.line},
    }


# ---------------------------------------------------------------------------------- parser
def make_parser() -> argparse.ArgumentParser:
    from kg import __version__

    parser = argparse.ArgumentParser(
        prog="kg",
        description="Turn conference paper listings into a scholarly knowledge graph.",
        epilog="Run `kg COMMAND --help` for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("build", help="the whole job: read, extract, graph, RDF, report, views",
                       description="Read the inputs (default: the embedded sample) and write every export into DIR.",
                       epilog="examples:\n  kg build\n  kg build papers.jsonl more.bib -o out/",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="input files (default: the embedded sample listing)")
    p.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    _add_read_options(p)
    p.set_defaults(func=_cmd_build)

    p = sub.add_parser("papers", help="what was read: records and problems",
                       description="Print the records read from the inputs; problems go to stderr.",
                       epilog="examples:\n  kg papers listing.txt\n  kg papers listing.txt --json | jq '.[0]'",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--json", action="store_true", help="print a JSON list of records")
    _add_read_options(p)
    p.set_defaults(func=_cmd_papers)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 2
    except KgError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("kg: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
