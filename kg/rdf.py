"""The NetworkX knowledge graph -> RDF (Turtle, N-Triples, JSON-LD), and back.

The model (documented with examples in docs/rdf.md, defined in `kg/ontology.ttl`, validated by
`kg/shapes.ttl`) reuses schema.org, SKOS, DCTERMS and PROV and adds a small `kg:` vocabulary:

* a paper is a `schema:ScholarlyArticle`; its authors are linked directly (`schema:author`) and
  through one `kg:Authorship` node each, carrying the 1-based `kg:position` and the name as written
  (the dblp "signature" pattern, so author order is queryable);
* tracks, areas and methods are `skos:Concept`s in two concept schemes; `skos:broader` goes from a
  track (subarea) to its area; method acronyms and variants are `skos:altLabel`s;
* a paper's use of a method is a `kg:MethodUse` (count) with one `kg:MethodMention` per occurrence
  (quote, offsets, sentence, `prov:wasQuotedFrom` the paper); the paper also has `dcterms:subject`;
* unknowns are stated: every paper says `kg:authorListTruncated` and `kg:trackUnknown`;
* every name and label of an author, method, track or area also appears folded (`kg.names.fold`:
  case, accents, spacing) as `kg:nameKey`, so queries find them by exact, indexed lookup.

IRIs: `{base_iri}{kind}/{segment}` where `segment` is the node key after `kind:`, percent-encoded
(UTF-8) except for ASCII unreserved characters and Unicode letters, digits and marks, so any name
yields a valid IRI and the mapping is reversible. Vocabulary IRIs do not depend on the base IRI, so
named queries work on any export. Texts (abstracts, labels) carry the language tag `language`
(default `en`); names, keys and file names are plain strings.

The same triples feed `to_rdf` (an rdflib Graph) and `iter_ntriples` (canonical N-Triples lines,
streamed subject by subject in sorted order without building an rdflib graph).
"""
from __future__ import annotations

import functools
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

import networkx as nx
import pyoxigraph as ox
import rdflib
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

from kg.errors import UsageError
from kg.io import atomic_open
from kg.names import fold

#: Default base IRI of the resources `kg` mints. Set your own (`kg build --base-iri`) to publish.
DEFAULT_BASE_IRI = "https://w3id.org/kg/"
#: The kg vocabulary (kg/ontology.ttl). Fixed, independent of the base IRI.
KG = rdflib.Namespace("https://w3id.org/kg/ontology#")
SCHEMA = rdflib.Namespace("https://schema.org/")
#: Prefixes bound in Turtle, used as the JSON-LD context and offered to SPARQL queries.
PREFIXES: dict[str, str] = {
    "kg": str(KG), "schema": str(SCHEMA), "skos": str(SKOS), "dcterms": str(DCTERMS), "prov": str(PROV),
    "rdf": str(RDF), "rdfs": str(RDFS), "owl": str(OWL), "xsd": str(XSD),
}
ONTOLOGY_PATH = Path(__file__).with_name("ontology.ttl")
SHAPES_PATH = Path(__file__).with_name("shapes.ttl")

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PLAIN_SEGMENT = re.compile(r"[A-Za-z0-9\-._~]*")


# ----------------------------------------------------------------------------------- terms
class _Strings:
    """A namespace's IRIs as plain strings, each made once: rdflib's `Namespace` attribute lookup
    costs about a microsecond, paid per triple on the export's hot path."""

    def __init__(self, namespace: rdflib.Namespace) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> str:
        value = str(self._namespace[name])
        setattr(self, name, value)
        return value


class _IRI:
    """`_IRI.KG.key` == `str(KG.key)`, and so on for every namespace used here."""

    RDF, RDFS, KG, PROV, SCHEMA = _Strings(RDF), _Strings(RDFS), _Strings(KG), _Strings(PROV), _Strings(SCHEMA)
    DCTERMS, SKOS, XSD, OWL = _Strings(DCTERMS), _Strings(SKOS), _Strings(XSD), _Strings(OWL)


