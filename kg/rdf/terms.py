"""RDF terms as the writers need them: each made and escaped once, for N-Triples and for JSON-LD.

A `Term` is `(N-Triples text, JSON-LD text, value)`, the value being an IRI or a literal's
`(lexical form, datatype, language)`. For a property the JSON-LD text is its key (`"@type"` for
rdf:type); for a class it is the CURIE `@type` takes. `Minter` makes one export's terms.
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from kg.rdf.iris import check_base_iri, check_language, encode_segment, node_iri
from kg.rdf.vocab import IRI, PREFIXES, vocabularies

Term = tuple[str, str, "str | tuple[str, str | None, str | None]"]
#: One statement of a subject: (predicate, object).
Statement = tuple[Term, Term]

#: N-Triples' escapes of control characters (but `\n` and `\r`, escaped like `\\` and `"` before them).
_NT_CONTROLS = {chr(c): f"\\u{c:04X}" for c in [*range(0x20), 0x7F]}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: JSON's string encoder in C, the one `json.dumps(..., ensure_ascii=False)` uses for every string.
json_string: Callable[[str], str] = json.encoder.encode_basestring
#: The datatype of each typed kind of attribute value.
DATATYPES = {"integer": IRI.XSD.integer, "boolean": IRI.XSD.boolean, "year": IRI.XSD.gYear}


def decimal_term(value: float) -> Term:
    """An xsd:decimal literal for `value`, rounded to 6 places (`0.5`, `1.333333`, `2.0`).

    Examples
    --------
    >>> decimal_term(4 / 3)[0]
    '"1.333333"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    """
    lexical = f"{value:.6f}".rstrip("0")
    return literal_term(lexical + "0" if lexical.endswith(".") else lexical, IRI.XSD.decimal)


def ntriples_string(text: str) -> str:
    """`text` as an N-Triples string literal: quoted, with `\\`, `"`, newlines and controls escaped.

    Examples
    --------
    >>> print(ntriples_string('a "b"\\n\\\\c\\x00'))
    "a \\"b\\"\\n\\\\c\\u0000"
    """
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    if _CONTROL.search(text) is not None:
        text = _CONTROL.sub(lambda match: _NT_CONTROLS[match[0]], text)
    return f'"{text}"'


@functools.cache
def curie(iri: str) -> str:
    """`https://schema.org/name` -> `schema:name` when a prefix of ours covers it, else the IRI."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and iri[len(namespace):].isidentifier():
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def iri_term(iri: str) -> Term:
    """A resource IRI: `{"@id": ...}` in JSON-LD."""
    return f"<{iri}>", f'{{"@id": {json_string(iri)}}}', iri


@functools.cache
def class_term(iri: str) -> Term:
    """A named term of our vocabularies (a class, or a property): a CURIE in JSON-LD."""
    return f"<{iri}>", json_string(curie(iri)), iri


@functools.cache
def predicate_term(iri: str) -> Term:
    """A property: as `class_term`, but rdf:type is the key `@type` in JSON-LD."""
    if iri == IRI.RDF.type:
        return f"<{iri}>", '"@type"', iri
    return class_term(iri)


#: `P.KG.key` == `predicate_term(IRI.KG.key)`, `C.KG.Track` == `class_term(IRI.KG.Track)`, without
#: the cache lookup: these are on the writers' hot path.
P, C = vocabularies(predicate_term), vocabularies(class_term)


def literal_term(lexical: str, datatype: str | None = None, lang: str | None = None) -> Term:
    """A literal: in N-Triples, and in compacted JSON-LD (a string, or a value object with `@language`/`@type`)."""
    value = nt = json_string(lexical)
    # JSON quotes as N-Triples does and escapes the characters it escapes but U+007F, so unless it
    # escaped something (rare), its text is N-Triples' too: one scan of the text instead of two.
    if len(value) != len(lexical) + 2 or "\x7f" in lexical:
        nt = ntriples_string(lexical)
    if lang:
        return f"{nt}@{lang}", f'{{"@language": {json_string(lang)}, "@value": {value}}}', (lexical, None, lang)
    if datatype:
        jsonld = f'{{"@type": {json_string(curie(datatype))}, "@value": {value}}}'
        return f"{nt}^^<{datatype}>", jsonld, (lexical, datatype, None)
    return nt, value, (lexical, None, None)


class Minter:
    """Makes the terms of one export: IRIs under the base IRI, literals in the export's language.

    Node IRIs and typed literals recur across many triples, so each is made once per export.
    """

    def __init__(self, base_iri: str, language: str | None) -> None:
        self.base = check_base_iri(base_iri)
        self.language = check_language(language)
        self._nodes: dict[str, Term] = {}
        self._segments: dict[str, str] = {}
        self._typed: dict[str, dict[object, Term]] = {kind: {} for kind in DATATYPES}
        #: Recent texts: quotes and sentences recur (a method is quoted in many papers).
        self._text = functools.lru_cache(maxsize=4096)(functools.partial(literal_term, lang=self.language))

    def node(self, node: str) -> Term:
        term = self._nodes.get(node)
        if term is None:
            term = self._nodes[node] = iri_term(node_iri(node, self.base))
        return term

    def node_iri(self, node: str) -> str:
        return self.node(node)[2]

    def scheme(self, name: str) -> str:
        return f"{self.base}scheme/{name}"

    def authorship(self, paper: str, position: int) -> str:
        return f"{self.node_iri(paper)}/author/{int(position)}"

    def method_use(self, paper: str, method: str) -> str:
        return f"{self.node_iri(paper)}/method/{self._segment(method)}"

    def dataset_use(self, paper: str, dataset: str) -> str:
        return f"{self.node_iri(paper)}/dataset/{self._segment(dataset)}"

    def collaboration(self, a: str, b: str) -> str:
        """The IRI of the collaboration of two authors (`a` < `b`): `{base}collaboration/{a}/{b}`."""
        return f"{self.base}collaboration/{self._segment(a)}/{self._segment(b)}"

    def _segment(self, node: str) -> str:
        segment = self._segments.get(node)
        if segment is None:
            segment = self._segments[node] = encode_segment(node.partition(":")[2])
        return segment

    def literal(self, value: Any, kind: str) -> Term:
        if kind == "text":
            return self._text(str(value))
        typed = self._typed.get(kind)
        if typed is None:
            return literal_term(str(value))
        term = typed.get(value)
        if term is None:
            lexical = ("true" if value else "false") if kind == "boolean" else str(int(value))
            term = typed[value] = literal_term(lexical, DATATYPES[kind])
        return term
