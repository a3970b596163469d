"""The mapping from a kg NetworkX graph to RDF statements, subject by subject in N-Triples order.

The model (documented with examples in docs/rdf.md, defined in `kg/rdf/ontology.ttl`, validated
by `kg/rdf/shapes.ttl`) reuses schema.org, SKOS, DCTERMS and PROV and adds a small `kg:` vocabulary:

* a paper is a `schema:ScholarlyArticle`; its authors are linked directly (`schema:author`) and
  through one `kg:Authorship` node each, carrying the 1-based `kg:position` and the name as written
  (the dblp "signature" pattern, so author order is queryable);
* tracks, areas and methods are `skos:Concept`s in two concept schemes; `skos:broader` goes from a
  track (subarea) to its area; method acronyms and variants are `skos:altLabel`s;
* a paper's use of a method is a `kg:MethodUse` (count) with one `kg:MethodMention` per occurrence
  (quote, offsets, sentence, `prov:wasQuotedFrom` the paper); the paper also has `dcterms:subject`;
* a `kg:Collaboration` per pair of co-authors (`kg:collaborator` both people, `kg:paperCount`, the
  fractional `kg:weight`: each shared paper with n listed authors gives 1/(n-1), `kg:firstYear`
  and `kg:lastYear` when the papers have years, `prov:wasDerivedFrom` each shared paper), from the
  co-author projection `kg.graph.build.coauthor_graph`;
* unknowns are stated: every paper says `kg:authorListTruncated` and `kg:trackUnknown`;
* every name and label of an author, method, track or area also appears folded (`kg.names.fold`:
  case, accents, spacing) as `kg:nameKey`, so queries find them by exact, indexed lookup.

Texts (abstracts, labels) carry the export's language tag (default `en`); names, keys and file
names are plain strings.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from operator import eq, itemgetter
from typing import NamedTuple
from urllib.parse import quote

import networkx as nx

from kg.errors import ArgumentError
from kg.names import fold
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.terms import C, Minter, P, Statement, class_term, decimal_term, iri_term, literal_term, predicate_term
from kg.rdf.vocab import IRI
from kg.records import ID_URLS, MethodMention


@dataclass(frozen=True)
class Field:
    """One node attribute <-> one property. `kind`: text (language-tagged), string, integer,
    boolean, year; `many`: the attribute is a list, one triple per item (read back sorted);
    `listed`: the list attribute is always present, so no triples read back as `[]`."""

    attr: str
    prop: str
    kind: str = "string"
    many: bool = False
    listed: bool = False


#: Per node kind: the rdf:types, the concept scheme (or None), the attribute fields.
KINDS: dict[str, tuple[tuple[str, ...], str | None, tuple[Field, ...]]] = {
    "paper": ((IRI.SCHEMA.ScholarlyArticle,), None, (
        Field("label", IRI.RDFS.label, "text"),
        Field("label_source", IRI.KG.labelSource),
        Field("id", IRI.DCTERMS.identifier),
        Field("doi", IRI.SCHEMA.identifier),
        Field("title", IRI.SCHEMA.name, "text"),
        Field("abstract", IRI.SCHEMA.abstract, "text"),
        Field("text", IRI.KG.text, "text"),
        Field("keywords", IRI.SCHEMA.keywords, "text", many=True),
        Field("authors_truncated", IRI.KG.authorListTruncated, "boolean"),
        Field("n_authors", IRI.KG.authorCount, "integer"),
        Field("year", IRI.DCTERMS.issued, "year"),
        Field("venue", IRI.KG.venue),
        Field("source_file", IRI.KG.sourceFile),
        Field("source_line", IRI.KG.sourceLine, "integer"),
    )),
    "author": ((IRI.SCHEMA.Person,), None, (
        Field("label", IRI.SCHEMA.name),
        Field("names", IRI.SCHEMA.alternateName, many=True, listed=True),
        Field("ids", IRI.SCHEMA.identifier, many=True),
    )),
    "track": ((IRI.KG.Track, IRI.SKOS.Concept), "tracks", (
        Field("label", IRI.SKOS.prefLabel, "text"),
        Field("area", IRI.KG.areaName, "text"),
        Field("subarea", IRI.KG.subareaName, "text"),
    )),
    "area": ((IRI.KG.Area, IRI.SKOS.Concept), "tracks", (
        Field("label", IRI.SKOS.prefLabel, "text"),
    )),
    "method": ((IRI.KG.Method, IRI.SKOS.Concept), "methods", (
        Field("label", IRI.SKOS.prefLabel, "text"),
        Field("alt_labels", IRI.SKOS.altLabel, "text", many=True, listed=True),
    )),
    "dataset": ((IRI.KG.Dataset, IRI.SCHEMA.Dataset, IRI.SKOS.Concept), "datasets", (
        Field("label", IRI.SKOS.prefLabel, "text"),
        Field("alt_labels", IRI.SKOS.altLabel, "text", many=True, listed=True),
    )),
}
#: The attributes whose folded forms become `kg:nameKey` (exact, case-insensitive lookup by name).
LOOKUP = {"author": ("label", "names"), "method": ("label", "alt_labels"), "dataset": ("label", "alt_labels"),
          "track": ("label",), "area": ("label",)}
SCHEMES = {"tracks": "Conference tracks", "methods": "Method concepts", "datasets": "Datasets and benchmarks"}
#: `kg.records.MethodMention` field, property, kind.
EVIDENCE = (("text", IRI.KG.quote, "text"), ("start", IRI.KG.start, "integer"),
            ("end", IRI.KG.end, "integer"), ("sentence", IRI.KG.sentence, "text"))
RELS = ("authored_by", "in_track", "broader", "mentions", "uses_dataset")


class Lit(NamedTuple):
    """A literal as written in N-Triples: lexical form, datatype IRI (None = string), language."""

    lexical: str
    datatype: str | None = None
    lang: str | None = None


#: (subject IRI, predicate IRI, object IRI or literal)
Triple = tuple[str, str, "str | Lit"]


# --------------------------------------------------------------------- statements per subject
def _node_statements(G: nx.DiGraph, node: str, m: Minter) -> list[Statement]:
    data = G.nodes[node]
    kind = data.get("kind")
    if kind not in KINDS:
        raise ArgumentError(f"to_rdf: node {node!r} has kind {kind!r}; expected one of {sorted(KINDS)}")
    types, scheme, fields = KINDS[kind]
    statements: list[Statement] = [(P.RDF.type, class_term(t)) for t in types]
    statements.append((P.KG.key, literal_term(node)))
    if scheme is not None:
        statements.append((P.SKOS.inScheme, iri_term(m.scheme(scheme))))
    if kind == "area":
        statements.append((P.SKOS.topConceptOf, iri_term(m.scheme(scheme))))
    for f in fields:
        value = data.get(f.attr)
        if value is not None:
            statements += [(predicate_term(f.prop), m.literal(v, f.kind)) for v in (value if f.many else [value])]
    names = [data.get(attr) for attr in LOOKUP.get(kind, ())]
    folded = {fold(str(v)) for value in names if value is not None for v in (value if isinstance(value, list) else [value])}
    statements += [(P.KG.nameKey, literal_term(key)) for key in sorted(folded)]
    statements += [(P.OWL.sameAs, iri_term(iri)) for iri in _same_as(data.get("ids") or ())]
    edges = list(G.out_edges(node, data=True))
    if kind == "paper":
        has_track = any(d.get("rel") == "in_track" for _, _, d in edges)
        statements.append((P.KG.trackUnknown, m.literal(not has_track, "boolean")))
    for _, target, d in edges:
        rel = d.get("rel")
        o = m.node(target)
        if rel == "authored_by":
            statements += [(P.SCHEMA.author, o), (P.KG.authorship, iri_term(m.authorship(node, d["position"])))]
        elif rel == "in_track":
            statements.append((P.KG.inTrack, o))
        elif rel == "broader":
            statements.append((P.SKOS.broader, o))
        elif rel == "mentions":
            statements += [(P.DCTERMS.subject, o), (P.KG.methodUse, iri_term(m.method_use(node, target)))]
        elif rel == "uses_dataset":
            statements.append((P.KG.datasetUse, iri_term(m.dataset_use(node, target))))
        else:
            raise ArgumentError(f"to_rdf: edge {node!r} -> {target!r} has rel {rel!r}; expected one of {RELS}")
    return statements


def _authorship_statements(author: str, d: dict, m: Minter) -> list[Statement]:
    return [(P.RDF.type, C.KG.Authorship), (P.KG.person, m.node(author)),
            (P.KG.position, m.literal(d["position"], "integer")), (P.KG.nameAsWritten, literal_term(str(d["name"])))]


def _same_as(ids: Iterable[str]) -> list[str]:
    """Where each `scheme:id` of an author resolves (`kg.records.ID_URLS`), the id percent-encoded."""
    urls = []
    for item in ids:
        scheme, _, value = item.partition(":")
        if scheme in ID_URLS and value:
            urls.append(ID_URLS[scheme].format(quote(value, safe="")))
    return urls


def _use_statements(s: str, concept: str, d: dict, m: Minter, dataset: bool) -> list[Statement]:
    """A paper's use of one concept: a kg:MethodUse (kg:method) or kg:DatasetUse (kg:dataset), its count and mentions."""
    evidence = d.get("evidence") or ()
    kind, of = (C.KG.DatasetUse, P.KG.dataset) if dataset else (C.KG.MethodUse, P.KG.method)
    statements: list[Statement] = [(P.RDF.type, kind), (of, m.node(concept)),
                                   (P.KG.count, m.literal(d.get("count", len(evidence)), "integer"))]
    return statements + [(P.KG.mention, iri_term(f"{s}/{i}")) for i in range(1, len(evidence) + 1)]


