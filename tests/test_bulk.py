"""kg.bulk: the collector paused for bulk work, and the free lists emptied after it."""
from __future__ import annotations

import gc
import sys

from kg.bulk import bulk_work, release_free_lists


def test_bulk_work_pauses_the_collector_and_restores_it():
    assert gc.isenabled()
    with bulk_work():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with bulk_work():
            pass
        assert not gc.isenabled()  # restored as it was
    finally:
        gc.enable()


def test_release_free_lists_frees_blocks_and_leaves_the_collector_as_it_was():
    garbage = [(i, str(i)) for i in range(100_000)]
    del garbage  # the last tuples freed wait in the tuple free list
    before = sys.getallocatedblocks()
    release_free_lists()
    assert sys.getallocatedblocks() < before
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_objects_frozen_by_the_caller_stay_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        release_free_lists()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
