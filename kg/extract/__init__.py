"""Method keywords: a spaCy pipeline that marks method terms, and their canonical concepts.

    nlp = make_pipeline()               # spacy.blank("en") + sentencizer + kg_methods
    nlp = make_pipeline("en_core_web_sm")   # a trained pipeline (the `models` extra)
    methods = extract(papers, nlp=nlp)  # {Paper.key: (Method, ...)}
    concepts = extract_concepts(papers)  # Concepts(methods=..., datasets=...), Method.kind tells them apart

See docs/method-keywords.md for what is extracted, the normalisation and the measured quality.
"""
from __future__ import annotations

from kg.extract.component import SPANS_KEY, MethodTagger
from kg.extract.concepts import Concepts, extract, extract_concepts, keywords_records, link, link_concepts
from kg.extract.datasets import DATASETS_KEY
from kg.extract.normalize import concept_key, concept_text
from kg.extract.pipeline import make_pipeline

__all__ = ["DATASETS_KEY", "SPANS_KEY", "Concepts", "MethodTagger", "concept_key", "concept_text", "extract",
           "extract_concepts", "keywords_records", "link", "link_concepts", "make_pipeline"]
