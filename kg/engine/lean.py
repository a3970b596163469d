"""`kg build --scheduler ADDRESS --lean`: a build whose every step that grows with the corpus runs on
the Dask workers; the client merges counts and writes nothing bigger than the concept table.

On the workers, as for `kg.engine.dask.cluster_graph`: reading, identity, merging and extraction.
Then, still on the workers:

1. linking (`kg.engine.linking.link_frame`): rounds of counts per partition, merged on the client
   into the corpus-level tables (acronym votes, kinds, labels), sent back; each paper gets its concepts;
2. each partition builds the hub graph of its own papers (`kg.graph.build_graph`) and writes the
   N-Triples of its papers (paper, authorships, concept uses, mentions: `kg.rdf.model.node_statements`)
   as one gzip part; it gives its signatures, co-author pairs, authorship and mention rows, and its
   concept and track nodes;
3. the signatures, shuffled on the author, give each author's node (label: the aliases file's or
   the most written spelling, first seen on ties; names; ids) as a part;
4. the co-author pairs, shuffled on the pair, give the `kg:Collaboration` nodes as a part and the
   `coauthor_pairs` table; the mention rows the `method_pairs` table;
5. the distinct concept and track nodes and the concept schemes: one last part, written here.

Together the parts hold exactly the lines of the in-process `graph.nt`, in another order; the
Parquet tables the rows of `kg.exports.tables.write_tables`. Nothing else is written: no
`graph.nt`, Turtle, JSON-LD, GraphML, GEXF, query store, report or views (docs/scaling.md).
"""
from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from operator import itemgetter
from pathlib import Path

import pandas as pd

from kg.engine.partitions import DEFAULT_PARTITION_BYTES
from kg.exports.tables import COLUMNS, PAIR_COLUMNS, PAIRS, frames, pair_rows, pair_table, typed_frame
from kg.readers import ReadResult, sample_path
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.parts import PART_NAME, write_part


@dataclass
class LeanResult:
    """What a lean build read and wrote: the problems (in input order), how many of each thing the
    graph has (`counts`: papers, authors, methods, datasets, tracks, areas, collaborations,
    triples), and the files written into `out_dir`."""

    problems: list
    inputs: list[str]
    counts: dict[str, int]
    out_dir: Path
    files: list[Path] = field(default_factory=list)

    def moved(self, staging: Path, out_dir: Path) -> LeanResult:
        """The result as published: its files under `out_dir` instead of the staging folder."""
        return replace(self, out_dir=out_dir, files=[out_dir / path.relative_to(staging) for path in self.files])

    def summary(self) -> str:
        """Three lines, as `kg.workflow.BuildResult.summary` gives them."""
        read = ReadResult(problems=self.problems, files=self.inputs, distinct=self.counts["papers"]).summary()
        c = self.counts
        made = (f"{c['papers']} papers, {c['authors']} authors, {c['tracks']} tracks, {c['areas']} areas, "
                f"{c['methods']} methods, {c['datasets']} datasets, {c['collaborations']} collaborations, "
                f"{c['triples']} triples")
        return f"{read}\ngraph: {made}\nwrote {len(self.files)} files to {self.out_dir}{os.sep}"


def lean_build(client: object, inputs: Sequence[str | os.PathLike[str]] | None, out_dir: str | os.PathLike[str], *,
               format: str = "auto", strict: bool = False, spacy_model: str | None = None,
               aliases: str | os.PathLike[str] | None = None, base_iri: str = DEFAULT_BASE_IRI,
               require_authors: bool = True, partition_bytes: int = DEFAULT_PARTITION_BYTES,
               quiet: bool = False) -> LeanResult:
    """Build `inputs` on the cluster of `client` into `out_dir`: RDF parts and Parquet tables.

    Parameters
    ----------
    client : distributed.Client
        The client of the cluster (`kg.engine.connect`); its workers must see `inputs` and `out_dir`.
    inputs : sequence of paths or None
        The input files (`FILE@YEAR` as for `kg.read`); None: the embedded sample.
    out_dir : path
        The folder written into (the build's staging folder); made if missing.
    format, strict, spacy_model, aliases, base_iri
        As for `kg.build`.
    require_authors : bool
        Skip records without authors, as `kg.read` does.
    partition_bytes : int
        About how many bytes of a JSONL file one partition reads.
    quiet : bool
        No progress bars (they are drawn on a terminal only): partitions extracted, parts written.

    Returns
    -------
    LeanResult
        The problems, the counts and the files written.

    Examples
    --------
    >>> from kg.engine import connect
    >>> with connect("local:2") as client:  # doctest: +SKIP
    ...     print(lean_build(client, ["papers.jsonl"], "out").summary())
    """
    import dask

    from kg.engine.dask import _CONFIG, found_frame, numbered_parts
    from kg.engine.linking import link_frame
    from kg.extract import make_pipeline
    from kg.graph.aliases import load_aliases

    alias_table = load_aliases(aliases) if aliases else None  # a bad file fails before the long work
    make_pipeline(spacy_model)  # so does an uninstalled model
    files = [str(path) for path in (inputs or [sample_path()])]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with dask.config.set(_CONFIG):
        parts = numbered_parts(client, files, format, partition_bytes)
        problems, found = found_frame(client, parts, strict, require_authors, spacy_model)
        linked = [link_frame(client, found, quiet=quiet)]
        del found  # the records under it (the merged papers) go: the linked frame holds what is needed
        counts, written = _write(client, linked, out, alias_table, base_iri, quiet)
    for stray in out.glob(".graph-*.tmp"):  # a part a killed worker left half-written (written again since)
        stray.unlink()
    summary = out / "summary.json"
    summary.write_text(json.dumps({"counts": counts, "inputs": files, "problems": len(problems)}, indent=2) + "\n",
                       encoding="utf-8")
    return LeanResult(problems, files, counts, out, sorted(written) + [summary])


