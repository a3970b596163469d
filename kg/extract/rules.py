"""The candidate rules of the method-term component: named methods, capitalised names, technique
phrases, cue phrases.

Each rule looks at the doc's words (`words.compound_words`) and returns candidate spans labelled
with the rule's name; the component resolves overlaps. POS tags and noun chunks are used when the
pipeline has them (`tagged` / `parsed`) and never required.
"""
from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.normalize import singular
from kg.extract.vocab import Vocabulary
from kg.extract.words import compound_words, head_form, is_named, is_wordlike, parts

NAMED, TITLE, PHRASE, CUE = "NAMED", "TITLE", "PHRASE", "CUE"

_MAX_MODIFIERS = 3
_MAX_CUE_WORDS = 5
_CUE_VERBS = frozenset({"propose", "proposes", "introduce", "introduces", "present", "presents"})
_CUE_SUBJECTS = frozenset({"we", "paper", "work", "study", "article", "letter"})
_MODIFIER_POS = frozenset({"NOUN", "PROPN", "ADJ", "X"})
_PARTICIPLES = frozenset({"VBN", "VBG"})
_HEAD_POS = frozenset({"NOUN", "PROPN", "X"})
_CLAUSE_ENDS = frozenset({"and", "or", "of", "in", "for"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "our", "its", "their", "his", "her"})
_ADJECTIVE_SUFFIXES = ("al", "ic", "ive", "ous", "ent", "ant", "ful", "less", "able", "ible", "ary", "ed")


class Words:
    """The doc's words with the context every rule needs: vocabulary, tags, noun chunks."""

    def __init__(self, doc: Doc, vocab: Vocabulary) -> None:
        self.doc = doc
        self.vocab = vocab
        self.items = compound_words(doc)
        self.tagged = doc.has_annotation("TAG")
        self.chunk_of: dict[int, int] = {}
        if doc.has_annotation("DEP"):
            for n, chunk in enumerate(doc.noun_chunks):
                self.chunk_of.update((i, n) for i in range(chunk.start, chunk.end))

    def starts_sentence(self, word: Span) -> bool:
        return bool(self.doc[word.start].is_sent_start)

    def lower(self, word: Span) -> str:
        return word.text.lower()

    def is_weak(self, word: Span) -> bool:
        text = self.lower(word)
        return text in self.vocab.weak or (len(text) > 4 and text.endswith("ly") and "-" not in text)

    def is_generic(self, word: Span) -> bool:
        return singular(self.lower(word)) in self.vocab.generic

    def is_modifier(self, word: Span) -> bool:
        """Can `word` sit inside a method term (before its head)?"""
        text = self.lower(word)
        if not is_wordlike(word[0].text) or len(text) < 2 or not text[0].isalpha():
            return False
        if text in self.vocab.stop_words or text in self.vocab.verbs:
            return False
        if len(text) > 4 and text.endswith("ly") and "-" not in text:
            return False
        if "-" not in text and singular(text) != text:  # a plural ends a noun phrase
            return False
        if self.tagged:
            last = word[-1]
            return last.pos_ in _MODIFIER_POS or last.tag_ in _PARTICIPLES
        return True

    def continues_phrase(self, word: Span) -> bool:
        """Does `word`, right after a head, carry the noun phrase on (`learning rate`)?"""
        text = self.lower(word)
        if not is_wordlike(word[0].text) or not text[:1].isalpha() or self.starts_sentence(word) or self.is_head(word):
            return False
        if text in self.vocab.stop_words or text in self.vocab.verbs or text.endswith("ly"):
            return False
        if self.tagged:
            return word[-1].pos_ in _HEAD_POS
        if singular(text) == text:
            return True
        # untagged, an `-s` word is a plural noun (`learning rates and`) when a clause ends after
        # it, else likely a verb (`algorithm allocates bits`)
        after = self.doc[word.end] if word.end < len(self.doc) else None
        return after is None or after.is_punct or after.lower_ in _CLAUSE_ENDS

    def is_head(self, word: Span) -> bool:
        if self.tagged and word[-1].pos_ not in _HEAD_POS and word[-1].tag_ != "VBG":
            return False
        return head_form(word) in self.vocab.heads

    def same_chunk(self, a: Span, b: Span) -> bool:
        return not self.chunk_of or self.chunk_of.get(a.start, -1) == self.chunk_of.get(b.end - 1, -2)

    def strip_weak(self, words: list[Span]) -> list[Span]:
        while words and (self.is_weak(words[0]) or self.lower(words[0]) in self.vocab.stop_words):
            words = words[1:]
        return words

    def informative(self, words: list[Span]) -> bool:
        """Has a noun-like word that is neither weak nor generic (what a generic head needs):
        `retrieval approach` and `cost-aware method` are terms, `neural approach` is not."""
        return any(not self.is_weak(w) and not self.is_generic(w) and self.is_nounlike(w) for w in words)

    def is_nounlike(self, word: Span) -> bool:
        """A dash-joined word, a capitalised word, a tagged noun, or (untagged) no adjective suffix."""
        if len(word) > 1 or word.text[:1].isupper():
            return True
        if self.tagged:
            return word[-1].pos_ in _HEAD_POS
        return not self.lower(word).endswith(_ADJECTIVE_SUFFIXES)

    def span(self, words: list[Span], label: str) -> Span:
        return Span(self.doc, words[0].start, words[-1].end, label=label)


