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

The same statements feed `to_rdf` (an rdflib Graph), `iter_ntriples` (canonical N-Triples lines,
streamed subject by subject in sorted order) and `write_rdf` (N-Triples, Turtle and JSON-LD, written
in one streamed pass without rdflib or a parser).
"""
from __future__ import annotations

import functools
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import eq, itemgetter
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple
from urllib.parse import unquote

import networkx as nx
import pyoxigraph as ox
import rdflib
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

from kg.errors import ArgumentError
from kg._util.io import atomic_open
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
class _Terms:
    """A namespace's terms by attribute, each made once by `make` from its IRI: rdflib's `Namespace`
    attribute lookup costs about a microsecond, paid per triple on the export's hot path."""

    def __init__(self, namespace: str, make: Callable[[str], Any]) -> None:
        self._namespace, self._make = namespace, make

    def __getattr__(self, name: str) -> Any:
        value = self._make(self._namespace + name)
        setattr(self, name, value)
        return value


def _namespaces(make: Callable[[str], Any]) -> SimpleNamespace:
    """One `_Terms` per prefix of ours, by upper-case prefix: `_namespaces(str).KG.key`."""
    return SimpleNamespace(**{prefix.upper(): _Terms(namespace, make) for prefix, namespace in PREFIXES.items()})


#: `_IRI.KG.key` == `str(KG.key)`, and so on for every namespace used here.
_IRI = _namespaces(str)


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
    """Return `base_iri` if resources can be minted under it, else raise ArgumentError saying why."""
    from pyoxigraph import NamedNode

    if not base_iri or base_iri[-1] not in "/#:":
        raise ArgumentError(f"base IRI {base_iri!r} must end with '/', '#' or ':' (e.g. {DEFAULT_BASE_IRI})")
    try:
        NamedNode(base_iri + "x")
    except ValueError as exc:
        raise ArgumentError(f"base IRI {base_iri!r} is not an absolute IRI ({exc}); e.g. {DEFAULT_BASE_IRI}") from exc
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


def _check_language(language: str | None) -> str | None:
    """Return `language` if it is a valid language tag (or None/empty: no tag), else raise ArgumentError."""
    if language:
        try:
            ox.Literal("", language=language)
        except ValueError as exc:
            raise ArgumentError(f"language {language!r} is not a valid language tag ({exc}); e.g. 'en'") from exc
    return language


# ------------------------------------------------------------------------------ term texts
#: A term as written in each syntax: (N-Triples, Turtle, JSON-LD text, the term: an IRI or a literal's
#: (lexical form, datatype, language)). For a predicate the Turtle text may be `a` and the JSON-LD
#: text is its key; for a class, the JSON-LD text is the CURIE `@type` takes. A term is escaped once
#: per syntax, when it is made.
Term = tuple[str, str, str, "str | tuple[str, str | None, str | None]"]
#: One statement of a subject: (predicate, object).
Statement = tuple[Term, Term]

#: N-Triples' escapes of control characters (but `\n` and `\r`, escaped like `\\` and `"` before them).
_NT_CONTROLS = {chr(c): f"\\u{c:04X}" for c in [*range(0x20), 0x7F]}
#: Turtle's as Oxigraph writes them: the short forms of \b, \t and \f, else N-Triples'.
_TURTLE_CONTROLS = {**_NT_CONTROLS, "\b": "\\b", "\t": "\\t", "\f": "\\f"}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Our prefixes in the order Oxigraph declares and tries them: longest namespace first.
_TURTLE_PREFIXES = sorted(PREFIXES.items(), key=lambda item: -len(item[1]))
_NAMESPACES = tuple(namespace for _, namespace in _TURTLE_PREFIXES)
_TURTLE_PRELUDE = "".join(f"@prefix {name}: <{namespace}> .\n" for name, namespace in _TURTLE_PREFIXES)
_TURTLE_NEXT = " ;\n\t"  # between the predicates of one subject
_PN_CHARS_U = ("A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D"
               "\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\U00010000-\U000EFFFF")
_LOCAL_FIRST = re.compile(f"[{_PN_CHARS_U}:0-9]")
_LOCAL_NEXT = re.compile(f"[{_PN_CHARS_U}:0-9\\-\u00B7\u0300-\u036F\u203F-\u2040]")
_LOCAL_ESCAPABLE = frozenset("_~.-!$&'()*+,;=/?#@%")
_TURTLE_INTEGER = re.compile(r"[+-]?[0-9]+")
#: JSON's string encoder in C, the one `json.dumps(..., ensure_ascii=False)` uses for every string.
_json_string: Callable[[str], str] = json.encoder.encode_basestring


