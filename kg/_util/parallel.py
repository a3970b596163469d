"""Worker processes that start with an object of the parent (a spaCy pipeline, a graph's export
steps) without pickling it: forked where the platform forks safely, else sent once per process."""
from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from typing import Generic, TypeVar

T = TypeVar("T")

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


class Aside(Generic[T]):
    """`work()` run beside the caller: in a process forked now (`fork=True`; only where
    `can_fork()`), else here, when `result()` first asks for it.

    `result()` returns what `work` returned, or raises what it raised. Leaving the `with` waits for
    a forked process, so a failing caller never leaves one writing behind it. A plain process and
    a pipe, no pool: a pool's threads would be alive in the parent at its next fork.
    """

    def __init__(self, work: Callable[[], T], *, fork: bool = True) -> None:
        self._work = work
        self._outcome: tuple[bool, object] | None = None
        self._process = None
        if fork:
            context = multiprocessing.get_context("fork")
            self._pipe, sending = context.Pipe(duplex=False)
            self._process = context.Process(target=_run_aside, args=(work, sending), name="kg-aside")
            self._process.start()
            sending.close()

    def result(self) -> T:
        if self._outcome is None:
            self._outcome = (True, self._work()) if self._process is None else self._wait()
        done, value = self._outcome
        if not done:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def _wait(self) -> tuple[bool, object]:
        try:
            outcome = self._pipe.recv()
        except EOFError:  # killed or crashed before it could answer
            outcome = None
        self._process.join()
        self._pipe.close()
        return outcome or (False, RuntimeError(
            f"a kg process working aside ended with exit code {self._process.exitcode} and no result"))

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._process is not None and self._outcome is None:
            self._outcome = self._wait()


def _run_aside(work: Callable[[], object], sending: Connection) -> None:
    """In the forked process of `Aside`: run `work`, send back (True, result) or (False, error)."""
    try:
        outcome: tuple[bool, object] = (True, work())
    except BaseException as exc:  # reported to the parent, which raises it
        outcome = (False, exc)
    try:
        sending.send(outcome)
    except Exception as exc:  # an outcome that cannot be pickled
        sending.send((False, RuntimeError(f"{outcome[1]!r} (could not be sent back: {exc})")))
