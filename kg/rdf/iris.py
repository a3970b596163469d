"""The IRIs `kg` mints for graph nodes, and the checks on a user's base IRI and language tag.

A node's IRI is `{base_iri}{kind}/{segment}`, `segment` being the node key after `kind:`,
percent-encoded (UTF-8) except for ASCII unreserved characters and Unicode letters, digits and
marks: any name yields a valid IRI, and the mapping is reversible (`iri_node`).
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import unquote

import pyoxigraph as ox

from kg.errors import ArgumentError

#: Default base IRI of the resources `kg` mints. Set your own (`kg build --base-iri`) to publish.
DEFAULT_BASE_IRI = "https://w3id.org/kg/"

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PLAIN_SEGMENT = re.compile(r"[A-Za-z0-9\-._~]*")


def _is_iri_char(ch: str) -> bool:
    """Characters kept verbatim in an IRI segment: ASCII unreserved, non-ASCII letters/digits/marks."""
    if ch in _UNRESERVED:
        return True
    code = ord(ch)
    return code > 0x9F and unicodedata.category(ch)[0] in "LNM" and not 0xFFF0 <= (code & 0xFFFF)


def encode_segment(text: str) -> str:
    """One IRI path segment for `text`: always a valid IRI, reversed by `urllib.parse.unquote`.

    Parameters
    ----------
    text : str
        Any text (a node key after its `kind:`).

    Returns
    -------
    str
        `text` with every character that is not ASCII unreserved or a Unicode letter, digit or
        mark percent-encoded as UTF-8.

    Examples
    --------
    >>> encode_segment("zhou-xun"), encode_segment("José García"), encode_segment("a/b")
    ('zhou-xun', 'José%20García', 'a%2Fb')
    """
    if text in (".", ".."):
        return text.replace(".", "%2E")
    if _PLAIN_SEGMENT.fullmatch(text):  # the common case: a slug or hash
        return text
    return "".join(ch if _is_iri_char(ch) else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in text)


def check_base_iri(base_iri: str) -> str:
    """Check that resources can be minted under `base_iri`.

    Parameters
    ----------
    base_iri : str
        An absolute IRI ending with `/`, `#` or `:`.

    Returns
    -------
    str
        `base_iri` itself.

    Raises
    ------
    ArgumentError
        If it does not end with `/`, `#` or `:`, or is not an absolute IRI.

    Examples
    --------
    >>> check_base_iri("https://example.org/kg/")
    'https://example.org/kg/'
    >>> check_base_iri("example")
    Traceback (most recent call last):
    ...
    kg.errors.ArgumentError: base IRI 'example' must end with '/', '#' or ':' (e.g. https://w3id.org/kg/)
    """
    if not base_iri or base_iri[-1] not in "/#:":
        raise ArgumentError(f"base IRI {base_iri!r} must end with '/', '#' or ':' (e.g. {DEFAULT_BASE_IRI})")
    try:
        ox.NamedNode(base_iri + "x")
    except ValueError as exc:
        raise ArgumentError(f"base IRI {base_iri!r} is not an absolute IRI ({exc}); e.g. {DEFAULT_BASE_IRI}") from exc
    return base_iri


def check_language(language: str | None) -> str | None:
    """Return `language` if it is a valid BCP 47 language tag (None or empty: no tag), else raise ArgumentError.

    Examples
    --------
    >>> check_language("en-GB"), check_language(None)
    ('en-GB', None)
    """
    if language:
        try:
            ox.Literal("", language=language)
        except ValueError as exc:
            raise ArgumentError(f"language {language!r} is not a valid language tag ({exc}); e.g. 'en'") from exc
    return language


def node_iri(node: str, base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The IRI of a graph node key.

    Parameters
    ----------
    node : str
        A node key `kind:rest` of a kg graph.
    base_iri : str
        The base of the IRIs minted.

    Returns
    -------
    str
        `{base_iri}{kind}/{encode_segment(rest)}`.

    Examples
    --------
    >>> node_iri("author:zhou-xun")
    'https://w3id.org/kg/author/zhou-xun'
    """
    kind, sep, rest = node.partition(":")
    if not sep:
        raise ArgumentError(f"graph node key {node!r} has no `kind:` prefix")
    return f"{base_iri}{kind}/{encode_segment(rest)}"


def iri_node(iri: str, base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The graph node key of an IRI minted by `node_iri` (its inverse).

    Examples
    --------
    >>> iri_node("https://w3id.org/kg/author/Jos%C3%A9")
    'author:José'
    """
    kind, _, segment = iri[len(base_iri):].partition("/")
    return f"{kind}:{unquote(segment)}"
