"""Worker processes that start with an object of the parent (a spaCy pipeline, a graph's export
steps) without pickling it: forked where the platform forks safely, else sent once per process."""
from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor

_state: object = None


def can_fork() -> bool:
    """Whether workers are forked (they then share the parent's memory as it is): where Python
    itself forks by default, not on macOS, where system libraries may crash in a forked child."""
    return "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"


def pool(workers: int, state: object) -> ProcessPoolExecutor:
    """A pool of `workers` processes in which `worker_state()` returns `state`.

    Forked, `state` is the parent's object as it was when the pool started its processes;
    otherwise it is pickled to each process once.
    """
    context = multiprocessing.get_context("fork" if can_fork() else None)
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(state,))


def worker_state() -> object:
    """The `state` of the pool this process works for."""
    return _state


def _start(state: object) -> None:
    global _state
    _state = state
