"""The candidate rules of the method-term component: named methods, capitalised names, technique
phrases, cue phrases.

Each rule looks at the doc's words (`words.compound_words`) and returns candidates, `(start, end,
label)` token ranges labelled with the rule's name; the component resolves overlaps. A word is
named by its index in `Words`; what depends only on its text is in `Words.forms`. A trained
pipeline's POS tags are used in one place, where they were measured to help on both SciERC splits
(`Words.continues_phrase`), and never required; see docs/method-keywords.md.
"""
from __future__ import annotations

from functools import cached_property
from itertools import compress, count, product
from operator import attrgetter

from kg.extract.vocab import Vocabulary
from kg.extract.forms import CUE_VERBS, Forms
from kg.extract.words import Tokens, compound_words

NAMED, TITLE, PHRASE, CUE = "NAMED", "TITLE", "PHRASE", "CUE"
#: A candidate term: `(start, end, label)`, a token range and the rule that found it.
Candidate = tuple[int, int, str]

_MAX_MODIFIERS = 3
_MAX_CUE_WORDS = 5
_CUE_SUBJECTS = frozenset({"we", "paper", "work", "study", "article", "letter"})
_HEAD_POS = frozenset({"NOUN", "PROPN", "X"})
_CLAUSE_ENDS = frozenset({"and", "or", "of", "in", "for"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "our", "its", "their", "his", "her"})
_MARKED = attrgetter("marked")  # `Form.marked`, read at C speed
#: What separates the items of a list, lower-case.
LIST_SEPARATORS = frozenset({",", "and", "or"})
#: Every spelling of a separator (`And`, `OR`, ...): `text.lower() in LIST_SEPARATORS` for whole tokens at once.
_SEPARATOR_SPELLINGS = frozenset("".join(letters) for separator in LIST_SEPARATORS
                                 for letters in product(*({c, c.upper()} for c in separator)))


_HYPE_PREFIX = "state-of"
_HYPE = frozenset({"sota", "sotas"})


def is_hype(lower: str) -> bool:
    """`state-of-the-art` and its misspellings (`state-of-art`, `state-ofthe-art`), `SOTA`."""
    return lower.startswith(_HYPE_PREFIX) or lower in _HYPE


class Words:
    """The doc's words with the context every rule needs: vocabulary and, when tagged, POS tags.

    Word `i` spans tokens `starts[i]:ends[i]`; `forms[i]` is its `Form`, from `form_of` (the
    component's `Forms`); `marked` lists the words a rule may start from (`Form.marked`).
    """

    def __init__(self, tokens: Tokens, forms: Forms) -> None:
        self.tokens = tokens
        self.vocab: Vocabulary = forms.vocab
        self.form_of = forms
        self.starts, compounds = compound_words(tokens)
        self.ends = self.starts[1:] + [len(tokens)]
        self.forms = list(map(forms.__getitem__, tokens.text))  # one look-up per token, at C speed
        for start, end in reversed(compounds):  # from the end, so the indices before stay put
            self.forms[start:end] = [forms[tuple(tokens.text[start:end])]]
        self.marked = list(compress(count(), map(_MARKED, self.forms)))
        self.tagged = tokens.tagged

    def __len__(self) -> int:
        return len(self.starts)

    def starts_sentence(self, i: int) -> bool:
        return self.starts[i] in self.tokens.starts_sentence

    def _pos(self, i: int) -> str:
        """The POS tag of word `i`'s last token (tagged pipelines only)."""
        return self.tokens.pos[self.ends[i] - 1]

    def is_modifier(self, i: int) -> bool:
        """Can word `i` sit inside a method term (before its head)?"""
        return self.forms[i].modifier

    def continues_phrase(self, i: int) -> bool:
        """Does word `i`, right after a head, carry the noun phrase on (`learning rate`)? Tagged,
        when it is a noun; untagged, when it is no `-s` word or a clause ends after it."""
        if not self.forms[i].continues or self.starts_sentence(i) or self.forms[i].is_head:
            return False
        if self.tagged:
            return self._pos(i) in _HEAD_POS
        if not self.forms[i].plural:
            return True
        # untagged, an `-s` word is a plural noun (`learning rates and`) when a clause ends after
        # it, else likely a verb (`algorithm allocates bits`)
        end = self.ends[i]
        if end >= len(self.tokens):
            return True
        return self.tokens.doc[end].is_punct or self.tokens.text[end].lower() in _CLAUSE_ENDS

    def strip_weak(self, phrase: list[int]) -> list[int]:
        """The phrase without its weak and stop words on the left, nor anything up to a hype word
        inside it (`GAN-based state-of-the-art model` -> `model`, `SOTA concept learning`), nor
        the `art` of a spaced `state of the art`."""
        forms = self.forms
        hype = [k for k, i in enumerate(phrase) if is_hype(forms[i].lower)]
        if hype:
            phrase = phrase[hype[-1] + 1:]
        if phrase and phrase[0] >= 2 and forms[phrase[0]].lower == "art" and forms[phrase[0] - 1].lower == "the" \
                and forms[phrase[0] - 2].lower == "of":  # `state of the art methods`
            phrase = phrase[1:]
        while phrase and (self.forms[phrase[0]].weak or self.forms[phrase[0]].stop):
            phrase = phrase[1:]
        return phrase

    def informative(self, phrase: list[int]) -> bool:
        """Has a noun-like word that is neither weak nor generic (what a generic head needs):
        `retrieval approach` and `cost-aware method` are terms, `neural approach` is not."""
        return any(not self.forms[i].weak and not self.forms[i].generic and self.is_nounlike(i) for i in phrase)

    def is_nounlike(self, i: int) -> bool:
        """A dash-joined word, a capitalised word, or a word without an adjective suffix."""
        return self.forms[i].nounlike or not self.forms[i].adjective

    def where(self, flag: str) -> list[int]:
        """The indices of the words whose `Form` has `flag` set, one of those `Form.marked`."""
        return list(compress(self.marked, map(attrgetter(flag), map(self.forms.__getitem__, self.marked))))

    @cached_property
    def separators(self) -> frozenset[int]:
        """The tokens that separate the items of a list: `,`, `and`, `or` (in any case)."""
        return frozenset(compress(count(), map(_SEPARATOR_SPELLINGS.__contains__, self.tokens.text)))

    def capitals(self) -> list[int]:
        """The tokens with two or more capitals (`LLMs`, `FlashSketch`)."""
        forms, starts = self.forms, self.starts
        return [starts[i] + k for i in self.where("capitals") for k in forms[i].capitals]

    def span(self, phrase: list[int], label: str) -> Candidate:
        return self.starts[phrase[0]], self.ends[phrase[-1]], label


