"""What Dask workers run: extraction and linking one pandas partition at a time (reading and merging
are in `kg.engine.identity`, the table rows in `kg.exports.tables`).

Every function here takes and returns plain picklable values or pandas DataFrames, so any worker
of any machine can run it; none keeps state but the per-thread spaCy pipeline (`pipeline`).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pandas as pd
from spacy.language import Language

from kg.extract import make_pipeline
from kg.extract.concepts import _reduced  # extraction's per-paper half: a Doc reduced to what linking needs
from kg.extract.linking import linked

#: Papers per `nlp.pipe` batch on a worker.
BATCH = 64

#: A distinct paper (the number of its first record, the merged Paper) and what extraction found in it.
FOUND_META = pd.DataFrame({"seq": pd.Series([], dtype="int64"), "paper": pd.Series([], dtype=object),
                           "found": pd.Series([], dtype=object)})
#: A distinct paper and its concepts of each kind (tuples of `kg.records.Method`), as
#: `kg.extract.Concepts` has them under the paper's key.
LINKED_META = pd.DataFrame({"seq": pd.Series([], dtype="int64"), "paper": pd.Series([], dtype=object),
                            "methods": pd.Series([], dtype=object), "datasets": pd.Series([], dtype=object)})

_local = threading.local()


def pipeline(model: str | None) -> Language:
    """The spaCy pipeline of this worker thread, built on its first task and kept for the next ones."""
    cache = _local.__dict__.setdefault("pipelines", {})
    if model not in cache:
        cache[model] = make_pipeline(model)
    return cache[model]


def extract_partition(frame: pd.DataFrame, model: str | None) -> pd.DataFrame:
    """Each distinct paper of a records partition (`seq`, `record`) through this worker's pipeline,
    reduced to what corpus-level linking needs (`kg.extract.concepts._Found`)."""
    papers = list(frame["record"])
    found = list(_reduced(pipeline(model), ((paper.key, paper.text) for paper in papers), BATCH))
    return pd.DataFrame({"seq": frame["seq"].to_numpy(), "paper": pd.Series(papers, dtype=object),
                         "found": pd.Series(found, dtype=object)}) if found else FOUND_META.copy()


def count_partition(frame: pd.DataFrame, count: Callable[..., Any], *tables: Any) -> Any:
    """A linking round's count (`kg.extract.linking.ROUNDS`) over the papers of a `FOUND_META`
    partition, with the tables of the rounds before."""
    return count(list(frame["found"]), *tables)


def link_partition(frame: pd.DataFrame, *tables: Any, max_concepts: int | None) -> pd.DataFrame:
    """The papers of a `FOUND_META` partition with their concepts (`LINKED_META`), the linking
    rounds' tables applied (`kg.extract.linking.linked`); rows in the partition's order."""
    found = list(frame["found"])
    if not found:
        return LINKED_META.copy()
    concepts = linked(found, *tables, max_concepts=max_concepts)
    return pd.DataFrame({"seq": frame["seq"].to_numpy(), "paper": pd.Series(list(frame["paper"]), dtype=object),
                         "methods": pd.Series([concepts.methods[f.key] for f in found], dtype=object),
                         "datasets": pd.Series([concepts.datasets[f.key] for f in found], dtype=object)})
