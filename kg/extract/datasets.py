"""Data sets and benchmarks, the second concept kind `kg_methods` marks (`doc.spans["datasets"]`).

Found by the same component as methods, so a data set is never also a method: a span here removes
any method candidate it overlaps. The rules (span label `DATASET`):

* the names of `datasets.txt` (as written when one cased word without a digit, else in any
  case with a capital: `Cifar-10`, `PASCAL VOC`, not `natural questions`; a name of several
  words also dash-joined: `MS-COCO`), and a dash-joined variant of a listed name
  (`ImageNet-1k`, `CIFAR-100`), not a modifier made of one (`ImageNet-based`, `MNIST-like`: a
  lower-case modifier after the dash);
* up to three name-like words (a capital or a digit) before a lower-case data-set head: `the
  UCF101 dataset` -> `UCF101`, or a name right after a singular one (`the SLU dataset MINDS-14`
  -> `MINDS-14`, not `SLU`); a capitalised name ending in a capitalised head, head included:
  `Penn Discourse Treebank`. Leading numbers are no part of a name (`15 datasets`); a name
  before a plural head must be listed with another (`the ICH and ISIC datasets`) or have a
  name's shape, not an acronym's (`Union14M`, `MD17 benchmarks`), else it names a kind of data
  (`on four FSL benchmarks`, `multiple EEG datasets`); so does an acronym alone after `a`/`an`
  (`a safety-critical POMDP benchmark`, `an NL corpus`) and one after a language or place word
  (`the Chinese CS dataset`); a capitalised adjective alone is no name (`a Multimodal
  benchmark`), nor a capitalised word the paper also writes in lower case (`an Attack dataset`
  beside `attacks`);
* names ending in a benchmark suffix: `WebQA`, `MMLU-Bench`, `SWE-bench`;
* names listed with a data set (`COCO-C and Flickr-C`; `context.coordinated`, run by the component);
* acronym definitions whose long form ends in a data-set head (`Penn Discourse Treebank (PDTB)`) or
  that a data-set head follows (`the HierArchical Leaf Vein Segmentation (HALVS) dataset`), found by
  the component with its definitions, and the later uses of their short form.

Whatever the rule, a data set's name is no number alone, no dimension (`3D`) or Roman numeral, no
mapping task (`NL-to-program`), no web address, and none of `not_methods.txt` (a recording
modality such as `EEG` or `fMRI`, an organisation, hardware, a metric, a programming language):
`is_name`. Which names are methods of the corpus, and which
methods are data sets, is decided over the corpus (`kinds`).
"""
from __future__ import annotations

import re

from spacy.language import Language
from spacy.matcher import PhraseMatcher

from kg.extract.forms import NAMING_VERBS
from kg.extract.normalize import clean_surface, concept_text, singular
from kg.extract.rules import Candidate, Words
from kg.extract.vocab import Vocabulary

DATASETS_KEY = "datasets"
DATASET = "DATASET"
_MAX_NAME_WORDS = 3
#: A dimension or a Roman numeral, not a name: `3D`, `2.5D`; `II` (of `StarCraft II`, listed alone).
_DIMENSION = re.compile(r"^(?:\d+(?:\.\d+)?[Dd]|[IVX]+)$")
#: A web address: `https://github.com/x/FooBench`, `www.foo.org`, `foo.io/data`.
_ADDRESS = re.compile(r"://|^www\.|\.[a-z]{2,4}/", re.IGNORECASE)
#: Endings of a lower-case word that makes a listed name a modifier: `ImageNet-based`, `MNIST-like`.
_MODIFIER_ENDINGS = ("ed", "like", "scale", "size", "style", "level", "type", "wise", "free", "specific", "only")
#: A count and a common noun, not a name: `57-game`, `10 tasks`.
_COUNTED = re.compile(r"^[\d.,]+[\s-]+[a-z][a-z\s-]*$")
#: Singular heads a name may follow (`the dataset MINDS-14`).
_NAMING_HEADS = frozenset({"dataset", "corpus", "database", "treebank"})
#: Tokens that list names before a plural head (`the ICH and ISIC datasets`).
_LISTING = frozenset({",", "and", "or", "/", "&"})


