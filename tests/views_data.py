"""A small knowledge graph for the view tests, built by `kg.graph.build_graph` from hand-made records.

Six papers, three tracks (one paper without a track), seven authors of which one is named like an
XSS attack, and methods with evidence sentences that contain markup.
"""
from __future__ import annotations

import networkx as nx

from kg.graph import build_graph
from kg.names import author_key
from kg.records import Author, Method, MethodMention, Paper, Track

#: An author name that would run script if any view used it as markup.
XSS_NAME = '<img src=x onerror="window.__xss=1">'
#: A method label that would close the data element if it were not escaped.
SCRIPT_LABEL = "</script><script>window.__xss=2</script>"

LLM = Track("Deep Learning", "Large Language Models")
RL = Track("Reinforcement Learning", "Deep RL")
SAFETY = Track("Social Aspects", "Safety")

PAPERS = [  # (key, authors, track, [(method key, label, sentence)])
    ("p1", ["Ada Lovelace", "Alan Turing", XSS_NAME], LLM,
     [("qat", "quantization-aware training", "We use quantization-aware training <b>carefully</b>."),
      ("lora", "LoRA", "LoRA adapters & friends are cheap.")]),
    ("p2", ["Ada Lovelace", "Alan Turing"], LLM,
     [("qat", "quantization-aware training", "Quantization-aware training (QAT) helps."),
      ("lora", "LoRA", "We fine-tune with LoRA.")]),
    ("p3", ["Alan Turing", "Grace Hopper"], RL,
     [("ts", "Thompson sampling", "Thompson sampling explores."),
      (SCRIPT_LABEL.lower(), SCRIPT_LABEL, "A method called </script> appears here.")]),
    ("p4", ["Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"], RL,
     [("ts", "Thompson sampling", "We compare with Thompson sampling."),
      ("gp-ucb", "GP-UCB", "GP-UCB is the baseline.")]),
    ("p5", ["Barbara Liskov", "Edsger Dijkstra"], SAFETY,
     [("gp-ucb", "GP-UCB", "GP-UCB again."), ("lora", "LoRA", "LoRA for safety.")]),
    ("p6", ["Claude Shannon"], None, [("ts", "Thompson sampling", "Shannon meets Thompson sampling.")]),
]


#: A dataset label that would be bold if it were markup.
BOLD_BENCH = "<b>SafeBench</b>"

DATASETS = {  # paper key -> [(dataset key, label, sentence)]: atari and imagenet in 2 papers, glue and safebench in 1
    "p1": [("imagenet", "ImageNet", "We train on ImageNet <i>at scale</i>.")],
    "p2": [("imagenet", "ImageNet", "ImageNet again."), ("glue", "GLUE", "GLUE scores improve.")],
    "p3": [("atari", "Atari", "Atari games test exploration.")],
    "p4": [("atari", "Atari", "We evaluate on Atari.")],
    "p5": [("safebench", BOLD_BENCH, "We release <b>SafeBench</b> & more.")],
}


def _concepts(mentions: list[tuple[str, str, str]]) -> list[Method]:
    return [Method(key=m, label=label, mentions=(MethodMention(label, 0, len(label), sentence),))
            for m, label, sentence in mentions]


def hub_graph(datasets: bool = False) -> nx.DiGraph:
    """The hub graph of `PAPERS`: 7 authors (7 co-author links), 5 methods (4 co-occurrence links);
    with `datasets`, the four datasets of `DATASETS` too."""
    papers, methods = [], {}
    for key, names, track, mentions in PAPERS:
        text = " ".join(sentence for _, _, sentence in mentions)
        papers.append(Paper(key=key, authors=tuple(Author(n, author_key(n)) for n in names),
                            abstract=text, text=text, track=track))
        methods[key] = _concepts(mentions)
    used = {key: _concepts(mentions) for key, mentions in DATASETS.items()} if datasets else None
    return build_graph(papers, methods, datasets=used)


def dated_graph() -> nx.DiGraph:
    """Four editions: "Old Hand" publishes in 2020 and 2021, "New Face" in 2023, "Bridge" in all four
    (with one of them each time); method "old method" is mentioned in 2020, "new method" in 2023."""
    papers, methods = [], {}
    for year, partner, method in ((2020, "Old Hand", "old method"), (2021, "Old Hand", "old method"),
                                  (2022, "Solo Bridge Friend", "mid method"), (2023, "New Face", "new method")):
        key = f"p{year}"
        text = f"We use {method}."
        papers.append(Paper(key=key, title=f"A paper of {year}", year=year, abstract=text, text=text,
                            authors=tuple(Author(n, author_key(n)) for n in ("Bridge", partner))))
        methods[key] = [Method(key=method.replace(" ", "-"), label=method,
                               mentions=(MethodMention(method, 7, 7 + len(method), text),)),
                        Method(key="shared", label="shared method", mentions=(MethodMention("x", 0, 1, text),))]
    return build_graph(papers, methods)
