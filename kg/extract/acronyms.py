"""Acronym definitions in a Doc, Schwartz-Hearst style (Schwartz & Hearst, PSB 2003).

Two patterns: `long form (SF)` and `SF (long form)`. The short form's letters and digits must
appear in the long form in order, right to left, the first one at the start of a word; the long
form spans at most min(|SF| + 5, 2 * |SF|) words and stays inside the sentence and the clause
(no comma, semicolon or parenthesis). Unlike the original, a long form whose first word is
capitalised is extended left over the capitalised words before it (not over weak adjectives
such as `Traditional`), so `Generative Semantic
Refinement and Exclusion-Guided Adaptation (ReEx)` keeps its whole name, and a plural short form
(`DEBs`) is matched without its `s` when it does not match with it.
"""
from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.vocab import vocabulary

_MAX_SHORT_CHARS = 12
_CLAUSE_BREAKS = frozenset({",", ";", ":", "(", ")", "[", "]", ".", "!", "?", '"'})


def is_short_form(text: str) -> bool:
    """Whether `text` can be a short form: 2-12 chars, no space, starts alphanumeric, has a capital."""
    alnum = [c for c in text if c.isalnum()]
    return (2 <= len(text) <= _MAX_SHORT_CHARS and " " not in text and text[0].isalnum()
            and any(c.isupper() for c in text) and any(c.isalpha() for c in text) and len(alnum) >= 2)


def match_long_form(short: str, candidate: str) -> int | None:
    """The start offset in `candidate` of the shortest long form for `short`, or None.

    Tries the short form as written, then without a plural `s` (`DEBs` -> `DEB`).
    """
    start = _match(short, candidate)
    if start is None and short.endswith("s") and sum(c.isalnum() for c in short) > 2:
        start = _match(short[:-1], candidate)
    return start


def _match(short: str, candidate: str) -> int | None:
    chars = [c.lower() for c in short if c.isalnum()]
    pos = len(candidate) - 1
    for i in range(len(chars) - 1, -1, -1):
        while pos >= 0 and (candidate[pos].lower() != chars[i]
                            or (i == 0 and pos > 0 and candidate[pos - 1].isalnum())):
            pos -= 1
        if pos < 0:
            return None
        pos -= 1
    start = pos + 1
    return candidate.rfind(" ", 0, start) + 1


def _max_words(short: str) -> int:
    n = sum(c.isalnum() for c in short)
    return min(n + 5, 2 * n)


def _window_start(doc: Doc, end: int, max_words: int) -> int:
    """Token index where the long-form window before token `end` starts (same sentence and clause)."""
    sent_start = doc[end - 1].sent.start if doc.has_annotation("SENT_START") else 0
    words = 0
    i = end
    while i > sent_start and doc[i - 1].text not in _CLAUSE_BREAKS:
        i -= 1
        if doc[i].whitespace_ or i == end - 1:
            words += 1
        if words >= max_words:
            break
    return i


def _extend_capitalised(doc: Doc, span: Span, window_start: int) -> Span:
    """Extend a capitalised long form left over the capitalised words directly before it."""
    if not span.text[:1].isupper():
        return span
    start = span.start
    while start > window_start and doc[start - 1].text[:1].isupper() and doc[start - 1].is_alpha \
            and not doc[start - 1].is_stop and doc[start - 1].lower_ not in vocabulary().weak:
        start -= 1
    return doc[start:span.end]


def find_definitions(doc: Doc) -> list[tuple[Span, Span]]:
    """All `(short form, long form)` span pairs defined in `doc`, in text order."""
    pairs: list[tuple[Span, Span]] = []
    for i, token in enumerate(doc):
        if token.text != "(":
            continue
        close = next((j for j in range(i + 1, min(i + 40, len(doc))) if doc[j].text in "()"), None)
        if close is None or doc[close].text != ")" or close == i + 1:
            continue
        inner = doc[i + 1:close]
        pair = _long_before(doc, i, inner) if is_short_form(inner.text) else _long_inside(doc, i, inner)
        if pair is not None:
            pairs.append(pair)
    return pairs


def _long_before(doc: Doc, paren: int, short: Span) -> tuple[Span, Span] | None:
    """`long form (SF)`."""
    if paren == 0:
        return None
    window_start = _window_start(doc, paren, _max_words(short.text))
    if window_start >= paren:
        return None
    base = doc[window_start].idx
    candidate = doc.text[base:doc[paren - 1].idx + len(doc[paren - 1])]
    offset = match_long_form(short.text, candidate)
    if offset is None:
        return None
    long = _trim(doc.char_span(base + offset, base + len(candidate), alignment_mode="expand"))
    if long is None or long.text.casefold() == short.text.casefold() or len(long.text) <= len(short.text):
        return None
    return short, _extend_capitalised(doc, long, window_start)


def _trim(span: Span | None) -> Span | None:
    """The span without edge tokens that hold no letter or digit (markdown `_`, quotes)."""
    if span is None:
        return None
    start, end = span.start, span.end
    while start < end and not any(c.isalnum() for c in span.doc[start].text):
        start += 1
    while end > start and not any(c.isalnum() for c in span.doc[end - 1].text):
        end -= 1
    return span.doc[start:end] if end > start else None


def _long_inside(doc: Doc, paren: int, inner: Span) -> tuple[Span, Span] | None:
    """`SF (long form)`: the token before the parenthesis is the short form."""
    if paren == 0 or not is_short_form(doc[paren - 1].text) or len(inner.text.split()) < 2 \
            or len(inner.text.split()) > _max_words(doc[paren - 1].text):
        return None
    short = doc[paren - 1:paren]
    offset = match_long_form(short.text, inner.text)
    if offset is None or " " in inner.text[:offset].strip():
        return None
    return short, inner