def named_methods(words: Words) -> list[Candidate]:
    """Words shaped like method names (`forms.is_named`)."""
    return [(words.starts[i], words.ends[i], NAMED) for i in words.where("named")]


def title_phrases(words: Words) -> list[Candidate]:
    """Runs of two to five capitalised words inside a sentence (`Slow Drift`, `Confidence-Guided
    Dynamic Fusion`): a name, when its first word does not start the sentence, no word is a stop
    word or generic or names an organisation, place or language (`not_methods.txt`: `Xerox PARC`,
    `Hong Kong`, `Southern Min Chinese`), and the last is singular (`Exclusion Sets` is no name)."""
    found: list[Candidate] = []
    forms = words.forms
    run: list[int] = []
    for i in [i for i in words.where("capitalised") if not words.starts_sentence(i)] + [-1]:
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if 2 <= len(run) <= _MAX_CUE_WORDS and forms[run[-1]].singular \
                and not any(forms[k].text in words.vocab.not_name_words for k in run):
            found.append(words.span(run, TITLE))
        run = [i]
    return found


def technique_phrases(words: Words) -> list[Candidate]:
    """Multi-word terms ending in a method head (`quantization-aware training`, `Thompson sampling`).

    A phrase is the head plus up to three modifiers before it, in the same sentence, weak
    modifiers stripped from its left edge; a generic head (`approach`)
    needs an informative modifier. A head that itself modifies a following noun
    (`learning rate`) ends no phrase.
    """
    found: list[Candidate] = []
    forms, starts = words.forms, words.starts
    sentence_starts = words.tokens.starts_sentence
    for i in words.where("is_head"):
        form = forms[i]
        if i + 1 < len(forms) and forms[i + 1].continues and words.continues_phrase(i + 1):
            continue
        modifiers: list[int] = []
        j = i - 1
        # `Words.is_modifier` and `starts_sentence` inline
        while (j >= 0 and len(modifiers) < _MAX_MODIFIERS and starts[j + 1] not in sentence_starts
               and forms[j].modifier):
            modifiers.insert(0, j)
            j -= 1
        if modifiers:
            modifiers = words.strip_weak(_strip_infinitive(words, _strip_gerund(words, modifiers)))
        if not modifiers and not form.prefixed:
            continue
        if form.generic_head and not words.informative(modifiers):
            continue
        found.append(words.span(modifiers + [i], PHRASE))
    return found


