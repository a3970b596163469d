"""Slugs and author identity keys: one normalisation used by readers, graph and RDF alike."""
from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def fold(text: str) -> str:
    """NFKC, case-fold, strip accents (combining marks), collapse whitespace."""
    if text.isascii():
        return " ".join(text.casefold().split())
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    marks = {ord(ch): None for ch in set(text) if unicodedata.combining(ch)}  # per distinct char, not per char
    return " ".join(unicodedata.normalize("NFKC", text.translate(marks) if marks else text).split())


def slugify(text: str) -> str:
    """A stable, IRI-safe-ish slug: folded text, runs of non-word characters as one `-`.

    Non-Latin letters are kept (they are word characters); IRIs percent-encode what they must.
    """
    slug = _NON_WORD.sub("-", fold(text)).strip("-")
    return slug.replace("_", "-") or "x"


def author_key(name: str) -> str:
    """The identity key of an author name: `zhou Xun` and `Zhou Xun` meet; `Li X` and `Li Xiang` do not."""
    return slugify(name)
