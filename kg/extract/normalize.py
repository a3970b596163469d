"""Term normalisation: from a mention as written to the canonical concept text, key and label.

`concept_text` is what two mentions must share to be one concept: NFKC, Unicode dashes as `-`,
LaTeX/markdown remnants removed, line-break hyphenation (`la- bel`) joined, case-folded, hyphens
as spaces, the last word singular (`DEBs` -> `deb`, `strategies` -> `strategy`), `+`/`#` spelled
out so that `PPI++` and `PPI` stay apart. `concept_key` is its slug (`quantization-aware-training`).
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from kg.names import slugify

_DASHES = re.compile(r"[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?")
_LATEX_MARKUP = re.compile(r"[{}$*_^~\\`]")
_LINE_BREAK_HYPHEN = re.compile(r"(?<=[a-z])- (?!(?:and|or|to|vs)\b)(?=[a-z])")
#: What `clean_surface` may change besides spaces: non-ASCII (NFKC, dashes), LaTeX and markdown
#: characters, a line-break hyphen.
_NEEDS_CLEANING = re.compile(r"[^\x00-\x7f]|[{}$*_^~\\`]|- ")
_EDGE_PUNCT = "()[]<>\"'“”‘’,.;:!?"
_PLURAL_ACRONYM = re.compile(r"^[A-Z][A-Za-z0-9]*[A-Z0-9]s$")
#: The normalisation functions are pure and see the same strings again and again: each keeps
#: this many results.
_CACHE = 1 << 16
#: Words ending in `s` that are not plurals (compared lower-case).
_NOT_PLURAL_ENDINGS = ("ss", "us", "is", "ics", "ous")
_NOT_PLURAL = frozenset({"series", "species", "news", "its", "has", "was", "does", "this", "lens", "bayes", "ones",
                         "always", "perhaps", "whereas", "thus"})
#: Plurals the suffix rules get wrong, lower-case.
_IRREGULAR = {"biases": "bias", "aliases": "alias", "atlases": "atlas", "corpora": "corpus", "indices": "index",
              "matrices": "matrix", "vertices": "vertex", "criteria": "criterion", "phenomena": "phenomenon",
              "hypotheses": "hypothesis", "analyses": "analysis", "lenses": "lens", "gases": "gas"}


def clean_surface(text: str) -> str:
    """A mention as a readable label: NFKC, plain `-` dashes, no LaTeX remnants, one space."""
    if _NEEDS_CLEANING.search(text) is None:  # plain ASCII without markup: only the spaces to tidy
        return " ".join(text.split()).strip(_EDGE_PUNCT + " ")
    text = unicodedata.normalize("NFKC", text)
    text = _DASHES.sub("-", text)
    text = _LATEX_COMMAND.sub("", text)
    text = _LATEX_MARKUP.sub("", text)
    text = _LINE_BREAK_HYPHEN.sub("", text)
    return " ".join(text.split()).strip(_EDGE_PUNCT + " ")


@lru_cache(maxsize=_CACHE)
def singular(word: str) -> str:
    """The singular of one word, case kept: `LLMs` -> `LLM`, `strategies` -> `strategy`, `analysis` kept."""
    if not word.endswith(("s", "a")):  # most words: no pattern to try
        return word
    if _PLURAL_ACRONYM.match(word):
        return word[:-1]
    lower = word.lower()
    if lower in _IRREGULAR:
        return _keep_case(word, _IRREGULAR[lower])
    if not word.endswith("s"):
        return word
    if len(lower) <= 3 or not lower[-2:-1].isalpha():
        return word
    if lower in _NOT_PLURAL or lower.endswith(_NOT_PLURAL_ENDINGS):
        return word
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + ("Y" if word[-3].isupper() else "y")
    if lower.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1]


def _keep_case(word: str, lower: str) -> str:
    """`lower` with the first letter's case of `word`."""
    return lower[:1].upper() + lower[1:] if word[:1].isupper() else lower


def singular_phrase(text: str) -> str:
    """`text` with its head made singular (`scaling laws` -> `scaling law`): the last word, or the
    word before `of` (`mixtures of experts` -> `mixture of experts`). `-ing` forms and names
    ending in `s` (`Bayes`) are no plurals (`singular`)."""
    before, of, after = text.partition(" of ")
    if of and before and after:
        return singular_phrase(before) + of + after
    head, sep, last = text.rpartition(" ")
    if "-" in last:
        stem, dash, tail = last.rpartition("-")
        return f"{head}{sep}{stem}{dash}{singular(tail)}"
    return f"{head}{sep}{singular(last)}"


@lru_cache(maxsize=_CACHE)
def _clean_singular(text: str) -> str:
    """`clean_surface`, then `singular_phrase`: shared by `concept_text` and `display_form`."""
    return singular_phrase(clean_surface(text))


@lru_cache(maxsize=_CACHE)
def concept_text(text: str) -> str:
    """The canonical comparison text of a term (see the module docstring)."""
    return _comparable(_clean_singular(text))


def _comparable(text: str) -> str:
    """A cleaned form case-folded, with `+`/`#` spelled out and hyphens and apostrophes as spaces."""
    text = text.replace("+", " plus ").replace("#", " sharp ").casefold()
    text = text.replace("-", " ").replace("'s", "").replace("'", "")
    return " ".join(text.split())


@lru_cache(maxsize=_CACHE)
def name_key(text: str) -> str:
    """The key of a data set's name: `concept_key` without making anything singular, since a name
    ending in `s` is no plural (`nuScenes`, `Cityscapes`, `Natural Questions`)."""
    return slugify(_comparable(clean_surface(text)))


def squashed(key: str) -> str:
    """A name key without its separators: `cifar-10`, `cifar10` and `cifar 10` are one name."""
    return key.replace("-", "").replace(" ", "")


@lru_cache(maxsize=_CACHE)
def concept_key(text: str) -> str:
    """The concept's slug, shared across papers: `Quantization-aware training` -> `quantization-aware-training`."""
    return slugify(concept_text(text))


@lru_cache(maxsize=_CACHE)
def display_form(text: str, *, sentence_start: bool) -> str:
    """A mention as a label candidate: cleaned, singular, and without a capital that only the
    sentence start gave it (`Reinforcement learning` -> `reinforcement learning`, `Open-world
    Graph Assistant` kept)."""
    text = _clean_singular(text)
    if sentence_start and text[:1].isupper():
        first, _, rest = text.partition(" ")
        first_parts = first.split("-")
        if all(p[1:].islower() for p in first_parts if p) and rest == rest.lower() \
                and all(p.islower() for p in first_parts[1:] if p):
            return text[0].lower() + text[1:]
    return text
