"""What several commands share: `@command` (a handler, its options, its docstring as `--help`), the
option groups, output of JSON and problems."""
from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kg.errors import ArgumentError
from kg.readers.detect import FORMATS


Handler = Callable[[argparse.Namespace], int]
#: One thing a command's parser gets: `option(...)` makes one, `source_options()` and the like several.
Option = Callable[[argparse.ArgumentParser], object]


def option(*flags: str, **settings: Any) -> Option:
    """One `add_argument(*flags, **settings)`, made when the command's parser is."""
    return lambda parser: parser.add_argument(*flags, **settings)


def one_of(*options: Option) -> Option:
    """Options that exclude each other (argparse's mutually exclusive group)."""
    def add(parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group()
        for add_option in options:
            add_option(group)  # type: ignore[arg-type]
    return add


@dataclass(frozen=True)
class Command:
    """A `kg` command: its name, its handler (whose docstring is its `--help`) and its options."""

    name: str
    handler: Handler
    options: tuple[Option, ...]

    def register(self, subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
        """Add the command's parser: `help` is the docstring's first line, the description its next
        paragraph (as one line: argparse prints it as written), the epilog the rest (examples, notes)."""
        help, _, rest = inspect.cleandoc(self.handler.__doc__ or "").partition("\n\n")
        description, _, epilog = rest.partition("\n\n")
        parser = subparsers.add_parser(self.name, help=help, description=" ".join(description.splitlines()),
                                       epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
        for add_option in self.options:
            add_option(parser)
        parser.set_defaults(func=self.handler)
        return parser

    def __call__(self, args: argparse.Namespace) -> int:
        """Run the handler, as before it was made a command."""
        return self.handler(args)


def command(name: str, *options: Option | Sequence[Option]) -> Callable[[Handler], Command]:
    r"""Make a handler a command: `@command("papers", source_options(), option("--json", ...))` above
    `def run(args)`, whose docstring is the command's help (summary line, description, examples).

    Parameters
    ----------
    name : str
        The command's name (`kg NAME`).
    *options : Option or sequence of Option
        What its parser gets, in order (`option(...)`, `one_of(...)`, `source_options()`, ...).

    Returns
    -------
    callable
        A decorator that makes the handler a `Command`, whose `register(subparsers)` adds it.

    Examples
    --------
    >>> import argparse
    >>> @command("hello", option("--name", default="you", help="whom to greet"))
    ... def run(args):
    ...     '''greet someone
    ...
    ...     Print a greeting
    ...     to someone.
    ...
    ...     examples:
    ...       kg hello --name Ana
    ...     '''
    ...     print(f"hello {args.name}")
    ...     return 0
    >>> parser = run.register(argparse.ArgumentParser(prog="kg").add_subparsers())
    >>> parser.description, parser.epilog
    ('Print a greeting to someone.', 'examples:\n  kg hello --name Ana')
    >>> args = parser.parse_args(["--name", "Ana"])
    >>> args.func(args)
    hello Ana
    0
    """
    flat = tuple(o for given in options for o in ((given,) if callable(given) else given))
    return lambda handler: Command(name, handler, flat)


def print_json(data: object) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def report_problems(problems: Sequence[object]) -> None:
    for problem in problems:
        print(f"kg: {problem}", file=sys.stderr)


#: `--spacy-model` and `--workers`: the extraction pipeline and its processes.
EXTRACT_OPTIONS = (option("--spacy-model", metavar="NAME", help="trained spaCy pipeline to use (default: blank English)"),
                   option("--workers", type=int, default=1, help="extraction processes (default: 1)"))


def source_options(*, aliases: bool = True, extract: bool = True) -> list[Option]:
    """What a reading command reads and how: INPUT files (none = the embedded sample), `--format`,
    `--strict`, `--quiet`; with `aliases`, `--aliases`; with `extract`, `EXTRACT_OPTIONS`."""
    options = [
        option("inputs", nargs="*", metavar="INPUT",
               help="input files, FILE@YEAR for a file's year (default: the embedded 20-paper sample "
                    "listing, kg/data/sample_listing.txt)"),
        option("--format", default="auto", choices=["auto", *FORMATS],
               help="input format (default: by content and extension; see docs/input-formats.md)"),
        option("--strict", action="store_true",
               help="make the first malformed record fatal instead of reporting and skipping it"),
        option("-q", "--quiet", action="store_true", help="no progress bars, no summary")]
    if aliases:
        options.append(option("--aliases", metavar="FILE", help="author merges/splits (YAML or CSV; see docs/analysis.md)"))
    return [*options, *EXTRACT_OPTIONS] if extract else options


def community_options(*, seed_of: str = "communities and layouts") -> list[Option]:
    """`--counting`, `--seed` and `--resolution`: how co-authorship weighs and communities are found."""
    return [option("--counting", choices=["full", "fractional"], default="full",
                   help="co-author link weight: shared papers (full) or 1/(n-1) per paper of n authors (fractional)"),
            option("--seed", type=int, default=42, help=f"seed of {seed_of} (default: 42)"),
            option("--resolution", type=float, default=1.0,
                   help="Louvain resolution: >1 more, smaller communities (default: 1.0)")]


#: The output folder and the thresholds of the HTML views (`kg views`, and the views `kg build` writes).
VIEW_OPTIONS = (
    option("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)"),
    option("--min-weight", type=float, default=0, metavar="W",
           help="views: drop links lighter than W (shared papers; co-occurrences or association strength)"),
    option("--top-n", type=int, metavar="N",
           help="views: the most a page holds, the N authors / methods with most papers, 0 = all "
                "(default: 3000, kg.views.DEFAULT_TOP_N); the page says what was cut"),
    option("--top-links", type=int, metavar="N",
           help="views: the most links a page holds, the N heaviest, 0 = all (default: 20000, "
                "kg.views.DEFAULT_TOP_LINKS); the page says what was cut"),
    option("--datasets", type=int, metavar="N",
           help="views: the topic map also shows the N datasets and benchmarks used by most papers, "
                "as dark grey diamonds, 0 = none (default: 15, kg.views.DEFAULT_DATASETS)"))


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
