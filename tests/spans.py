"""What the extraction pipeline marks in a text, as the tests read it."""
from __future__ import annotations

from kg.extract import DATASETS_KEY, SPANS_KEY


def methods(nlp, text: str) -> list[str]:
    """The method terms `nlp` marks in `text`, in order."""
    doc = nlp(text)  # held: a span group needs its Doc alive
    return [s.text for s in doc.spans[SPANS_KEY]]


def datasets(nlp, text: str) -> list[str]:
    """The data set terms `nlp` marks in `text`, in order."""
    doc = nlp(text)
    return [s.text for s in doc.spans[DATASETS_KEY]]
