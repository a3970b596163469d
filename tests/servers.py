"""Helpers for tests that run real servers on 127.0.0.1: a free port, readiness by polling."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def oxigraph_binary() -> str:
    """The `oxigraph` server executable (the `oxigraph` PyPI package, a test dependency): a real
    Graph Store for `kg push` to upload to."""
    beside = os.path.join(os.path.dirname(sys.executable), "oxigraph")
    if os.access(beside, os.X_OK):
        return beside
    found = shutil.which("oxigraph")
    if found is None:
        raise RuntimeError("the `oxigraph` server is not installed; run `pip install oxigraph`")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_answering(url: str, process: subprocess.Popen, deadline_s: float = 15.0) -> None:
    """Poll `url` (a SPARQL query endpoint) with `ASK {}` until it answers 200 or `process` exits."""
    probe = f"{url}?{urllib.parse.urlencode({'query': 'ASK {}'})}"
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stderr.read() if process.stderr else ''}")
        try:
            with urllib.request.urlopen(probe, timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.02)  # poll interval, not synchronisation: readiness is the 200 above
    raise TimeoutError(f"{url} did not answer within {deadline_s} s")


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
