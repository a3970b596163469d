"""The hand-written Turtle (kg.rdf.turtle) is byte for byte what pyoxigraph's Turtle serialiser
writes from our N-Triples with our prefixes, on statements made to be hostile: every control
character, quotes, backslashes, unicode, language tags in any case, numbers Turtle may or may not
write bare, and IRIs under our prefixes whose local names need escapes or cannot be prefixed
names at all. The Turtle also parses back to the same triples, read by pyoxigraph: rdflib's Turtle
parser rejects some valid local names (one ending in an escaped dot) and keeps the case of language
tags, which RDF compares case-insensitively; it reads the kg export back in tests/test_rdf.py."""
from __future__ import annotations

import io

import pyoxigraph as ox
import pytest

from kg.rdf.ntriples import NTriplesWriter
from kg.rdf.terms import TURTLE_PREFIXES, P, class_term, iri_term, literal_term, predicate_term, string_literal
from kg.rdf.turtle import TurtleWriter
from kg.rdf.vocab import IRI, PREFIXES
from kg.rdf.writer import write_subjects

SCHEMA, KG = PREFIXES["schema"], PREFIXES["kg"]
#: Local names under a prefix: plain, needing backslash escapes (`.` last or first, `-` first,
#: `~`, `%`, `/`, `'`, ...), or impossible (a combining mark or `·` first, U+2028), and empty.
LOCALS = ["", "a", "_a", "1a", "a.b", "a.", ".a", "a..b", "..", "-a", "a-b", "a~b", "a%20b", "a/b/c", "(x)", "a:b",
          ":", "x#y", "@", "a'b", "!$&()*+,;=?", "é", "a·b", "·a", "\u0300x", "x\u0300", "a\u203fb", "日本",
          "\U0001F984", "\u00b7", "x\u2028y"]
#: Every ASCII control, quotes and backslashes, the characters Turtle escapes but N-Triples does
#: not, LaTeX, line and paragraph separators, a BOM, an emoji.
NASTY = "".join(map(chr, range(0x80))) + '\ufffe\uffff\u2028\u2029\x85\ufeff\U0001F984 $\\epsilon$ "q" \\'
TYPED = {  # lexical forms Turtle writes bare, and ones it must keep quoted, per datatype
    IRI.XSD.integer: ["1", "+1", "-0", "0012", " 1", "1.0", "", "١"],
    IRI.XSD.decimal: ["1.5", ".5", "-.5", "+0.0", "5.", "5", "1e5", ""],
    IRI.XSD.double: ["1e5", "1.E-5", ".5e+5", "-2E0", ".e5", "1.5", "NaN", "INF", "1e"],
    IRI.XSD.boolean: ["true", "false", "1", "True", " true"],
    IRI.XSD.gYear: ["2024", "-0044"],
    IRI.XSD.string: ["plain", 'q"\t'],
    KG + "my.type.": ["x"],
    "urn:example:datatype": ["y"],
}


def hostile_statements() -> list[tuple[str, list]]:
    """Subjects with their statements in N-Triples order, as `kg.rdf.model.statements` yields them."""
    texts = [NASTY, "", "plain", "tab\there", "line\nbreak\r\n", 'quote " and \\ backslash', "\b\f\x7f\x00",
             "\ufffe", "unicode é 日本 \U0001F984"]
    objects = [literal_term(t) for t in texts]
    objects += [literal_term(t, None, lang) for t in texts[:4] for lang in ("en", "EN-us", "de-CH-1901")]
    objects += [literal_term(lexical, datatype) for datatype, forms in TYPED.items() for lexical in forms]
    objects += [iri_term(SCHEMA + local) for local in LOCALS] + [iri_term("urn:x:y"), iri_term("https://w3id.org/kg/a")]
    predicates = [P.RDF.type, P.SCHEMA.name, P.KG.nameKey, predicate_term(SCHEMA + "a-b."), predicate_term(SCHEMA),
                  predicate_term("urn:example:p")]
    subjects = [SCHEMA + local for local in LOCALS] + [KG, "urn:x:y", "https://w3id.org/kg/paper/x"]
    items = []
    for i, subject in enumerate(subjects):
        made = [(P.RDF.type, class_term(IRI.SCHEMA.Person))]
        made += [(predicates[(i + j) % len(predicates)], o) for j, o in enumerate(objects) if (i + j) % 3 == 0]
        made += [(P.SCHEMA.name, objects[i % len(objects)])] * 2  # a repeated statement: `o , o`
        items.append((subject, sorted(made)))
    return sorted(items, key=lambda item: f"<{item[0]}> ")


def write_both(items) -> tuple[bytes, bytes]:
    """The Turtle and the N-Triples of `items`, written in one pass."""
    ttl, nt = io.BytesIO(), io.BytesIO()
    write_subjects(items, [(TurtleWriter(), ttl), (NTriplesWriter(), nt)])
    return ttl.getvalue(), nt.getvalue()


def pyoxigraph_turtle(nt: bytes) -> bytes:
    """What pyoxigraph's serialiser writes from those N-Triples with our prefixes."""
    return ox.serialize(ox.parse(nt, format=ox.RdfFormat.N_TRIPLES), format=ox.RdfFormat.TURTLE,
                        prefixes=TURTLE_PREFIXES)


def test_hostile_turtle_is_pyoxigraphs_byte_for_byte():
    ttl, nt = write_both(hostile_statements())
    assert ttl == pyoxigraph_turtle(nt)
    assert b"schema:a\\~b" in ttl and b"<https://schema.org/\xcc\x80x>" in ttl  # escaped; impossible: an IRI


def test_hostile_turtle_parses_back_to_the_same_triples():
    ttl, nt = write_both(hostile_statements())
    triples = set(ox.parse(nt, format=ox.RdfFormat.N_TRIPLES))
    assert set(ox.parse(ttl, format=ox.RdfFormat.TURTLE)) == triples
    assert len(triples) > 300  # no blank nodes: the same set of triples is an isomorphic graph


def test_each_term_alone_is_pyoxigraphs():
    """One triple per term (the first hostile subject's), so a difference names its term."""
    for subject, made in hostile_statements()[:3]:
        for statement in made:
            ttl, nt = write_both([(subject, [statement])])
            assert ttl == pyoxigraph_turtle(nt), (subject, statement)


def test_an_empty_graph_is_an_empty_file_as_pyoxigraph_writes_it():
    ttl, nt = write_both([])
    assert ttl == nt == pyoxigraph_turtle(nt) == b""


@pytest.mark.parametrize("text", [NASTY, "\t\b\f", "\ufffe\uffff", 'a"b\\c\nd\re'])
def test_one_escaper_serves_both_syntaxes(text):
    """`string_literal` reads back as the text in N-Triples and in Turtle."""
    for turtle, fmt in ((False, ox.RdfFormat.N_TRIPLES), (True, ox.RdfFormat.TURTLE)):
        line = f"<urn:s> <urn:p> {string_literal(text, turtle=turtle)} .\n".encode()
        [triple] = ox.parse(line, format=fmt)
        assert triple.object.value == text
