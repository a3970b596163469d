"""From marked spans to canonical concepts across a corpus: `extract()`.

Linking rules, in order, for a mention:
1. a short form defined in the same paper -> the concept of its long form there;
2. a short form defined in another paper of the corpus (the most frequent definition; ties by
   key) or in the lexicon (`long (SHORT)` lines) -> that concept; bare uses of such a short form
   are also found in papers that never define it;
3. otherwise the concept of its own normalised text (`normalize.concept_key`).

Labels are corpus-wide and deterministic: a concept with a long form is labelled by its most
frequent long form (`quantization-aware training`, not `QAT`), any other by its most frequent
surface form; surface forms are cleaned, made singular and lose a capital that only the sentence
start gave them. Ties go to the alphabetically first. `alt_labels` are the concept's other forms
anywhere in the corpus (acronyms included), one per case-insensitive spelling, sorted.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc

from kg.errors import UsageError
from kg.extract.component import SPANS_KEY, bare_short_form
from kg.extract.normalize import concept_key, display_form
from kg.extract.pipeline import COMPONENT, default_pipeline
from kg.extract.vocab import vocabulary
from kg.records import Method, MethodMention, Paper


@dataclass(frozen=True)
class _Mention:
    key: str
    form: str
    mention: MethodMention


def extract(papers: Iterable[Paper], *, nlp: Language | None = None, workers: int = 1,
            batch_size: int = 64) -> dict[str, tuple[Method, ...]]:
    """The method concepts of each paper, keyed by `Paper.key`, ordered by first mention.

    `nlp` defaults to blank English with our components (`make_pipeline()`); a given pipeline
    must contain the `kg_methods` component. `workers` > 1 uses spaCy's `n_process`.
    """
    nlp = nlp if nlp is not None else default_pipeline()
    if COMPONENT not in nlp.pipe_names:
        raise UsageError(f"the spaCy pipeline has no {COMPONENT!r} component; build it with kg.extract.make_pipeline()")
    papers = list(papers)
    docs = list(nlp.pipe((p.text for p in papers), n_process=max(1, workers), batch_size=batch_size))
    return link(papers, docs)


def link(papers: Sequence[Paper], docs: Sequence[Doc]) -> dict[str, tuple[Method, ...]]:
    """The corpus-level step of `extract()` over already processed docs (one per paper)."""
    shorts = _corpus_short_forms(docs)
    long_forms: Counter[tuple[str, str]] = Counter()
    per_paper: list[list[_Mention]] = []
    for doc in docs:
        local = {bare_short_form(short): concept_key(long) for short, long in doc._.kg_acronyms}
        for short, long in doc._.kg_acronyms:
            long_forms[(concept_key(long), display_form(long, sentence_start=False))] += 1
        per_paper.append(_mentions(doc, local, shorts))
    for short, long in vocabulary().lexicon_pairs:
        long_forms.setdefault((concept_key(long), long), 0)
    labels, alt_labels = _labels(per_paper, long_forms)
    result: dict[str, tuple[Method, ...]] = {}
    for paper, mentions in zip(papers, per_paper):
        grouped: dict[str, list[MethodMention]] = defaultdict(list)
        for m in mentions:
            grouped[m.key].append(m.mention)
        result[paper.key] = tuple(
            Method(key=key, label=labels[key], alt_labels=alt_labels[key], mentions=tuple(found))
            for key, found in grouped.items())
    return result


def _corpus_short_forms(docs: Sequence[Doc]) -> dict[str, str]:
    """Short form -> concept key, from every paper's definitions, then the lexicon's."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for doc in docs:
        for short, long in doc._.kg_acronyms:
            votes[bare_short_form(short)][concept_key(long)] += 1
    chosen = {short: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for short, c in votes.items()}
    for short, long in vocabulary().lexicon_pairs:
        chosen.setdefault(bare_short_form(short), concept_key(long))
    return chosen


def _mentions(doc: Doc, local: dict[str, str], shorts: dict[str, str]) -> list[_Mention]:
    spans = list(doc.spans[SPANS_KEY])
    covered = {i for s in spans for i in range(s.start, s.end)}
    spans += [doc[t.i:t.i + 1] for t in doc
              if t.i not in covered and bare_short_form(t.text) in shorts and sum(c.isupper() for c in t.text) >= 2]
    found = []
    for span in sorted(spans, key=lambda s: s.start):
        bare = bare_short_form(span.text)
        key = local.get(bare) or shorts.get(bare) or concept_key(span.text)
        sentence = span.sent.text if doc.has_annotation("SENT_START") else doc.text
        found.append(_Mention(key, display_form(span.text, sentence_start=span.start == span.sent.start),
                              MethodMention(span.text, span.start_char, span.end_char, sentence)))
    return found


def _labels(per_paper: Sequence[Sequence[_Mention]], long_forms: Counter[tuple[str, str]]
            ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    for mentions in per_paper:
        for m in mentions:
            forms[m.key][m.form] += 1
    longs: dict[str, Counter[str]] = defaultdict(Counter)
    for (key, form), n in long_forms.items():
        longs[key][form] += n
    labels, alts = {}, {}
    for key, counter in forms.items():
        preferred = longs.get(key) or counter
        labels[key] = _most_common(preferred)
        by_case: dict[str, Counter[str]] = defaultdict(Counter)
        for form, n in (counter + longs.get(key, Counter())).items():
            by_case[form.casefold()][form] += n
        by_case.pop(labels[key].casefold(), None)
        alts[key] = tuple(sorted(_most_common(c) for c in by_case.values()))
    return labels, alts


def _most_common(counter: Counter[str]) -> str:
    return min(counter.items(), key=lambda kv: (-kv[1], kv[0]))[0]


def keywords_records(papers: Iterable[Paper], methods: dict[str, tuple[Method, ...]]) -> list[dict]:
    """The `kg keywords --json` shape: per paper `{"id", "authors", "methods": [{"key", "label",
    "alt_labels", "mentions": [{"text", "start", "end", "sentence"}]}]}`; `id` is the record's
    own id, else its stable key; offsets index `Paper.text`."""
    return [{
        "id": paper.display_id,
        "authors": [a.name for a in paper.authors],
        "methods": [{"key": m.key, "label": m.label, "alt_labels": list(m.alt_labels),
                     "mentions": [{"text": x.text, "start": x.start, "end": x.end, "sentence": x.sentence}
                                  for x in m.mentions]}
                    for m in methods.get(paper.key, ())],
    } for paper in papers]
