"""Acronym definitions in a Doc, Schwartz-Hearst style (Schwartz & Hearst, PSB 2003).

Two patterns: `long form (SF)` and `SF (long form)`. The short form's letters and digits must
appear in the long form in order, right to left, the first one at the start of a word; the long
form spans at most min(|SF| + 5, 2 * |SF|) words and stays inside the sentence and the clause
(no comma, semicolon or parenthesis). Unlike the original, a long form whose first word is
capitalised is extended left over the capitalised words before it, dash-joined ones too (not over
weak adjectives such as `Traditional`), so `Character-Aware Constraint Encoder (CACE)` and `Generative Semantic
Refinement and Exclusion-Guided Adaptation (ReEx)` keeps its whole name; a long form matched from a
lower-case stop word inside a capitalised name takes the name's word before it (`Abstraction and
Reasoning Corpus (ARC)`, not `and Reasoning Corpus`); and a plural short form
(`DEBs`) is matched without its `s` when it does not match with it.
"""
from __future__ import annotations

from itertools import compress, count

from spacy.tokens import Doc, Span

from kg.extract.vocab import vocabulary
from kg.extract.words import Tokens

#: A token range, `(start, end)`.
Range = tuple[int, int]

_MAX_SHORT_CHARS = 12
#: Tokens `in "()"`: where the search for a closing parenthesis stops.
_PARENTHESES = frozenset({"(", ")", "()", ""})
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


def _window_start(tokens: Tokens, end: int, max_words: int) -> int:
    """Token index where the long-form window before token `end` starts (same sentence and clause)."""
    sent_start = tokens.sentence(end - 1)[0]
    words = 0
    i = end
    while i > sent_start and tokens.text[i - 1] not in _CLAUSE_BREAKS:
        i -= 1
        if tokens.space[i] or i == end - 1:
            words += 1
        if words >= max_words:
            break
    return i


def _extend_capitalised(tokens: Tokens, start: int, window_start: int) -> int:
    """The start of a capitalised long form at token `start`, extended left over the capitalised
    words directly before it, dash-joined ones too (`Character-Aware Constraint Encoder (CACE)`)."""
    text, space, doc = tokens.text, tokens.space, tokens.doc

    def capitalised(i: int) -> bool:
        return i >= window_start and text[i][:1].isupper() and text[i].isalpha() and not doc[i].is_stop \
            and text[i].lower() not in vocabulary().weak

    if not text[start][:1].isupper():
        return start
    while True:
        if capitalised(start - 1):
            start -= 1
        elif start >= 2 and text[start - 1] == "-" and not space[start - 2] and not space[start - 1] \
                and capitalised(start - 2):
            start -= 2
        else:
            return start


def find_definitions(doc: Doc) -> list[tuple[Span, Span]]:
    """All `(short form, long form)` span pairs defined in `doc`, in text order."""
    return [(doc[short[0]:short[1]], doc[long[0]:long[1]]) for short, long in definitions(Tokens(doc))]


def definitions(tokens: Tokens) -> list[tuple[Range, Range]]:
    """`find_definitions` over a doc's `Tokens`, as `(start, end)` token ranges."""
    text = tokens.text
    pairs: list[tuple[Range, Range]] = []
    for i in tokens.indices("("):
        close = next(compress(count(i + 1), map(_PARENTHESES.__contains__, text[i + 1:i + 40])), None)
        if close is None or text[close] != ")" or close == i + 1:
            continue
        inner = tokens.span_text(i + 1, close)
        pair = _long_before(tokens, i, close) if is_short_form(inner) else _long_inside(tokens, i, close)
        if pair is not None:
            pairs.append(pair)
    return pairs


def _long_before(tokens: Tokens, paren: int, close: int) -> tuple[Range, Range] | None:
    """`long form (SF)`."""
    if paren == 0:
        return None
    short = tokens.span_text(paren + 1, close)
    window_start = _window_start(tokens, paren, _max_words(short))
    if window_start >= paren:
        return None
    base = tokens.doc[window_start].idx  # `candidate` is doc.text[base:...]
    candidate = tokens.span_text(window_start, paren)
    offset = match_long_form(short, candidate)
    if offset is None:
        return None
    long = _trim(tokens, tokens.doc.char_span(base + offset, base + len(candidate), alignment_mode="expand"))
    if long is None:
        return None
    long_text = tokens.span_text(*long)
    if long_text.casefold() == short.casefold() or len(long_text) <= len(short):
        return None
    start = long[0]
    if start > window_start and tokens.doc[start].is_stop and tokens.text[start].islower() \
            and start + 1 < long[1] and tokens.text[start - 1][:1].isupper() and tokens.text[start + 1][:1].isupper():
        start -= 1  # `Abstraction and Reasoning Corpus (ARC)`: the `A` of `and` matched, the name goes on
    return (paren + 1, close), (_extend_capitalised(tokens, start, window_start), long[1])


def _trim(tokens: Tokens, span: Span | None) -> Range | None:
    """The span's token range without edge tokens that hold no letter or digit (markdown `_`, quotes)."""
    if span is None:
        return None
    start, end = span.start, span.end
    while start < end and not any(c.isalnum() for c in tokens.text[start]):
        start += 1
    while end > start and not any(c.isalnum() for c in tokens.text[end - 1]):
        end -= 1
    return (start, end) if end > start else None


def _long_inside(tokens: Tokens, paren: int, close: int) -> tuple[Range, Range] | None:
    """`SF (long form)`: the token before the parenthesis is the short form."""
    if paren == 0:
        return None
    short, inner = tokens.text[paren - 1], tokens.span_text(paren + 1, close)
    if not is_short_form(short) or len(inner.split()) < 2 or len(inner.split()) > _max_words(short):
        return None
    offset = match_long_form(short, inner)
    if offset is None or " " in inner[:offset].strip():
        return None
    return (paren - 1, paren), (paren + 1, close)