def _mention_statements(paper: str, position: int, item: MethodMention, m: Minter) -> list[Statement]:
    """One kg:MethodMention of a paper's concept use: its `position` in the evidence, and the
    mention record's fields (`EVIDENCE`)."""
    if not isinstance(item, MethodMention):
        raise ArgumentError(f"to_rdf: evidence item {position} of {paper!r} is a {type(item).__name__}; "
                            "expected a kg.records.MethodMention")
    statements: list[Statement] = [(P.RDF.type, C.KG.MethodMention), (P.RDF.type, C.PROV.Entity),
                                   (P.PROV.wasQuotedFrom, m.node(paper)),
                                   (P.KG.position, m.literal(position, "integer"))]
    return statements + [(predicate_term(prop), m.literal(getattr(item, name), kind)) for name, prop, kind in EVIDENCE]


def _collaboration_statements(a: str, b: str, papers: list[str], m: Minter, share: Callable[[str], float],
                              year: Callable[[str], int | None]) -> list[Statement]:
    """The kg:Collaboration of authors `a` < `b` over their shared `papers` (sorted); `share(paper)`:
    what the paper adds to the weight, 1/(n-1) for n listed authors; `year(paper)`: its year or None."""
    statements: list[Statement] = [(P.RDF.type, C.KG.Collaboration), (P.KG.collaborator, m.node(a)),
                                   (P.KG.collaborator, m.node(b)), (P.KG.paperCount, m.literal(len(papers), "integer"))]
    weight = 0.0
    for paper in papers:
        weight += share(paper)
    statements.append((P.KG.weight, decimal_term(weight)))
    years = [y for y in map(year, papers) if y is not None]
    if years:
        statements += [(P.KG.firstYear, m.literal(min(years), "year")), (P.KG.lastYear, m.literal(max(years), "year"))]
    return statements + [(P.PROV.wasDerivedFrom, m.node(paper)) for paper in papers]


