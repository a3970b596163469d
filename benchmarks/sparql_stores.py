"""Every named query on a 10,000-paper graph: Oxigraph (pyoxigraph, what `kg query` uses) against
rdflib's own SPARQL engine on the same triples, with the ratio and a check that both give the same rows.

The graph comes from one of three sources (`--source`):

* `synthetic` (default): a NetworkX graph generated here directly in the kg.graph.build schema (Zipf-like
  author productivity with team re-use, 10 areas x 4 subareas, a fifth of papers without a track,
  Zipf-distributed method concepts with acronyms and 1-2 mentions each) — fast, no extraction;
* `corpus`: `benchmarks/corpus.py` papers run through the real pipeline (extract + build_graph);
* a file given as INPUT (a listing, JSONL, CSV, BibTeX): read, extract, build_graph.

Parameters are bound to values that exist in the graph (the most prolific authors, the most used
method). rdflib runs each query in a forked child with a timeout (`--rdflib-timeout`).

    python benchmarks/sparql_stores.py [INPUT] [--source synthetic|corpus] [--papers 10000] [--seed 0]
"""
from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the kg package importable
    sys.path.insert(0, str(ROOT))

import networkx as nx  # noqa: E402
import pyoxigraph as ox  # noqa: E402
import rdflib  # noqa: E402

from kg._util.io import atomic_open  # noqa: E402
from kg.rdf import iter_ntriples  # noqa: E402
from kg.rdf.sparql import NamedQuery, named_queries  # noqa: E402
from kg.records import MethodMention  # noqa: E402

AREAS, SUBAREAS, METHODS = 10, 4, 600


# ------------------------------------------------------------------------------ graph sources
def synthetic_graph(n: int = 10_000, seed: int = 0) -> nx.DiGraph:
    """`n` papers in the kg.graph.build schema, deterministic from `seed`."""
    rng = random.Random(seed)
    G = nx.DiGraph(kind="kg")
    authorships: list[int] = []  # one entry per authorship: preferential attachment by sampling it
    n_authors = 0
    method_weights = [1 / (i + 1) for i in range(METHODS)]
    previous_team: list[int] = []
    for i in range(n):
        size = min(1 + int(rng.expovariate(1 / 3)), 15)
        if previous_team and rng.random() < 0.15:
            team = previous_team[: max(1, size - 1)]
        else:
            team = []
        while len(team) < size:
            if authorships and rng.random() > 0.6:
                candidate = rng.choice(authorships)
            else:
                candidate, n_authors = n_authors, n_authors + 1
            if candidate not in team:
                team.append(candidate)
        previous_team = team
        methods = sorted(set(rng.choices(range(METHODS), method_weights, k=rng.randint(0, 5))))
        sentences = [f"We use method {m} (M{m}) here." for m in methods]
        text = " ".join(sentences) or "An abstract without methods."
        node = f"paper:s{i:06d}"
        G.add_node(node, kind="paper", label=f"author {team[0]} et al.", key=f"s{i:06d}", abstract=text, text=text,
                   authors_truncated=rng.random() < 0.005, n_authors=len(team), source_file="synthetic",
                   source_line=i + 1)
        for position, author in enumerate(team, start=1):
            authorships.append(author)
            key = f"author:a{author}"
            if key not in G:
                G.add_node(key, kind="author", label=f"Author {author}", names=[f"Author {author}"])
            G.add_edge(node, key, rel="authored_by", position=position, name=f"Author {author}")
        roll = rng.random()
        if roll >= 0.2:
            area = rng.randrange(AREAS)
            G.add_node(f"area:a{area}", kind="area", label=f"Area {area}")
            target = f"area:a{area}"
            if roll >= 0.3:
                sub = rng.randrange(SUBAREAS)
                target = f"track:a{area}--s{sub}"
                G.add_node(target, kind="track", label=f"Area {area} · Sub {sub}", area=f"Area {area}",
                           subarea=f"Sub {sub}")
                G.add_edge(target, f"area:a{area}", rel="broader")
            G.add_edge(node, target, rel="in_track")
        for m, sentence in zip(methods, sentences):
            G.add_node(f"method:m{m}", kind="method", label=f"method {m}", alt_labels=[f"M{m}"])
            start = text.index(sentence)
            evidence = [MethodMention(f"method {m}", start + 7, start + 7 + len(f"method {m}"), sentence)]
            if rng.random() < 0.5:
                acronym = text.index(f"M{m})", start)
                evidence.append(MethodMention(f"M{m}", acronym, acronym + len(f"M{m}"), sentence))
            G.add_edge(node, f"method:m{m}", rel="mentions", count=len(evidence), evidence=tuple(evidence))
    return G


