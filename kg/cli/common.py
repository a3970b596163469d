"""What several commands share: making a command's parser, the option groups, output of JSON and problems."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from kg.errors import ArgumentError
from kg.readers.detect import FORMATS


def add_command(subparsers: argparse._SubParsersAction, name: str, run: Callable[[argparse.Namespace], int], *,
                help: str, description: str, examples: Sequence[str], notes: str = "") -> argparse.ArgumentParser:
    """A command's parser: its one-line `help`, `description`, examples (and `notes`) in `--help`, its handler."""
    epilog = "examples:\n" + "".join(f"  {example}\n" for example in examples) + (f"\n{notes}" if notes else "")
    parser = subparsers.add_parser(name, help=help, description=description, epilog=epilog.rstrip(),
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(func=run)
    return parser


def print_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def report_problems(problems: Sequence[object]) -> None:
    for problem in problems:
        print(f"kg: {problem}", file=sys.stderr)


def add_source_options(parser: argparse.ArgumentParser, *, aliases: bool = True, extract: bool = True) -> None:
    """What a reading command reads and how: INPUT files (none = the embedded sample), `--format`,
    `--strict`, `--quiet`; with `aliases`, `--aliases`; with `extract`, `--spacy-model`, `--workers`."""
    parser.add_argument("inputs", nargs="*", metavar="INPUT",
                        help="input files, FILE@YEAR for a file's year (default: the embedded 20-paper sample "
                             "listing, kg/data/sample_listing.txt)")
    parser.add_argument("--format", default="auto", choices=["auto", *FORMATS],
                        help="input format (default: by content and extension; see docs/input-formats.md)")
    parser.add_argument("--strict", action="store_true",
                        help="make the first malformed record fatal instead of reporting and skipping it")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars, no summary")
    if aliases:
        parser.add_argument("--aliases", metavar="FILE", help="author merges/splits (YAML or CSV; see docs/analysis.md)")
    if extract:
        parser.add_argument("--spacy-model", metavar="NAME",
                            help="trained spaCy pipeline to use (default: blank English)")
        parser.add_argument("--workers", type=int, default=1, help="extraction processes (default: 1)")


def add_community_options(parser: argparse.ArgumentParser, *, seed_of: str = "communities and layouts") -> None:
    """`--counting`, `--seed` and `--resolution`: how co-authorship weighs and communities are found."""
    parser.add_argument("--counting", choices=["full", "fractional"], default="full",
                        help="co-author link weight: shared papers (full) or 1/(n-1) per paper of n authors "
                             "(fractional)")
    parser.add_argument("--seed", type=int, default=42, help=f"seed of {seed_of} (default: 42)")
    parser.add_argument("--resolution", type=float, default=1.0,
                        help="Louvain resolution: >1 more, smaller communities (default: 1.0)")


def add_view_thresholds(parser: argparse.ArgumentParser) -> None:
    """The thresholds of the HTML views (`kg views`, and the views `kg build` writes)."""
    parser.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    parser.add_argument("--min-weight", type=float, default=0, metavar="W",
                        help="views: drop links lighter than W (shared papers; co-occurrences or association "
                             "strength)")
    parser.add_argument("--top-n", type=int, metavar="N",
                        help="views: the most a page holds, the N authors / methods with most papers, 0 = all "
                             "(default: 3000, kg.views.DEFAULT_TOP_N); the page says what was cut")
    parser.add_argument("--top-links", type=int, metavar="N",
                        help="views: the most links a page holds, the N heaviest, 0 = all (default: 20000, "
                             "kg.views.DEFAULT_TOP_LINKS); the page says what was cut")
    parser.add_argument("--datasets", type=int, metavar="N",
                        help="views: the topic map also shows the N datasets and benchmarks used by most papers, "
                             "as dark grey diamonds, 0 = none (default: 15, kg.views.DEFAULT_DATASETS)")


def view_caps(args: argparse.Namespace) -> dict[str, int | None]:
    """`--top-n`/`--top-links` as the views take them: unset = the default cap, 0 = no cap; and
    `--datasets`: unset = the default number, 0 = none."""
    from kg.views import DEFAULT_DATASETS, DEFAULT_TOP_LINKS, DEFAULT_TOP_N

    return {"top_n": DEFAULT_TOP_N if args.top_n is None else args.top_n or None,
            "top_links": DEFAULT_TOP_LINKS if args.top_links is None else args.top_links or None,
            "datasets": DEFAULT_DATASETS if args.datasets is None else args.datasets}


def build_options(args: argparse.Namespace):
    """The `kg.workflow.BuildOptions` that the command's options set (the others keep their defaults)."""
    from dataclasses import fields

    from kg.workflow import BuildOptions

    given = {f.name: getattr(args, f.name) for f in fields(BuildOptions) if hasattr(args, f.name)}
    if hasattr(args, "top_n"):
        given.update(view_caps(args))
    return BuildOptions(**given)


def load_graph_reporting(args: argparse.Namespace):
    """Read, extract and build as the options say, printing the reading problems."""
    from kg.workflow import load_graph

    result, G = load_graph(args.inputs or None, build_options(args))
    report_problems(result.problems)
    return result, G


def parse_params(pairs: Sequence[str]) -> dict[str, str]:
    """`--param NAME=VALUE` pairs as a dict; a pair without `=` is an `ArgumentError`."""
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ArgumentError(f"--param {pair!r}: expected NAME=VALUE")
        params[name] = value
    return params
