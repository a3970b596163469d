"""`kg serve`: a read-only SPARQL 1.1 Protocol endpoint over a build's store or an RDF file.

`http://HOST:PORT/query` takes GET `?query=` or POST (a form with `query`, or an
`application/sparql-query` body) and answers SPARQL JSON, XML, CSV or TSV (CONSTRUCT: N-Triples,
Turtle, RDF/XML, JSON-LD) by `Accept`. There is no update service: updates are refused with 403.

Each query runs in a worker process (`kg.rdf.worker`) that opens the store read-only. The server
waits for the worker's whole, serialised answer until the deadline (`timeout` seconds): a query
past it is stopped by killing its worker (a fresh one takes its place) and answered with
`503 Service Unavailable` and a short JSON body. A client therefore gets a complete result or an
error, never a 200 with a cut body: the length of an answer is known before its first byte is sent.
Workers read their requests from a pipe and exit when it closes, so they end with the server.
"""
from __future__ import annotations

import contextlib
import ipaddress
import json
import os
import queue
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pyoxigraph as ox

from kg.errors import ArgumentError, InputError, StoreError
from kg.rdf.store import is_store, rdf_format, resolve_data

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7878
DEFAULT_TIMEOUT = 30
DEFAULT_WORKERS = 2
#: The largest POST body accepted (a query, not data).
MAX_BODY = 1 << 20


def is_loopback(host: str) -> bool:
    """True for `localhost` and loopback addresses (127.0.0.0/8, ::1).

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def endpoint_url(host: str, port: int) -> str:
    """The SPARQL query endpoint URL of a server bound to host:port.

    Examples
    --------
    >>> endpoint_url("::1", 80)
    'http://[::1]:80/query'
    """
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/query"


def _error(status: int, message: str) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps({"status": status, "error": message}).encode() + b"\n"


class _Worker:
    """A `kg.rdf.worker` process with the store open, and its pipes."""

    def __init__(self, location: str) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                             os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen([sys.executable, "-m", "kg.rdf.worker", location], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env, start_new_session=True)
        self._buffer = b""
        if json.loads(self._read_line(time.monotonic() + 60) or b"{}").get("ready") is not True:
            self.kill()
            raise StoreError(f"{location}: a query worker could not open the store")

    def _read(self, deadline: float) -> bytes:
        """The next bytes from the worker, or b"" at the deadline or when it exited."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(max(0.0, deadline - time.monotonic())):
                return b""
        return os.read(self.process.stdout.fileno(), 1 << 20)

    def _read_line(self, deadline: float) -> bytes | None:
        while b"\n" not in self._buffer:
            chunk = self._read(deadline)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def ask(self, query: str, accept: str, deadline: float) -> tuple[int, str, bytes] | None:
        """The worker's whole answer, or None if it did not come by the deadline (or the worker died)."""
        self.process.stdin.write(json.dumps({"query": query, "accept": accept}).encode() + b"\n")
        self.process.stdin.flush()
        header = self._read_line(deadline)
        if header is None:
            return None
        head = json.loads(header)
        while len(self._buffer) < head["length"]:
            chunk = self._read(deadline)
            if not chunk:
                return None
            self._buffer += chunk
        body, self._buffer = self._buffer[:head["length"]], self._buffer[head["length"]:]
        return head["status"], head["type"], body

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()


