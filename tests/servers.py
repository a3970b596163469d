"""Helpers for tests that run real servers on 127.0.0.1: a free port, readiness by polling."""
from __future__ import annotations

import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


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