def _escapes(text: str) -> tuple[str, str]:
    """`text` quoted and escaped for N-Triples and for Turtle (`str.replace` for the characters
    abstracts have, LaTeX's backslashes above all; a regex for the rare control characters)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if _CONTROL.search(text) is None:
        return f'"{text}"', f'"{text}"'
    return (f'"{_CONTROL.sub(lambda match: _NT_CONTROLS[match[0]], text)}"',
            f'"{_CONTROL.sub(lambda match: _TURTLE_CONTROLS[match[0]], text)}"')


def _local_name(text: str) -> str | None:
    """`text` as a Turtle local name (PN_LOCAL) the way Oxigraph writes it, backslash-escaping the
    characters that allow it; None if it cannot be one."""
    chars = []
    for i, ch in enumerate(text):
        if (_LOCAL_NEXT if i else _LOCAL_FIRST).fullmatch(ch) or ch == "." and 0 < i < len(text) - 1:
            chars.append(ch)
        elif ch in _LOCAL_ESCAPABLE:
            chars.append(f"\\{ch}")
        else:
            return None
    return "".join(chars)


def _turtle_iri(iri: str) -> str:
    """An IRI in Turtle: `prefix:local` under the first prefix that can write it, else `<iri>`."""
    if iri.startswith(_NAMESPACES):  # the IRIs we mint rarely are: the base IRI is no Turtle prefix
        for name, namespace in _TURTLE_PREFIXES:
            local = _local_name(iri[len(namespace):]) if iri.startswith(namespace) else None
            if local is not None:
                return f"{name}:{local}"
    return f"<{iri}>"


@functools.cache
def _curie(iri: str) -> str:
    """`https://schema.org/name` -> `schema:name` when a prefix of ours covers it, else the IRI."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and iri[len(namespace):].isidentifier():
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _iri(iri: str) -> Term:
    """A resource IRI: `{"@id": ...}` in JSON-LD."""
    return f"<{iri}>", _turtle_iri(iri), f'{{"@id": {_json_string(iri)}}}', iri


@functools.cache
def _class(iri: str) -> Term:
    """A named term of our vocabularies (a class, the object of rdf:type, or a property): a CURIE
    in JSON-LD (`@type`'s value, a key); a small set, made once."""
    return f"<{iri}>", _turtle_iri(iri), _json_string(_curie(iri)), iri


@functools.cache
def _predicate(iri: str) -> Term:
    """A property: as `_class`, but rdf:type is `a` in Turtle and the key `@type` in JSON-LD."""
    if iri == _IRI.RDF.type:
        return f"<{iri}>", "a", '"@type"', iri
    return _class(iri)


#: `_P.KG.key` == `_predicate(_IRI.KG.key)`, `_C.KG.Track` == `_class(_IRI.KG.Track)`, without the
#: cache lookup: these are on the hot path.
_P, _C = _namespaces(_predicate), _namespaces(_class)


def _literal(lexical: str, datatype: str | None = None, lang: str | None = None) -> Term:
    """A literal, written as Oxigraph writes Turtle (integers and booleans bare, language tags in
    lower case) and as compacted JSON-LD (a string, or a value object with `@language`/`@type`)."""
    value = nt = ttl = _json_string(lexical)
    # JSON quotes as N-Triples and Turtle do and escapes the characters they escape but U+007F, so
    # unless it escaped something (rare), its text is theirs: one scan of the text instead of three.
    if len(value) != len(lexical) + 2 or "\x7f" in lexical:
        nt, ttl = _escapes(lexical)
    if lang:
        jsonld = f'{{"@language": {_json_string(lang)}, "@value": {value}}}'
        return f"{nt}@{lang}", f"{ttl}@{lang.lower()}", jsonld, (lexical, None, lang)
    if datatype:
        bare = (datatype == _IRI.XSD.integer and _TURTLE_INTEGER.fullmatch(lexical)
                or datatype == _IRI.XSD.boolean and lexical in ("true", "false"))
        turtle = lexical if bare else f"{ttl}^^{_turtle_iri(datatype)}"
        jsonld = f'{{"@type": {_json_string(_curie(datatype))}, "@value": {value}}}'
        return f"{nt}^^<{datatype}>", turtle, jsonld, (lexical, datatype, None)
    return nt, ttl, value, (lexical, None, None)


