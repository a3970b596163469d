"""The export as an rdflib Graph (`to_rdf`), and back to the NetworkX graph (`from_rdf`)."""
from __future__ import annotations

import networkx as nx
import rdflib
from rdflib.namespace import RDF, SKOS

from kg.errors import InputError
from kg.rdf.iris import DEFAULT_BASE_IRI
from kg.rdf.model import EVIDENCE, KINDS, Lit, iter_triples
from kg.rdf.terms import DATATYPES
from kg.rdf.vocab import KG, PREFIXES
from kg.records import MethodMention


def _rdflib_term(term: str | Lit) -> rdflib.term.Identifier:
    if isinstance(term, str):
        return rdflib.URIRef(term)
    return rdflib.Literal(term.lexical, lang=term.lang,
                          datatype=rdflib.URIRef(term.datatype) if term.datatype else None)


def bind_prefixes(graph: rdflib.Graph, base_iri: str = DEFAULT_BASE_IRI) -> rdflib.Graph:
    """Bind our prefixes (and `kgr:` for the base IRI) on `graph`; return it.

    Examples
    --------
    >>> dict(bind_prefixes(rdflib.Graph()).namespaces())["kgr"]
    rdflib.term.URIRef('https://w3id.org/kg/')
    """
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, iri, override=True, replace=True)
    graph.bind("kgr", base_iri, override=True, replace=True)
    return graph


def to_rdf(G: nx.DiGraph, base_iri: str = DEFAULT_BASE_IRI, language: str | None = "en",
           coauthors: nx.Graph | None = None) -> rdflib.Graph:
    """The knowledge graph as an rdflib Graph (the model: `kg.rdf.model`, docs/rdf.md).

    Parameters
    ----------
    G : networkx.DiGraph
        A kg graph (`kg.graph.build_graph`).
    base_iri : str
        The base of the IRIs minted for nodes.
    language : str or None
        The language tag of texts; None for none.

    Returns
    -------
    rdflib.Graph
        The same triples `iter_triples` gives, with our prefixes bound.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> len(to_rdf(G)) == len(list(iter_triples(G)))
    True
    """
    graph = bind_prefixes(rdflib.Graph(), base_iri)
    for s, p, o in iter_triples(G, base_iri, language, coauthors):
        graph.add((rdflib.URIRef(s), rdflib.URIRef(p), _rdflib_term(o)))
    return graph


def _python(literal: rdflib.Literal, kind: str) -> object:
    text = str(literal)
    if kind == "boolean":
        return text in ("true", "1")
    if kind in DATATYPES:
        return int(text)
    return text


def from_rdf(graph: rdflib.Graph) -> nx.DiGraph:
    """Rebuild the NetworkX graph from an export (`to_rdf`, or a parsed graph.ttl/.nt/.jsonld).

    Every node, edge and attribute comes back; list attributes that RDF stores as sets (`names`,
    `alt_labels`, `keywords`) come back sorted, evidence (a tuple of `kg.records.MethodMention`)
    in its original order; a kg:MethodMention without one of its fields is an `InputError`. Graph-level
    attributes (`G.graph`) are not exported. Node keys come from `kg:key`, so any base IRI works.
    The `kg:Collaboration` nodes are derived from the papers and their authors, so they are not
    read back: `to_rdf` makes them again, the same.

    Parameters
    ----------
    graph : rdflib.Graph
        The export's triples.

    Returns
    -------
    networkx.DiGraph
        The kg graph they were made from.

    Examples
    --------
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> dict(from_rdf(to_rdf(G)).nodes(data=True))
    {'area:vision': {'kind': 'area', 'label': 'Vision'}}
    """
    G = nx.DiGraph()
    key = {s: str(o) for s, o in graph.subject_objects(KG.key)}
    by_type = {rdflib.URIRef(types[0]): kind for kind, (types, _, _) in KINDS.items()}
    for s, t in sorted(graph.subject_objects(RDF.type)):
        kind = by_type.get(t)
        if kind is None:
            continue
        attrs: dict[str, object] = {"kind": kind}
        for f in KINDS[kind][2]:
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
    for use_of, concept_of, rel in ((KG.methodUse, KG.method, "mentions"), (KG.datasetUse, KG.dataset, "uses_dataset")):
        for paper, use in sorted(graph.subject_objects(use_of)):
            mentions = sorted(graph.objects(use, KG.mention), key=lambda e: int(_required(graph, e, KG.position)))
            evidence = tuple(_mention(graph, e) for e in mentions)
            G.add_edge(key[paper], key[graph.value(use, concept_of)], rel=rel,
                       count=int(graph.value(use, KG["count"])), evidence=evidence)
    return G


def _required(graph: rdflib.Graph, mention: rdflib.term.Node, prop: rdflib.URIRef) -> rdflib.term.Node:
    """The value of `prop` on a kg:MethodMention; an `InputError` naming the mention and the
    property when it has none."""
    value = graph.value(mention, prop)
    if value is None:
        raise InputError(f"kg:MethodMention <{mention}> has no {graph.namespace_manager.normalizeUri(prop)}: "
                         "every mention needs kg:position, kg:quote, kg:start, kg:end and kg:sentence")
    return value


def _mention(graph: rdflib.Graph, mention: rdflib.term.Node) -> MethodMention:
    """The `MethodMention` a kg:MethodMention states (every field of `EVIDENCE` is required)."""
    fields = {name: _python(_required(graph, mention, rdflib.URIRef(prop)), kind) for name, prop, kind in EVIDENCE}
    return MethodMention(**fields)