def _write(client: object, handed: list, out: Path, aliases: object, base_iri: str, quiet: bool
           ) -> tuple[dict[str, int], list[Path]]:
    """The parts and tables of the linked papers (a persisted Dask frame: `seq`, `paper`, `methods`,
    `datasets`, handed over in a list so that no caller holds it), written by the workers into `out`;
    the counts and the files written."""
    import dask.dataframe as dd

    from kg.engine.dask import waited, write_row_tables

    linked = handed.pop()
    width = linked.npartitions
    groups = max(1, math.ceil(width / GROUP_PARTITIONS))
    folder, tables = str(out), out / "tables"
    papers = client.map(_papers_part, client.compute(linked.to_delayed()), range(width), folder=folder,
                        aliases=aliases, base_iri=base_iri)  # in each task: no future to lose with a worker
    del linked  # each linked partition goes once its part is written
    made = {name: client.map(_field, papers, field=name) for name in PAPERS_PART}
    del papers  # each item is its own future from now on, released once used
    waited(made["lines"], "writing papers", "part", quiet)

    def frame(field: str, meta: pd.DataFrame) -> object:
        return dd.from_delayed(made.pop(field), meta=meta, verify_meta=False)

    rows = {name: frame(name, typed_frame([], COLUMNS[name])) for name in ("authorship", "mentions")}
    write_row_tables(rows, tables, width, whole_papers=True, pairs=[p for p in PAIRS if p[0] == "method_pairs"])
    del rows

    signed = frame("signed", typed_frame([], SIGNED)).shuffle("author", npartitions=groups, shuffle_method="tasks")
    authors = client.map(_authors_part, client.compute(signed.to_delayed()), range(width, width + groups),
                         folder=folder, base_iri=base_iri)
    pairs = frame("pairs", typed_frame([], PAIRED)).shuffle(["source", "target"], npartitions=groups,
                                                             shuffle_method="tasks")
    collaborations = client.map(_collaborations_part, client.compute(pairs.to_delayed()),
                                range(width + groups, width + 2 * groups), folder=folder, base_iri=base_iri)
    del signed, pairs
    waited(authors + collaborations, "writing authors", "part", quiet)
    dd.from_delayed(client.map(_field, collaborations, field="table"), meta=typed_frame([], PAIR_COLUMNS),
                    verify_meta=False).to_parquet(tables / "coauthor_pairs", write_index=False)

    # a tree of merges into one frame (the concepts and tracks are few), not a shuffle of every partition's
    entities = frame("entities", typed_frame([], ENTITIES)).drop_duplicates(subset="node", split_out=1).compute()
    last = width + 2 * groups
    entity_lines = _entities_part(entities, out / PART_NAME.format(last), base_iri)

    def total(futures: list, field: str) -> int:
        return sum(client.gather(client.map(_field, futures, field=field)))

    kinds = entities["kind"].value_counts()
    counts = {"papers": sum(client.gather(made["papers"])),
              "authors": total(authors, "authors"),
              **{f"{kind}s": int(kinds.get(kind, 0)) for kind in ("track", "area", "method", "dataset")},
              "collaborations": total(collaborations, "collaborations"),
              "triples": sum(client.gather(made["lines"])) + total(authors, "lines") + total(collaborations, "lines")
              + entity_lines}
    written = [out / PART_NAME.format(i) for i in range(last + 1)] + sorted(tables.rglob("*.parquet"))
    return counts, written


#: What each part of papers gives (`_papers_part`).
PAPERS_PART = ("papers", "lines", "authorship", "mentions", "signed", "pairs", "entities")
#: Parts of papers per part of the author and pair shuffles (fewer, larger groups).
GROUP_PARTITIONS = 8
#: A paper's signature: as `kg.graph.build.Signature`, with the paper's input number and the position.
SIGNED = {"author": object, "name": object, "seq": "int64", "position": "int64", "label": object, "ids": object}
#: A pair of co-authors on a paper (`kg.exports.tables.pair_rows`), with the paper's year.
PAIRED = {"source": "string", "target": "string", "paper": "string", "fractional": "float64", "year": object}
#: A concept, track or area node: its attributes (`alt_labels` for concepts; `area`, `subarea` for tracks).
ENTITIES = {"node": object, "kind": object, "label": object, "alt_labels": object, "area": object, "subarea": object}


