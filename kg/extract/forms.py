"""What the rules know about a word from its strings alone, computed once per distinct word.

A word (one token, or the tokens of a dash-joined word, `words.compound_words`) gets a `Form`: its
lower-case text and head, whether it is a name by its shape, a head of the vocabulary, a stop or
weak word, a modifier, and so on. The component keeps them in a `Forms` cache, so each distinct
word is judged once, not once per occurrence or per rule. Most words take a short path
(`Form.__init__`) that must set what the general one sets (`tests/test_extract.py` checks it).
"""
from __future__ import annotations

import re

from kg.extract.normalize import singular
from kg.extract.vocab import Vocabulary
from kg.extract.words import DASHES, is_wordlike

_MIXED_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]{2,}")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
#: Name endings of benchmarks and data sets, not methods (`WebQA`, `MMLU-Bench`).
_DATASET_SUFFIXES = ("QA", "Bench", "Benchmark", "Eval")
#: Words that head a data set's name (`the UCF101 dataset`, `Penn Discourse Treebank`), lower-case, singular.
DATASET_HEADS = frozenset({"dataset", "benchmark", "corpus", "treebank", "database"})
#: Heads of named results and tools (`Pinsker's inequality`, `Kaplan-Meier estimator`), lower-case.
EPONYM_HEADS = frozenset({"inequality", "equation", "theorem", "lemma", "law", "bound", "estimator", "principle",
                          "divergence", "distance", "transform", "decomposition", "criterion", "test", "process",
                          "distribution", "kernel", "filter", "sampler", "sampling", "algorithm", "method",
                          "model", "conjecture", "identity", "formula", "loss", "score", "trick"})
#: Verbs that, after `we`, introduce what a paper proposes.
CUE_VERBS = frozenset({"propose", "proposes", "introduce", "introduces", "present", "presents"})
#: Verbs that give the thing before them a name (`an algorithm called SOFTSAT`, `a dataset named X`).
NAMING_VERBS = frozenset({"called", "named", "dubbed", "termed", "coined"})
_ADJECTIVE_SUFFIXES = ("al", "ic", "ive", "ous", "ent", "ant", "ful", "less", "able", "ible", "ary", "ed")


