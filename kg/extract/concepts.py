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

Extraction (`_reduce`: a Doc to a `_Found`) is per paper; linking is corpus-wide, in rounds that
may run on a cluster's partitions (`kg.extract.linking`, `kg.extract.labels`, `kg.extract.kinds`).
"""
from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Iterable, Iterator, Sequence, Sized
from itertools import islice
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from kg._util import parallel
from kg.errors import ArgumentError
from kg._util.progress import progress
from kg.extract.component import SPANS_KEY
from kg.extract.datasets import DATASETS_KEY
from kg.extract.labels import MAX_CONCEPTS
from kg.extract.linking import Concepts, link_corpus
from kg.extract.pipeline import COMPONENT, default_pipeline
from kg.extract.words import sentence_starts
from kg.records import Method, MethodMention, Paper, mention_to_dict


class _Use(NamedTuple):
    """A mention before linking: its first token (for ordering), whether it starts a sentence
    (for its display form) and the evidence's fields, one object per mention until linking keeps
    it (`mention`)."""
    start: int
    sentence_start: bool
    text: str
    start_char: int
    end_char: int
    sentence: str

    @property
    def mention(self) -> MethodMention:
        """The evidence as a record."""
        return MethodMention(self.text, self.start_char, self.end_char, self.sentence)


class _Found(NamedTuple):
    """One paper's extraction without its Doc: what corpus-level linking needs, and no more."""
    key: str
    acronyms: tuple[tuple[str, str], ...]  # (short form, long form): `doc._.kg_acronyms`
    uses: tuple[_Use, ...]                 # the component's spans
    capitals: tuple[_Use, ...]             # `doc._.kg_capitals`: bare short forms?
    dataset_acronyms: tuple[tuple[str, str], ...] = ()  # `doc._.kg_dataset_acronyms`
    datasets: tuple[_Use, ...] = ()        # the component's data-set spans


def extract(papers: Iterable[Paper], *, nlp: Language | None = None, workers: int = 1,
            batch_size: int = 64, quiet: bool = False, max_concepts: int | None = MAX_CONCEPTS
            ) -> dict[str, tuple[Method, ...]]:
    """The method concepts of each paper, keyed by `Paper.key`, ordered by first mention.

    The methods of `extract_concepts` (which see for the arguments), without the data sets.
    """
    return extract_concepts(papers, nlp=nlp, workers=workers, batch_size=batch_size, quiet=quiet,
                            max_concepts=max_concepts).methods


def extract_concepts(papers: Iterable[Paper], *, nlp: Language | None = None, workers: int = 1,
                     batch_size: int = 64, quiet: bool = False, max_concepts: int | None = MAX_CONCEPTS
                     ) -> Concepts:
    """The method and the data-set concepts of each paper, each keyed by `Paper.key`, ordered by
    first mention; a data set is never a method.

    `papers` may be any iterable (a generator is read once). `nlp` defaults to blank English
    with our components (`make_pipeline()`); a given pipeline must contain the `kg_methods`
    component. `workers` > 1 runs the pipeline in that many processes. Each Doc is reduced to its
    mentions and definitions as soon as it is made, so memory grows with the methods found, not
    with the text. A progress bar counts the papers done on a terminal unless `quiet`.
    """
    nlp = nlp if nlp is not None else default_pipeline()
    if COMPONENT not in nlp.pipe_names:
        raise ArgumentError(f"the spaCy pipeline has no {COMPONENT!r} component; build it with kg.extract.make_pipeline()")
    pairs = ((paper.key, paper.text) for paper in papers)
    found = _reduced(nlp, pairs, batch_size) if workers <= 1 else _reduced_in(workers, nlp, pairs, batch_size)
    total = len(papers) if isinstance(papers, Sized) else None
    return _link_both(list(progress(found, "extracting", total=total, quiet=quiet)), max_concepts)


def _link_both(found: Sequence[_Found], max_concepts: int | None = MAX_CONCEPTS) -> Concepts:
    """Methods and data sets, each linked over the corpus on its own (`linking.link_corpus`: the
    rounds of a cluster's linking over one partition)."""
    return link_corpus(found, max_concepts)


def _reduced(nlp: Language, pairs: Iterable[tuple[str, str]], batch_size: int) -> Iterator[_Found]:
    """(key, text) pairs through `nlp`, each Doc reduced as soon as it is made."""
    pending: deque[tuple[str, str]] = deque()  # read, not yet processed: nlp.pipe keeps the order

    def texts() -> Iterator[str]:
        for pair in pairs:
            pending.append(pair)
            yield pair[1]

    for doc in nlp.pipe(texts(), batch_size=batch_size):
        key, text = pending.popleft()
        yield _reduce(key, doc, text)


