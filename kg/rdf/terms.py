"""RDF terms as the writers need them: each made and escaped once, for N-Triples, Turtle and JSON-LD.

A `Term` is `(N-Triples text, Turtle text, JSON-LD text, value)`, the value being an IRI or a
literal's `(lexical form, datatype, language)`. For a property the Turtle text may be `a` and the
JSON-LD text is its key (`"@type"` for rdf:type); for a class the JSON-LD text is the CURIE `@type`
takes. The Turtle texts are pyoxigraph's for the same term with our prefixes (`TURTLE_PREFIXES`):
prefixed names where a local name can be written, integers, decimals, doubles and booleans bare,
language tags in lower case. `Minter` makes one export's terms.
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from kg.rdf.iris import check_base_iri, check_language, encode_segment, node_iri
from kg.rdf.vocab import IRI, PREFIXES, vocabularies

Term = tuple[str, str, str, "str | tuple[str, str | None, str | None]"]
#: One statement of a subject: (predicate, object).
Statement = tuple[Term, Term]

#: N-Triples' escapes of control characters (but `\n` and `\r`, escaped like `\\` and `"` before them).
_NT_ESCAPES = {chr(c): f"\\u{c:04X}" for c in [*range(0x20), 0x7F]}
#: Turtle's as pyoxigraph writes them: the short forms of \b, \t and \f; U+FFFE and U+FFFF escaped too.
_TURTLE_ESCAPES = {**_NT_ESCAPES, "\b": "\\b", "\t": "\\t", "\f": "\\f", "\ufffe": "\\uFFFE", "\uffff": "\\uFFFF"}
_NT_SPECIAL, _TURTLE_SPECIAL = re.compile("[\x00-\x1f\x7f]"), re.compile("[\x00-\x1f\x7f\ufffe\uffff]")
#: JSON's string encoder in C, the one `json.dumps(..., ensure_ascii=False)` uses for every string.
json_string: Callable[[str], str] = json.encoder.encode_basestring
#: The datatype of each typed kind of attribute value.
DATATYPES = {"integer": IRI.XSD.integer, "boolean": IRI.XSD.boolean, "year": IRI.XSD.gYear}
#: Our prefixes in the order pyoxigraph declares and tries them: longest namespace first.
TURTLE_PREFIXES = dict(sorted(PREFIXES.items(), key=lambda item: (-len(item[1]), item[0])))
_NAMESPACES = tuple(TURTLE_PREFIXES.values())
_PN_CHARS_U = ("A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D"
               "\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\U00010000-\U000EFFFF")
_LOCAL_FIRST = re.compile(f"[{_PN_CHARS_U}:0-9]")
_LOCAL_NEXT = re.compile(f"[{_PN_CHARS_U}:0-9\\-\u00B7\u0300-\u036F\u203F-\u2040]")
_LOCAL_ESCAPABLE = frozenset("_~.-!$&'()*+,;=/?#@%")
#: The lexical forms Turtle writes bare, per datatype (Turtle's INTEGER, DECIMAL, DOUBLE, booleans).
_BARE = {IRI.XSD.integer: re.compile(r"[+-]?[0-9]+"), IRI.XSD.decimal: re.compile(r"[+-]?[0-9]*\.[0-9]+"),
         IRI.XSD.double: re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][+-]?[0-9]+"),
         IRI.XSD.boolean: re.compile("true|false")}


def decimal_term(value: float) -> Term:
    """An xsd:decimal literal for `value`, rounded to 6 places (`0.5`, `1.333333`, `2.0`).

    Examples
    --------
    >>> decimal_term(4 / 3)[0]
    '"1.333333"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    """
    lexical = f"{value:.6f}".rstrip("0")
    return literal_term(lexical + "0" if lexical.endswith(".") else lexical, IRI.XSD.decimal)


def string_literal(text: str, turtle: bool = False) -> str:
    """`text` as a quoted string of N-Triples, or with `turtle` of Turtle as pyoxigraph writes it.

    Both escape `\\`, `"`, newlines and control characters; Turtle uses the short forms of
    backspace, tab and form feed, and escapes U+FFFE and U+FFFF too. `str.replace` does the
    characters abstracts have (LaTeX's backslashes above all), a regex the rare others.

    Parameters
    ----------
    text : str
        Any text.
    turtle : bool
        Escape for Turtle instead of N-Triples.

    Returns
    -------
    str
        The quoted, escaped string.

    Examples
    --------
    >>> print(string_literal('a "b"\\n\\\\c\\x00\\t'), string_literal('\\t', turtle=True))
    "a \\"b\\"\\n\\\\c\\u0000\\u0009" "\\t"
    """
    text = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    escapes, special = (_TURTLE_ESCAPES, _TURTLE_SPECIAL) if turtle else (_NT_ESCAPES, _NT_SPECIAL)
    if special.search(text) is not None:
        text = special.sub(lambda match: escapes[match[0]], text)
    return f'"{text}"'