def whole_coauthors(G: nx.DiGraph, coauthors: nx.Graph | None = None) -> nx.Graph:
    """The co-author projection the collaborations come from: `coauthors` if given (it must be
    uncut), else `kg.graph.build.coauthor_graph(G)`."""
    from kg.graph import coauthor_graph, is_whole  # here: `kg query` imports this module, never needs them

    if coauthors is None:
        return coauthor_graph(G)
    if not is_whole(coauthors, "coauthor"):
        raise ArgumentError("coauthors must be the whole co-author projection of the graph "
                            "(kg.graph.build.coauthor_graph(G) with no cuts)")
    return coauthors


def _scheme_statements(name: str) -> list[Statement]:
    return [(P.RDF.type, C.SKOS.ConceptScheme), (P.SKOS.prefLabel, literal_term(SCHEMES[name], None, "en"))]


def _roots(G: nx.DiGraph, m: Minter, coauthors: nx.Graph) -> Iterator[tuple]:
    """Every root of the export: (an IRI, the function listing the subjects whose IRIs start with
    it, that function's arguments). A node is the root of its own subject and of its edges'
    (authorships, concept uses and their mentions); `collaboration/{a}/` of author `a`'s
    collaborations with the authors after it."""
    for name in SCHEMES:
        yield m.scheme(name), _scheme_subject, name, m
    for node in G.nodes:
        yield m.node_iri(node), _node_subjects, G, node, m
    for a, neighbours in coauthors.adjacency():
        if any(b > a for b in neighbours):
            yield m.collaborations(a), _collaboration_subjects, G, a, neighbours, m


