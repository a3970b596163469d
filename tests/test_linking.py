"""Linking in rounds (`kg.extract.linking`): any split of the corpus into partitions, taken in any
order, gives what linking the whole list gives; on a real LocalCluster too (`kg.engine.linking`)."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from kg import read
from kg.extract.concepts import _link_both, _reduced
from kg.extract.linking import ROUNDS, Concepts, link_parts, merged, run_rounds

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
IJCAI = SHARED / "ijcai2024.jsonl"


def _found(nlp, papers):
    return list(_reduced(nlp, ((p.key, p.text) for p in papers), 64))


@pytest.fixture(scope="module")
def sample(nlp):
    papers = read().papers
    return papers, _found(nlp, papers)


@pytest.fixture(scope="module")
def ijcai(nlp):
    if not IJCAI.exists():
        pytest.skip("shared IJCAI data not present")
    papers = read(IJCAI).papers
    return papers, _found(nlp, papers)


def _chunks(found: list, n: int, seed: int) -> list[list]:
    """`found` cut at random places into `n` uneven chunks, in a shuffled order."""
    rnd = random.Random(seed)
    cuts = sorted(rnd.sample(range(1, len(found)), n - 1))
    chunks = [found[i:j] for i, j in zip([0, *cuts], [*cuts, len(found)])]
    rnd.shuffle(chunks)
    return chunks


def _joined(parts: list[Concepts]) -> Concepts:
    methods, datasets = {}, {}
    for part in parts:
        methods.update(part.methods)
        datasets.update(part.datasets)
    return Concepts(methods, datasets)


def _tables(parts: list[list]) -> tuple:
    return run_rounds(lambda count, tables: merged(count(part, *tables) for part in parts))


def _same(parts: list[Concepts], whole: Concepts, found: list) -> None:
    joined = _joined(parts)
    assert joined == whole  # every paper's concepts: keys, labels, alt labels, mentions, order, selection
    assert list(whole.methods) == [f.key for f in found]
    assert [list(part.methods) for part in parts] == [list(part.datasets) for part in parts]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_split_corpus_links_as_the_whole(ijcai, seed):
    _, found = ijcai
    chunks = _chunks(found, 7, seed)
    assert _tables(chunks) == _tables([found])  # every round's decisions, from summed counts
    salient, every = (_link_both(found, limit) for limit in (10, None))
    _same(link_parts(chunks, 10), salient, found)
    _same(link_parts(chunks, None), every, found)
    assert sum(map(len, every.methods.values())) > sum(map(len, salient.methods.values())) > 5000
    assert sum(map(len, every.datasets.values())) > 100


def test_the_sample_split_paper_by_paper(sample):
    _, found = sample
    parts = [[f] for f in reversed(found)] + [[]]  # one paper a partition, and an empty one
    _same(link_parts(parts), _link_both(found), found)
    assert link_parts([]) == []


def test_merged_sums_counts_and_leaves_them_as_they_were():
    one = ROUNDS[0].count([])._replace(method_shorts={"QAT"}, as_method=Counter(a=1))
    two = one._replace(method_shorts={"LLM"}, as_method=Counter(a=2, b=1))
    nested = [{"k": {"x": 1}}, {"k": {"x": 2, "y": 1}, "j": {"x": 1}}]
    total = merged([one, two])
    assert total.method_shorts == {"QAT", "LLM"} and total.as_method == Counter(a=3, b=1)
    assert isinstance(total.as_method, Counter) and one.method_shorts == {"QAT"} and one.as_method == Counter(a=1)
    assert merged(nested) == {"k": {"x": 3, "y": 1}, "j": {"x": 1}} and nested[0] == {"k": {"x": 1}}


def test_tables_hold_no_paper(ijcai):
    _, found = ijcai
    kinds_table, names, labels = _tables([found])
    keys = {f.key for f in found}
    for table in (labels.methods, labels.datasets):
        assert not keys & set(table.labels) and all(table.alt_labels.values())
        assert all(key != to for key, to in table.fold.items())
    assert not labels.methods.fold and labels.datasets.fold  # folds are the data sets' only


def test_link_frame_on_a_local_cluster(ijcai):
    pytest.importorskip("distributed")
    import dask
    import dask.dataframe as dd
    import pandas as pd
    from distributed import Client, LocalCluster

    from kg.engine.dask import _CONFIG
    from kg.engine.linking import link_frame
    from kg.engine.tasks import FOUND_META, LINKED_META

    papers, found = ijcai
    papers, found = papers[:300], found[:300]
    frame = pd.DataFrame({"seq": pd.Series(range(len(found)), dtype="int64"),
                          "paper": pd.Series(papers, dtype=object), "found": pd.Series(found, dtype=object)})
    with dask.config.set(_CONFIG), LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                                host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        frames = dd.concat([dd.from_pandas(frame.iloc[::-1], npartitions=4, sort=False),
                            dd.from_pandas(FOUND_META.copy(), npartitions=1, sort=False)])  # the last one empty
        linked = link_frame(client, frames)
        assert linked.npartitions == frames.npartitions == 5
        parts = [part.compute() for part in linked.partitions]
        given = [part.compute() for part in frames.partitions]
    assert [list(part["seq"]) for part in parts] == [list(part["seq"]) for part in given]
    assert all(list(part.dtypes) == list(LINKED_META.dtypes) for part in parts) and parts[-1].empty
    rows = pd.concat(parts)
    keys = [paper.key for paper in rows["paper"]]
    whole = _link_both(found)
    assert Concepts(dict(zip(keys, rows["methods"])), dict(zip(keys, rows["datasets"]))) == \
        Concepts({k: whole.methods[k] for k in keys}, {k: whole.datasets[k] for k in keys})
