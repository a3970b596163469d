"""The `kg` command. Each subcommand is a thin call into the Python API (`kg build` = `kg.build()`).

Exit codes: 0 ok, 1 problems found (fatal error, or any problem with --strict), 2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from kg.cli import analyze, build, evaluate, keywords, papers, push, queries, query, serve, trends, views
from kg.errors import ArgumentError, KgError

#: The commands in the order `kg --help` lists them: each module's `run`, a handler made a `Command`.
COMMANDS = tuple(module.run for module in (build, papers, keywords, evaluate, analyze, trends, views, query, queries,
                                           serve, push))


def make_parser() -> argparse.ArgumentParser:
    """The `kg` parser: global options, then each command's own."""
    from kg import __version__

    parser = argparse.ArgumentParser(
        prog="kg",
        description="Turn conference paper listings into a scholarly knowledge graph.",
        epilog="examples:\n"
        "  kg build                                   the embedded sample -> exports/\n"
        "  kg build listing.txt more.bib -o out/      your inputs, merged and deduplicated\n"
        "  kg papers listing.txt --json               what was read (problems on stderr)\n"
        "  kg keywords listing.txt                    method concepts per paper\n"
        "  kg analyze listing.txt -o report/          co-authorship and topic report\n"
        "  kg queries                                 the named SPARQL queries\n"
        '  kg query coauthors --param author="Jing Liu"\n'
        "  kg serve                                   read-only SPARQL endpoint on 127.0.0.1:7878\n\n"
        "Settings may live in kg.toml or [tool.kg] in pyproject.toml (see README).\n"
        "Exit codes: 0 ok, 1 problems (a fatal error, or a malformed record with --strict), 2 usage error.\n"
        "Run `kg COMMAND --help` for a command's options and examples.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def _apply_settings(parser: argparse.ArgumentParser, settings: dict) -> None:
    """Make the settings file's values the defaults of every subcommand that has such an option."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    known = set()
    for command in commands.values():
        dests = {action.dest for action in command._actions}
        known |= dests
        command.set_defaults(**{key: value for key, value in settings.items() if key in dests})
    unknown = sorted(set(settings) - known)
    if unknown:
        raise ArgumentError(f"unknown setting(s) in the settings file: {', '.join(unknown)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `kg` command (`argv`: its arguments, default `sys.argv[1:]`); return its exit code."""
    from kg.config import load_config

    parser = make_parser()
    try:
        _apply_settings(parser, load_config())
    except ArgumentError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ArgumentError as exc:
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
    except OSError as exc:  # a full disk, a folder that cannot be made: the system's words, no traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"kg: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1


def run() -> NoReturn:
    """The `kg` command: `main()`, its return value as the exit status."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