def _strip_gerund(words: Words, modifiers: list[int]) -> list[int]:
    """Drop a leading `-ing` word that follows a preposition: `for training large transformers`."""
    start = words.starts[modifiers[0]] if modifiers else 0
    if start > 0 and words.forms[modifiers[0]].lower.endswith("ing"):
        before = words.tokens.text[start - 1].lower()
        if before in words.vocab.stop_words and before not in _DETERMINERS:
            return modifiers[1:]
    return modifiers


#: Endings of nouns and adjectives: a word after `to` with none of these is likely a verb (`to prune`).
_NOT_VERB_ENDINGS = ("ment", "tion", "sion", "ity", "ness", "ance", "ence", "ure", "ism", "er", "or", "ing", "al",
                     "ic", "ive", "ous", "ful", "less", "able", "ible", "ary", "ed", "ist", "cy", "ogy", "s")


def _strip_infinitive(words: Words, modifiers: list[int]) -> list[int]:
    """Drop a leading verb after `to`: `aims to retrieve specific components` -> `specific components`."""
    if not modifiers:
        return modifiers
    first = words.forms[modifiers[0]]
    start = words.starts[modifiers[0]]
    if start > 0 and words.tokens.text[start - 1].lower() == "to" and first.text.isalpha() and first.text.islower() \
            and not first.lower.endswith(_NOT_VERB_ENDINGS):
        return modifiers[1:]
    return modifiers


def cue_phrases(words: Words) -> list[Candidate]:
    """Noun phrases in cue contexts: after `we propose/introduce/present`, before `-based`/`based`,
    after `based on`."""
    found: list[Candidate] = []
    forms = words.forms
    for i in words.where("cue"):
        form, text = forms[i], forms[i].lower
        if text in CUE_VERBS and _has_cue_subject(words, i):
            span = _accept(words, words.strip_weak(_phrase_after(words, i + 1)))
        elif text == "based" and i + 1 < len(forms) and forms[i + 1].lower == "on":
            span = _accept(words, words.strip_weak(_phrase_after(words, i + 2)))
        elif text == "based":
            span = _accept(words, words.strip_weak(_phrase_before(words, i)))
        elif form.based:
            span = _accept_based_prefix(words, i)
        else:  # a cue verb without a cue subject
            continue
        if span is not None:
            found.append(span)
    return found


def _has_cue_subject(words: Words, i: int) -> bool:
    for j in range(i - 1, max(-1, i - 5), -1):
        if words.forms[j].lower in _CUE_SUBJECTS:
            return True
        if words.starts_sentence(j):
            break
    return False


def _phrase_after(words: Words, i: int) -> list[int]:
    forms = words.forms
    while i < len(forms) and (forms[i].weak or forms[i].stop):
        i += 1
    phrase: list[int] = []
    while i < len(forms) and len(phrase) < _MAX_CUE_WORDS and words.is_modifier(i) \
            and not (phrase and words.starts_sentence(i)):
        phrase.append(i)
        i += 1
    return phrase


def _phrase_before(words: Words, i: int) -> list[int]:
    phrase: list[int] = []
    j = i - 1
    while j >= 0 and len(phrase) < _MAX_MODIFIERS - 1 and words.is_modifier(j) and not words.starts_sentence(j + 1):
        phrase.insert(0, j)
        j -= 1
    return phrase


def _accept(words: Words, phrase: list[int]) -> Candidate | None:
    """A cue phrase is a term when it is a capitalised single word not at a sentence start, or
    several words whose head is not generic, or generic with an informative modifier."""
    if not phrase:
        return None
    if len(phrase) == 1:
        form = words.forms[phrase[0]]
        if form.has_upper and not words.starts_sentence(phrase[0]) and not form.generic:
            return words.span(phrase, CUE)
        return None
    head = phrase[-1]
    if words.forms[head].generic and not words.informative(phrase[:-1]):
        return None
    return words.span(phrase, CUE)


def _accept_based_prefix(words: Words, i: int) -> Candidate | None:
    """`X-based` (one word): X, the word without its `-based`, taken as `_accept` takes a single word."""
    start, end = words.starts[i], words.ends[i]
    form = words.form_of.word(words.tokens.text[start:end - 2])
    if form.weak or form.stop or not form.has_upper or form.generic or start in words.tokens.starts_sentence:
        return None
    return start, end - 2, CUE
