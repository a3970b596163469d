"""A small knowledge graph built by hand with networkx, following the kg.graph.build contract, with
known answers for every named query (see tests/test_sparql_queries.py).

    p1  Alice Smith, Bob Li, Chen Wei   ML · RL            GP-UCB (x2), Thompson sampling
    p2  Bob Li, Alice Smith             ML · RL            GP-UCB
    p3  Chen Wei, Dana Ng               ML · Optimization  Thompson sampling, quantization-aware training
    p4  Eve Adams 等 (truncated)        Theory (one level)  quantization-aware training
    p5  Dana Ng, Frank Ode              (no track)          GP-UCB
"""
from __future__ import annotations

import networkx as nx

from kg.names import slugify
from kg.records import MethodMention

METHODS = {
    "gp-ucb": ("GP-UCB", ["GP UCB", "Gaussian Process Upper Confidence Bound"]),
    "thompson-sampling": ("Thompson sampling", []),
    "quantization-aware-training": ("quantization-aware training", ["QAT"]),
}


def add_paper(G: nx.DiGraph, key: str, authors: list[str], track: tuple[str, str | None] | None,
              methods: list[tuple[str, list[str]]], *, truncated: bool = False, text: str | None = None,
              **extra: object) -> str:
    """Add a paper node with its author, track and method edges; `methods` = [(slug, [quotes])]."""
    node = f"paper:{key}"
    sentences = [f"We use {quote} here." for _, quotes in methods for quote in quotes]
    text = text if text is not None else " ".join(sentences) or "No methods."
    G.add_node(node, kind="paper", label=f"{authors[0]} et al.", key=key, abstract=f"$x$ {text}", text=text,
               authors_truncated=truncated, n_authors=len(authors), source_file="fixture.txt",
               source_line=len(G) + 1, **extra)
    for position, name in enumerate(authors, start=1):
        author = f"author:{slugify(name)}"
        if author not in G:
            G.add_node(author, kind="author", label=name, names=[name])
        G.add_edge(node, author, rel="authored_by", position=position, name=name)
    if track is not None:
        area, subarea = track
        area_node = f"area:{slugify(area)}"
        G.add_node(area_node, kind="area", label=area)
        target = area_node
        if subarea is not None:
            target = f"track:{slugify(area)}--{slugify(subarea)}"
            G.add_node(target, kind="track", label=f"{area} · {subarea}", area=area, subarea=subarea)
            G.add_edge(target, area_node, rel="broader")
        G.add_edge(node, target, rel="in_track")
    for slug, quotes in methods:
        label, alt = METHODS[slug]
        G.add_node(f"method:{slug}", kind="method", label=label, alt_labels=alt)
        evidence: list[MethodMention] = []
        for quote in quotes:
            sentence = f"We use {quote} here."
            start = text.index(sentence, evidence[-1].end if evidence else 0) + len("We use ")
            evidence.append(MethodMention(quote, start, start + len(quote), sentence))
        G.add_edge(node, f"method:{slug}", rel="mentions", count=len(quotes), evidence=tuple(evidence))
    return node


def fixture_graph() -> nx.DiGraph:
    """The five-paper graph of the module docstring."""
    G = nx.DiGraph(kind="kg")
    rl, opt = ("Machine Learning", "Reinforcement Learning"), ("Machine Learning", "Optimization")
    add_paper(G, "p1", ["Alice Smith", "Bob Li", "Chen Wei"], rl,
              [("gp-ucb", ["GP-UCB", "Gaussian Process Upper Confidence Bound"]), ("thompson-sampling", ["Thompson sampling"])],
              year=2024, venue="ConfX", id="42", title="A real title")
    add_paper(G, "p2", ["Bob Li", "Alice Smith"], rl, [("gp-ucb", ["GP-UCB"])], keywords=["bandits", "ucb"])
    add_paper(G, "p3", ["Chen Wei", "Dana Ng"], opt,
              [("thompson-sampling", ["Thompson sampling"]), ("quantization-aware-training", ["QAT"])])
    add_paper(G, "p4", ["Eve Adams"], ("Theory", None), [("quantization-aware-training", ["quantization-aware training"])],
              truncated=True)
    add_paper(G, "p5", ["Dana Ng", "Frank Ode"], None, [("gp-ucb", ["GP UCB"])])
    return G


#: Names that break naive IRI minting, Turtle/JSON escaping or HTML embedding.
NASTY_NAMES = [
    "Ann Lee", 'Quote "Q" O\'Neil', "<b>&amp;</b>", "{braces} | pipe \\ back ^caret `tick`",
    "new\nline\ttab\r", "עִבְרִית مرحبا", "emoji 🦄 name", "</script><script>alert(1)</script>",
    "%41 percent", ".", "..", "  spaced  out  ", "\u202eRTL override", "zero\u200bwidth",
]


def nasty_graph() -> nx.DiGraph:
    """One paper per nasty name, with the name as author key, label, track and method alike."""
    G = nx.DiGraph(kind="kg")
    for i, name in enumerate(NASTY_NAMES):
        node = f"paper:nasty{i}"
        G.add_node(node, kind="paper", label=name, key=f"nasty{i}", abstract=name, text=name, title=name,
                   authors_truncated=False, n_authors=1, source_file=name, source_line=i + 1)
        G.add_node(f"author:{name}", kind="author", label=name, names=sorted({name, name.upper()}))
        G.add_edge(node, f"author:{name}", rel="authored_by", position=1, name=name)
        G.add_node(f"area:{name}", kind="area", label=name)
        G.add_node(f"track:{name}--{name}", kind="track", label=f"{name} · {name}", area=name, subarea=name)
        G.add_edge(f"track:{name}--{name}", f"area:{name}", rel="broader")
        G.add_edge(node, f"track:{name}--{name}", rel="in_track")
        G.add_node(f"method:{name}", kind="method", label=name, alt_labels=[name + "!"])
        G.add_edge(node, f"method:{name}", rel="mentions", count=1,
                   evidence=(MethodMention(name, 0, len(name), name),))
    return G