class QueryPool:
    """Worker processes over one store; `run` answers a query within a deadline or kills its worker."""

    def __init__(self, location: str | os.PathLike[str], workers: int = DEFAULT_WORKERS) -> None:
        self.location = str(location)
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        for _ in range(workers):
            self._add()

    def _add(self) -> None:
        worker = _Worker(self.location)
        with self._lock:
            self._all.add(worker)
        self._idle.put(worker)

    def run(self, query: str, accept: str, timeout: float) -> tuple[int, str, bytes]:
        """(status, media type, body): the whole answer, 503 past `timeout` seconds, or 500 if the worker died."""
        deadline = time.monotonic() + timeout
        try:
            worker = self._idle.get(timeout=timeout)
        except queue.Empty:
            return _error(503, f"every query worker stayed busy for {timeout:g} s; try again later")
        try:
            answer = worker.ask(query, accept, deadline)
        except (OSError, ValueError, KeyError):
            answer = None
        if answer is not None:
            self._idle.put(worker)
            return answer
        timed_out = worker.process.poll() is None
        worker.kill()
        with self._lock:
            self._all.discard(worker)
        threading.Thread(target=self._add, daemon=True).start()  # the answer goes out while it starts
        if timed_out:
            return _error(503, f"the query did not finish within the timeout of {timeout:g} s and was stopped")
        return _error(500, "the query worker stopped unexpectedly (out of memory?)")

    def close(self) -> None:
        with self._lock:
            workers, self._all = list(self._all), set()
        for worker in workers:
            worker.kill()


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "kg-serve"
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        if url.path == "/":
            return self._send(200, "text/plain; charset=utf-8",
                              b"kg: read-only SPARQL endpoint at /query (GET ?query= or POST)\n")
        if url.path != "/query":
            return self._send(*_error(404, f"no service at {url.path}; the query endpoint is /query"))
        queries = parse_qs(url.query).get("query")
        if not queries:
            return self._send(*_error(400, "missing the query parameter: /query?query=SELECT ..."))
        self._query(queries[0])

    def do_POST(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._send(*_error(413, f"request body over {MAX_BODY} bytes"))
        body = self.rfile.read(length).decode("utf-8", "replace")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        form = parse_qs(body) if kind == "application/x-www-form-urlencoded" else {}
        if url.path != "/query" or kind == "application/sparql-update" or "update" in form:
            return self._send(*_error(403, "this endpoint is read-only: no updates, no graph store"))
        if kind == "application/sparql-query":
            return self._query(body)
        if "query" not in form:
            return self._send(*_error(400, "POST a form with `query`, or an application/sparql-query body"))
        self._query(form["query"][0])

    def _query(self, text: str) -> None:
        self._send(*self.server.pool.run(text, self.headers.get("Accept") or "", self.server.timeout_s))

    def _send(self, status: int, media: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's name)
        if not self.server.quiet:
            super().log_message(format, *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], pool: QueryPool, timeout_s: float, quiet: bool) -> None:
        import socket

        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.pool, self.timeout_s, self.quiet = pool, timeout_s, quiet
        super().__init__(address, _Handler)


@contextlib.contextmanager
def _location(path: Path) -> Iterator[str]:
    """A store folder holding `path`: itself if it is one, else a temporary store loaded from the file."""
    if is_store(path):
        yield str(path)
        return
    fmt = rdf_format(path)
    with tempfile.TemporaryDirectory(prefix="kg-serve-") as folder:
        store = ox.Store(folder)
        try:
            store.bulk_load(path=str(path), format=fmt)
        except SyntaxError as exc:
            raise InputError(f"{path}: {exc}") from None
        store.flush()
        del store  # closed, so that the workers open it read-only
        yield folder


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM handler: stop like Ctrl-C, so the workers and any temporary store are cleaned up."""
    raise KeyboardInterrupt


def serve(data: str | os.PathLike[str] | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
          public: bool = False, timeout: float = DEFAULT_TIMEOUT, workers: int = DEFAULT_WORKERS,
          quiet: bool = False) -> int:
    """Serve `data` read-only until interrupted (Ctrl-C or SIGTERM); return the exit code.

    Parameters
    ----------
    data : str or path, optional
        A build folder (default `exports/`), a store folder, or an RDF file (loaded into a temporary store).
    host, port : str, int
        Where to listen. A host that is not loopback is refused unless `public` is set: the
        endpoint has no access control.
    timeout : float
        Seconds a query may run; past them it is stopped and answered 503.
    workers : int
        Queries answered at once (one process each).
    quiet : bool
        No startup line and no request log.

    Returns
    -------
    int
        0 once stopped.

    Examples
    --------
    >>> serve("graph.nt", host="0.0.0.0")
    Traceback (most recent call last):
    ...
    kg.errors.ArgumentError: refusing to serve on 0.0.0.0: not a loopback address; pass --public ...
    """
    if not is_loopback(host) and not public:
        raise ArgumentError(f"refusing to serve on {host}: not a loopback address; pass --public to expose the "
                            "endpoint to the network (it has no access control)")
    if not 0 < port < 65536:
        raise ArgumentError(f"port {port} is out of range (1-65535)")
    if timeout <= 0:
        raise ArgumentError("--timeout must be a positive number of seconds")
    if workers < 1:
        raise ArgumentError("workers must be at least 1")
    if data is not None and not os.path.exists(data):
        raise ArgumentError(f"{data}: no such file or folder; run `kg build` first or pass --data DIR|FILE")
    path = resolve_data(data)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with _location(path) as location:
            pool = QueryPool(location, workers)
            try:
                server = _Server((host.strip("[]"), port), pool, timeout, quiet)
            except OSError as exc:
                pool.close()
                raise StoreError(f"cannot listen on {host}:{port} ({exc.strerror})") from None
            try:
                if not quiet:
                    print(f"kg: serving {path} read-only at {endpoint_url(host, port)} (Ctrl-C to stop)",
                          file=sys.stderr, flush=True)
                server.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                server.server_close()
                pool.close()
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0