#: Papers a worker process takes at a time, and chunks in flight per worker.
CHUNK = 256
_IN_FLIGHT = 2


def _reduced_in(workers: int, nlp: Language, pairs: Iterable[tuple[str, str]], batch_size: int
                ) -> Iterator[_Found]:
    """`_reduced` in `workers` processes, in input order.

    Unlike spaCy's `n_process`, which sends every Doc back to the parent, a worker returns only
    the reduced records. The input is read a few chunks ahead.
    """
    with parallel.pool(workers, nlp) as workers_pool:
        chunks = iter(lambda: list(islice(pairs, CHUNK)), [])
        running = deque(workers_pool.submit(_reduce_chunk, chunk, batch_size)
                        for chunk in islice(chunks, workers * _IN_FLIGHT))
        while running:
            done = running.popleft().result()
            for chunk in islice(chunks, 1):
                running.append(workers_pool.submit(_reduce_chunk, chunk, batch_size))
            yield from done


def _reduce_chunk(chunk: list[tuple[str, str]], batch_size: int) -> list[_Found]:
    """In a worker of `_reduced_in`: its pipeline over one chunk."""
    return list(_reduced(parallel.worker_state(), chunk, batch_size))


def link(papers: Sequence[Paper], docs: Sequence[Doc]) -> dict[str, tuple[Method, ...]]:
    """The corpus-level step of `extract()` over already processed docs (one per paper)."""
    return link_concepts(papers, docs).methods


def link_concepts(papers: Sequence[Paper], docs: Sequence[Doc]) -> Concepts:
    """The corpus-level step of `extract_concepts()` over already processed docs (one per paper)."""
    return _link_both([_reduce(paper.key, doc, doc.text) for paper, doc in zip(papers, docs)])


def _reduce(key: str, doc: Doc, text: str) -> _Found:
    """The compact record of a processed doc (`text` is `doc.text`): its spans and its possible
    bare short forms."""
    starts = sentence_starts(doc)
    sentence_texts: dict[int, str] = {}  # one string per sentence, shared by its mentions

    def use(start: int, start_char: int, end_char: int) -> _Use:
        k = bisect_right(starts, start) - 1
        sentence = sentence_texts.get(k)
        if sentence is None:
            last = doc[(starts[k + 1] if k + 1 < len(starts) else len(doc)) - 1]
            sentence = sentence_texts[k] = text[doc[starts[k]].idx:last.idx + len(last)]
        return _Use(start, start == starts[k], text[start_char:end_char], start_char, end_char, sentence)

    def spans(group: Iterable[Span]) -> tuple[_Use, ...]:
        return tuple(use(span.start, span.start_char, span.end_char) for span in group)

    def token(i: int) -> _Use:
        idx = (t := doc[i]).idx
        return use(i, idx, idx + len(t))

    underscore = doc._
    return _Found(key, tuple(underscore.kg_acronyms), spans(doc.spans[SPANS_KEY]),
                  tuple(map(token, underscore.kg_capitals)), tuple(underscore.kg_dataset_acronyms),
                  spans(doc.spans[DATASETS_KEY] if DATASETS_KEY in doc.spans else ()))


def keywords_records(papers: Iterable[Paper], methods: dict[str, tuple[Method, ...]],
                     datasets: dict[str, tuple[Method, ...]] | None = None) -> list[dict]:
    """The `kg keywords --json` shape: per paper `{"id", "authors", "methods": [{"key", "label",
    "alt_labels", "mentions": [{"text", "start", "end", "sentence"}]}]}`, and with `datasets`
    a `"datasets"` list of the same shape; `id` is the record's own id, else its stable key;
    offsets index `Paper.text`."""
    def concepts(found: tuple[Method, ...]) -> list[dict]:
        return [{"key": m.key, "label": m.label, "alt_labels": list(m.alt_labels),
                 "mentions": [mention_to_dict(x) for x in m.mentions]}
                for m in found]

    records = []
    for paper in papers:
        record = {"id": paper.display_id, "authors": [a.name for a in paper.authors],
                  "methods": concepts(methods.get(paper.key, ()))}
        if datasets is not None:
            record["datasets"] = concepts(datasets.get(paper.key, ()))
        records.append(record)
    return records