class DatasetFinder:
    """The data-set rules over one Doc's `Words`; see the module docstring."""

    def __init__(self, nlp: Language, vocab: Vocabulary, exact: PhraseMatcher, lower: PhraseMatcher) -> None:
        """Adds the listed names to the component's matchers (`exact`: ORTH, `lower`: LOWER), under
        the match id `DATASET`, so a Doc is matched once for both kinds. A name with a digit or of
        several words is matched in any case (`Cifar-10`, `PASCAL VOC`), a cased word without a
        digit as written (`Atari`, not `atari`)."""
        def any_case(name: str) -> bool:
            return name == name.lower() or " " in name or any(map(str.isdigit, name))

        cased = sorted({d for d in vocab.datasets if not any_case(d)})
        plain = sorted({d for d in vocab.datasets if any_case(d)})
        self.lower_names = frozenset(_spellings(sorted({d for d in vocab.datasets if d == d.lower()})))
        if cased:
            exact.add(DATASET, [nlp.make_doc(d) for d in _spellings(cased)])
        if plain:
            lower.add(DATASET, [nlp.make_doc(d) for d in _spellings(plain)])

    def __call__(self, matched: list[Candidate], words: Words) -> list[Candidate]:
        """The doc's data-set candidates (overlapping; the component resolves them); `matched` are
        the matchers' `DATASET` matches."""
        found = []
        modifiers: set[int] = set()  # the tokens of `ImageNet-based`: no `ImageNet` in them
        forms = words.forms
        for i in words.where("dataset"):
            kind = forms[i].dataset
            if kind == "head":
                span = _named_after(words, i) or _named_before(words, i)
                if span is not None:
                    found.append(span)
            elif kind == "suffix" or not _modifier_tail(forms[i].text):  # the word itself
                found.append((words.starts[i], words.ends[i], DATASET))
            else:
                modifiers.update(range(words.starts[i], words.ends[i]))
        span_text, vocab = words.tokens.span_text, words.vocab
        found += (c for c in matched if c[0] not in modifiers and self._as_listed(span_text(c[0], c[1])))
        return [c for c in found if is_name(span_text(c[0], c[1]), vocab)]

    def _as_listed(self, text: str) -> bool:
        """A match written as a listed name may be: with a capital or a digit, unless listed in lower
        case (`natural questions` is no `Natural Questions`)."""
        return text != text.lower() or any(map(str.isdigit, text)) or text in self.lower_names


def _spellings(names: list[str]) -> list[str]:
    """The names, and those of several words also dash-joined: `MS COCO`, `MS-COCO`."""
    return names + [name.replace(" ", "-") for name in names if " " in name]


def is_name(text: str, vocab: Vocabulary) -> bool:
    """Whether a data-set mention can be a name: not one character (`dataset D`), a number alone
    (`15`), a count of things (`57-game`), a dimension (`3D`), a Roman numeral (`II`), a mapping
    task (`NL-to-program`, `text-to-SQL`), a web
    address, or a term of `not_methods.txt` (a modality such as `EEG`, an organisation, hardware,
    a metric), alone or after a dash (`DCE-MRI`), or a listed name made a modifier
    (`ImageNet-based`)."""
    text = clean_surface(text)
    return (any(map(str.isalpha, text)) and sum(map(str.isalnum, text)) >= 2 and "-to-" not in text
            and not _DIMENSION.match(text) and not _COUNTED.match(text)
            and not is_address(text) and concept_text(text) not in vocab.not_methods
            and not _not_name_tail(text, vocab)
            and not (text.split("-", 1)[0] in vocab.dataset_names and _modifier_tail(text)))


def _not_name_tail(text: str, vocab: Vocabulary) -> bool:
    """`DCE-MRI`: a name whose cased last dash-joined part is a term of `not_methods.txt` (lower-case
    parts are no such names: `OGB-arxiv` is a data set)."""
    _, dash, tail = text.rpartition("-")
    return bool(dash) and tail != tail.lower() and concept_text(tail) in vocab.not_methods


def is_address(text: str) -> bool:
    """Whether `text` holds a web address (`https://github.com/x/y`, `www.x.org`): no name of a
    data set or a method."""
    return _ADDRESS.search(text) is not None


def _modifier_tail(text: str) -> bool:
    """`ImageNet-based`, `MNIST-like`, `ImageNet-scale`: a listed name made a modifier by a
    lower-case word after its dash, not a variant of it (`ImageNet-1k`, `COCO-C`, `OGB-arxiv`)."""
    tail = text.rsplit("-", 1)[-1]
    return tail.isalpha() and tail.islower() and tail.endswith(_MODIFIER_ENDINGS)


