"""What Dask workers run, one pandas partition at a time: reading, the dedupe folds, extraction and
the rows of the big tables (authorship, mentions, co-author and method pairs).

Every function here takes and returns plain picklable values or pandas DataFrames, so any worker
of any machine can run it; none keeps state but the per-thread spaCy pipeline (`pipeline`).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from itertools import combinations

import pandas as pd
from spacy.language import Language

from kg.engine.partitions import Partition, read_partition
from kg.errors import RecordError
from kg.graph.build import author_node, method_node, paper_node
from kg.extract import make_pipeline
from kg.extract.component import bare_short_form
from kg.extract.concepts import _mentions, _reduced  # extraction's per-paper half
from kg.extract.normalize import concept_key
from kg.readers.dedupe import Duplicate, merge
from kg.records import Paper

#: A record's position: partition index times this, plus its index in the partition.
SPAN = 1 << 32
#: Papers per `nlp.pipe` batch on a worker.
BATCH = 64

READ_META = pd.DataFrame({"pos": pd.Series([], dtype="int64"), "key": pd.Series([], dtype=object),
                          "id": pd.Series([], dtype=object), "paper": pd.Series([], dtype=object)})
GROUP_META = pd.DataFrame({"pos": pd.Series([], dtype="int64"), "key": pd.Series([], dtype=object),
                           "id": pd.Series([], dtype=object), "members": pd.Series([], dtype=object)})
PAPER_META = pd.DataFrame({"pos": pd.Series([], dtype="int64"), "key": pd.Series([], dtype=object),
                           "paper": pd.Series([], dtype=object), "found": pd.Series([], dtype=object),
                           "notices": pd.Series([], dtype=object)})

_local = threading.local()


def pipeline(model: str | None) -> Language:
    """The spaCy pipeline of this worker thread, built on its first task and kept for the next ones."""
    cache = _local.__dict__.setdefault("pipelines", {})
    if model not in cache:
        cache[model] = make_pipeline(model)
    return cache[model]


# ---------------------------------------------------------------------------------- reading
def read(part: Partition, require_authors: bool = True) -> tuple[pd.DataFrame, list[tuple[int, str, int, str]]]:
    """A partition's papers (position, key, id, Paper) and its problems as (position, file, line,
    message): a RecordError does not survive pickling, its fields do (`problem` makes it again)."""
    rows: list[tuple[int, str, str | None, Paper]] = []
    problems: list[tuple[int, str, int, str]] = []
    for index, item in enumerate(read_partition(part, require_authors)):
        pos = part.index * SPAN + index
        if isinstance(item, RecordError):
            problems.append((pos, item.file, item.line, item.message))
        else:
            rows.append((pos, item.key, item.id, item))
    frame = pd.DataFrame(rows, columns=list(READ_META.columns)) if rows else READ_META.copy()
    return frame.astype({"pos": "int64"}), problems


# ---------------------------------------------------------------------------------- dedupe
def group_by_key(frame: pd.DataFrame) -> pd.DataFrame:
    """After the shuffle on `key`: one row per key with its records, earliest first. The row's `id`
    is the one the merged paper will carry (the earliest record's that has one)."""
    rows = []
    for key, group in frame.sort_values("pos").groupby("key", sort=False):
        members = list(zip(group["pos"], group["paper"]))
        ident = next((p.id for _, p in members if p.id is not None), None)
        rows.append((members[0][0], key, ident, members))
    return pd.DataFrame(rows, columns=list(GROUP_META.columns)) if rows else GROUP_META.copy()


def group_by_id(frame: pd.DataFrame) -> pd.DataFrame:
    """After the shuffle on `id`: the key groups that share an id become one group, earliest first."""
    rows = []
    for ident, group in frame.sort_values("pos").groupby("id", sort=False):
        members = sorted((m for ms in group["members"] for m in ms), key=lambda m: m[0])
        rows.append((members[0][0], group["key"].iloc[0], ident, members))
    return pd.DataFrame(rows, columns=list(GROUP_META.columns)) if rows else GROUP_META.copy()


def problem(item: tuple) -> RecordError:
    """The RecordError, or `Duplicate` notice, a worker sent as a tuple (see `read`, `_fold`)."""
    return RecordError(*item[1:]) if len(item) == 4 else Duplicate(*item[1:])


def _fold(members: list[tuple[int, Paper]]) -> tuple[Paper, list[tuple]]:
    """The records of one paper merged in input order, as `kg.readers.reading` merges them, and the
    `Duplicate` notice of each later record at its position, as (position, its arguments)."""
    first = members[0][1]
    merged, keys, notices = first, {first.key}, []
    for pos, other in members[1:]:
        reason = "same content" if other.key in keys else f"same id {other.id}"
        keys.add(other.key)
        merged, gained = merge(merged, other)
        action = f"merged, taking its {', '.join(gained)}" if gained else "merged (it adds nothing)"
        notices.append((pos, other.source, first.source, reason, action))
    return merged, notices


# ---------------------------------------------------------------------------------- extraction
def merge_and_extract(frame: pd.DataFrame, model: str | None) -> pd.DataFrame:
    """Each group merged into its paper, then the paper through this worker's pipeline, reduced to
    what corpus-level linking needs (`kg.extract.concepts._Found`)."""
    folded = [(pos, *_fold(members)) for pos, members in zip(frame["pos"], frame["members"])]
    pairs = [(paper.key, paper.text) for _, paper, _ in folded]
    found = list(_reduced(pipeline(model), pairs, BATCH))
    rows = [(pos, paper.key, paper, f, notices) for (pos, paper, notices), f in zip(folded, found)]
    return pd.DataFrame(rows, columns=list(PAPER_META.columns)) if rows else PAPER_META.copy()


# ---------------------------------------------------------------------------------- table rows
def acronym_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """(bare short form, long form's concept key) per acronym definition: the votes of linking."""
    rows = [(bare_short_form(short), concept_key(long)) for found in frame["found"] for short, long in found.acronyms]
    return pd.DataFrame(rows, columns=["short", "concept"], dtype=object)


def authorship_rows(frame: pd.DataFrame, aliases: object | None) -> pd.DataFrame:
    """(paper, position, author, name as written) per signature, aliases applied and an author
    listed twice on one paper kept at the first position, as `kg.graph.build_graph` does."""
    rows = []
    for paper in frame["paper"]:
        seen: set[str] = set()
        for author in paper.authors:
            key = aliases.resolve(paper, author)[0] if aliases is not None else author.key
            if key not in seen:
                seen.add(key)
                rows.append((paper_node(paper), len(seen), author_node(key), author.name))
    return pd.DataFrame(rows, columns=["paper", "position", "author", "name"]).astype(
        {"paper": "string", "position": "int64", "author": "string", "name": "string"})


def mention_rows(frame: pd.DataFrame, shorts: dict[str, str]) -> pd.DataFrame:
    """(paper, method concept key, mentions) per paper and concept, linked with the corpus's short forms."""
    rows = []
    for found in frame["found"]:
        local = {bare_short_form(short): concept_key(long) for short, long in found.acronyms}
        counts: dict[str, int] = {}
        for mention in _mentions(found, local, shorts):
            counts[mention.key] = counts.get(mention.key, 0) + 1
        rows += [(f"paper:{found.key}", method_node(key), n) for key, n in counts.items()]
    return pd.DataFrame(rows, columns=["paper", "method", "mentions"]).astype(
        {"paper": "string", "method": "string", "mentions": "int64"})


def pair_rows(frame: pd.DataFrame, member: str) -> pd.DataFrame:
    """(source, target, paper, fractional weight) for each pair of `member`s on one paper
    (source < target; a paper with n members gives each pair 1/(n-1))."""
    rows = []
    for paper, group in frame.groupby("paper", sort=False)[member]:
        names = sorted(set(group))
        rows += [(u, v, paper, 1.0 / (len(names) - 1)) for u, v in combinations(names, 2)]
    return pd.DataFrame(rows, columns=["source", "target", "paper", "fractional"]).astype(
        {"source": "string", "target": "string", "paper": "string", "fractional": "float64"})


def pair_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per pair (sorted): papers shared (`count`), fractional weight, the papers (sorted, `; `-joined)."""
    columns = {"source": "string", "target": "string", "count": "int64", "fractional": "float64", "papers": "string"}
    if frame.empty:
        return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns.items()})
    grouped = frame.groupby(["source", "target"], sort=True)
    table = pd.DataFrame({"count": grouped["paper"].size(), "fractional": grouped["fractional"].sum(),
                          "papers": grouped["paper"].agg(lambda papers: "; ".join(sorted(papers)))})
    return table.reset_index().astype(columns)


def chosen_short_forms(votes: Iterable[tuple[str, str, int]], lexicon_pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Short form -> concept key: the most voted definition in the corpus (ties by key), then the
    lexicon's, as `kg.extract` links them."""
    best: dict[str, tuple[int, str]] = {}
    for short, concept, n in votes:
        if short not in best or (-n, concept) < (-best[short][0], best[short][1]):
            best[short] = (n, concept)
    chosen = {short: concept for short, (_, concept) in best.items()}
    for short, long in lexicon_pairs:
        chosen.setdefault(bare_short_form(short), concept_key(long))
    return chosen
