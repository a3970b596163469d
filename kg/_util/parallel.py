"""Worker processes that start with an object of the parent (a spaCy pipeline, a graph's export
steps) without pickling it: forked where the platform forks safely, else sent once per process.

Every worker dies with the process that started it, even when that one is killed (SIGKILL): on
Linux through `PR_SET_PDEATHSIG`, elsewhere by a thread that watches the parent's pid."""
from __future__ import annotations

import ctypes
import importlib
import multiprocessing
import os
import pickle
import signal
import subprocess
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
        return _unwrap(self._outcome)

    def _wait(self) -> tuple[bool, object]:
        try:
            outcome = self._pipe.recv()
        except EOFError:  # killed or crashed before it could answer
            outcome = None
        self._process.join()
        self._pipe.close()
        return outcome or _no_answer(self._process.exitcode)

    def __enter__(self) -> Aside[T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._process is not None and self._outcome is None:
            self._outcome = self._wait()


def _unwrap(outcome: tuple[bool, object]) -> T:
    """The result of an (ok, result-or-error) outcome, or its error raised."""
    done, value = outcome
    if not done:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


def _no_answer(exit_code: int | None) -> tuple[bool, object]:
    """The outcome of a process that ended without sending one."""
    return False, RuntimeError(f"a kg process working aside ended with exit code {exit_code} and no result")


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


class Fresh(Generic[T]):
    """`module.function(*args)` run beside the caller in a new interpreter started now (not forked),
    for libraries whose threads do not survive a fork, such as Oxigraph's RocksDB: a forked child
    of a process that has opened a store waits forever on the parent's thread pool.

    `args` are strings; `result()` returns what the function returned, or raises what it raised.
    The new process imports kg from where this one did, and dies with this one.
    """

    def __init__(self, module: str, function: str, *args: str) -> None:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        self._process = subprocess.Popen(
            [sys.executable, "-c", "from kg._util.parallel import _fresh_main; _fresh_main()",
             str(os.getpid()), module, function, *args], stdout=subprocess.PIPE, env=env)
        self._outcome: tuple[bool, object] | None = None

    def result(self) -> T:
        if self._outcome is None:
            answer, _ = self._process.communicate()
            try:
                self._outcome = pickle.loads(answer)
            except Exception:  # killed or crashed before it could answer
                self._outcome = _no_answer(self._process.returncode)
        return _unwrap(self._outcome)

    def __enter__(self) -> Fresh[T]:
        return self

    def __exit__(self, kind: object, *exc_info: object) -> None:
        """Waits for the process; kills it first when the block failed (its work is then unwanted)."""
        if self._outcome is None:
            if kind is not None:
                self._process.kill()
            self._process.communicate()


def _fresh_main() -> None:
    """In the process of `Fresh`: run the function named on the command line, write its pickled
    outcome, (True, result) or (False, error), to stdout."""
    parent, module, function, *args = sys.argv[1:]
    die_with_parent(int(parent))
    try:
        outcome: tuple[bool, object] = (True, getattr(importlib.import_module(module), function)(*args))
    except Exception as exc:  # reported to the parent, which raises it
        outcome = (False, exc)
    sys.stdout.buffer.write(pickle.dumps(outcome))
