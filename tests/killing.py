"""Kill a Dask worker (SIGKILL) while it runs a given kind of task, for the fault tests of the engine."""
from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable


def killed_while(client: object, task: str, run: Callable[[], object], timeout: float = 300) -> object:
    """Run `run()` in a thread, SIGKILL the first worker seen running a task whose key holds `task`,
    and return what `run()` returned, once the worker is known gone (its nanny starts another)."""
    pids = client.run(os.getpid)
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["result"] = run()
        except BaseException as exc:  # re-raised below
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    victim = None
    deadline = time.monotonic() + 120
    while victim is None and thread.is_alive() and time.monotonic() < deadline:
        busy = [worker for worker, keys in client.processing().items() if any(task in str(key) for key in keys)]
        victim = min(busy, default=None)
        time.sleep(0.005)
    assert victim is not None, f"no {task} task was seen running"
    os.kill(pids[victim], signal.SIGKILL)
    thread.join(timeout)
    assert not thread.is_alive()
    if "error" in outcome:
        raise outcome["error"]
    assert victim not in client.scheduler_info()["workers"]  # it died; the nanny started another
    return outcome["result"]