def _field(made: dict, field: str) -> object:
    """One item of what a part's task returned."""
    return made[field]


def _papers_part(frame: pd.DataFrame, number: int, folder: str, aliases: object, base_iri: str) -> dict:
    """On a worker: part `number`, the N-Triples of a partition's papers, from the hub graph of
    these papers alone; the rows the other parts and the tables are grouped from."""
    from kg.graph.build import build_graph, resolver, signatures
    from kg.graph.nodes import author_node, paper_node
    from kg.rdf.model import node_statements
    from kg.rdf.ntriples import ntriples_lines

    papers = list(frame["paper"])
    keys = [paper.key for paper in papers]
    G = build_graph(papers, dict(zip(keys, frame["methods"])), datasets=dict(zip(keys, frame["datasets"])),
                    aliases=aliases)
    nodes = [paper_node(paper) for paper in papers]
    lines = write_part(ntriples_lines(node_statements(G, nodes, base_iri)), Path(folder) / PART_NAME.format(number))
    resolve = resolver(aliases)
    signed = [(author_node(s.key), s.name, seq, position, s.label, s.ids)
              for paper, seq in zip(papers, frame["seq"].tolist())
              for position, s in enumerate(signatures(paper, resolve), start=1)]
    tables = frames(G)
    pairs = pair_rows(tables["authorship"], "author")
    years = dict(zip(nodes, (paper.year for paper in papers)))
    entities = [(n, d["kind"], d["label"], tuple(d.get("alt_labels", ())), d.get("area"), d.get("subarea"))
                for n, d in G.nodes(data=True) if d["kind"] not in ("paper", "author")]
    return {"papers": len(papers), "lines": lines, **tables, "signed": typed_frame(signed, SIGNED),
            "pairs": pairs.assign(year=pd.Series([years[p] for p in pairs["paper"]], dtype=object, index=pairs.index)),
            "entities": typed_frame(entities, ENTITIES)}


def _authors_part(rows: pd.DataFrame, number: int, folder: str, base_iri: str) -> dict:
    """On a worker: part `number`, the author nodes of `rows` (every signature of each author),
    labelled as `kg.graph.build_graph` labels them."""
    import networkx as nx

    from kg.rdf.model import node_statements
    from kg.rdf.ntriples import ntriples_lines

    G = nx.DiGraph()
    rows = rows.sort_values(["author", "seq", "position"])
    for author, group in groupby(zip(rows["author"], rows["name"], rows["label"], rows["ids"]), key=itemgetter(0)):
        _, names, labels, ids = zip(*group)
        spellings = Counter(names)  # in input order: ties go to the first spelling seen
        label = next((label for label in labels if label is not None), None)
        ids = sorted({item for items in ids for item in items})
        G.add_node(author, kind="author", label=label or spellings.most_common(1)[0][0], names=sorted(spellings),
                   **({"ids": ids} if ids else {}))
    lines = write_part(ntriples_lines(node_statements(G, G.nodes, base_iri)), Path(folder) / PART_NAME.format(number))
    return {"authors": len(G), "lines": lines}


def _collaborations_part(rows: pd.DataFrame, number: int, folder: str, base_iri: str) -> dict:
    """On a worker: part `number`, the collaborations of the pairs of `rows` (every shared paper of
    each pair), and their `coauthor_pairs` rows."""
    from kg.rdf.model import collaboration_statements
    from kg.rdf.ntriples import ntriples_lines

    rows = rows.sort_values(["source", "target", "paper"])
    shares = dict(zip(rows["paper"], rows["fractional"].tolist()))
    years = dict(zip(rows["paper"], rows["year"]))
    pairs: list[tuple[str, str, list[str]]] = []
    for source, target, paper in zip(rows["source"], rows["target"], rows["paper"]):
        if pairs and pairs[-1][0] == source and pairs[-1][1] == target:
            pairs[-1][2].append(paper)
        else:
            pairs.append((source, target, [paper]))
    lines = write_part(ntriples_lines(collaboration_statements(pairs, shares, years, base_iri)),
                       Path(folder) / PART_NAME.format(number))
    return {"collaborations": len(pairs), "lines": lines, "table": pair_table(rows.drop(columns="year"))}


def _entities_part(entities: pd.DataFrame, path: Path, base_iri: str) -> int:
    """Here: the last part, the concept, track and area nodes and the concept schemes; how many lines."""
    import networkx as nx

    from kg.graph.nodes import area_node
    from kg.rdf.ntriples import iter_ntriples

    G = nx.DiGraph()
    for node, kind, label, alt_labels, area, subarea in entities.itertuples(index=False):
        if kind == "track":
            G.add_node(node, kind=kind, label=label, area=area, subarea=subarea)
            G.add_edge(node, area_node(area), rel="broader")
        elif kind == "area":
            G.add_node(node, kind=kind, label=label)
        else:
            G.add_node(node, kind=kind, label=label, alt_labels=list(alt_labels))
    return write_part(iter_ntriples(G, base_iri), path)