def pipeline_graph(papers: Sequence) -> nx.DiGraph:
    """Papers through the real pipeline: extraction, then kg.graph.build_graph."""
    from kg.extract import extract
    from kg.graph import build_graph

    return build_graph(papers, extract(papers))


def load_graph(source: str, papers: int, seed: int) -> nx.DiGraph:
    """The benchmark graph from `source`: `synthetic`, `corpus`, or an input file path."""
    if source == "synthetic":
        return synthetic_graph(papers, seed)
    if source == "corpus":
        import corpus

        return pipeline_graph(list(corpus.iter_papers(papers, seed)))
    from kg.readers import read

    return pipeline_graph(read([source]).papers)


def parameter_values(G: nx.DiGraph) -> dict[str, str]:
    """Values for every query parameter that exist in G: the two most prolific authors, the top method."""
    authors = Counter(v for _, v, rel in G.edges(data="rel") if rel == "authored_by")
    methods = Counter(v for _, v, rel in G.edges(data="rel") if rel == "mentions")
    (first, _), (second, _) = authors.most_common(2)
    top_method = methods.most_common(1)[0][0] if methods else None
    values = {"author": G.nodes[first]["label"], "author1": G.nodes[first]["label"],
              "author2": G.nodes[second]["label"], "min_papers": "2", "min_shared": "2"}
    if top_method is not None:
        values["method"] = G.nodes[top_method]["label"]
    return values


# --------------------------------------------------------------------------------- running
def _lexical(term: object) -> str | None:
    """A result term as comparable text (rdflib computes `true` from EXISTS as the Python `True`)."""
    if isinstance(term, rdflib.Literal) and isinstance(term.toPython(), bool):
        return "true" if term.toPython() else "false"
    return None if term is None else str(getattr(term, "value", term))


def run_oxigraph(store: ox.Store, q: NamedQuery, params: dict, repeat: int) -> tuple[float, list]:
    """Median seconds over `repeat` runs, and the rows (lexical forms)."""
    bindings = q.bindings({p.name: params[p.name] for p in q.params if p.name in params})
    times, rows = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        answer = store.query(q.text, substitutions=bindings or None)
        columns = [v.value for v in answer.variables]
        rows = [tuple(_lexical(s[c]) for c in columns) for s in answer]
        times.append(time.perf_counter() - start)
    return statistics.median(times), rows


def _rdflib_child(graph: rdflib.Graph, q: NamedQuery, params: dict, conn) -> None:
    bindings = {}
    for var, term in q.bindings({p.name: params[p.name] for p in q.params if p.name in params}).items():
        plain = term.datatype.value == str(rdflib.XSD.string)  # rdflib keeps "x" and "x"^^xsd:string apart
        bindings[var.value] = rdflib.Literal(term.value, datatype=None if plain else rdflib.URIRef(term.datatype.value))
    start = time.perf_counter()
    try:
        result = graph.query(q.text, initBindings=bindings)
        rows = [tuple(_lexical(row[v]) if row[v] is not None else None for v in result.vars) for row in result]
    except Exception as exc:  # noqa: BLE001  (rdflib's engine fails on some queries: report, don't crash)
        conn.send((None, type(exc).__name__))
        return
    conn.send((time.perf_counter() - start, rows))


