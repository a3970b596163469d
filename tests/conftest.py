"""Fixtures several test modules share."""
from __future__ import annotations

import pytest

from kg.extract import make_pipeline


@pytest.fixture(scope="session")
def nlp():
    """kg's default pipeline: blank English with the sentencizer and the method component."""
    return make_pipeline()


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded Dask worker processes on 127.0.0.1 and a client, shared by the tests of a
    module: (LocalCluster, Client)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local, distributed.Client(local) as client:
        yield local, client