# Each subject as a flat tuple (`<subject> `, the function producing its statements, that
# function's arguments): statements are made later, one subject at a time.
def _scheme_subject(name: str, m: Minter) -> Iterator[tuple]:
    yield f"<{m.scheme(name)}> ", _scheme_statements, name


def _node_subjects(G: nx.DiGraph, node: str, m: Minter) -> Iterator[tuple]:
    yield f"<{m.node_iri(node)}> ", _node_statements, G, node, m
    for u, v, d in G.out_edges(node, data=True):
        if d.get("rel") == "authored_by":
            yield f"<{m.authorship(u, d['position'])}> ", _authorship_statements, v, d, m
        elif d.get("rel") in ("mentions", "uses_dataset"):
            dataset = d["rel"] == "uses_dataset"
            s = m.dataset_use(u, v) if dataset else m.method_use(u, v)
            yield f"<{s}> ", _use_statements, s, v, d, m, dataset
            for i, item in enumerate(d.get("evidence") or (), start=1):
                yield f"<{s}/{i}> ", _mention_statements, u, i, item, m


def _collaboration_subjects(G: nx.DiGraph, a: str, neighbours: dict, m: Minter) -> Iterator[tuple]:
    sizes: dict[str, int] = {}  # listed authors per paper, shared by `a`'s collaborations

    def share(paper: str) -> float:
        size = sizes.get(paper)
        if size is None:
            size = sizes[paper] = sum(1 for _, _, rel in G.out_edges(paper, data="rel") if rel == "authored_by")
        return 1.0 / (size - 1)

    def year(paper: str) -> int | None:
        return G.nodes[paper].get("year")

    for b, d in neighbours.items():
        if b > a:
            yield f"<{m.collaboration(a, b)}> ", _collaboration_statements, a, b, d["papers"], m, share, year


_KEY = itemgetter(0)