def _named_before(words: Words, head: int) -> Candidate | None:
    """The name before a data-set head: `the UCF101 dataset` -> `UCF101`, `Penn Discourse Treebank`
    (a capitalised head is part of the name), or None when no name-like word precedes it."""
    forms = words.forms
    capital_head = forms[head].text[:1].isupper()
    j = head - 1
    name: list[int] = []
    while j >= 0 and len(name) < _MAX_NAME_WORDS and not words.starts_sentence(j + 1) and _name_like(forms[j]):
        name.insert(0, j)
        j -= 1
    while name and not any(map(str.isalpha, forms[name[0]].text)):  # `15 datasets`, `128 UCR datasets`
        name.pop(0)
    if not name or (len(name) == 1 and forms[name[0]].capitalised and forms[name[0]].text[1:].islower()
                    and (forms[name[0]].adjective or _written_lower(words, forms[name[0]].text))):
        return None  # `a Multimodal benchmark`, `an Attack dataset` (the paper's `attacks`): no name
    if len(name) == 2 and forms[name[0]].text in words.vocab.not_name_words and _acronym(forms[name[1]].text) \
            and not capital_head:
        return None  # `the first Chinese CS dataset`: a kind of data in a language or of a place
    last = head
    while last + 1 < len(words) and forms[last + 1].dataset == "head":  # `GZSL benchmark datasets`
        last += 1
    if forms[last].plural and not capital_head and not _listed_before(words, name[0]) \
            and not any(_versioned(forms[k]) for k in name):
        return None  # `four FSL benchmarks`, `I2I benchmarks`: a kind of data
    if not capital_head and len(name) == 1 and _acronym(forms[name[0]].text) and _indefinite_before(words, name[0]):
        return None  # `a safety-critical POMDP benchmark`, `an NL corpus`: a kind of data
    if capital_head:
        return words.starts[name[0]], words.ends[head], DATASET
    if len(name) == 1 and words.starts_sentence(name[0]) and not forms[name[0]].capitals \
            and not any(map(str.isdigit, forms[name[0]].text)):
        return None  # `Benchmark dataset ...`: a sentence start, not a name
    return words.starts[name[0]], words.ends[name[-1]], DATASET


def _named_after(words: Words, head: int) -> Candidate | None:
    """The name right after a lower-case singular head, which makes the words before it a kind of
    data: `the multilingual SLU dataset MINDS-14` -> `MINDS-14`, or after a naming verb that
    follows any head: `an Attack dataset, called UniAttackData`, `a benchmark named FooBench`;
    else None. Not right after `benchmark`, also a verb and a modifier (`we benchmark CST`,
    `benchmark ODE systems`), nor before a word that goes on the phrase."""
    k = head + 1
    if k + 1 < len(words) and words.forms[k].text == "," and words.forms[k + 1].text in NAMING_VERBS:
        k += 1
    named = k < len(words) and words.forms[k].text in NAMING_VERBS
    k += named
    if k >= len(words) or words.starts_sentence(k) or not named and words.forms[head].text not in _NAMING_HEADS:
        return None
    form, after = words.forms[k], words.forms[k + 1] if k + 1 < len(words) else None
    # `dataset X produces`: X a verb's subject; `dataset CondEnsation (DC)`: a term being defined
    ends_phrase = after is None or after.stop or not after.text[:1].isalnum() and after.text != "("
    return (words.starts[k], words.ends[k], DATASET) if _name_like(form) and form.has_upper and ends_phrase else None


def _written_lower(words: Words, text: str) -> bool:
    """Whether the doc also writes the capitalised word `text` in lower case, in either number
    (`Attack` and `attacks`): a common noun, not a name."""
    tokens = words.tokens
    lower = text.lower()
    return any(tokens.text[i] == tokens.lower[i] for form in {lower, singular(lower), lower + "s"}
               for i in tokens.indices(form, lower=True))


def _acronym(text: str) -> bool:
    """Capitals (and `_`, `-`) only, no digit: `POMDP`, `QF_BV`; not `SRBCTs`, `MD17`."""
    return text.isupper() and not any(map(str.isdigit, text))


def _indefinite_before(words: Words, first: int) -> bool:
    """Whether `a`/`an` comes before word `first`, past lower-case words only (`a standard WS`)."""
    lower = words.tokens.lower
    k = words.starts[first] - 1
    for _ in range(_MAX_NAME_WORDS + 1):
        if k < 0 or not lower[k].isalpha() and "-" not in lower[k]:
            return False
        if lower[k] in ("a", "an"):
            return True
        if words.tokens.text[k] != lower[k]:
            return False
        k -= 1
    return False


def _versioned(form) -> bool:
    """A name's shape before a plural head: lower-case letters among capitals or digits
    (`Union14M`), or a final number (`MD17`, `QM9`); not an acronym alone (`FSL`, `I2I`)."""
    return form.named and (form.text != form.text.upper() or form.text[-1].isdigit())


def _listed_before(words: Words, first: int) -> bool:
    """Whether the name starting at word `first` follows a list separator (`and`, `,`, `/`), past a
    `the`: `the SmartWatch and the Motion Gesture datasets`."""
    text = words.tokens.text
    k = words.starts[first] - 1
    if k >= 0 and text[k].lower() == "the":
        k -= 1
    return k >= 0 and text[k].lower() in _LISTING


def _name_like(form) -> bool:
    return not form.stop and form.text[:1].isalnum() and (form.has_upper or any(map(str.isdigit, form.text))) \
        and not form.generic and not form.weak
