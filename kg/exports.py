"""Exports of the same graph for other tools: GraphML, GEXF (Gephi) and VOSviewer JSON maps.

GraphML and GEXF hold only scalar attributes, so lists and dicts (author spellings, alt labels,
mention evidence, edge paper lists) are written as JSON strings and None is never written.
Both are streamed: one pass over the graph finds the attribute declarations, a second writes node
after node and edge after edge to the file, so memory does not grow with the document (NetworkX's
writers build the whole element tree: ~11 GB at 100k papers). The files are those NetworkX's
writers made (layout, key numbering, types; `nx.read_graphml` / `nx.read_gexf` read them back):
ASCII, other characters as character references. Characters XML 1.0 cannot hold (control
characters but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) are written as U+FFFD, and a CR
in GraphML text as `&#13;`, where NetworkX wrote files that do not parse or lost the CR.
Output is byte-for-byte deterministic: the graph's own order, no timestamps.

The VOSviewer JSON follows the format VOSviewer Online documents
(https://app.vosviewer.com/docs/file-types/json-file-type/): `network.items` with integer `id`,
`label`, `description`, `cluster` (1..1000), `weights`; `network.links` with `source_id`,
`target_id`, `strength`; `network.clusters`; and a `config` with the terminology and the
clustering resolution. Positions (`x`, `y`) are left out: VOSviewer computes its own layout.
"""
from __future__ import annotations

import html
import itertools
import json
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

import networkx as nx

from kg.analysis import communities
from kg.io import atomic_open, atomic_write, json_text

#: VOSviewer accepts cluster numbers 1..1000; items of smaller communities beyond that get none.
VOSVIEWER_MAX_CLUSTER = 1000
#: GEXF reads these node attributes as structure (node id, parent, time); ours are renamed.
_GEXF_RESERVED = {"id": "record_id", "pid": "record_pid", "start": "record_start", "end": "record_end"}
#: GEXF attribute titles of our attribute names: the reserved ones, and `key` as NetworkX writes it.
_GEXF_TITLES = {**_GEXF_RESERVED, "key": "networkx_key"}
#: Edge attributes written as attributes of `<edge>` itself, as NetworkX does (Gephi's edge weight).
_GEXF_EDGE_FIELDS = ("label", "weight", "type")
#: How GEXF spells the float values Python writes as `inf`, `-inf`, `nan`.
_GEXF_FLOATS = {"inf": "INF", "-inf": "-INF", "nan": "NaN"}
#: The GraphML key type and GEXF attribute type of each Python type (lists and dicts go as strings).
_XML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string"}
#: Characters XML 1.0 cannot hold: C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF.
_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_GRAPHML_ROOT = ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                 'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                 'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
_GEXF_ROOT = ('<gexf xmlns="http://www.gexf.net/1.2draft" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
              'xsi:schemaLocation="http://www.gexf.net/1.2draft http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">\n'
              f'  <meta>\n    <creator>NetworkX {nx.__version__}</creator>\n  </meta>\n')


def _scalar(value: object) -> object:
    """A GraphML/GEXF-storable value: lists and dicts become JSON strings (sorted keys)."""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def _xml_type(name: object, value: object) -> str:
    """The GraphML/GEXF type `value` is written as; a TypeError naming the attribute if neither holds it."""
    kind = str if isinstance(value, (list, tuple, dict)) else type(value)
    try:
        return _XML_TYPES[kind]
    except KeyError:
        raise TypeError(f"attribute {name!r}: GraphML and GEXF cannot hold a {kind.__name__} ({value!r})") from None


