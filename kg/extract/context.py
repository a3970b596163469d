"""Method rules that read a word's context rather than its shape alone.

* `coordinated`: every name-like item of a list that holds a method (`outperforms PPO, DPO, KTO
  and SimPO`: KTO too), run after the other rules, from their terms (label `LIST`);
* `context_names` (label `CONTEXT`): a bare short acronym where a method is expected (`unlike
  SAM,`, `we analyse the NNGP`, `outperforms GRPO`: `context_acronyms`), the name a method head is
  given (`a federated algorithm termed ROBIN`, `an estimator called the B-Learner`, `an algorithm
  UPSCALE`: `named_by_verb`), a name an apposition calls a method (`CRAIG, a method to select`:
  `appositive_names`);
* `emphasised`: a name set in markdown emphasis (`_latent policy search_`, `*FooNet*`), label
  `EMPHASIS`;
* `eponyms`: a named theorem, law, equation or estimator (`Pinsker's inequality`, `the Bellman
  equation`, `Kaplan-Meier estimator`), label `EPONYM`.
"""
from __future__ import annotations

from bisect import bisect_left

from kg.extract.forms import NAMING_VERBS
from kg.extract.rules import Candidate, Words

LIST, CONTEXT, EMPHASIS, EPONYM = "LIST", "CONTEXT", "EMPHASIS", "EPONYM"

#: Words before a bare acronym that say it is a method (compared lower-case).
_BEFORE = frozenset({"unlike", "than", "versus", "vs", "vs.", "via", "using", "outperforms", "outperform",
                     "outperforming", "surpasses", "surpass", "beats", "beat", "over", "like", "baselines",
                     "baseline"})
#: Verbs that, before `the`/`a`, make the acronym after them what is studied or used.
_VERBS = frozenset({"analyse", "analyze", "analyses", "analyzes", "apply", "applies", "use", "uses", "adopt",
                    "adopts", "extend", "extends", "employ", "employs", "leverage", "leverages", "train",
                    "trains", "revisit", "revisits", "generalize", "generalizes", "generalise", "generalises",
                    "improve", "improves", "combine", "combines", "replace", "replaces", "study", "studies"})
_DETERMINERS = frozenset({"the", "a", "an"})
#: Words an apposition may take before its method head (`CRAIG, a ... method`).
_MAX_APPOSITION = 6
_CONJUNCTIONS = frozenset({"and", "or"})
_EMPHASIS_MARKS = frozenset({"*", "_", "**", "__"})
_MAX_EMPHASIS = 6
_POSSESSIVE = frozenset({"'s", "’s", "'"})


def _short_acronym(words: Words, i: int) -> bool:
    """Is word `i` a bare acronym (`SAM`, `NNGP`, `KTOs`), not a generic one (`AI`, `GPU`)?"""
    form = words.forms[i]
    text = form.text
    bare = text[:-1] if text.endswith("s") else text
    return (2 <= len(bare) <= 8 and bare[:1].isalpha() and sum(map(str.isupper, bare)) >= 2
            and bare.replace("-", "").isalnum() and not form.generic and not form.stop)


def _name_like(words: Words, i: int, dashed: bool = False) -> bool:
    """An item a list of methods may hold: an acronym or a name (`KTO`, `SimPO`); a plain capitalised
    word (`Colon, Dash and Ellipsis`) is not enough; with `dashed`, a capitalised dash-joined word
    is (`Flickr-C`)."""
    form = words.forms[i]
    if form.stop or form.generic or not form.text[:1].isalnum():
        return False
    return bool(form.capitals) or form.named or (dashed and form.text[:1].isupper() and form.joined)


def context_names(words: Words, taken: set[int]) -> list[Candidate]:
    """The `CONTEXT` rule: bare acronyms where a method is expected (outside `taken`), names a
    naming verb or a method head gives, names an apposition calls a method."""
    return context_acronyms(words, taken) + named_by_verb(words) + appositive_names(words)


def context_acronyms(words: Words, taken: set[int]) -> list[Candidate]:
    """Bare acronyms after `unlike`, `than`, `outperforms`, ... or after `analyse/use/... the`."""
    found: list[Candidate] = []
    tokens = words.tokens
    for i in words.where("capitals"):
        start = words.starts[i]
        if start in taken or start == 0 or not _short_acronym(words, i):
            continue
        before = tokens.text[start - 1].lower()
        if before in _BEFORE or (before in _DETERMINERS and start >= 2 and tokens.text[start - 2].lower() in _VERBS):
            found.append((start, words.ends[i], CONTEXT))
    return found


