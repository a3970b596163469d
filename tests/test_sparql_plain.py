"""The named queries are written for Oxigraph's on-disk store (scans joined by hash in subqueries,
sort keys copied into the query); each must give exactly the rows, in order, of its plain statement
below, on the embedded sample's graph and on the fixture graph with years, for several parameter values."""
from __future__ import annotations

from collections import Counter

import pytest
from rdf_fixture import fixture_graph

from kg.extract import extract, make_pipeline
from kg.graph import build_graph
from kg.rdf import PREFIXES
from kg.rdf.sparql import get_named_query, load_store
from kg.readers import read

#: The plain statement of each rewritten named query: what it means, however it is evaluated.
PLAIN = {
    "first-author-counts": """
SELECT ?min_papers ?author ?name ?first ?any WHERE {
  { SELECT ?min_papers ?person (COUNT(?s) AS ?any) (SUM(?lead) AS ?first) WHERE {
      ?s kg:person ?person . BIND(IF(EXISTS { ?s kg:position 1 }, 1, 0) AS ?lead) }
    GROUP BY ?min_papers ?person HAVING (COUNT(?s) >= ?min_papers) }
  ?person kg:key ?author ; schema:name ?name .
} ORDER BY DESC(?any) DESC(?first) ?author""",
    "top-collaborating-pairs": """
SELECT ?min_papers ?author1 ?name1 ?author2 ?name2 ?papers WHERE {
  ?pair kg:paperCount ?papers ; kg:collaborator ?a, ?b .
  ?a kg:key ?author1 ; schema:name ?name1 . ?b kg:key ?author2 ; schema:name ?name2 .
  FILTER(?papers >= ?min_papers && ?author1 < ?author2)
} ORDER BY DESC(?papers) ?author1 ?author2""",
    "collaboration-suggestions": """
SELECT ?author ?min_shared ?candidate ?name ?shared_methods WHERE {
  { SELECT ?author ?min_shared ?person ?other (COUNT(DISTINCT ?m) AS ?shared_methods) WHERE {
      ?person kg:nameKey ?author . ?mine schema:author ?person ; dcterms:subject ?m .
      ?theirs dcterms:subject ?m ; schema:author ?other . FILTER(?other != ?person) }
    GROUP BY ?author ?min_shared ?person ?other HAVING (COUNT(DISTINCT ?m) >= ?min_shared) }
  FILTER NOT EXISTS { ?pair kg:collaborator ?person, ?other }
  ?other kg:key ?candidate ; schema:name ?name .
} ORDER BY DESC(?shared_methods) ?candidate""",
    "co-occurring-methods": """
SELECT ?method ?concept ?label (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?m a kg:Method ; kg:nameKey ?method . ?paper dcterms:subject ?m, ?other . FILTER(?other != ?m)
  ?other kg:key ?concept ; skos:prefLabel ?label .
} GROUP BY ?method ?concept ?label ORDER BY DESC(?papers) ?concept""",
    "top-methods": """
SELECT ?min_papers ?method ?label ?papers ?mentions WHERE {
  { SELECT ?min_papers ?m (COUNT(DISTINCT ?paper) AS ?papers) (SUM(?count) AS ?mentions) WHERE {
      ?paper kg:methodUse ?use . ?use kg:method ?m ; kg:count ?count . }
    GROUP BY ?min_papers ?m HAVING (COUNT(DISTINCT ?paper) >= ?min_papers) }
  ?m kg:key ?method ; skos:prefLabel ?label .
} ORDER BY DESC(?papers) DESC(?mentions) ?method""",
    "papers-using-method": """
SELECT DISTINCT ?method ?concept ?paper ?label ?title ?mentions WHERE {
  ?m a kg:Method ; kg:nameKey ?method ; kg:key ?concept .
  ?p kg:methodUse ?use ; kg:key ?paper ; rdfs:label ?label . ?use kg:method ?m ; kg:count ?mentions .
  OPTIONAL { ?p schema:name ?title }
} ORDER BY DESC(?mentions) ?paper""",
    "papers-of-author": """
SELECT DISTINCT ?author ?paper ?label ?title ?position ?track WHERE {
  ?person kg:nameKey ?author .
  ?p kg:authorship ?signature ; kg:key ?paper ; rdfs:label ?label . ?signature kg:person ?person ; kg:position ?position .
  OPTIONAL { ?p schema:name ?title } OPTIONAL { ?p kg:inTrack/skos:prefLabel ?track }
} ORDER BY ?position ?paper""",
    "authors-per-area": """
SELECT ?area ?label (COUNT(DISTINCT ?person) AS ?authors) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?paper kg:inTrack/skos:broader* ?concept ; schema:author ?person .
  ?concept a kg:Area ; kg:key ?area ; skos:prefLabel ?label .
} GROUP BY ?area ?label ORDER BY DESC(?authors) ?area""",
    "authors-per-track": """
SELECT ?track ?label (COUNT(DISTINCT ?person) AS ?authors) (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
  ?paper kg:inTrack ?concept ; schema:author ?person . ?concept kg:key ?track ; skos:prefLabel ?label .
} GROUP BY ?track ?label ORDER BY DESC(?authors) ?track""",
    "top-methods-per-track": """
SELECT ?min_papers ?track ?track_label ?method ?method_label ?papers WHERE {
  { SELECT ?min_papers ?concept ?m (COUNT(DISTINCT ?paper) AS ?papers) WHERE {
      ?paper kg:inTrack ?concept ; dcterms:subject ?m . }
    GROUP BY ?min_papers ?concept ?m HAVING (COUNT(DISTINCT ?paper) >= ?min_papers) }
  ?concept kg:key ?track ; skos:prefLabel ?track_label . ?m kg:key ?method ; skos:prefLabel ?method_label .
} ORDER BY ?track DESC(?papers) ?method""",
    "rising-methods": """
SELECT ?from ?to ?min_papers ?method ?label ?papers_from ?papers_to ?share_from ?share_to ?change WHERE {
  { SELECT ?from ?to (SUM(IF(?y = ?from, 1, 0)) AS ?total_from) (SUM(IF(?y = ?to, 1, 0)) AS ?total_to) WHERE {
      ?p a schema:ScholarlyArticle ; dcterms:issued ?i . BIND(xsd:integer(STR(?i)) AS ?y) } GROUP BY ?from ?to }
  { SELECT ?from ?to ?min_papers ?m (SUM(IF(?y = ?from, 1, 0)) AS ?papers_from) (SUM(IF(?y = ?to, 1, 0)) AS ?papers_to)
    WHERE { ?p dcterms:subject ?m ; dcterms:issued ?i . BIND(xsd:integer(STR(?i)) AS ?y) }
    GROUP BY ?from ?to ?min_papers ?m HAVING (SUM(IF(?y = ?from, 1, 0)) + SUM(IF(?y = ?to, 1, 0)) >= ?min_papers) }
  FILTER(?total_from > 0 && ?total_to > 0)
  ?m kg:key ?method ; skos:prefLabel ?label .
  BIND(?papers_from / ?total_from AS ?share_from) BIND(?papers_to / ?total_to AS ?share_to)
  BIND(?share_to - ?share_from AS ?change)
} ORDER BY DESC(?change) ?method""",
}

