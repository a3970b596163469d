"""`kg queries`: the named queries, their titles and parameters."""
from __future__ import annotations

import argparse
import sys

from kg.cli.common import command, one_of, option, print_json


def _shown(default: str | None) -> str:
    """A parameter default as `kg queries` shows it: quoted if it has spaces, `?` if required."""
    if default is None:
        return "?"
    return f'"{default}"' if " " in default else default


@command("queries", one_of(
    option("--json", action="store_true", help="a JSON list of {name, title, description, params}"),
    option("--markdown", action="store_true", help="a Markdown table (name | title | parameters)")))
def run(args: argparse.Namespace) -> int:
    """the named queries, their titles and parameters

    List the named SPARQL queries (queries/*.rq) with their titles and parameters.

    examples:
      kg queries
      kg queries --json | jq '.[].name'
      kg queries --markdown > queries.md
    """
    from kg.rdf.sparql import named_queries, queries_markdown_table

    queries = named_queries()
    if args.json:
        print_json([{"name": q.name, "title": q.title, "description": q.description,
                     "params": [{"name": p.name, "type": p.type, "default": p.default} for p in q.params]}
                    for q in queries])
    elif args.markdown:
        sys.stdout.write(queries_markdown_table(queries))
    else:
        for q in queries:
            params = " ".join(f"{p.name}={_shown(p.default)} ({p.type})" for p in q.params)
            print(f"{q.name:<28} {q.title}" + (f"\n{'':<28}   params: {params}" if params else ""))
    return 0