def named_methods(words: Words) -> list[Span]:
    """Words shaped like method names (`words.is_named`)."""
    return [words.span([w], NAMED) for w in words.items if is_named(w)]


def title_phrases(words: Words) -> list[Span]:
    """Runs of two to five capitalised words inside a sentence (`Slow Drift`, `Confidence-Guided
    Dynamic Fusion`): a name, when its first word does not start the sentence, no word is a stop
    word or generic, and the last is singular (`Exclusion Sets` is no name)."""
    found: list[Span] = []
    run: list[Span] = []
    for word in words.items + [None]:
        if word is not None and word.text[:1].isupper() and word[0].is_alpha and not words.starts_sentence(word) \
                and words.lower(word) not in words.vocab.stop_words and not words.is_generic(word):
            run.append(word)
            continue
        if 2 <= len(run) <= _MAX_CUE_WORDS and singular(run[-1].text) == run[-1].text:
            found.append(words.span(run, TITLE))
        run = []
    return found


def technique_phrases(words: Words) -> list[Span]:
    """Multi-word terms ending in a method head (`quantization-aware training`, `Thompson sampling`).

    A phrase is the head plus up to three modifiers before it, in the same sentence (and noun
    chunk, when parsed), weak modifiers stripped from its left edge; a generic head (`approach`)
    needs an informative modifier. A head that itself modifies a following noun
    (`learning rate`) ends no phrase.
    """
    found: list[Span] = []
    items = words.items
    for i, word in enumerate(items):
        if not words.is_head(word):
            continue
        if i + 1 < len(items) and words.continues_phrase(items[i + 1]):
            continue
        modifiers: list[Span] = []
        j = i - 1
        while (j >= 0 and len(modifiers) < _MAX_MODIFIERS and not words.starts_sentence(items[j + 1])
               and words.is_modifier(items[j]) and words.same_chunk(items[j], word)):
            modifiers.insert(0, items[j])
            j -= 1
        modifiers = words.strip_weak(_strip_gerund(words, modifiers))
        prefixed = len(parts(word)) > 1 and head_form(word) != singular(words.lower(word))
        if not modifiers and not prefixed:
            continue
        if head_form(word) in words.vocab.generic_heads and not words.informative(modifiers):
            continue
        found.append(words.span(modifiers + [word], PHRASE))
    return found


def _strip_gerund(words: Words, modifiers: list[Span]) -> list[Span]:
    """Drop a leading `-ing` word that follows a preposition: `for training large transformers`."""
    if modifiers and words.lower(modifiers[0]).endswith("ing") and modifiers[0].start > 0:
        before = words.doc[modifiers[0].start - 1].lower_
        if before in words.vocab.stop_words and before not in _DETERMINERS:
            return modifiers[1:]
    return modifiers


def cue_phrases(words: Words) -> list[Span]:
    """Noun phrases in cue contexts: after `we propose/introduce/present`, before `-based`/`based`,
    after `based on`."""
    found: list[Span] = []
    items = words.items
    for i, word in enumerate(items):
        text = words.lower(word)
        phrase: list[Span] = []
        if text in _CUE_VERBS and _has_cue_subject(words, i):
            phrase = _phrase_after(words, i + 1)
        elif text == "based" and i + 1 < len(items) and words.lower(items[i + 1]) == "on":
            phrase = _phrase_after(words, i + 2)
        elif text == "based":
            phrase = _phrase_before(words, i)
        elif len(parts(word)) > 1 and parts(word)[-1].lower() == "based":
            phrase = [Span(words.doc, word.start, word.end - 2)]
        span = _accept(words, words.strip_weak(phrase))
        if span is not None:
            found.append(span)
    return found


def _has_cue_subject(words: Words, i: int) -> bool:
    for j in range(i - 1, max(-1, i - 5), -1):
        if words.lower(words.items[j]) in _CUE_SUBJECTS:
            return True
        if words.starts_sentence(words.items[j]):
            break
    return False


def _phrase_after(words: Words, i: int) -> list[Span]:
    items = words.items
    while i < len(items) and (words.is_weak(items[i]) or words.lower(items[i]) in words.vocab.stop_words):
        i += 1
    phrase: list[Span] = []
    while i < len(items) and len(phrase) < _MAX_CUE_WORDS and words.is_modifier(items[i]) \
            and not (phrase and words.starts_sentence(items[i])):
        phrase.append(items[i])
        i += 1
    return phrase


def _phrase_before(words: Words, i: int) -> list[Span]:
    phrase: list[Span] = []
    j = i - 1
    while j >= 0 and len(phrase) < _MAX_MODIFIERS - 1 and words.is_modifier(words.items[j]) \
            and not words.starts_sentence(words.items[j + 1]):
        phrase.insert(0, words.items[j])
        j -= 1
    return phrase


def _accept(words: Words, phrase: list[Span]) -> Span | None:
    """A cue phrase is a term when it is a capitalised single word not at a sentence start, or
    several words whose head is not generic, or generic with an informative modifier."""
    if not phrase:
        return None
    if len(phrase) == 1:
        word = phrase[0]
        if any(c.isupper() for c in word.text) and not words.starts_sentence(word) and not words.is_generic(word):
            return words.span(phrase, CUE)
        return None
    head = phrase[-1]
    if words.tagged and head[-1].pos_ not in _HEAD_POS:
        return None
    if words.is_generic(head) and not words.informative(phrase[:-1]):
        return None
    return words.span(phrase, CUE)