def run_rdflib(graph: rdflib.Graph, q: NamedQuery, params: dict, timeout: float
               ) -> tuple[float | None, list | str | None]:
    """Seconds and rows in a forked child; (None, None) past `timeout`; (None, error name) when
    rdflib's engine raised (its property paths recurse past Python's limit on long chains)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_rdflib_child, args=(graph, q, params, send))
    child.start()
    send.close()  # the child holds the only write end: its exit ends the wait
    try:
        answer = receive.recv() if receive.poll(timeout) else (None, None)
    except EOFError:
        answer = (None, "crashed")
    if child.is_alive():
        child.terminate()
    child.join()
    return answer


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    line = lambda row: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))  # noqa: E731
    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in cells])


def main(argv: Sequence[str] | None = None) -> dict:
    """Run the benchmark, print its table, return the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", nargs="?", help="an input file to build the graph from (overrides --source)")
    parser.add_argument("--source", choices=["synthetic", "corpus"], default="synthetic")
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="Oxigraph runs per query (median)")
    parser.add_argument("--rdflib-timeout", type=float, default=120, help="seconds per rdflib query")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    G = load_graph(args.input or args.source, args.papers, args.seed)
    built = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        nt = Path(tmp) / "graph.nt"
        start = time.perf_counter()
        with atomic_open(nt) as out:
            out.writelines(iter_ntriples(G))
        exported = time.perf_counter() - start
        start = time.perf_counter()
        store = ox.Store()
        store.bulk_load(path=str(nt), format=ox.RdfFormat.N_TRIPLES)
        ox_load = time.perf_counter() - start
        start = time.perf_counter()
        graph = rdflib.Graph().parse(nt, format="nt")
        rdflib_load = time.perf_counter() - start
    papers = sum(1 for _, kind in G.nodes(data="kind") if kind == "paper")
    params = parameter_values(G)
    figures: dict = {"graph": {"source": args.input or args.source, "papers": papers, "nodes": len(G),
                               "edges": G.number_of_edges(), "triples": len(store), "build_s": built,
                               "export_nt_s": exported},
                     "load_s": {"oxigraph": ox_load, "rdflib": rdflib_load}, "params": params, "queries": {}}
    rows = []
    for q in named_queries():
        ox_s, ox_rows = run_oxigraph(store, q, params, args.repeat)
        rd_s, rd_rows = run_rdflib(graph, q, params, args.rdflib_timeout)
        error = rd_rows if isinstance(rd_rows, str) else None
        same = None if rd_s is None else sorted(ox_rows, key=repr) == sorted(rd_rows, key=repr)
        ratio = None if rd_s is None else rd_s / max(ox_s, 1e-9)
        figures["queries"][q.name] = {"rows": len(ox_rows), "oxigraph_ms": ox_s * 1000,
                                      "rdflib_ms": None if rd_s is None else rd_s * 1000, "ratio": ratio, "same": same,
                                      "rdflib_error": error}
        rdflib_cell = f"error: {error}" if error else (
            f">{args.rdflib_timeout:.0f}000" if rd_s is None else f"{rd_s * 1000:.0f}")
        ratio_cell = "-" if error else (f">{args.rdflib_timeout / ox_s:.0f}x" if ratio is None else f"{ratio:.0f}x")
        rows.append([q.name, len(ox_rows), f"{ox_s * 1000:.1f}", rdflib_cell, ratio_cell,
                     "?" if same is None else ("yes" if same else "NO")])
    print(f"graph: {papers} papers, {len(G)} nodes, {G.number_of_edges()} edges, {len(store)} triples "
          f"({figures['graph']['source']}; built in {built:.1f} s, N-Triples in {exported:.1f} s)")
    print(f"load: Oxigraph {ox_load:.2f} s, rdflib {rdflib_load:.2f} s; params: {params}")
    print(_table(["query", "rows", "oxigraph ms", "rdflib ms", "ratio", "same rows"], rows))
    oxigraph_ms = [v["oxigraph_ms"] for v in figures["queries"].values()]
    print(f"Oxigraph: median {statistics.median(oxigraph_ms):.1f} ms, max {max(oxigraph_ms):.1f} ms per query "
          f"(target <= 50 ms)")
    return figures


if __name__ == "__main__":
    main()