#: Years for the fixture's papers, so that rising-methods has rows (2023: p1, p3; 2024: p2, p4, p5).
YEARS = {"paper:p1": 2023, "paper:p2": 2024, "paper:p3": 2023, "paper:p4": 2024, "paper:p5": 2024}


def _fixture_with_years():
    G = fixture_graph()
    for paper, year in YEARS.items():
        G.nodes[paper]["year"] = year
    return G


def _sample():
    papers = read(None).papers
    return build_graph(papers, extract(papers, nlp=make_pipeline(None)))


@pytest.fixture(scope="module", params=["sample", "fixture"])
def graph(request):
    G = _sample() if request.param == "sample" else _fixture_with_years()
    return G, load_store(G)


def _parameter_sets(G, name: str) -> list[dict]:
    """The defaults, then values taken from G: its most prolific authors and most used methods."""
    declared = {p.name for p in get_named_query(name).params}
    counts = Counter((v, rel) for _, v, rel in G.edges(data="rel") if rel in ("authored_by", "mentions"))
    authors = [G.nodes[v]["label"] for (v, rel), _ in counts.most_common() if rel == "authored_by"][:3]
    methods = [G.nodes[v]["label"] for (v, rel), _ in counts.most_common() if rel == "mentions"][:3]
    sets: list[dict] = [{}]
    if "author" in declared:
        sets += [{"author": a} for a in authors] + [{"author": authors[0], "min_shared": 2}]
    if "method" in declared:
        sets += [{"method": m} for m in methods]
    if "min_papers" in declared and "from" not in declared:
        sets += [{"min_papers": k} for k in (1, 2, 3)]
    if "from" in declared:
        sets += [{"from": 2023, "to": 2024, "min_papers": k} for k in (1, 2)] + [{"from": 2024, "to": 2023}]
    return [{k: v for k, v in s.items() if k in declared} for s in sets]


def _rows(solutions) -> tuple[list[str], list[tuple]]:
    return [v.value for v in solutions.variables], [tuple(solution) for solution in solutions]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_named_query_gives_the_rows_of_its_plain_statement(graph, name):
    G, store = graph
    named = get_named_query(name)
    seen = 0
    for params in _parameter_sets(G, name):
        bindings = named.bindings(params)
        ours, plain = (_rows(store.query(text, prefixes=PREFIXES, substitutions=bindings))
                       for text in (named.text, PLAIN[name]))
        assert ours == plain, (name, params)
        seen += len(ours[1])
    dated = any(year is not None for _, year in G.nodes(data="year"))
    assert seen > 0 or (name == "rising-methods" and not dated), f"{name}: no rows for any parameter set: the comparison would prove nothing"
