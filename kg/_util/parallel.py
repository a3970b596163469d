"""Worker processes that start with an object of the parent (a spaCy pipeline, a graph's export
steps) without pickling it: forked where the platform forks safely, else sent once per process.

Every worker dies with the process that started it, even when that one is killed (SIGKILL): on
Linux through `PR_SET_PDEATHSIG`, elsewhere by a thread that watches the parent's pid."""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
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
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_start, initargs=(state, os.getpid()))


def worker_state() -> object:
    """The `state` of the pool this process works for."""
    return _state


def _start(state: object, parent: int) -> None:
    global _state
    die_with_parent(parent)
    _state = state


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """End this process when `parent` (the pid that started it) ends, however it ends.

    Linux delivers SIGKILL on the parent's death (`PR_SET_PDEATHSIG`); elsewhere a daemon thread
    polls the parent pid. A parent already gone before the request ends this process at once.
    """
    prctl = getattr(ctypes.CDLL(None, use_errno=True), "prctl", None) if sys.platform == "linux" else None
    if prctl is None or prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="kg-parent-watch").start()
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGKILL)


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
            self._process = context.Process(target=_run_aside, args=(work, sending, os.getpid()), name="kg-aside")
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


def _run_aside(work: Callable[[], object], sending: Connection, parent: int) -> None:
    """In the forked process of `Aside`: run `work`, send back (True, result) or (False, error)."""
    die_with_parent(parent)
    try:
        outcome: tuple[bool, object] = (True, work())
    except BaseException as exc:  # reported to the parent, which raises it
        outcome = (False, exc)
    try:
        sending.send(outcome)
    except Exception as exc:  # an outcome that cannot be pickled
        sending.send((False, RuntimeError(f"{outcome[1]!r} (could not be sent back: {exc})")))