class Form:
    """What the rules need to know about a word that depends only on its token texts and the
    vocabulary: computed once per distinct word."""

    __slots__ = ("text", "lower", "joined", "named", "head", "is_head", "generic_head", "prefixed", "weak", "generic",
                 "stop", "modifier", "continues", "plural", "singular", "nounlike", "adjective", "capitalised",
                 "has_upper", "based", "cue", "capitals", "dataset", "eponym", "marked")

    def __init__(self, tokens: tuple[str, ...], vocab: Vocabulary) -> None:
        if len(tokens) == 1 and tokens[0].isalpha():
            word = tokens[0]
            if word.islower():
                self._plain(word, vocab)  # most words: the same facts, fewer tests
                return
            if word[0].isupper() and (word[1:].islower() or word.isupper()):
                self._capitalised(word, vocab)  # `Transformer`, then `LLM`, `GPU`: most of the rest
                return
        elif len(tokens) == 3 and tokens[1] == "-" and tokens[0].isalpha() and tokens[0].islower() \
                and tokens[2].isalpha() and tokens[2].islower():
            self._joined(tokens[0], tokens[2], vocab)  # `quantization-aware`: the commonest joined word
            return
        self._general(tokens, vocab)

    def _general(self, tokens: tuple[str, ...], vocab: Vocabulary) -> None:
        """`__init__` for any word; the short paths must set the same values for theirs."""
        self.text = text = "".join(tokens)
        self.lower = lower = text.lower()
        parts = [t for t in tokens if t not in DASHES]
        if len(tokens) == 1 and "-" in text[1:-1]:  # one token the tokenizer kept whole: `GR-2`
            parts = [part for part in text.split("-") if part] or parts
        #: made of dash-separated parts (`GP-UCB`, `GR-2`)
        self.joined = joined = len(parts) > 1
        cased = not text.islower()  # has a capital (or no letters at all)
        self.named = cased and is_named(text, parts)
        self.head = head = singular(parts[-1]).lower() if parts else ""
        self.is_head = head in vocab.heads
        self.generic_head = head in vocab.generic_heads
        singular_lower = _singular_lower(text, lower)
        self.prefixed = joined and head != singular_lower
        adverb = len(lower) > 4 and lower.endswith("ly") and "-" not in lower
        self.weak = lower in vocab.weak or adverb
        self.generic = generic = singular_lower in vocab.generic
        self.stop = stop = lower in vocab.stop_words
        alpha = lower[:1].isalpha()
        open_class = alpha and not stop and lower not in vocab.verbs and is_wordlike(tokens[0])
        #: can sit inside a term, before its head (a tagged pipeline also checks the POS tag)
        self.modifier = (open_class and len(lower) >= 2 and not adverb
                         and ("-" in lower or singular_lower == lower))
        #: can carry a noun phrase on after a head (`learning rate`), unless it starts a sentence,
        #: is a head itself or (tagged) is no noun
        self.continues = open_class and not lower.endswith("ly")
        #: an untagged `-s` word after a head: a plural noun or a verb, as the next token says
        self.plural = singular_lower != lower
        self.singular = singular(text) == text
        first_upper = text[:1].isupper()
        #: noun-like by its shape: a dash-joined or a capitalised word (else by tag or suffix)
        self.nounlike = len(tokens) > 1 or first_upper
        self.adjective = lower.endswith(_ADJECTIVE_SUFFIXES)
        #: can be part of a capitalised name (`Slow Drift`)
        self.capitalised = first_upper and tokens[0].isalpha() and not stop and not generic
        self.has_upper = cased and any(map(str.isupper, text))
        self.based = joined and parts[-1].lower() == "based"  # `X-based`
        self.cue = lower in CUE_VERBS or lower == "based" or self.based  # see `rules.cue_phrases`
        #: the offsets of its tokens with two or more capitals (`LLMs`): short forms, maybe
        self.capitals = (tuple(k for k, token in enumerate(tokens) if sum(map(str.isupper, token)) >= 2)
                         if self.has_upper else ())
        #: what makes a data set (`datasets.py`): `head` (`dataset`, `corpora`), `suffix` (`WebQA`,
        #: `MMLU-Bench`), `variant` (`ImageNet-1k`, a listed name with a dash-joined tail), else ""
        self.dataset = ("head" if singular_lower in DATASET_HEADS else
                        "suffix" if self.has_upper and _is_dataset_suffixed(text) else
                        "variant" if "-" in text and text.split("-", 1)[0] in vocab.dataset_names else "")
        #: can head a named result or tool (`Pinsker's inequality`): `context.eponyms`
        self.eponym = head in EPONYM_HEADS and not first_upper
        #: a word a rule starts from (most words are none of these)
        self.marked = (self.named or self.is_head or self.cue or self.capitalised or bool(self.capitals)
                       or bool(self.dataset) or self.eponym)


    def _plain(self, text: str, vocab: Vocabulary) -> None:
        """`__init__` for one lower-case token of letters only (no capital, dash or digit)."""
        self.text = self.lower = text
        self.head = head = singular(text)
        self.is_head = is_head = head in vocab.heads
        self.generic_head = head in vocab.generic_heads
        adverb = len(text) > 4 and text.endswith("ly")
        self.weak = text in vocab.weak or adverb
        self.generic = head in vocab.generic
        self.stop = stop = text in vocab.stop_words
        open_class = not stop and text not in vocab.verbs
        self.modifier = open_class and len(text) >= 2 and not adverb and head == text
        self.continues = open_class and not text.endswith("ly")
        self.plural = head != text
        self.singular = head == text
        self.adjective = text.endswith(_ADJECTIVE_SUFFIXES)
        self.named = self.joined = self.prefixed = self.nounlike = self.capitalised = self.has_upper = self.based = False
        self.cue = cue = text in CUE_VERBS or text == "based"
        self.capitals = ()
        self.dataset = dataset = "head" if head in DATASET_HEADS else ""
        self.eponym = eponym = head in EPONYM_HEADS
        self.marked = is_head or cue or bool(dataset) or eponym

    def _capitalised(self, text: str, vocab: Vocabulary) -> None:
        """`__init__` for one token of letters, capitalised (`Transformer`) or all capitals (`LLM`):
        no name by its shape (no digit, no dash, no `[a-z][A-Z]`), no dash."""
        self.text = text
        self.lower = lower = text.lower()
        self.head = head = singular(text).lower()
        self.is_head = is_head = head in vocab.heads
        self.generic_head = head in vocab.generic_heads
        singular_lower = _singular_lower(text, lower)
        adverb = len(lower) > 4 and lower.endswith("ly")
        self.weak = lower in vocab.weak or adverb
        self.generic = generic = singular_lower in vocab.generic
        self.stop = stop = lower in vocab.stop_words
        open_class = not stop and lower not in vocab.verbs
        self.modifier = open_class and len(lower) >= 2 and not adverb and singular_lower == lower
        self.continues = open_class and not lower.endswith("ly")
        self.plural = singular_lower != lower
        self.singular = singular(text) == text
        self.adjective = lower.endswith(_ADJECTIVE_SUFFIXES)
        self.capitalised = capitalised = not stop and not generic
        self.named = self.joined = self.prefixed = self.based = self.eponym = False
        self.nounlike = self.has_upper = True
        self.cue = cue = lower in CUE_VERBS or lower == "based"
        self.capitals = capitals = (0,) if sum(map(str.isupper, text)) >= 2 else ()
        self.dataset = dataset = ("head" if singular_lower in DATASET_HEADS else
                                  "suffix" if _is_dataset_suffixed(text) else "")
        self.marked = is_head or cue or capitalised or bool(capitals) or bool(dataset)

    def _joined(self, first: str, last: str, vocab: Vocabulary) -> None:
        """`__init__` for two lower-case tokens of letters joined by `-` (`quantization-aware`): no
        capital, no adverb, open class unless listed."""
        self.text = text = f"{first}-{last}"
        self.lower = lower = text.lower()
        self.joined = self.nounlike = True
        self.head = head = singular(last).lower()
        self.is_head = is_head = head in vocab.heads
        self.generic_head = head in vocab.generic_heads
        singular_lower = singular(lower)
        self.prefixed = head != singular_lower
        self.weak = lower in vocab.weak
        self.generic = singular_lower in vocab.generic
        self.stop = stop = lower in vocab.stop_words
        self.modifier = open_class = not stop and lower not in vocab.verbs
        self.continues = open_class and not lower.endswith("ly")
        self.plural = singular_lower != lower
        self.singular = singular(text) == text
        self.adjective = lower.endswith(_ADJECTIVE_SUFFIXES)
        self.named = self.capitalised = self.has_upper = False
        self.based = based = last.lower() == "based"
        self.cue = cue = lower in CUE_VERBS or lower == "based" or based
        self.capitals = ()
        self.dataset = dataset = ("head" if singular_lower in DATASET_HEADS else
                                  "variant" if first in vocab.dataset_names else "")
        self.eponym = eponym = head in EPONYM_HEADS
        self.marked = is_head or cue or bool(dataset) or eponym