def named_by_verb(words: Words) -> list[Candidate]:
    """The name given to a method head right after it: by a naming verb (a comma before it allowed),
    past an `as` or `the` (`a novel method named MASER:`, `an algorithm, called SOFTSAT.`, `a framework
    termed as ROBIN and`, `an estimator called the B-Learner,`), or without one when the name is in
    capitals (`a generic algorithm UPSCALE to`). The name is one word with a capital, neither stop
    word nor generic, and the phrase ends after it. A data-set head's name is a data set's (`datasets.py`)."""
    found: list[Candidate] = []
    forms = words.forms
    for head in words.where("is_head"):
        if forms[head].dataset:
            continue
        k = head + 1
        if k + 1 < len(forms) and forms[k].text == "," and forms[k + 1].text in NAMING_VERBS:
            k += 1
        named = k < len(forms) and forms[k].text in NAMING_VERBS
        if named:
            k += 1
            while k < len(forms) and forms[k].lower in ("as", "the"):
                k += 1
        if k >= len(forms) or words.starts_sentence(k):
            continue
        name, after = forms[k], forms[k + 1] if k + 1 < len(forms) else None
        if name.has_upper and not name.stop and not name.generic and name.text[:1].isalnum() \
                and (named or name.capitals) and (after is None or after.stop or not after.text[:1].isalnum()):
            found.append((words.starts[k], words.ends[k], CONTEXT))
    return found


def appositive_names(words: Words) -> list[Candidate]:
    """A name in capitals that an apposition calls a method: `we develop CRAIG, a method to select`,
    `We design POGER, a proxy-guided efficient re-sampling method`: the name, a comma, `a`/`an` and
    a method head within six words, in the same clause."""
    found: list[Candidate] = []
    forms = words.forms
    for i in words.where("capitals"):
        k = i + 3
        if k >= len(forms) or forms[i + 1].text != "," or forms[i + 2].lower not in ("a", "an") \
                or forms[i].stop or forms[i].generic or words.starts_sentence(k):
            continue
        for j in range(k, min(k + _MAX_APPOSITION, len(forms))):
            if not forms[j].text[:1].isalnum() or words.starts_sentence(j):
                break
            if forms[j].is_head and not forms[j].dataset:
                found.append((words.starts[i], words.ends[i], CONTEXT))
                break
    return found


def coordinated(words: Words, terms: list[Candidate], taken: set[int], label: str = LIST,
                dashed: bool = False) -> list[Candidate]:
    """The name-like words listed with a term (`,`/`and`/`or` between, and a `the` after them when
    the other item has one too: `the SmartWatch and the Motion Gesture datasets`, not `both
    BabelCode and the TP3 benchmark`), outside `taken`, labelled `label`; `dashed` also takes
    capitalised dash-joined words (for data sets: `COCO-C and Flickr-C`) and two or three plain
    capitalised words in the `the ... and the` pattern (`the Marsh Gesture and the FernWatch datasets`)."""
    starts_of = {end: start for start, end, _ in terms}  # the terms by their end, and by their start
    ends_of = {start: end for start, end, _ in terms}
    tokens = words.tokens
    text = tokens.text
    separators = words.separators  # a word with no separator beside it is linked to nothing

    def the_before(token: int) -> bool:
        """Whether a `the` comes right before token `token`."""
        return token >= 1 and text[token - 1].lower() == "the"

    def before(i: int) -> int:
        """The token before word `i`, past a `the` after a separator (`SmartWatch and the Motion`)."""
        k = words.starts[i] - 1
        return k - 1 if k - 1 in separators and the_before(k + 1) else k

    candidates = [i for i in words.marked if (before(i) in separators or words.ends[i] in separators)
                  and words.starts[i] not in taken and _name_like(words, i, dashed)]
    method = set()

    def word_at(token: int) -> int:
        """The index of the word starting at `token`, or -1."""
        k = bisect_left(words.starts, token)
        return k if k < len(words.starts) and words.starts[k] == token else -1

    def listed(seps: list[str], outer: int) -> bool:
        """Separators make a list when one is `and`/`or`, or when token `outer` (on the far side of
        word `i`) is a separator too: `On PTB, FlashTune also ...` is no list."""
        return not _CONJUNCTIONS.isdisjoint(map(str.lower, seps)) or outer in separators

    def linked(i: int, step: int) -> int | None:
        """The word index across list separators from word `i` (left: -1, right: +1)."""
        if step < 0:
            k = first = before(i)
            while k in separators:
                k -= 1
            if k == first or k < 0 or not listed(text[k + 1:words.starts[i]], words.ends[i]) \
                    or first < words.starts[i] - 1 and not the_before(item_start(k + 1)) and not serial(k + 1, first):
                return None
            return -(k + 1)  # a token end, marked negative: the word ending there
        k = words.ends[i]
        while k in separators:
            k += 1
        if k > words.ends[i] and k < len(tokens) and text[k].lower() == "the" \
                and (the_before(words.starts[i]) or serial(words.ends[i], k - 1)):
            k += 1  # `the SmartWatch and the Motion Gesture datasets`, `ReedCam, FernWatch, and the Marsh ...`
        if k == words.ends[i] or k >= len(tokens) or not (listed(text[words.ends[i]:k], before(i))
                                                          or conjunction_after(k)):
            return None
        return k

    def serial(start: int, end: int) -> bool:
        """Whether the separators from token `start` to `end` (included) are a comma and a
        conjunction: the last link of a list of three or more (`ReedCam, FernWatch, and the
        Marsh Gesture datasets`), where a `the` may start the last item alone."""
        seps = [token.lower() for token in text[start:end + 1]]
        return "," in seps and not _CONJUNCTIONS.isdisjoint(seps)

    def conjunction_after(start: int) -> bool:
        """Whether the item starting at token `start` is followed by an `and`/`or` (past commas): the
        first item of `ReedCam, FernWatch and Marsh Gesture datasets`."""
        k = item_end(start)
        seps = []
        while k in separators:
            seps.append(text[k].lower())
            k += 1
        return not _CONJUNCTIONS.isdisjoint(seps)

    def item_end(start: int) -> int:
        """The token after the term or word that starts at token `start`."""
        if start in ends_of:
            return ends_of[start]
        k = word_at(start)
        return words.ends[k] if k >= 0 else start

    def item_start(end: int) -> int:
        """The first token of the term or word that ends at token `end`."""
        if end in starts_of:
            return starts_of[end]
        k = bisect_left(words.ends, end)
        return words.starts[k] if k < len(words.ends) and words.ends[k] == end else end

    for order in (candidates, candidates[::-1]):
        for i in order:
            if i in method:
                continue
            for step in (-1, 1):
                j = linked(i, step)
                if j is None:
                    continue
                if step < 0:
                    end = -j
                    if end in starts_of or word_at(end - 1) in method:
                        method.add(i)
                else:
                    if j in ends_of or word_at(j) in method:
                        method.add(i)
    found = [(words.starts[i], words.ends[i], label) for i in sorted(method)]
    return sorted(found + _capitalised_items(words, terms, taken)) if dashed else found