def statements(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en",
               coauthors: nx.Graph | None = None) -> Iterator[tuple[str, list[Statement]]]:
    """Every subject IRI with its statements, in the byte order of their N-Triples lines, without duplicates.

    Lines of one subject share the prefix `<subject> `, so sorting subjects by that prefix and each
    subject's lines gives the globally sorted order while holding one subject's statements at a time.
    A line goes on `<predicate> object .`, the N-Triples texts that start the statement's terms, so
    sorting the statements sorts the lines: where one term's text is a prefix of another's (`"x"` of
    `"x"@en`), the longer goes on with `@`, `^` or `-`, after the space that follows the shorter.
    Python orders strings by code point, which is the byte order of their UTF-8.

    Only the roots (`_roots`) are sorted whole. Sorted, the roots that start with one root follow it;
    with it they make a family, whose subjects are listed and sorted together. The subjects of a
    family all start with its first root, which no other family's root starts with or prefixes,
    so the families' subjects follow each other in the order of their first roots.
    `coauthors`: the whole co-author projection of `G`, if already made (`whole_coauthors`).
    """
    roots = sorted(_roots(G, Minter(base_iri, language), whole_coauthors(G, coauthors)), key=_KEY)
    first = 0
    while first < len(roots):
        family = first + 1
        while family < len(roots) and roots[family][0].startswith(roots[first][0]):
            family += 1
        yield from _made(sorted((subject for _, listed, *args in roots[first:family] for subject in listed(*args)),
                                key=_KEY))
        first = family


def _made(subjects: Iterable[tuple]) -> Iterator[tuple[str, list[Statement]]]:
    """Each subject's IRI and its statements, sorted and without duplicates."""
    for key, make, *args in subjects:
        made = sorted(make(*args))
        if any(map(eq, made, made[1:])):  # a repeated item of a list attribute: rare
            made = list(dict.fromkeys(made))
        yield key[1:-2], made


def node_statements(G: nx.DiGraph, nodes: Iterable[str], base_iri: str = DEFAULT_BASE_IRI,
                    language: str | None = "en") -> Iterator[tuple[str, list[Statement]]]:
    """The subjects of `nodes` and of their out-edges (authorships, concept uses, mentions) with
    their statements, as `statements` gives them but in no order across nodes: the share of the
    export that holds these nodes, e.g. one cluster worker's papers (`kg.engine.lean`)."""
    m = Minter(base_iri, language)
    return _made(subject for node in nodes for subject in _node_subjects(G, node, m))


def collaboration_statements(pairs: Iterable[tuple[str, str, list[str]]], shares: Mapping[str, float],
                             years: Mapping[str, int | None], base_iri: str = DEFAULT_BASE_IRI,
                             language: str | None = "en") -> Iterator[tuple[str, list[Statement]]]:
    """The kg:Collaboration subjects of `pairs` (author `a` < author `b`, their shared papers
    sorted), given each paper's share of a weight (`shares`: 1/(n-1) for n listed authors, as
    `kg.exports.tables.pair_rows` gives it) and year (`years`), as `statements` gives
    them but in no order: the share of the export a cluster worker writes from grouped rows."""
    m = Minter(base_iri, language)
    return _made((f"<{m.collaboration(a, b)}> ", _collaboration_statements, a, b, papers, m, shares.__getitem__,
                  years.get) for a, b, papers in pairs)


def iter_triples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en",
                 coauthors: nx.Graph | None = None) -> Iterator[Triple]:
    """The export's triples, in N-Triples line order.

    Parameters
    ----------
    G : networkx.DiGraph
        A kg graph (`kg.graph.build_graph`).
    base_iri : str
        The base of the IRIs minted for nodes.
    language : str or None
        The language tag of texts (abstracts, labels); None for none.
    coauthors : networkx.Graph, optional
        The whole co-author projection of `G` (`kg.graph.build.coauthor_graph`), if already made.

    Returns
    -------
    iterator of (str, str, str or Lit)
        (subject IRI, predicate IRI, object IRI or `Lit`).

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> next(t for t in iter_triples(G) if t[1].endswith("prefLabel"))
    ('https://w3id.org/kg/area/vision', 'http://www.w3.org/2004/02/skos/core#prefLabel', Lit(lexical='Vision', datatype=None, lang='en'))
    """
    return ((s, p[3], o[3] if isinstance(o[3], str) else Lit(*o[3]))
            for s, made in statements(G, base_iri, language, coauthors) for p, o in made)