class Lit(NamedTuple):
    """A literal as written in N-Triples: lexical form, datatype IRI (None = string), language."""

    lexical: str
    datatype: str | None = None
    lang: str | None = None


#: (subject IRI, predicate IRI, object IRI or literal)
Triple = tuple[str, str, "str | Lit"]


def _is_iri_char(ch: str) -> bool:
    """Characters kept verbatim in an IRI segment: ASCII unreserved, non-ASCII letters/digits/marks."""
    if ch in _UNRESERVED:
        return True
    code = ord(ch)
    return code > 0x9F and unicodedata.category(ch)[0] in "LNM" and not 0xFFF0 <= (code & 0xFFFF)


def encode_segment(text: str) -> str:
    """One IRI path segment for `text`: reversible (`urllib.parse.unquote`), always a valid IRI."""
    if text in (".", ".."):
        return text.replace(".", "%2E")
    if _PLAIN_SEGMENT.fullmatch(text):  # the common case: a slug or hash
        return text
    return "".join(ch if _is_iri_char(ch) else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in text)


def check_base_iri(base_iri: str) -> str:
    """Return `base_iri` if resources can be minted under it, else raise UsageError saying why."""
    from pyoxigraph import NamedNode

    if not base_iri or base_iri[-1] not in "/#:":
        raise UsageError(f"base IRI {base_iri!r} must end with '/', '#' or ':' (e.g. {DEFAULT_BASE_IRI})")
    try:
        NamedNode(base_iri + "x")
    except ValueError as exc:
        raise UsageError(f"base IRI {base_iri!r} is not an absolute IRI ({exc}); e.g. {DEFAULT_BASE_IRI}") from exc
    return base_iri