def _capitalised_items(words: Words, terms: list[Candidate], taken: set[int]) -> list[Candidate]:
    """Two or three plain capitalised words after a `the`, listed before a term that has a `the` too:
    `the Marsh Gesture and the FernWatch datasets`; labelled as the term."""
    text = words.tokens.text
    found: list[Candidate] = []
    for start, _, label in terms:
        if start < 4 or text[start - 1].lower() != "the" or text[start - 2].lower() not in _CONJUNCTIONS:
            continue
        k = bisect_left(words.ends, start - 2)
        run: list[int] = []
        while 0 <= k < len(words.ends) and len(run) < 3 and words.ends[k] == (words.starts[run[-1]] if run else start - 2) \
                and _capitalised(words, k) and words.starts[k] not in taken:
            run.append(k)
            k -= 1
        first = words.starts[run[-1]] if run else 0
        if len(run) >= 2 and text[first - 1].lower() == "the":
            found.append((first, words.ends[run[0]], label))
    return found


def _capitalised(words: Words, i: int) -> bool:
    """Is word `i` a plain capitalised word that may be part of a name (`Marsh`, not `The`)?"""
    form = words.forms[i]
    return form.text[:1].isupper() and form.text.isalpha() and not form.stop and not form.generic and not form.weak


def emphasised(words: Words) -> list[Candidate]:
    """Runs of one to six words between markdown emphasis marks, with a capital or two words or more."""
    tokens = words.tokens
    text = tokens.text
    found: list[Candidate] = []
    marks = sorted(k for mark in _EMPHASIS_MARKS.intersection(text) for k in tokens.indices(mark))
    for a, b in zip(marks, marks[1:]):
        if text[a] != text[b] or not 1 <= b - a - 1 <= _MAX_EMPHASIS or tokens.space[a] or (b - 1 >= 0 and tokens.space[b - 1]):
            continue
        inner = text[a + 1:b]
        if not all(any(c.isalnum() for c in t) or t in "-" for t in inner):
            continue
        if tokens.sentence(a)[1] < b:
            continue
        if len([t for t in inner if t != "-"]) >= 2 or any(c.isupper() for c in inner[0]):
            found.append((a + 1, b, EMPHASIS))
    return found


def eponyms(words: Words) -> list[Candidate]:
    """A capitalised name (one to three words, maybe possessive) before an eponym head."""
    tokens = words.tokens
    found: list[Candidate] = []
    forms = words.forms
    for h in words.where("eponym"):
        j = h - 1
        if j < 0:
            continue
        if tokens.text[words.starts[j]] in _POSSESSIVE and j >= 1:
            j -= 1
        name: list[int] = []
        while j >= 0 and len(name) < 3 and forms[j].text[:1].isupper() and forms[j].text[:1].isalpha() \
                and not forms[j].stop and not forms[j].generic and not forms[j].weak:
            name.insert(0, j)
            if words.starts_sentence(j):
                break
            j -= 1
        if name:
            found.append((words.starts[name[0]], words.ends[h], EPONYM))
    return found
