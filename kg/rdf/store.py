"""The Oxigraph stores queries run on: the on-disk store a build keeps, or an RDF file loaded in memory.

`kg build` bulk-loads its `graph.nt` into `graph.oxigraph/` (`write_store`), so that `kg query`
and `kg serve` open it read-only in milliseconds instead of parsing the export on every call.
`--data` may name a build folder (the default, `exports/`), a store folder, or an RDF file.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import ArgumentError, InputError, StoreError

#: The store's folder name inside a build folder.
STORE_NAME = "graph.oxigraph"
#: `--data` when none is given: the folder `kg build` writes.
DEFAULT_DATA = Path("exports")
#: The RDF files of a build folder, in the order they are preferred when it has no store.
BUILD_FILES = ("graph.nt", "graph.ttl")


def is_store(path: str | os.PathLike[str]) -> bool:
    """True if `path` is an Oxigraph (RocksDB) store folder."""
    return Path(path).is_dir() and (Path(path) / "CURRENT").is_file()


def resolve_data(data: str | os.PathLike[str] | None = None) -> Path:
    """The store folder or RDF file that `data` names.

    Parameters
    ----------
    data : str or path, optional
        A build folder (its `graph.oxigraph/` store, else its `graph.nt` or `graph.ttl`), a store
        folder, or an RDF file; None = `exports/`.

    Returns
    -------
    Path
        A store folder (`is_store`) or an RDF file.

    Raises
    ------
    InputError
        If there is nothing to query there, saying what to run.

    Examples
    --------
    >>> resolve_data("no/such/folder")
    Traceback (most recent call last):
    ...
    kg.errors.InputError: no/such/folder: no such file or folder; pass a build folder, a store or an RDF file
    """
    path = Path(data) if data is not None else DEFAULT_DATA
    if path.is_dir():
        if is_store(path):
            return path
        if is_store(path / STORE_NAME):
            return path / STORE_NAME
        for name in BUILD_FILES:
            if (path / name).is_file():
                return path / name
        raise InputError(f"{path}: no {STORE_NAME} store and no {' or '.join(BUILD_FILES)} in this folder; "
                         f"run `kg build -o {path}` first")
    if path.is_file():
        return path
    if data is None:
        raise InputError(f"no data: {DEFAULT_DATA}/ not found; run `kg build` first or pass --data DIR|FILE")
    raise InputError(f"{path}: no such file or folder; pass a build folder, a store or an RDF file")


def default_data() -> Path:
    """The data `kg query`/`serve` use without --data: `resolve_data(None)`."""
    return resolve_data(None)


def rdf_file(data: str | os.PathLike[str] | None = None) -> Path:
    """An RDF file for `data` (as `resolve_data`; a store gives the `graph.nt` beside it), for uploads."""
    path = resolve_data(data)
    if is_store(path):
        for name in BUILD_FILES:
            if (path.parent / name).is_file():
                return path.parent / name
        raise InputError(f"{path}: a store, with no {' or '.join(BUILD_FILES)} beside it; pass --data FILE")
    return path


def rdf_format(path: Path) -> ox.RdfFormat:
    """The RDF format of a file, by extension (.nt, .ttl, .jsonld, .nq, .trig, .rdf, ...)."""
    fmt = ox.RdfFormat.from_extension(path.suffix.lstrip(".") or "-")
    if fmt is None:
        raise InputError(f"{path}: unknown RDF format; use .nt, .ttl, .jsonld, .nq, .trig or .rdf")
    return fmt


def write_store(nt_path: str | os.PathLike[str], store_dir: str | os.PathLike[str]) -> Path:
    """Bulk-load an N-Triples file into a new on-disk Oxigraph store at `store_dir`.

    The store is made in a hidden folder beside `store_dir` and renamed over it when complete, so
    `store_dir` holds either the old store or the whole new one.

    Parameters
    ----------
    nt_path : str or path
        The N-Triples file (`graph.nt` of a build).
    store_dir : str or path
        The store's folder (`graph.oxigraph` in a build folder); replaced if it exists.

    Returns
    -------
    Path
        `store_dir`.

    Examples
    --------
    >>> import tempfile, networkx as nx
    >>> from kg.rdf import iter_ntriples, write_ntriples
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_ntriples(G, folder / "graph.nt")
    >>> store = write_store(folder / "graph.nt", folder / STORE_NAME)
    >>> is_store(store), len(ox.Store.read_only(str(store))) == len(list(iter_ntriples(G)))
    (True, True)
    """
    target = Path(store_dir)
    staging = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        store = ox.Store(str(staging))
        store.bulk_load(path=str(nt_path), format=ox.RdfFormat.N_TRIPLES)
        store.flush()
        del store  # closes the database: every file is written before the rename
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    except SyntaxError as exc:
        raise InputError(f"{nt_path}: {exc}") from None
    except OSError as exc:
        raise StoreError(f"{target}: cannot write the store ({exc})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def open_store(path: str | os.PathLike[str]) -> ox.Store:
    """The store at a store folder, opened read-only (several processes may open it at once).

    Parameters
    ----------
    path : str or path
        A store folder (`write_store`).

    Returns
    -------
    pyoxigraph.Store

    Examples
    --------
    >>> open_store("no/such/store")
    Traceback (most recent call last):
    ...
    kg.errors.StoreError: no/such/store: cannot open the store read-only (...); rebuild it with `kg build`
    """
    try:
        return ox.Store.read_only(str(path))
    except OSError as exc:
        raise StoreError(f"{path}: cannot open the store read-only ({exc}); rebuild it with `kg build`") from None


def load_store(source: Any = None) -> ox.Store:
    """The Oxigraph store holding `source`.

    Parameters
    ----------
    source : path, rdflib.Graph, networkx.DiGraph or pyoxigraph.Store, optional
        What `resolve_data` takes (a build folder, None = `exports/`, a store folder: opened
        read-only; an RDF file: loaded in memory), an rdflib Graph, a kg graph, or a store
        (returned as is).

    Returns
    -------
    pyoxigraph.Store

    Examples
    --------
    >>> import networkx as nx
    >>> from kg.rdf import iter_ntriples
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> len(load_store(G)) == len(list(iter_ntriples(G)))
    True
    """
    if isinstance(source, ox.Store):
        return source
    if source is None or isinstance(source, (str, os.PathLike)):
        return _path_store(resolve_data(source))
    import networkx as nx  # the graph libraries only for graph sources: `kg query` starts without them
    import rdflib

    from kg.rdf.ntriples import iter_ntriples

    if isinstance(source, rdflib.Graph):
        store = ox.Store()
        store.load(source.serialize(format="nt", encoding="utf-8"), ox.RdfFormat.N_TRIPLES)
        return store
    if isinstance(source, nx.Graph):
        store = ox.Store()
        store.load("".join(iter_ntriples(source)), ox.RdfFormat.N_TRIPLES)
        return store
    raise ArgumentError(f"cannot query a {type(source).__name__}: give a path, a store, an rdflib Graph or a kg graph")


def _path_store(path: Path) -> ox.Store:
    """The store at `path`: a store folder opened read-only, or an RDF file loaded in memory."""
    if is_store(path):
        return open_store(path)
    store = ox.Store()
    try:
        store.bulk_load(path=str(path), format=rdf_format(path))
    except SyntaxError as exc:
        raise InputError(f"{path}: {exc}") from None
    return store
