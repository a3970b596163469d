"""`kg serve`: a read-only SPARQL 1.1 Protocol endpoint over an export, on localhost by default.

It runs the Oxigraph server shipped by the `oxigraph` PyPI package: the data is first loaded into a
temporary store directory (`oxigraph load`), then served with `oxigraph serve-read-only`, so
updates are impossible (the server has no update service in that mode) and queries have a timeout.
The endpoint is `http://HOST:PORT/query` (GET `?query=` or POST, results as SPARQL JSON, XML, CSV or
TSV by `Accept`); `http://HOST:PORT/` is Oxigraph's query page. Ctrl-C (or SIGTERM) stops the
server and removes the temporary store.
"""
from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from kg.errors import ArgumentError, StoreError
from kg.rdf.sparql import default_data, rdf_format

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7878
DEFAULT_TIMEOUT = 30


def oxigraph_binary() -> str:
    """The `oxigraph` executable: next to this Python (the venv's bin/), else on PATH."""
    beside = Path(sys.executable).with_name("oxigraph")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("oxigraph")
    if found is None:
        raise StoreError("the `oxigraph` server is not installed; run `pip install oxigraph`")
    return found


def is_loopback(host: str) -> bool:
    """True for `localhost` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def endpoint_url(host: str, port: int) -> str:
    """The SPARQL query endpoint URL of a server bound to host:port."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/query"


def load_location(data: str | os.PathLike[str], location: str | os.PathLike[str]) -> None:
    """Bulk-load an RDF file into an Oxigraph store directory with `oxigraph load`."""
    path = Path(data)
    rdf_format(path)  # an unknown extension fails here, with our message
    done = subprocess.run([oxigraph_binary(), "load", "--location", str(location), "--file", str(path)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise StoreError(f"{path}: oxigraph could not load it: {done.stderr.strip() or done.stdout.strip()}")


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM handler: stop like Ctrl-C, so the server child and the temporary store are cleaned up."""
    raise KeyboardInterrupt


def serve(data: str | os.PathLike[str] | None = None, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *,
          public: bool = False, timeout: int = DEFAULT_TIMEOUT, quiet: bool = False) -> int:
    """Serve `data` (default: the `kg build` export) read-only until interrupted; return the exit code.

    A host that is not loopback is refused unless `public` is set: the endpoint has no access control.

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
    path = Path(data) if data is not None else default_data()
    if not path.is_file():
        raise ArgumentError(f"{path}: no such file; run `kg build` first or pass --data FILE")
    with tempfile.TemporaryDirectory(prefix="kg-serve-") as location:
        load_location(path, location)
        bind = f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"
        command = [oxigraph_binary(), "serve-read-only", "--location", location, "--bind", bind,
                   "--timeout-s", str(timeout)]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL if quiet else None)
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            if not quiet:
                print(f"kg: serving {path} read-only at {endpoint_url(host, port)} (Ctrl-C to stop)",
                      file=sys.stderr, flush=True)
            if server.wait() != 0:
                raise StoreError(f"the oxigraph server stopped with exit status {server.returncode} "
                                 "(its message is above)")
            return 0
        except KeyboardInterrupt:
            return 0
        finally:
            signal.signal(signal.SIGTERM, previous)
            if server.poll() is None:
                server.terminate()
                server.wait()
