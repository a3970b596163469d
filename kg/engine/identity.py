"""Global paper identity on the cluster: the groups of records that may be one paper, found by
shuffles on their identity keys, each group judged by the readers' own rules on one worker.

Two records can be merged, or named in one notice, only when `kg.readers.identity_keys` (content
key, id, DOI) links them, directly or through other records. Those groups are the connected
components of the graph of records and keys: every record is labelled with the smallest number of
a record of its group by min-label propagation (per round a shuffle on the key, then one on the
record) until a round changes nothing; the client sees only the count of changes. A key held by
one record links nothing and is dropped after the first shuffle, so the later rounds move only the
records that have a duplicate or a clash. The records are then shuffled on their label and each
partition merged in input order by `kg.readers.merge_numbered`: together, the papers and
problems of `kg.read`, each with the number of its record.
"""
from __future__ import annotations

import pandas as pd

from kg.engine.partitions import Partition, read_partition
from kg.readers import identity_keys, merge_numbered
from kg.records import Paper

#: A partition of records: the number of each (partition index and place in it: input order), the
#: Paper or RecordError, and whether it is a paper.
RECORDS_META = pd.DataFrame({"seq": pd.Series([], dtype="int64"), "record": pd.Series([], dtype=object),
                             "paper": pd.Series([], dtype=bool)})
#: A record's identity key (a link of the records-keys graph) with its current group label.
LINKS_META = pd.DataFrame({"seq": pd.Series([], dtype="int64"), "ident": pd.Series([], dtype=object),
                           "label": pd.Series([], dtype="int64"), "changed": pd.Series([], dtype=bool)})
LABELS_META = pd.DataFrame({"seq": pd.Series([], dtype="int64"), "label": pd.Series([], dtype="int64")})
_SHUFFLE = {"shuffle_method": "tasks"}
#: Labels (records that share a key) at most sent whole to every records partition; more are joined by a shuffle.
BROADCAST_LABELS = 1_000_000


def read_frame(part: Partition, require_authors: bool = True) -> pd.DataFrame:
    """A partition's records and problems in file order, numbered `part.index` * 2**32 + place."""
    records = list(read_partition(part, require_authors))
    return pd.DataFrame({
        "seq": pd.Series(range(part.index << 32, (part.index << 32) + len(records)), dtype="int64"),
        "record": pd.Series(records, dtype=object),
        "paper": pd.Series([isinstance(record, Paper) for record in records], dtype=bool)})


def _links(frame: pd.DataFrame) -> pd.DataFrame:
    """(seq, ident) for every identity key of every paper of a records partition."""
    rows = [(seq, ident) for seq, record, paper in zip(frame["seq"], frame["record"], frame["paper"]) if paper
            for ident in identity_keys(record)]
    links = pd.DataFrame(rows, columns=["seq", "ident"]).astype({"seq": "int64", "ident": object})
    return links.assign(label=links["seq"], changed=False)


def _shared(frame: pd.DataFrame) -> pd.DataFrame:
    """The links of keys held by more than one record (all of a key's links are in this partition),
    each labelled with the smallest record of its key."""
    shared = frame[frame.groupby("ident")["seq"].transform("nunique") > 1]
    return _relabelled(shared, "ident")


def _relabelled(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Each link labelled with the smallest label among the links of its `by` (all in this
    partition); `changed` set where that lowered it."""
    label = frame.groupby(by)["label"].transform("min")
    return frame.assign(changed=frame["changed"] | (label != frame["label"]), label=label)


def _labels(frame: pd.DataFrame) -> pd.DataFrame:
    """One (seq, label) per record of a links partition shuffled on the record."""
    return frame.groupby("seq", as_index=False)["label"].min().astype("int64")


def _merged(frame: pd.DataFrame) -> pd.DataFrame:
    """A partition of whole groups merged in input order: its distinct papers (each with the number
    of its first record) and its `Duplicate` and `SharedAbstract` notices (each with its record's)."""
    frame = frame.sort_values("seq", kind="stable")
    papers, problems = merge_numbered(zip(frame["seq"].tolist(), frame["record"]))
    rows = [(seq, paper, True) for seq, paper in papers] + [(seq, problem, False) for seq, problem in problems]
    return pd.DataFrame(rows, columns=["seq", "record", "paper"]).astype(RECORDS_META.dtypes.to_dict())


def group_labels(records: object, npartitions: int, client: object) -> tuple[object, int]:
    """(seq, label) for each paper record that shares an identity key with another: the smallest
    number of a record in its group, persisted on the workers, and how many there are. The links
    are shuffled on the key and on the record until the labels hold still; only the number of
    changed labels, and at the end of labels, comes to the client."""
    links = records.map_partitions(_links, meta=LINKS_META).shuffle("ident", npartitions=npartitions, **_SHUFFLE)
    links = client.persist(links.map_partitions(_shared, meta=LINKS_META))
    while True:
        for by in ("seq", "ident"):
            links = links.shuffle(by, npartitions=npartitions, **_SHUFFLE).map_partitions(
                _relabelled, by, meta=LINKS_META)
        links = client.persist(links)
        if not int(links["changed"].sum().compute()):
            break
        links = links.assign(changed=False)
    labels = client.persist(links.shuffle("seq", npartitions=npartitions, **_SHUFFLE).map_partitions(
        _labels, meta=LABELS_META))
    return labels, int(labels.shape[0].compute())


def merged(records: object, labels: object, count: int, npartitions: int) -> object:
    """The papers of `records` shuffled on their group (their own number when they share no key)
    and merged in input order on the workers: a records frame of the distinct papers and notices.
    `count` labels are joined to the records by sending them to every records partition when
    they are few (no shuffle of the records for that), else by a shuffle of both on the record."""
    papers = records[records["paper"]].merge(labels, on="seq", how="left",
                                             broadcast=True if count <= BROADCAST_LABELS else None)
    papers = papers.assign(label=papers["label"].fillna(papers["seq"]).astype("int64"))
    return papers.shuffle("label", npartitions=npartitions, **_SHUFFLE).map_partitions(
        _merged, meta=RECORDS_META)