class Forms(dict):
    """Word -> its `Form` for one vocabulary, made on first look-up: keyed by a token's text, or
    by the tuple of token texts of a dash-joined word. Starts afresh when `limit` words are held."""

    def __init__(self, vocab: Vocabulary, limit: int = 1 << 16) -> None:
        super().__init__()
        self.vocab = vocab
        self.limit = limit

    def word(self, texts: list[str]) -> Form:
        """The `Form` of the word of token texts `texts`, keyed as `rules.Words` keys it (a
        one-token word by its text), so that no word has two."""
        return self[texts[0] if len(texts) == 1 else tuple(texts)]

    def __missing__(self, key: str | tuple[str, ...]) -> Form:
        if len(self) >= self.limit:
            self.clear()
        form = self[key] = Form((key,) if isinstance(key, str) else key, self.vocab)
        return form


def _singular_lower(text: str, lower: str) -> str:
    """The singular of a word, lower-case: an all-capitals name is no plural (`DRCFS`, `QLDS`, `AIRS`;
    `singular` reads a capital `S` as part of a name), a lower-case `-s` is (`LLMs`, `Transformers`)."""
    return singular(text).lower() if text.isupper() else singular(lower)


def _is_dataset_suffixed(text: str) -> bool:
    """`WebQA`, `MMLU-Bench`, `SWE-bench`: a name ending in a benchmark suffix, with more before it."""
    if text.lower().endswith("-bench"):
        return True
    return any(text.endswith(suffix) and len(text) >= len(suffix) + 2 and text[0].isalpha()
               for suffix in _DATASET_SUFFIXES)


def is_named(text: str, parts: list[str]) -> bool:
    """A named method by its shape (`text` as written, `parts` its dash-separated tokens):
    CamelCase or internal capitals (`FlashSketch`, `AdamW`, `Meta-iLaD`), letters with digits
    (`W4A4`, `GPT-4`), a dash-joined name with a capitalised last part and an all-capitals part
    (`BlockPerm-SJLT`, `GP-UCB`, `Megatron-LM`, `Seed-GRPO`), or a `++`/`#` suffix (`PPI++`).
    Plain capitalised words and bare acronyms are not names."""
    if not parts or not parts[0][:1].isalpha() or not all(map(is_wordlike, parts)):
        return False
    if text.endswith(_DATASET_SUFFIXES):
        return False
    if text.endswith(("++", "#")) and any(map(str.isupper, text)):
        return True
    if any(_MIXED_CASE.search(p) and not _PLURAL_ACRONYM.match(p) for p in parts):
        return True
    alnum = "".join(parts)
    if any(map(str.isdigit, alnum)) and any(map(str.isupper, alnum)) and len(alnum) >= 3 \
            and any(map(str.isalpha, parts[0])) and (len(parts) > 1 or parts[0][0].isupper()):
        return True
    last = parts[-1]
    return (len(parts) > 1 and (last[:1].isupper() or last[:1].isdigit())
            and any(len(p) >= 2 and p.isupper() for p in parts))