class _Minter:
    """Makes the terms of one export: IRIs under the base IRI, literals in the export's language.
    Node IRIs and typed literals recur across many triples, so each is made once per export."""

    def __init__(self, base_iri: str, language: str | None) -> None:
        self.base = check_base_iri(base_iri)
        self.language = _check_language(language)
        self._nodes: dict[str, Term] = {}
        self._segments: dict[str, str] = {}
        self._typed: dict[str, dict[object, Term]] = {kind: {} for kind in _DATATYPES}
        #: Recent texts: quotes and sentences recur (a method is quoted in many papers).
        self._text = functools.lru_cache(maxsize=4096)(functools.partial(_literal, lang=self.language))

    def node(self, node: str) -> Term:
        term = self._nodes.get(node)
        if term is None:
            term = self._nodes[node] = _iri(node_iri(node, self.base))
        return term

    def node_iri(self, node: str) -> str:
        return self.node(node)[3]

    def scheme(self, name: str) -> str:
        return f"{self.base}scheme/{name}"

    def authorship(self, paper: str, position: int) -> str:
        return f"{self.node_iri(paper)}/author/{int(position)}"

    def method_use(self, paper: str, method: str) -> str:
        segment = self._segments.get(method)
        if segment is None:
            segment = self._segments[method] = encode_segment(method.partition(":")[2])
        return f"{self.node_iri(paper)}/method/{segment}"

    def literal(self, value: Any, kind: str) -> Term:
        if kind == "text":
            return self._text(str(value))
        typed = self._typed.get(kind)
        if typed is None:
            return _literal(str(value))
        term = typed.get(value)
        if term is None:
            lexical = ("true" if value else "false") if kind == "boolean" else str(int(value))
            term = typed[value] = _literal(lexical, _DATATYPES[kind])
        return term


# --------------------------------------------------------------------- triples per subject
def _node_triples(G: nx.DiGraph, node: str, m: _Minter) -> list[Statement]:
    data = G.nodes[node]
    kind = data.get("kind")
    if kind not in _KINDS:
        raise ValueError(f"to_rdf: node {node!r} has kind {kind!r}; expected one of {sorted(_KINDS)}")
    types, scheme, fields = _KINDS[kind]
    statements: list[Statement] = [(_P.RDF.type, _class(t)) for t in types]
    statements.append((_P.KG.key, _literal(node)))
    if scheme is not None:
        statements.append((_P.SKOS.inScheme, _iri(m.scheme(scheme))))
    if kind == "area":
        statements.append((_P.SKOS.topConceptOf, _iri(m.scheme(scheme))))
    for f in fields:
        value = data.get(f.attr)
        if value is not None:
            statements += [(_predicate(f.prop), m.literal(v, f.kind)) for v in (value if f.many else [value])]
    names = [data.get(attr) for attr in _LOOKUP.get(kind, ())]
    folded = {fold(str(v)) for value in names if value is not None for v in (value if isinstance(value, list) else [value])}
    statements += [(_P.KG.nameKey, _literal(key)) for key in sorted(folded)]
    edges = list(G.out_edges(node, data=True))
    if kind == "paper":
        has_track = any(d.get("rel") == "in_track" for _, _, d in edges)
        statements.append((_P.KG.trackUnknown, m.literal(not has_track, "boolean")))
    for _, target, d in edges:
        rel = d.get("rel")
        o = m.node(target)
        if rel == "authored_by":
            statements += [(_P.SCHEMA.author, o), (_P.KG.authorship, _iri(m.authorship(node, d["position"])))]
        elif rel == "in_track":
            statements.append((_P.KG.inTrack, o))
        elif rel == "broader":
            statements.append((_P.SKOS.broader, o))
        elif rel == "mentions":
            statements += [(_P.DCTERMS.subject, o), (_P.KG.methodUse, _iri(m.method_use(node, target)))]
        else:
            raise ValueError(f"to_rdf: edge {node!r} -> {target!r} has rel {rel!r}; expected one of {_RELS}")
    return statements


