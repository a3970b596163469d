"""Named SPARQL queries, parameter binding and the local Oxigraph store behind `kg query`.

`query()` evaluates on Oxigraph (pyoxigraph), far faster than rdflib's own engine (figures in
benchmarks/README.md, from benchmarks/sparql_stores.py); query text is given our prefixes
(`kg:`, `schema:`, `skos:`, ...) so ad-hoc queries may omit PREFIX lines.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pyoxigraph as ox

from kg.errors import QueryError
from kg.rdf.named import (PARAM_TYPES, QUERIES_DIR, NamedQuery, Param, get_named_query, named_queries,
                          parse_named_query, queries_markdown_table, resolve_query)
from kg.rdf.results import FORMATS, QueryResult, format_result, python_value, to_result
from kg.rdf.store import DEFAULT_DATA, default_data, load_store, rdf_format
from kg.rdf.vocab import PREFIXES

__all__ = ["DEFAULT_DATA", "FORMATS", "PARAM_TYPES", "QUERIES_DIR", "NamedQuery", "Param", "QueryResult",
           "default_data", "format_result", "get_named_query", "load_store", "named_queries", "parse_named_query",
           "python_value", "queries_markdown_table", "query", "rdf_format", "resolve_query"]

_ERROR_AT = re.compile(r"^(?:error|Parser error) at (?:line )?(\d+)[:, ](?:between columns |column )?(\d+)")


def _query_error(exc: Exception, q: NamedQuery) -> QueryError:
    """A QueryError naming the file (or query) and the line:column of the problem."""
    message = " ".join(str(exc).split())
    message = message if len(message) <= 200 else message[:199] + "…"
    where = str(q.path) if q.path else q.name
    match = _ERROR_AT.match(message)
    if match:
        rest = message[match.end():].lstrip(" :,")
        return QueryError(f"{where}:{match[1]}:{match[2]}: {rest}")
    return QueryError(f"{where}: {message}")


def query(q: str | NamedQuery, data: Any = None, params: Mapping[str, object] | None = None) -> QueryResult:
    """Run a query on `data`.

    `params` are bound by substitution: for a named query they are checked against its header and
    typed by it (defaults fill the rest); for ad-hoc text each value becomes a literal (int, float,
    bool, str) or is used as given if it is already a pyoxigraph term.

    Parameters
    ----------
    q : str or NamedQuery
        A named query's name, a `.rq` path, or SPARQL text (our prefixes are predefined).
    data : optional
        What `load_store` takes: an RDF file (None = the default export), a graph or a store.
    params : mapping, optional
        Parameter values by name.

    Returns
    -------
    QueryResult
        The columns and rows, as Python values.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.DiGraph()
    >>> G.add_node("area:vision", kind="area", label="Vision")
    >>> query("SELECT ?label WHERE { ?a a kg:Area ; skos:prefLabel ?label }", data=G).rows
    [('Vision',)]
    >>> query("SELECT ?x WHERE { }", data=G, params={"x": 3}).rows
    [(3,)]
    """
    named = resolve_query(q)
    if named.params or named.path is not None:
        substitutions = named.bindings(params)
    else:
        substitutions = {ox.Variable(k): Param(k, _param_type(v)).term(v) for k, v in (params or {}).items()}
    store = load_store(data)
    try:
        return to_result(store.query(named.text, prefixes=PREFIXES, substitutions=substitutions or None))
    except (SyntaxError, RuntimeError, OSError, ValueError) as exc:
        raise _query_error(exc, named) from None


def _param_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return "decimal" if isinstance(value, float) else "string"
