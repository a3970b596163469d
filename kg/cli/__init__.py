"""The `kg` command. Each subcommand is a thin call into the Python API (`kg build` = `kg.build()`).

Exit codes: 0 ok, 1 problems found (fatal error, or any problem with --strict), 2 usage error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from kg.errors import ArgumentError, KgError, UsageError


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


def _add_extract_options(parser: argparse.ArgumentParser) -> None:
    """Options of every subcommand that runs method extraction."""
    parser.add_argument("--spacy-model", metavar="NAME", help="trained spaCy pipeline to use (default: blank English)")
    parser.add_argument("--workers", type=int, default=1, help="extraction processes (default: 1)")


def _add_counting_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--counting", choices=["full", "fractional"], default="full",
                        help="co-author link weight: shared papers (full) or 1/(n-1) per paper of n authors "
                             "(fractional)")


def _add_view_thresholds(parser: argparse.ArgumentParser) -> None:
    """The thresholds of the HTML views (`kg views`, and the views `kg build` writes)."""
    parser.add_argument("--min-weight", type=float, default=0, metavar="W",
                        help="views: drop links lighter than W (shared papers; co-occurrences or association "
                             "strength)")
    parser.add_argument("--top-n", type=int, metavar="N",
                        help="views: keep the N authors / methods with most papers, 0 = all (default: 3000, "
                             "kg.views.DEFAULT_TOP_N); the page says what was cut")
    parser.add_argument("--top-links", type=int, metavar="N",
                        help="views: keep the N heaviest links, 0 = all (default: 20000, "
                             "kg.views.DEFAULT_TOP_LINKS); the page says what was cut")


def _view_caps(args: argparse.Namespace) -> dict[str, int | None]:
    """`--top-n`/`--top-links` as the views take them: unset = the default cap, 0 = no cap."""
    from kg.views.page import DEFAULT_TOP_LINKS, DEFAULT_TOP_N

    return {"top_n": DEFAULT_TOP_N if args.top_n is None else args.top_n or None,
            "top_links": DEFAULT_TOP_LINKS if args.top_links is None else args.top_links or None}


def _add_resolution_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resolution", type=float, default=1.0,
                        help="Louvain resolution: >1 more, smaller communities (default: 1.0)")


# ---------------------------------------------------------------------------------- build
def _cmd_build(args: argparse.Namespace) -> int:
    from kg.workflow import build

    result = build(args.inputs or None, out_dir=args.output, format=args.format, strict=args.strict,
                   spacy_model=args.spacy_model, base_iri=args.base_iri, aliases=args.aliases,
                   workers=args.workers, counting=args.counting, seed=args.seed, resolution=args.resolution,
                   min_weight=args.min_weight, **_view_caps(args), quiet=args.quiet)
    _report_problems(result.problems)
    if not args.quiet:
        print(result.summary())
    return 0


# --------------------------------------------------------------------------------- papers
def _cmd_papers(args: argparse.Namespace) -> int:
    from kg.readers import read
    from kg.records import paper_to_dict

    result = read(args.inputs, format=args.format, strict=args.strict, quiet=args.quiet)
    _report_problems(result.problems)
    if args.json:
        _print_json([paper_to_dict(p) for p in result.papers])
    else:
        for paper in result.papers:
            track = paper.track.label if paper.track else "(no track)"
            names = ", ".join(a.name for a in paper.authors) + (" et al." if paper.authors_truncated else "")
            print(f"{paper.display_id}\t{track}\t{names}")
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------- keywords
def _cmd_keywords(args: argparse.Namespace) -> int:
    from kg.extract import extract, keywords_records, make_pipeline
    from kg.readers import read

    nlp = make_pipeline(args.spacy_model)
    result = read(args.inputs, format=args.format, strict=args.strict, require_authors=False, quiet=args.quiet)
    _report_problems(result.problems)
    methods = extract(result.papers, nlp=nlp, workers=args.workers, quiet=args.quiet)
    if args.json:
        _print_json(keywords_records(result.papers, methods))
    else:
        for paper in result.papers:
            found = methods.get(paper.key, ())
            print(f"{paper.display_id}\t" + "; ".join(f"{m.label} ({m.count})" for m in found))
    if not args.quiet:
        print(result.summary(), file=sys.stderr)
    return 0


# ----------------------------------------------------------------------------------- eval
def _cmd_eval(args: argparse.Namespace) -> int:
    from kg.evaluate import evaluate
    from kg.extract import make_pipeline

    report = evaluate(args.gold, make_pipeline(args.spacy_model), workers=args.workers)
    if args.json:
        _print_json(report)
        return 0
    print(f"{report['gold']}: {report['documents']} documents, pipeline {report['pipeline']}")
    print(f"{'match':<8} {'precision':>9} {'recall':>7} {'F1':>6}   counts (TP pred / pred, TP gold / gold)")
    for name in ("strict", "lenient"):
        s = report[name]
        print(f"{name:<8} {s['precision']:>9.3f} {s['recall']:>7.3f} {s['f1']:>6.3f}   "
              f"{s['tp_predicted']}/{s['predicted']}, {s['tp_gold']}/{s['gold']}")
    return 0


# -------------------------------------------------------------------------------- analyze
def _load_graph(args: argparse.Namespace, load_graph):
    """Read, extract and build as the options say, printing the reading problems."""
    result, G = load_graph(args.inputs or None, format=args.format, strict=args.strict,
                           spacy_model=args.spacy_model, aliases=getattr(args, "aliases", None),
                           workers=args.workers, quiet=args.quiet)
    _report_problems(result.problems)
    return result, G


def _cmd_analyze(args: argparse.Namespace) -> int:
    from kg.analysis.core import analyze
    from kg.workflow import input_summary, load_graph
    from kg.analysis.report import to_json, to_markdown, write_report

    result, G = _load_graph(args, load_graph)
    report = analyze(G, counting=args.counting, seed=args.seed, resolution=args.resolution, top=args.top)
    report["input"] = input_summary(result)
    if args.output:
        files = write_report(report, args.output)
        if not args.quiet:
            print(f"wrote {len(files)} files to {args.output}/: {', '.join(f.name for f in files)}", file=sys.stderr)
    sys.stdout.write(to_json(report) if args.json else to_markdown(report))
    return 0


# ---------------------------------------------------------------------------------- views
def _cmd_views(args: argparse.Namespace) -> int:
    from kg.workflow import load_graph
    from kg.views.page import write_views

    _, G = _load_graph(args, load_graph)
    files = write_views(G, args.output, counting=args.counting,
                        normalize=None if args.normalize == "none" else args.normalize,
                        color_by=args.color_by, min_weight=args.min_weight,
                        **_view_caps(args),
                        track=args.track, seed=args.seed, resolution=args.resolution, quiet=args.quiet)
    if not args.quiet:
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0


# ------------------------------------------------------------------ query, queries, serve, push
def _parse_params(pairs: Sequence[str]) -> dict[str, str]:
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--param {pair!r}: expected NAME=VALUE")
        params[name] = value
    return params


def _cmd_query(args: argparse.Namespace) -> int:
    from kg.rdf.sparql import format_result, query

    result = query(args.query, data=args.data, params=_parse_params(args.param))
    sys.stdout.write(format_result(result, args.format))
    return 0


def _shown(default: str | None) -> str:
    """A parameter default as `kg queries` shows it: quoted if it has spaces, `?` if required."""
    if default is None:
        return "?"
    return f'"{default}"' if " " in default else default


def _cmd_queries(args: argparse.Namespace) -> int:
    from kg.rdf.sparql import named_queries, queries_markdown_table

    queries = named_queries()
    if args.json:
        _print_json([{"name": q.name, "title": q.title, "description": q.description,
                      "params": [{"name": p.name, "type": p.type, "default": p.default} for p in q.params]}
                     for q in queries])
    elif args.markdown:
        sys.stdout.write(queries_markdown_table(queries))
    else:
        for q in queries:
            params = " ".join(f"{p.name}={_shown(p.default)} ({p.type})" for p in q.params)
            print(f"{q.name:<28} {q.title}" + (f"\n{'':<28}   params: {params}" if params else ""))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from kg.rdf.serve import serve

    return serve(args.data, host=args.host, port=args.port, public=args.public, timeout=args.timeout)


def _cmd_push(args: argparse.Namespace) -> int:
    from kg.rdf.push import push

    result = push(args.endpoint, data=args.data, graph=args.graph, append=args.append)
    print(f"kg: {result.method} {result.url}: HTTP {result.status}, {result.bytes} bytes", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------------------- parser
def make_parser() -> argparse.ArgumentParser:
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
               "  kg query coauthors --param author=\"Jing Liu\"\n"
               "  kg serve                                   read-only SPARQL endpoint on 127.0.0.1:7878\n\n"
               "Settings may live in kg.toml or [tool.kg] in pyproject.toml (see README).\n"
               "Exit codes: 0 ok, 1 problems (a fatal error, or a malformed record with --strict), 2 usage error.\n"
               "Run `kg COMMAND --help` for a command's options and examples.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"kg {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("build", help="the whole job: read, extract, graph, RDF, report, views",
                       description="Read the inputs (default: the embedded sample) and write every export into DIR.",
                       epilog="examples:\n  kg build\n  kg build papers.jsonl more.bib -o out/\n"
                              "  kg build listing.txt --base-iri https://data.example.org/conf2024/ --aliases aliases.yaml\n"
                              "  kg build listing.txt --workers 2 --top-n 500 --min-weight 2 --quiet",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="input files (default: the embedded sample listing)")
    p.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    p.add_argument("--base-iri", metavar="IRI", help="base of the IRIs kg mints (default: kg.rdf.DEFAULT_BASE_IRI)")
    p.add_argument("--aliases", metavar="FILE", help="author merges/splits (YAML or CSV; see docs/analysis.md)")
    _add_counting_option(p)
    p.add_argument("--seed", type=int, default=42, help="seed of communities and layouts (default: 42)")
    _add_resolution_option(p)
    _add_view_thresholds(p)
    _add_extract_options(p)
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

    p = sub.add_parser("keywords", help="method concepts per paper, with their mentions",
                       description="Extract method terms from each record and print its canonical method concepts "
                                   "(label and mention count; --json adds alternative labels and every mention's "
                                   "text, character offsets into the cleaned abstract, and sentence). Records need "
                                   "only an id and an abstract/text.",
                       epilog="examples:\n  kg keywords listing.txt\n  kg keywords papers.jsonl --json | jq '.[0].methods'\n"
                              "  kg keywords listing.txt --spacy-model en_core_web_sm --workers 4",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="+", metavar="INPUT")
    p.add_argument("--json", action="store_true", help="print a JSON list: id, authors, methods with mentions")
    _add_extract_options(p)
    _add_read_options(p)
    p.set_defaults(func=_cmd_keywords)

    p = sub.add_parser("eval", help="method-extraction precision / recall / F1 against gold",
                       description="Score method extraction on a gold JSON Lines file of {\"id\", \"text\", "
                                   "\"methods\": [...]} records: strict (equal after normalisation) and lenient "
                                   "(one term's words a contiguous run of the other's) micro precision, recall, F1 "
                                   "over distinct normalised strings per document (see docs/method-keywords.md).",
                       epilog="examples:\n  kg eval ../shared/data/scierc_dev.jsonl\n"
                              "  kg eval gold.jsonl --spacy-model en_core_web_sm --json",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("gold", metavar="GOLD.jsonl")
    p.add_argument("--json", action="store_true", help="print the scores and counts as one JSON object")
    _add_extract_options(p)
    p.set_defaults(func=_cmd_eval)

    p = sub.add_parser("analyze", help="co-authorship and topic report (Markdown, JSON, CSV)",
                       description="Read, extract, build the graph and print its co-authorship and topic report "
                                   "(Markdown; --json for JSON). With -o, also write report.md, report.json and "
                                   "CSV tables (authors, co-author links, methods, method pairs, tracks, ...) into DIR.",
                       epilog="examples:\n  kg analyze\n  kg analyze listing.txt --counting fractional -o report/\n"
                              "  kg analyze papers.jsonl --json | jq .collaboration\n"
                              "  kg analyze listing.txt --aliases aliases.yaml --resolution 0.8 --seed 7",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="input files (default: the embedded sample listing)")
    p.add_argument("--json", action="store_true", help="print the report as JSON instead of Markdown")
    p.add_argument("-o", "--output", metavar="DIR", help="also write report.md, report.json and CSV tables into DIR")
    _add_counting_option(p)
    p.add_argument("--seed", type=int, default=42, help="Louvain seed (default: 42)")
    _add_resolution_option(p)
    p.add_argument("--top", type=int, default=20, metavar="N", help="rows per summary table (default: 20)")
    p.add_argument("--aliases", metavar="FILE", help="author merges/splits (YAML or CSV; see docs/analysis.md)")
    _add_extract_options(p)
    _add_read_options(p)
    p.set_defaults(func=_cmd_analyze)

    p = sub.add_parser("views", help="the HTML views alone: coauthors.html and topics.html",
                       description="Read, extract, build the graph and write the co-author and topic maps into DIR: "
                                   "single self-contained HTML files (no internet needed) with search, filters, "
                                   "legend and tooltips listing the papers (and evidence sentences) behind each "
                                   "node and link. See docs/views.md.",
                       epilog="examples:\n  kg views\n  kg views listing.txt -o out/ --top-n 500 --min-weight 2\n"
                              "  kg views listing.txt --track \"Deep Learning\" --counting fractional\n"
                              "  kg views papers.jsonl --normalize association --color-by community --seed 7",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="input files (default: the embedded sample listing)")
    p.add_argument("-o", "--output", default="exports", metavar="DIR", help="output folder (default: exports/)")
    _add_view_thresholds(p)
    p.add_argument("--track", metavar="LABEL", help='only papers of one track or area, e.g. "Deep Learning"')
    _add_counting_option(p)
    p.add_argument("--normalize", choices=["none", "association"], default="none",
                   help="topic link weight: co-occurrence count (none) or association strength")
    p.add_argument("--color-by", choices=["track", "community"], default="track",
                   help="topic node colour: main track or community (co-authors: always community)")
    p.add_argument("--seed", type=int, default=42, help="seed of the Louvain communities and the layout (default: 42)")
    _add_resolution_option(p)
    _add_extract_options(p)
    _add_read_options(p)
    p.set_defaults(func=_cmd_views)

    p = sub.add_parser("query", help="run a named query, a .rq file or SPARQL text on the RDF export",
                       description="Run a SPARQL query with Oxigraph on an RDF export. QUERY is a named query "
                                   "(see `kg queries`), a .rq file or SPARQL text (our prefixes kg:, schema:, skos:, "
                                   "dcterms:, prov:, rdfs:, xsd: are predefined). Parameters are bound as values "
                                   "(SEP-0007 substitution), never pasted into the query.",
                       epilog="examples:\n  kg query coauthors --param author=\"Jing Liu\"\n"
                              "  kg query top-methods --param min_papers=3 --format csv > methods.csv\n"
                              "  kg query my.rq --data out/graph.ttl --format json\n"
                              "  kg query 'SELECT (COUNT(*) AS ?papers) WHERE { ?p a schema:ScholarlyArticle }'",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("query", metavar="QUERY", help="a query name, a .rq file or SPARQL text")
    p.add_argument("--data", metavar="DIR|FILE",
                   help="a build folder (its graph.oxigraph store, opened read-only; default: exports/), "
                        "a store folder, or an RDF file (.nt, .ttl, .jsonld, ...)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a query parameter (repeatable); typed by the query's header")
    p.add_argument("--format", choices=["table", "csv", "tsv", "json"], default="table",
                   help="output: aligned table (default), CSV, TSV or JSON (a list of objects)")
    p.set_defaults(func=_cmd_query)

    p = sub.add_parser("queries", help="the named queries, their titles and parameters",
                       description="List the named SPARQL queries (queries/*.rq) with their titles and parameters.",
                       epilog="examples:\n  kg queries\n  kg queries --json | jq '.[].name'\n"
                              "  kg queries --markdown > queries.md",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="a JSON list of {name, title, description, params}")
    shown.add_argument("--markdown", action="store_true", help="a Markdown table (name | title | parameters)")
    p.set_defaults(func=_cmd_queries)

    p = sub.add_parser("serve", help="read-only SPARQL endpoint on 127.0.0.1",
                       description="Serve an RDF export as a read-only SPARQL 1.1 Protocol endpoint at "
                                   "http://HOST:PORT/query (GET or POST; JSON, XML, CSV or TSV results by Accept) "
                                   "in front of Oxigraph. No updates. A query past --timeout is stopped and answered "
                                   "503. Ctrl-C stops it.",
                       epilog="examples:\n  kg serve\n  kg serve --data out/graph.nt --port 8000 --timeout 10\n"
                              "  curl -H 'Accept: text/csv' --data-urlencode 'query=SELECT * WHERE { ?s ?p ?o } "
                              "LIMIT 3' http://127.0.0.1:7878/query",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", metavar="DIR|FILE",
                   help="a build folder (its graph.oxigraph store; default: exports/), a store folder, or an RDF file")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=7878, help="port (default: 7878)")
    p.add_argument("--public", action="store_true",
                   help="allow a non-loopback --host (the endpoint has no access control)")
    p.add_argument("--timeout", type=int, default=30, metavar="SECONDS", help="query timeout (default: 30)")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("push", help="upload the RDF export to a SPARQL Graph Store",
                       description="Upload an RDF export to a SPARQL 1.1 Graph Store Protocol endpoint (Oxigraph, "
                                   "Fuseki, GraphDB, Virtuoso): HTTP PUT replaces the graph, --append POSTs into it.",
                       epilog="examples:\n  kg push --endpoint http://127.0.0.1:7878/store\n"
                              "  kg push --endpoint http://localhost:3030/kg/data --graph https://example.org/kg/2024\n"
                              "  kg push --endpoint http://localhost:7200/repositories/kg/rdf-graphs/service "
                              "--data out/graph.ttl --append",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--endpoint", required=True, metavar="URL", help="the store's Graph Store Protocol URL")
    p.add_argument("--graph", metavar="IRI", help="target named graph (default: the default graph)")
    p.add_argument("--data", metavar="FILE", help="RDF file (default: exports/graph.nt, else exports/graph.ttl)")
    p.add_argument("--append", action="store_true", help="add to the graph (POST) instead of replacing it (PUT)")
    p.set_defaults(func=_cmd_push)

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
        raise UsageError(f"unknown setting(s) in the settings file: {', '.join(unknown)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one `kg` command (`argv`: its arguments, default `sys.argv[1:]`); return its exit code."""
    from kg.config import load_config

    parser = make_parser()
    try:
        _apply_settings(parser, load_config())
    except UsageError as exc:
        print(f"kg: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (UsageError, ArgumentError) as exc:
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


def run() -> NoReturn:
    """The `kg` command: `main()`, its return value as the exit status."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