@functools.cache
def curie(iri: str) -> str:
    """`https://schema.org/name` -> `schema:name` when a prefix of ours covers it, else the IRI."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and iri[len(namespace):].isidentifier():
            return f"{prefix}:{iri[len(namespace):]}"
    return iri


def _local_name(text: str) -> str | None:
    """`text` as a Turtle local name (PN_LOCAL) as pyoxigraph writes it, backslash-escaping the
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


def turtle_iri(iri: str) -> str:
    """An IRI in Turtle: `prefix:local` under the first of `TURTLE_PREFIXES` that can write it, else `<iri>`.

    Examples
    --------
    >>> turtle_iri("https://schema.org/name"), turtle_iri("https://schema.org/a/b."), turtle_iri("urn:x")
    ('schema:name', 'schema:a\\\\/b\\\\.', '<urn:x>')
    """
    if iri.startswith(_NAMESPACES):  # the IRIs we mint rarely are: the base IRI is no prefix of ours
        for name, namespace in TURTLE_PREFIXES.items():
            if iri.startswith(namespace):
                local = _local_name(iri[len(namespace):])
                if local is not None:
                    return f"{name}:{local}"
    return f"<{iri}>"


def iri_term(iri: str) -> Term:
    """A resource IRI: `{"@id": ...}` in JSON-LD."""
    nt = f"<{iri}>"
    return nt, turtle_iri(iri) if iri.startswith(_NAMESPACES) else nt, f'{{"@id": {json_string(iri)}}}', iri


@functools.cache
def class_term(iri: str) -> Term:
    """A named term of our vocabularies (a class, or a property): a CURIE in JSON-LD."""
    return f"<{iri}>", turtle_iri(iri), json_string(curie(iri)), iri


@functools.cache
def predicate_term(iri: str) -> Term:
    """A property: as `class_term`, but rdf:type is `a` in Turtle and the key `@type` in JSON-LD."""
    if iri == IRI.RDF.type:
        return f"<{iri}>", "a", '"@type"', iri
    return class_term(iri)


#: `P.KG.key` == `predicate_term(IRI.KG.key)`, `C.KG.Track` == `class_term(IRI.KG.Track)`, without
#: the cache lookup: these are on the writers' hot path.
P, C = vocabularies(predicate_term), vocabularies(class_term)


def literal_term(lexical: str, datatype: str | None = None, lang: str | None = None) -> Term:
    """A literal in N-Triples, in Turtle, and in compacted JSON-LD (a string, or a value object
    with `@language`/`@type`).

    Examples
    --------
    >>> literal_term("2", IRI.XSD.integer)[:2], literal_term("x", None, "en-GB")[1]
    (('"2"^^<http://www.w3.org/2001/XMLSchema#integer>', '2'), '"x"@en-gb')
    """
    value = nt = ttl = json_string(lexical)
    # JSON quotes as N-Triples and Turtle do and escapes every character they escape but U+007F (and
    # Turtle's U+FFFE, U+FFFF), so unless it escaped one (rare), its text is theirs: one scan, not three.
    if len(value) != len(lexical) + 2 or "\x7f" in lexical or "\ufffe" in lexical or "\uffff" in lexical:
        nt, ttl = string_literal(lexical), string_literal(lexical, turtle=True)
    if lang:
        lower, text = lang.lower(), f"{nt}@{lang}"
        turtle = text if ttl is nt and lower == lang else f"{ttl}@{lower}"
        return text, turtle, f'{{"@language": {json_string(lang)}, "@value": {value}}}', (lexical, None, lang)
    if datatype:
        bare = _BARE.get(datatype)
        if bare is not None and bare.fullmatch(lexical):
            turtle = lexical
        else:  # pyoxigraph reads "x"^^xsd:string as the simple literal "x"
            turtle = ttl if datatype == IRI.XSD.string else f"{ttl}^^{turtle_iri(datatype)}"
        jsonld = f'{{"@type": {json_string(curie(datatype))}, "@value": {value}}}'
        return f"{nt}^^<{datatype}>", turtle, jsonld, (lexical, datatype, None)
    return nt, ttl, value, (lexical, None, None)


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
        return self.node(node)[3]

    def scheme(self, name: str) -> str:
        return f"{self.base}scheme/{name}"

    def authorship(self, paper: str, position: int) -> str:
        return f"{self.node_iri(paper)}/author/{int(position)}"

    def method_use(self, paper: str, method: str) -> str:
        return f"{self.node_iri(paper)}/method/{self._segment(method)}"

    def dataset_use(self, paper: str, dataset: str) -> str:
        return f"{self.node_iri(paper)}/dataset/{self._segment(dataset)}"

    def collaborations(self, a: str) -> str:
        """What the IRIs of author `a`'s collaborations with the authors after it start with."""
        return f"{self.base}collaboration/{self._segment(a)}/"

    def collaboration(self, a: str, b: str) -> str:
        """The IRI of the collaboration of two authors (`a` < `b`): `{base}collaboration/{a}/{b}`."""
        return self.collaborations(a) + self._segment(b)

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