def _authorship_triples(author: str, d: dict, m: _Minter) -> list[Statement]:
    return [(_P.RDF.type, _C.KG.Authorship), (_P.KG.person, m.node(author)),
            (_P.KG.position, m.literal(d["position"], "integer")), (_P.KG.nameAsWritten, _literal(str(d["name"])))]


def _method_use_triples(s: str, method: str, d: dict, m: _Minter) -> list[Statement]:
    evidence = d.get("evidence") or []
    statements: list[Statement] = [(_P.RDF.type, _C.KG.MethodUse), (_P.KG.method, m.node(method)),
                                   (_P.KG.count, m.literal(d.get("count", len(evidence)), "integer"))]
    return statements + [(_P.KG.mention, _iri(f"{s}/{i}")) for i in range(1, len(evidence) + 1)]


def _mention_triples(paper: str, position: int, item: dict, m: _Minter) -> list[Statement]:
    statements: list[Statement] = [(_P.RDF.type, _C.KG.MethodMention), (_P.RDF.type, _C.PROV.Entity),
                                   (_P.PROV.wasQuotedFrom, m.node(paper)),
                                   (_P.KG.position, m.literal(position, "integer"))]
    return statements + [(_predicate(prop), m.literal(item[key], kind)) for key, prop, kind in _EVIDENCE if key in item]


def _scheme_triples(name: str) -> list[Statement]:
    return [(_P.RDF.type, _C.SKOS.ConceptScheme), (_P.SKOS.prefLabel, _literal(_SCHEMES[name], None, "en"))]


def _subjects(G: nx.DiGraph, m: _Minter) -> Iterator[tuple]:
    """Every subject of the export as a flat tuple (`<subject> `, the function producing its
    statements, that function's arguments): statements are made later, one subject at a time, and
    a flat tuple is the least memory per subject (3.7 million of them at 100k papers)."""
    for name in _SCHEMES:
        yield f"<{m.scheme(name)}> ", _scheme_triples, name
    for node in G.nodes:
        yield f"<{m.node_iri(node)}> ", _node_triples, G, node, m
    for u, v, d in G.edges(data=True):
        if d.get("rel") == "authored_by":
            yield f"<{m.authorship(u, d['position'])}> ", _authorship_triples, v, d, m
        elif d.get("rel") == "mentions":
            s = m.method_use(u, v)
            yield f"<{s}> ", _method_use_triples, s, v, d, m
            for i, item in enumerate(d.get("evidence") or [], start=1):
                yield f"<{s}/{i}> ", _mention_triples, u, i, item, m


# --------------------------------------------------------------------------- sorted output
_KEY = itemgetter(0)


def _statements(G: nx.DiGraph, base_iri: str, language: str | None) -> Iterator[tuple[str, list[Statement]]]:
    """Every subject with its statements, in the byte order of their N-Triples lines, without duplicates.

    Lines of one subject share the prefix `<subject> `, so sorting subjects by that prefix and each
    subject's lines gives the globally sorted order while holding one subject's triples at a time.
    A line goes on `<predicate> object .`, the N-Triples texts that start the statement's terms, so
    sorting the statements sorts the lines: where one term's text is a prefix of another's (`"x"` of
    `"x"@en`), the longer goes on with `@`, `^` or `-`, after the space that follows the shorter.
    Python orders strings by code point, which is the byte order of their UTF-8.
    """
    subjects = sorted(_subjects(G, _Minter(base_iri, language)), key=_KEY, reverse=True)
    while subjects:  # taken from the end, so each subject's memory is freed once it is written
        key, make, *args = subjects.pop()
        statements = sorted(make(*args))
        if any(map(eq, statements, statements[1:])):  # a repeated item of a list attribute: rare
            statements = list(dict.fromkeys(statements))
        yield key[1:-2], statements


def iter_triples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en") -> Iterator[Triple]:
    """The export's triples as (subject IRI, predicate IRI, IRI or `Lit`), in N-Triples line order."""
    return ((s, p[3], o[3] if isinstance(o[3], str) else Lit(*o[3]))
            for s, statements in _statements(G, base_iri, language) for p, o in statements)


