"""Words as a reader sees them, over spaCy tokens, and the shape tests the rules use.

The English tokenizer splits `BlockPerm-SJLT` into three tokens; `compound_words` joins tokens
linked by a dash with no space around it back into one word (a Span), so a hyphenated name or
modifier counts as one word. Every other token is a word of its own.
"""
from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from kg.extract.normalize import singular

DASHES = frozenset({"-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"})
_WORDLIKE = re.compile(r"^[\w+#'.’]*\w[\w+#]*$")
_MIXED_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]{2,}")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]+s?$")
#: Name endings of benchmarks and data sets, not methods (`WebQA`, `MMLU-Bench`).
_DATASET_SUFFIXES = ("QA", "Bench", "Benchmark", "Eval")


def compound_words(doc: Doc) -> list[Span]:
    """The doc's words in order: dash-joined token runs (`GP-UCB`, `quantization-aware`) and single tokens."""
    words: list[Span] = []
    i, n = 0, len(doc)
    while i < n:
        end = i + 1
        if is_wordlike(doc[i].text):
            while (end + 1 < n and doc[end].text in DASHES and not doc[end - 1].whitespace_
                   and not doc[end].whitespace_ and is_wordlike(doc[end + 1].text)):
                end += 2
        words.append(doc[i:end])
        i = end
    return words


def is_wordlike(text: str) -> bool:
    """Letters/digits (with `+ # ' .` inside): not punctuation, not a bracket."""
    return bool(_WORDLIKE.match(text))


def parts(word: Span) -> list[str]:
    """The dash-separated parts of a word: `Seed-GRPO` -> [`Seed`, `GRPO`]."""
    return [t.text for t in word if t.text not in DASHES]


def head_form(word: Span) -> str:
    """The lower-case singular of a word's last part: `autoencoders` -> `autoencoder`."""
    pieces = parts(word)
    return singular(pieces[-1]).lower() if pieces else ""


def is_acronym(text: str) -> bool:
    """All capitals (digits allowed), optionally plural: `SGD`, `LLMs`, `FC2`."""
    return bool(_ACRONYM.match(text))


def is_named(word: Span) -> bool:
    """A named method by its shape: CamelCase or internal capitals (`FlashSketch`, `AdamW`,
    `Meta-iLaD`), letters with digits (`W4A4`, `GPT-4`), a dash-joined name with a capitalised
    last part and an all-capitals part (`BlockPerm-SJLT`, `GP-UCB`, `Megatron-LM`, `Seed-GRPO`), or
    a `++`/`#` suffix (`PPI++`). Plain capitalised words and bare acronyms are not names."""
    text = word.text
    pieces = parts(word)
    if not pieces or not pieces[0][:1].isalpha() or not all(is_wordlike(p) for p in pieces):
        return False
    if text.endswith(_DATASET_SUFFIXES):
        return False
    if text.endswith(("++", "#")) and any(c.isupper() for c in text):
        return True
    if any(_MIXED_CASE.search(p) and not _PLURAL_ACRONYM.match(p) for p in pieces):
        return True
    alnum = "".join(pieces)
    if any(c.isdigit() for c in alnum) and any(c.isupper() for c in alnum) and len(alnum) >= 3 \
            and any(c.isalpha() for c in pieces[0]) and (len(pieces) > 1 or pieces[0][0].isupper()):
        return True
    last = pieces[-1]
    return (len(pieces) > 1 and (last[:1].isupper() or last[:1].isdigit())
            and any(len(p) >= 2 and p.isupper() for p in pieces))