def node_iri(node: str, base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The IRI of a graph node key (`author:zhou-xun` -> `{base}author/zhou-xun`)."""
    kind, sep, rest = node.partition(":")
    if not sep:
        raise ValueError(f"graph node key {node!r} has no `kind:` prefix")
    return f"{base_iri}{kind}/{encode_segment(rest)}"


def iri_node(iri: str, base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The inverse of `node_iri`."""
    kind, _, segment = iri[len(base_iri):].partition("/")
    return f"{kind}:{unquote(segment)}"


# ----------------------------------------------------------------------------- the mapping
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


_DATATYPES = {"integer": _IRI.XSD.integer, "boolean": _IRI.XSD.boolean, "year": _IRI.XSD.gYear}

#: Per node kind: the rdf:types, the concept scheme (or None), the attribute fields.
_KINDS: dict[str, tuple[tuple[str, ...], str | None, tuple[Field, ...]]] = {
    "paper": ((_IRI.SCHEMA.ScholarlyArticle,), None, (
        Field("label", _IRI.RDFS.label, "text"),
        Field("id", _IRI.DCTERMS.identifier),
        Field("title", _IRI.SCHEMA.name, "text"),
        Field("abstract", _IRI.SCHEMA.abstract, "text"),
        Field("text", _IRI.KG.text, "text"),
        Field("keywords", _IRI.SCHEMA.keywords, "text", many=True),
        Field("authors_truncated", _IRI.KG.authorListTruncated, "boolean"),
        Field("n_authors", _IRI.KG.authorCount, "integer"),
        Field("year", _IRI.DCTERMS.issued, "year"),
        Field("venue", _IRI.KG.venue),
        Field("source_file", _IRI.KG.sourceFile),
        Field("source_line", _IRI.KG.sourceLine, "integer"),
    )),
    "author": ((_IRI.SCHEMA.Person,), None, (
        Field("label", _IRI.SCHEMA.name),
        Field("names", _IRI.SCHEMA.alternateName, many=True, listed=True),
    )),
    "track": ((_IRI.KG.Track, _IRI.SKOS.Concept), "tracks", (
        Field("label", _IRI.SKOS.prefLabel, "text"),
        Field("area", _IRI.KG.areaName, "text"),
        Field("subarea", _IRI.KG.subareaName, "text"),
    )),
    "area": ((_IRI.KG.Area, _IRI.SKOS.Concept), "tracks", (
        Field("label", _IRI.SKOS.prefLabel, "text"),
    )),
    "method": ((_IRI.KG.Method, _IRI.SKOS.Concept), "methods", (
        Field("label", _IRI.SKOS.prefLabel, "text"),
        Field("alt_labels", _IRI.SKOS.altLabel, "text", many=True, listed=True),
    )),
}
#: The attributes whose folded forms become `kg:nameKey` (exact, case-insensitive lookup by name).
_LOOKUP = {"author": ("label", "names"), "method": ("label", "alt_labels"), "track": ("label",), "area": ("label",)}
_SCHEMES = {"tracks": "Conference tracks", "methods": "Method concepts"}
_EVIDENCE = (("text", _IRI.KG.quote, "text"), ("start", _IRI.KG.start, "integer"),
             ("end", _IRI.KG.end, "integer"), ("sentence", _IRI.KG.sentence, "text"))
_RELS = ("authored_by", "in_track", "broader", "mentions")


class _Minter:
    """Makes the terms of one export: IRIs under the base IRI, literals in the export's language."""

    def __init__(self, base_iri: str, language: str | None) -> None:
        self.base = check_base_iri(base_iri)
        self.language = language

    def node(self, node: str) -> str:
        return node_iri(node, self.base)

    def scheme(self, name: str) -> str:
        return f"{self.base}scheme/{name}"

    def authorship(self, paper: str, position: int) -> str:
        return f"{self.node(paper)}/author/{int(position)}"

    def method_use(self, paper: str, method: str) -> str:
        return f"{self.node(paper)}/method/{encode_segment(method.partition(':')[2])}"

    def literal(self, value: object, kind: str) -> Lit:
        if kind == "text":
            return Lit(str(value), None, self.language)
        if kind == "boolean":
            return Lit("true" if value else "false", _DATATYPES[kind])
        if kind in _DATATYPES:
            return Lit(str(int(value)), _DATATYPES[kind])
        return Lit(str(value))


# --------------------------------------------------------------------- triples per subject
def _node_triples(G: nx.DiGraph, node: str, m: _Minter) -> list[Triple]:
    data = G.nodes[node]
    kind = data.get("kind")
    if kind not in _KINDS:
        raise ValueError(f"to_rdf: node {node!r} has kind {kind!r}; expected one of {sorted(_KINDS)}")
    types, scheme, fields = _KINDS[kind]
    s = m.node(node)
    triples: list[Triple] = [(s, _IRI.RDF.type, t) for t in types]
    triples.append((s, _IRI.KG.key, Lit(node)))
    if scheme is not None:
        triples.append((s, _IRI.SKOS.inScheme, m.scheme(scheme)))
    if kind == "area":
        triples.append((s, _IRI.SKOS.topConceptOf, m.scheme(scheme)))
    for f in fields:
        value = data.get(f.attr)
        if value is not None:
            triples += [(s, f.prop, m.literal(v, f.kind)) for v in (value if f.many else [value])]
    names = [data.get(attr) for attr in _LOOKUP.get(kind, ())]
    folded = {fold(str(v)) for value in names if value is not None for v in (value if isinstance(value, list) else [value])}
    triples += [(s, _IRI.KG.nameKey, Lit(key)) for key in sorted(folded)]
    if kind == "paper":
        has_track = any(d.get("rel") == "in_track" for _, _, d in G.out_edges(node, data=True))
        triples.append((s, _IRI.KG.trackUnknown, m.literal(not has_track, "boolean")))
    for _, target, d in G.out_edges(node, data=True):
        rel = d.get("rel")
        o = m.node(target)
        if rel == "authored_by":
            triples += [(s, _IRI.SCHEMA.author, o), (s, _IRI.KG.authorship, m.authorship(node, d["position"]))]
        elif rel == "in_track":
            triples.append((s, _IRI.KG.inTrack, o))
        elif rel == "broader":
            triples.append((s, _IRI.SKOS.broader, o))
        elif rel == "mentions":
            triples += [(s, _IRI.DCTERMS.subject, o), (s, _IRI.KG.methodUse, m.method_use(node, target))]
        else:
            raise ValueError(f"to_rdf: edge {node!r} -> {target!r} has rel {rel!r}; expected one of {_RELS}")
    return triples


def _authorship_triples(s: str, person: str, d: dict) -> list[Triple]:
    return [(s, _IRI.RDF.type, _IRI.KG.Authorship), (s, _IRI.KG.person, person),
            (s, _IRI.KG.position, Lit(str(int(d["position"])), _DATATYPES["integer"])),
            (s, _IRI.KG.nameAsWritten, Lit(str(d["name"])))]


def _method_use_triples(s: str, method: str, d: dict, m: _Minter) -> list[Triple]:
    evidence = d.get("evidence") or []
    triples: list[Triple] = [(s, _IRI.RDF.type, _IRI.KG.MethodUse), (s, _IRI.KG.method, method),
                             (s, _IRI.KG.count, m.literal(d.get("count", len(evidence)), "integer"))]
    return triples + [(s, _IRI.KG.mention, f"{s}/{i}") for i in range(1, len(evidence) + 1)]


def _mention_triples(s: str, paper: str, position: int, item: dict, m: _Minter) -> list[Triple]:
    triples: list[Triple] = [(s, _IRI.RDF.type, _IRI.KG.MethodMention), (s, _IRI.RDF.type, _IRI.PROV.Entity),
                             (s, _IRI.PROV.wasQuotedFrom, paper), (s, _IRI.KG.position, m.literal(position, "integer"))]
    return triples + [(s, prop, m.literal(item[key], kind)) for key, prop, kind in _EVIDENCE if key in item]


def _scheme_triples(name: str, m: _Minter) -> list[Triple]:
    s = m.scheme(name)
    return [(s, _IRI.RDF.type, _IRI.SKOS.ConceptScheme), (s, _IRI.SKOS.prefLabel, Lit(_SCHEMES[name], None, "en"))]


def _subjects(G: nx.DiGraph, m: _Minter) -> Iterator[tuple[str, Callable[[], list[Triple]]]]:
    """Every subject of the export with a function producing its triples (lazily, one at a time)."""
    for name in _SCHEMES:
        yield m.scheme(name), lambda name=name: _scheme_triples(name, m)
    for node in G.nodes:
        yield m.node(node), lambda node=node: _node_triples(G, node, m)
    for u, v, d in G.edges(data=True):
        if d.get("rel") == "authored_by":
            s = m.authorship(u, d["position"])
            yield s, lambda s=s, v=v, d=d: _authorship_triples(s, m.node(v), d)
        elif d.get("rel") == "mentions":
            s = m.method_use(u, v)
            yield s, lambda s=s, v=v, d=d: _method_use_triples(s, m.node(v), d, m)
            for i, item in enumerate(d.get("evidence") or [], start=1):
                yield f"{s}/{i}", lambda s=f"{s}/{i}", u=u, i=i, item=item: _mention_triples(s, m.node(u), i, item, m)


# -------------------------------------------------------------------------------- N-Triples
_NT_ESCAPES = {ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r"}
_NT_ESCAPES.update({c: f"\\u{c:04X}" for c in [*range(0x20), 0x7F] if c not in _NT_ESCAPES})


def nt_term(term: str | Lit) -> str:
    """A term in canonical N-Triples syntax (strings without a datatype, minimal escapes)."""
    if isinstance(term, str):
        return f"<{term}>"
    text = f'"{term.lexical.translate(_NT_ESCAPES)}"'
    if term.lang:
        return f"{text}@{term.lang}"
    return f"{text}^^<{term.datatype}>" if term.datatype else text


def _sorted(G: nx.DiGraph, base_iri: str, language: str | None) -> Iterator[tuple[str, Triple]]:
    """(N-Triples line, triple) pairs in byte order of the lines, without duplicates.

    Lines of one subject share the prefix `<subject> `, so sorting subjects by that prefix and each
    subject's lines gives the globally sorted order while holding one subject's triples at a time.
    """
    subjects = sorted(_subjects(G, _Minter(base_iri, language)), key=lambda item: f"<{item[0]}> ".encode())
    for _, make in subjects:
        lines = {f"{nt_term(s)} {nt_term(p)} {nt_term(o)} .\n": (s, p, o) for s, p, o in make()}
        for line in sorted(lines, key=str.encode):
            yield line, lines[line]


def iter_triples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en") -> Iterator[Triple]:
    """The export's triples as (subject IRI, predicate IRI, IRI or `Lit`), in N-Triples line order."""
    return (triple for _, triple in _sorted(G, base_iri, language))


def iter_ntriples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en") -> Iterator[str]:
    """The export as canonical N-Triples lines (with `\\n`) in byte-sorted order, streamed subject
    by subject without building an rdflib graph."""
    return (line for line, _ in _sorted(G, base_iri, language))


# ------------------------------------------------------------------------------------ rdflib
def _rdflib_term(term: str | Lit) -> rdflib.term.Identifier:
    if isinstance(term, str):
        return rdflib.URIRef(term)
    return rdflib.Literal(term.lexical, lang=term.lang,
                          datatype=rdflib.URIRef(term.datatype) if term.datatype else None)


def bind_prefixes(graph: rdflib.Graph, base_iri: str = DEFAULT_BASE_IRI) -> rdflib.Graph:
    """Bind our prefixes (and `kgr:` for the base IRI) on `graph`; return it."""
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, iri, override=True, replace=True)
    graph.bind("kgr", base_iri, override=True, replace=True)
    return graph


def to_rdf(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en") -> rdflib.Graph:
    """The knowledge graph as an rdflib Graph (see the module docstring for the model)."""
    graph = bind_prefixes(rdflib.Graph(), base_iri)
    for s, p, o in iter_triples(G, base_iri, language):
        graph.add((rdflib.URIRef(s), rdflib.URIRef(p), _rdflib_term(o)))
    return graph


def jsonld_context(base_iri: str = DEFAULT_BASE_IRI) -> dict[str, str]:
    """The JSON-LD `@context` of `graph.jsonld`: our prefixes plus `kgr:` for the base IRI."""
    return {**PREFIXES, "kgr": base_iri}


def write_rdf(G: nx.DiGraph, out_dir: str | os.PathLike[str], base_iri: str = DEFAULT_BASE_IRI,
              language: str | None = "en") -> list[Path]:
    """Write `graph.ttl`, `graph.nt` and `graph.jsonld` into `out_dir`; return their paths.

    One streamed pass over the sorted triples writes the N-Triples and the JSON-LD (one node object a
    line, compacted with our prefixes); Oxigraph turns the N-Triples into Turtle. No rdflib graph is
    built: rdflib's serialisers take minutes on graphs Oxigraph writes in a second.
    """
    out = Path(out_dir)
    nt_path, jsonld_path, ttl_path = out / "graph.nt", out / "graph.jsonld", out / "graph.ttl"
    with atomic_open(nt_path) as nt, atomic_open(jsonld_path) as jsonld:
        context = json.dumps(jsonld_context(base_iri), ensure_ascii=False, sort_keys=True)
        jsonld.write(f'{{"@context": {context},\n "@graph": [')
        separator = "\n"
        for subject, items in groupby(_sorted(G, base_iri, language), key=lambda item: item[1][0]):
            lines, triples = zip(*items)
            nt.writelines(lines)
            jsonld.write(separator + json.dumps(_jsonld_node(subject, triples), ensure_ascii=False))
            separator = ",\n"
        jsonld.write("\n]}\n")
    with atomic_open(ttl_path, "wb") as ttl:
        ox.serialize(ox.parse(path=nt_path, format=ox.RdfFormat.N_TRIPLES), ttl, ox.RdfFormat.TURTLE,
                     prefixes=PREFIXES)
    return [ttl_path, nt_path, jsonld_path]


@functools.cache
def _curie(iri: str) -> str:
    """`https://schema.org/name` -> `schema:name` when a prefix of ours covers it, else the IRI."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and iri[len(namespace):].isidentifier():
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _jsonld_value(term: str | Lit) -> object:
    if isinstance(term, str):
        return {"@id": term}
    if term.lang:
        return {"@language": term.lang, "@value": term.lexical}
    return {"@type": _curie(term.datatype), "@value": term.lexical} if term.datatype else term.lexical


def _jsonld_node(subject: str, triples: Sequence[Triple]) -> dict[str, object]:
    """One subject's triples as a compacted JSON-LD node object (values in N-Triples order)."""
    node: dict[str, object] = {"@id": subject}
    properties: dict[str, list] = {}
    for _, p, o in triples:
        if p == _IRI.RDF.type:
            properties.setdefault("@type", []).append(_curie(o))
        else:
            properties.setdefault(_curie(p), []).append(_jsonld_value(o))
    node.update({key: values[0] if len(values) == 1 else values for key, values in properties.items()})
    return node


# ------------------------------------------------------------------------------------- back
def _python(literal: rdflib.Literal, kind: str) -> object:
    text = str(literal)
    if kind == "boolean":
        return text in ("true", "1")
    if kind in _DATATYPES:
        return int(text)
    return text


def from_rdf(graph: rdflib.Graph) -> nx.DiGraph:
    """Rebuild the NetworkX graph from an export (`to_rdf`, or a parsed graph.ttl/.nt/.jsonld).

    Every node, edge and attribute comes back; list attributes that RDF stores as sets (`names`,
    `alt_labels`, `keywords`) come back sorted, evidence in its original order. Graph-level
    attributes (`G.graph`) are not exported. Node keys come from `kg:key`, so any base IRI works.
    """
    G = nx.DiGraph()
    key = {s: str(o) for s, o in graph.subject_objects(KG.key)}
    by_type = {rdflib.URIRef(types[0]): kind for kind, (types, _, _) in _KINDS.items()}
    for s, t in sorted(graph.subject_objects(RDF.type)):
        kind = by_type.get(t)
        if kind is None:
            continue
        attrs: dict[str, object] = {"kind": kind}
        for f in _KINDS[kind][2]:
            values = sorted(_python(o, f.kind) for o in graph.objects(s, rdflib.URIRef(f.prop)))
            if values or f.listed:
                attrs[f.attr] = values if f.many else values[0]
        if kind == "paper":
            attrs["key"] = key[s].partition(":")[2]
        G.add_node(key[s], **attrs)
    for s, o in sorted(graph.subject_objects(KG.inTrack)):
        G.add_edge(key[s], key[o], rel="in_track")
    for s, o in sorted(graph.subject_objects(SKOS.broader)):
        G.add_edge(key[s], key[o], rel="broader")
    for paper, a in sorted(graph.subject_objects(KG.authorship)):
        G.add_edge(key[paper], key[graph.value(a, KG.person)], rel="authored_by",
                   position=int(graph.value(a, KG.position)), name=str(graph.value(a, KG.nameAsWritten)))
    for paper, use in sorted(graph.subject_objects(KG.methodUse)):
        mentions = sorted(graph.objects(use, KG.mention), key=lambda e: int(graph.value(e, KG.position)))
        evidence = [{k: _python(graph.value(e, rdflib.URIRef(p)), kind) for k, p, kind in _EVIDENCE
                     if graph.value(e, rdflib.URIRef(p)) is not None} for e in mentions]
        G.add_edge(key[paper], key[graph.value(use, KG.method)], rel="mentions",
                   count=int(graph.value(use, KG["count"])), evidence=evidence)
    return G