def iter_ntriples(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en") -> Iterator[str]:
    """The export as canonical N-Triples lines (with `\\n`) in byte-sorted order, streamed subject
    by subject without building an rdflib graph."""
    return (f"<{s}> {p[0]} {o[0]} .\n" for s, statements in _statements(G, base_iri, language) for p, o in statements)


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

    One streamed pass over the sorted statements writes all three, subject by subject: N-Triples,
    Turtle (byte for byte what Oxigraph writes from those N-Triples with our prefixes) and JSON-LD
    (one node object a line, compacted with our prefixes). No rdflib graph is built and nothing is
    parsed back: rdflib's serialisers take minutes on graphs this writes in seconds.
    """
    out = Path(out_dir)
    ttl_path, nt_path, jsonld_path = out / "graph.ttl", out / "graph.nt", out / "graph.jsonld"
    layouts: dict[tuple[Term, ...], _Layout] = {}
    with atomic_open(nt_path) as nt, atomic_open(ttl_path) as ttl, atomic_open(jsonld_path) as jsonld:
        ttl.write(_TURTLE_PRELUDE)
        context = json.dumps(jsonld_context(base_iri), ensure_ascii=False, sort_keys=True)
        jsonld.write(f'{{"@context": {context},\n "@graph": [')
        separator = "\n"
        for subject, statements in _statements(G, base_iri, language):
            predicates = tuple(map(_PREDICATE, statements))
            layout = layouts.get(predicates) or layouts.setdefault(predicates, _layout(predicates))
            objects = list(map(_OBJECT, statements))
            nt.write(_fill_lines(layout.ntriples, f"<{subject}>", list(map(_NT, objects))))
            ttl.write(_fill(layout.turtle, _turtle_iri(subject), list(map(_TURTLE, objects))))
            node = f'{separator}{{"@id": {_json_string(subject)}'
            jsonld.write(_fill(layout.jsonld, node, list(map(_JSONLD, objects))))
            separator = ",\n"
        jsonld.write("\n]}\n")
    return [ttl_path, nt_path, jsonld_path]


# ---------------------------------------------------------------- layouts: one per predicate list
_PREDICATE, _OBJECT = itemgetter(0), itemgetter(1)
_NT, _TURTLE, _JSONLD = itemgetter(0), itemgetter(1), itemgetter(2)


class _Layout(NamedTuple):
    """How a subject with a given list of predicates is written in each syntax: the texts around its
    subject and objects, with a slot (None) for each. At 10,000 papers, 370,000 subjects share 342
    predicate lists, so writing a subject is a few list operations instead of a loop over its statements."""

    ntriples: list[str | None]  # per statement: subject slot, ` <p> `, object slot, ` .\n`
    turtle: list[str | None]  # subject slot, then texts (separator, predicate) and object slots alternating
    jsonld: list[str | None]  # likewise with JSON keys and brackets; the subject slot takes `{"@id": ...`


def _layout(predicates: tuple[Term, ...]) -> _Layout:
    """The layout of a subject whose statements, in N-Triples order, have these predicates.

    Turtle is as Oxigraph writes it (`s p o , o ;` then one `p o` a line, ending in ` .`), JSON-LD
    as `json.dumps(node, ensure_ascii=False)` would write the node object (a single value unwrapped).
    """
    ntriples: list[str | None] = []
    turtle: list[str | None] = [None]
    jsonld: list[str | None] = [None]
    close = ""  # `]` once a predicate's several JSON-LD values are all written
    for i, p in enumerate(predicates):
        ntriples += [None, f" {p[0]} ", None, " .\n"]
        first = i == 0 or predicates[i - 1] != p
        last = i + 1 == len(predicates) or predicates[i + 1] != p
        if first:
            turtle += [f"{_TURTLE_NEXT if i else ' '}{p[1]} ", None]
            jsonld += [f"{close}, {p[2]}: {'' if last else '['}", None]
        else:
            turtle += [" , ", None]
            jsonld += [", ", None]
        close = "" if first else "]"
    turtle.append(" .\n")
    jsonld.append(f"{close}}}")
    return _Layout(ntriples, turtle, jsonld)


def _fill(layout: list[str | None], subject: str, objects: list[str]) -> str:
    """A Turtle or JSON-LD layout's text: `subject` in its first slot, `objects` in every other piece after."""
    pieces = layout.copy()
    pieces[0] = subject
    pieces[2::2] = objects
    return "".join(pieces)


def _fill_lines(layout: list[str | None], subject: str, objects: list[str]) -> str:
    """An N-Triples layout's text: `subject` and an object in each line's slots."""
    pieces = layout.copy()
    pieces[0::4] = [subject] * len(objects)
    pieces[2::4] = objects
    return "".join(pieces)


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
