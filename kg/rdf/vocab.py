"""The vocabularies of the export: our `kg:` terms (kg/rdf/ontology.ttl) and the standard ones we reuse.

Every namespace here is closed: a term it does not define raises AttributeError, so a typo cannot
make a property or class that is not in the ontology.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SDO, SKOS, XSD, ClosedNamespace, DefinedNamespaceMeta

#: The terms `kg/rdf/ontology.ttl` defines (a test checks the two agree).
KG_TERMS = (
    "Area", "Authorship", "Collaboration", "Dataset", "DatasetUse", "Method", "MethodMention", "MethodUse", "Track",
    "areaName", "authorCount", "authorListTruncated", "authorship", "collaborator", "count", "dataset", "datasetUse",
    "end", "firstYear", "inTrack", "key", "labelSource", "lastYear", "mention", "method", "methodUse",
    "nameAsWritten", "nameKey",
    "paperCount", "person", "position", "quote", "sentence", "sourceFile", "sourceLine", "start",
    "subareaName", "text", "trackUnknown", "venue", "weight",
)
#: The kg vocabulary. Fixed, independent of the base IRI, so named queries work on any export.
KG = ClosedNamespace("https://w3id.org/kg/ontology#", KG_TERMS)
#: schema.org as rdflib defines it (https://schema.org/).
SCHEMA = SDO
#: Prefixes bound in Turtle, used as the JSON-LD context and offered to SPARQL queries.
PREFIXES: dict[str, str] = {
    "kg": str(KG), "schema": str(SCHEMA), "skos": str(SKOS), "dcterms": str(DCTERMS), "prov": str(PROV),
    "rdf": str(RDF), "rdfs": str(RDFS), "owl": str(OWL), "xsd": str(XSD),
}
_NAMESPACES: dict[str, Any] = {"kg": KG, "schema": SCHEMA, "skos": SKOS, "dcterms": DCTERMS, "prov": PROV,
                               "rdf": RDF, "rdfs": RDFS, "owl": OWL, "xsd": XSD}
ONTOLOGY_PATH = Path(__file__).with_name("ontology.ttl")
SHAPES_PATH = Path(__file__).with_name("shapes.ttl")


def defines(prefix: str, name: str) -> bool:
    """True if the vocabulary bound to `prefix` defines the term `name`.

    Examples
    --------
    >>> defines("kg", "nameKey"), defines("kg", "nameKye"), defines("schema", "ScholarlyArticle")
    (True, False, True)
    """
    namespace = _NAMESPACES[prefix]
    if isinstance(namespace, DefinedNamespaceMeta):
        return not name.startswith("_") and PREFIXES[prefix] + name in namespace
    return name in KG_TERMS


class Terms:
    """One vocabulary's terms as attributes, each made once by `make` from its IRI.

    The writers look terms up per triple; a plain attribute is the cheapest lookup, and the check
    that the vocabulary defines the term is paid once per term.
    """

    def __init__(self, prefix: str, make: Callable[[str], Any]) -> None:
        self._prefix, self._make = prefix, make

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or not defines(self._prefix, name):
            raise AttributeError(f"{self._prefix}:{name} is not a term of {PREFIXES[self._prefix]}")
        value = self._make(PREFIXES[self._prefix] + name)
        setattr(self, name, value)
        return value


def vocabularies(make: Callable[[str], Any] = str) -> SimpleNamespace:
    """Every vocabulary of ours as `Terms` by upper-case prefix, each term made by `make`.

    Examples
    --------
    >>> IRI = vocabularies()
    >>> IRI.KG.nameKey
    'https://w3id.org/kg/ontology#nameKey'
    >>> IRI.KG.nameKye
    Traceback (most recent call last):
    ...
    AttributeError: kg:nameKye is not a term of https://w3id.org/kg/ontology#
    """
    return SimpleNamespace(**{prefix.upper(): Terms(prefix, make) for prefix in PREFIXES})


#: `IRI.KG.key` == `str(KG.key)`, and so on for every namespace: plain strings, checked once.
IRI = vocabularies()