def _xml_text(text: str) -> str:
    """`text` as XML character data: `&`, `<`, `>` escaped, CR as a reference (a raw one reads back
    as LF), characters XML 1.0 cannot hold as U+FFFD."""
    if not text.isprintable():  # printable text has no control characters, surrogates or non-characters
        text = _XML_INVALID.sub("\ufffd", text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    return text


def _xml_attr(text: str) -> str:
    """`text` as a double-quoted XML attribute value: as character data, and `"`, LF and tab as
    references (a parser reads raw ones as spaces)."""
    text = _xml_text(text)
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "\n" in text:
        text = text.replace("\n", "&#10;")
    if "\t" in text:
        text = text.replace("\t", "&#09;")
    return text


def _element(pad: str, tag: str, attributes: str, body: str) -> str:
    """One element on its own lines, indented by `pad`, laid out as ElementTree pretty-prints it
    (NetworkX's layout): `<tag attributes />` when `body` is empty."""
    if not body:
        return f"{pad}<{tag}{attributes} />\n"
    return f"{pad}<{tag}{attributes}>\n{body}{pad}</{tag}>\n"


def _write_element(out: IO[str], pad: str, tag: str, attributes: str, children: Iterable[str]) -> None:
    """Write an element whose children (non-empty strings) come one by one, never all in memory."""
    children = iter(children)
    first = next(children, None)
    if first is None:
        out.write(_element(pad, tag, attributes, ""))
        return
    out.write(f"{pad}<{tag}{attributes}>\n{first}")
    for child in children:
        out.write(child)
    out.write(f"{pad}</{tag}>\n")


def _xml_file(path: str | os.PathLike[str]):
    """The atomic output file of an XML export: ASCII, other characters as character references."""
    return atomic_open(path, encoding="ascii", errors="xmlcharrefreplace")


def _edge_attrs(G: nx.Graph) -> Iterator[dict]:
    """The attribute dicts of `G`'s edges, in edge order."""
    return (attrs for *_, attrs in G.edges(data=True))


# ------------------------------------------------------------------------------------ GraphML
def _graphml_keys(G: nx.Graph) -> dict[tuple[object, str, str], str]:
    """The key id of each (attribute name, type, scope) in `G`: d0, d1, ... in order of first use
    (graph, nodes, edges), as NetworkX numbers them. A name with values of two types gets two keys."""
    keys: dict[tuple[object, str, str], str] = {}
    for scope, records in (("graph", [G.graph]), ("node", G.nodes.values()), ("edge", _edge_attrs(G))):
        for attrs in records:
            for name, value in attrs.items():
                if value is not None:
                    key = (name, _xml_type(name, value), scope)
                    if key not in keys:
                        keys[key] = f"d{len(keys)}"
    return keys


def _graphml_data(attrs: dict, scope: str, keys: dict[tuple[object, str, str], str], pad: str) -> str:
    """The `<data>` lines of one graph, node or edge (None values left out)."""
    lines = []
    for name, value in attrs.items():
        if value is not None:
            key = keys[name, _xml_type(name, value), scope]
            text = _xml_text(str(_scalar(value)))
            lines.append(f'{pad}<data key="{key}">{text}</data>\n' if text else f'{pad}<data key="{key}" />\n')
    return "".join(lines)


def write_graphml(G: nx.Graph, path: str | os.PathLike[str]) -> Path:
    """Write `G` as GraphML (attribute names kept as they are in the graph), streamed to the file."""
    keys = _graphml_keys(G)
    nodes = (_element("    ", "node", f' id="{_xml_attr(str(node))}"', _graphml_data(attrs, "node", keys, "      "))
             for node, attrs in G.nodes(data=True))
    edges = (_element("    ", "edge", f' source="{_xml_attr(str(u))}" target="{_xml_attr(str(v))}"',
                      _graphml_data(attrs, "edge", keys, "      "))
             for u, v, attrs in G.edges(data=True))
    with _xml_file(path) as out:
        out.write(_GRAPHML_ROOT)
        for (name, kind, scope), key in reversed(keys.items()):  # NetworkX inserts each new key first
            out.write(f'  <key id="{key}" for="{scope}" attr.name="{_xml_attr(str(name))}" attr.type="{kind}" />\n')
        graph_data = _graphml_data(G.graph, "graph", keys, "    ")  # NetworkX writes it after the edges
        _write_element(out, "  ", "graph", f' edgedefault="{"directed" if G.is_directed() else "undirected"}"',
                       filter(None, itertools.chain(nodes, edges, [graph_data])))
        out.write("</graphml>\n")
    return Path(path)


# --------------------------------------------------------------------------------------- GEXF
def _gexf_type(types: set[str]) -> str:
    """One GEXF type for an attribute: its values' type, `double` for ints and floats mixed, else
    `string` (NetworkX takes the first value's type, and its reader then fails on the others)."""
    if len(types) == 1:
        return next(iter(types))
    return "double" if types <= {"long", "double"} else "string"


def _gexf_attributes(G: nx.Graph) -> dict[str, dict[str, tuple[str, str]]]:
    """The declared attributes, per class (`node`, `edge`): title -> (id, type). Ids 0, 1, ... in
    order of first use, nodes before edges, as NetworkX numbers them."""
    types: dict[str, defaultdict[str, set[str]]] = {"node": defaultdict(set), "edge": defaultdict(set)}
    for cls, records, fields in (("node", G.nodes.values(), ("label",)), ("edge", _edge_attrs(G), _GEXF_EDGE_FIELDS)):
        for attrs in records:
            for name, value in attrs.items():
                if value is not None and name not in fields:
                    types[cls][_GEXF_TITLES.get(name, name)].add(_xml_type(name, value))
    ids = itertools.count()
    return {cls: {title: (str(next(ids)), _gexf_type(kinds)) for title, kinds in titles.items()}
            for cls, titles in types.items()}


def _gexf_value(value: object) -> str:
    """A scalar as GEXF writes it: `true`/`false`, and `INF`, `-INF`, `NaN` for those floats."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return _GEXF_FLOATS.get(text, text) if isinstance(value, float) else text


def _gexf_attvalues(attrs: dict, declared: dict[str, tuple[str, str]], fields: tuple[str, ...]) -> str:
    """The `<attvalues>` of one node or edge, "" if it has none (None values and `fields` left out)."""
    values = "".join(f'          <attvalue for="{declared[_GEXF_TITLES.get(name, name)][0]}" '
                     f'value="{_xml_attr(_gexf_value(_scalar(value)))}" />\n'
                     for name, value in attrs.items() if value is not None and name not in fields)
    return _element("        ", "attvalues", "", values) if values else ""


def _gexf_node(node: object, attrs: dict, declared: dict[str, tuple[str, str]]) -> str:
    """One `<node>`: the node key as its id, its `label` attribute (else the key) as its label."""
    label = attrs.get("label")
    label = str(node) if label is None else str(_scalar(label))
    return _element("      ", "node", f' id="{_xml_attr(str(node))}" label="{_xml_attr(label)}"',
                    _gexf_attvalues(attrs, declared, ("label",)))


def _gexf_edge(edge_id: int, u: object, v: object, attrs: dict, declared: dict[str, tuple[str, str]]) -> str:
    """One `<edge>`, numbered `edge_id` (0, 1, ... in edge order, as NetworkX numbers them)."""
    fields = "".join(f' {field}="{_xml_attr(str(_scalar(attrs[field])))}"'
                     for field in _GEXF_EDGE_FIELDS if attrs.get(field) is not None)
    return _element("      ", "edge", f' source="{_xml_attr(str(u))}" target="{_xml_attr(str(v))}" id="{edge_id}"{fields}',
                    _gexf_attvalues(attrs, declared, _GEXF_EDGE_FIELDS))


def write_gexf(G: nx.Graph, path: str | os.PathLike[str]) -> Path:
    """Write `G` as GEXF 1.2 for Gephi, streamed to the file. A node's `label` is its GEXF label, an
    edge's `label`, `weight` and `type` are attributes of `<edge>`; the attributes GEXF reserves
    (`id`, `pid`, `start`, `end`) are written as `record_id`, ... so node ids stay the keys."""
    declared = _gexf_attributes(G)
    name = G.graph.get("name")
    name = "" if name is None else str(_scalar(name))
    with _xml_file(path) as out:
        out.write(_GEXF_ROOT)
        out.write(f'  <graph defaultedgetype="{"directed" if G.is_directed() else "undirected"}" mode="static" '
                  f'name="{_xml_attr(name)}">\n')
        for cls in ("edge", "node"):  # NetworkX inserts each class's block first: edges come out before nodes
            if declared[cls]:
                lines = "".join(f'      <attribute id="{i}" title="{_xml_attr(str(title))}" type="{kind}" />\n'
                                for title, (i, kind) in declared[cls].items())
                out.write(_element("    ", "attributes", f' mode="static" class="{cls}"', lines))
        _write_element(out, "    ", "nodes", "", (_gexf_node(n, attrs, declared["node"]) for n, attrs in G.nodes(data=True)))
        _write_element(out, "    ", "edges", "", (_gexf_edge(i, u, v, attrs, declared["edge"])
                                                  for i, (u, v, attrs) in enumerate(G.edges(data=True))))
        out.write("  </graph>\n</gexf>\n\n")  # NetworkX's pretty printer ends the root with a newline too
    return Path(path)


# ---------------------------------------------------------------------------------- VOSviewer
_TERMS = {
    "coauthor": {"item": "author", "items": "authors", "link": "co-authorship link",
                 "links": "co-authorship links", "cluster": "cluster", "clusters": "clusters"},
    "topic": {"item": "method", "items": "methods", "link": "co-occurrence link",
              "links": "co-occurrence links", "cluster": "cluster", "clusters": "clusters"},
}
_OCCURRENCE = {"coauthor": "Documents", "topic": "Occurrences"}


def _link_strength_term(P: nx.Graph) -> str:
    if P.graph.get("kind") == "topic":
        return "Association strength" if P.graph.get("normalize") == "association" else "Co-occurrences"
    return "Fractional co-authorship" if P.graph.get("counting") == "fractional" else "Shared papers"


def _description(key: str, data: dict) -> str:
    parts = [f"<b>{html.escape(data['label'])}</b>", html.escape(key)]
    if data.get("alt_labels"):
        parts.append("also: " + html.escape(", ".join(data["alt_labels"])))
    return "<br>".join(parts)


def vosviewer_json(P: nx.Graph, *, seed: int = 42, resolution: float = 1.0) -> dict:
    """The VOSviewer Online JSON of a projection (`coauthor_graph` or `topic_graph`).

    Item ids are 1.. in the projection's node order; clusters are its seeded Louvain communities
    (`kg.analysis.communities`, 1 = largest); weights are links, total link strength and the
    number of papers; link strength is the projection's edge weight.
    """
    kind = P.graph.get("kind", "coauthor")
    membership = communities(P, seed=seed, resolution=resolution)
    ids = {node: i for i, node in enumerate(P, start=1)}
    items = []
    for node, data in P.nodes(data=True):
        item = {"id": ids[node], "label": data["label"], "description": _description(node, data)}
        if membership[node] <= VOSVIEWER_MAX_CLUSTER:
            item["cluster"] = membership[node]
        item["weights"] = {"Links": P.degree(node), "Total link strength": round(P.degree(node, weight="weight"), 6),
                           _OCCURRENCE.get(kind, "Documents"): data.get("papers", 0)}
        items.append(item)
    links = [{"source_id": ids[u], "target_id": ids[v], "strength": round(float(w), 6)}
             for u, v, w in P.edges(data="weight")]
    first_member: dict[int, str] = {}
    for node in sorted(P, key=lambda n: (-P.nodes[n].get("papers", 0), n)):
        first_member.setdefault(membership[node], P.nodes[node]["label"])
    clusters = [{"cluster": c, "label": f"{c}: {first_member[c]}"}
                for c in sorted(first_member) if c <= VOSVIEWER_MAX_CLUSTER]
    terminology = dict(_TERMS.get(kind, _TERMS["coauthor"]), link_strength=_link_strength_term(P),
                       total_link_strength=f"Total {_link_strength_term(P).lower()}")
    return {
        "network": {"items": items, "links": links, "clusters": clusters},
        "config": {"terminology": terminology,
                   "parameters": {"resolution": resolution, "largest_component": False}},
        "info": {"title": f"kg {terminology['items']} map",
                 "description": f"Made by kg from {P.graph.get('cut', {}).get('nodes_total', len(items))} "
                                f"{terminology['items']}; clusters: Louvain (seed {seed}, resolution {resolution})."},
    }


def write_vosviewer(P: nx.Graph, path: str | os.PathLike[str], *, seed: int = 42, resolution: float = 1.0) -> Path:
    """Write a projection as a VOSviewer Online JSON file (open it at app.vosviewer.com)."""
    data = vosviewer_json(P, seed=seed, resolution=resolution)
    return atomic_write(path, json_text(data) + "\n")
