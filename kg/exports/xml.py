"""GraphML and GEXF (Gephi) exports of any kg graph (the hub or a projection), streamed to the file.

GraphML and GEXF hold only scalar attributes, so lists, tuples and dicts (author spellings, alt
labels, mention evidence, edge paper lists) are written as JSON strings and None is never written;
mention records (`kg.records.MethodMention`) as `kg.records.mention_to_dict` gives them.
Both are streamed: one pass over the graph finds the attribute declarations, a second writes node
after node and edge after edge to the file, so memory does not grow with the document (NetworkX's
writers build the whole element tree). The files are those NetworkX's
writers made (layout, key numbering, types; `nx.read_graphml` / `nx.read_gexf` read them back):
ASCII, other characters as character references. Characters XML 1.0 cannot hold (control
characters but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) are written as U+FFFD, and a CR
in GraphML text as `&#13;`, where NetworkX wrote files that do not parse or lost the CR.
Output is byte-for-byte deterministic: the graph's own order, no timestamps.

"""
from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO, Any, BinaryIO

import networkx as nx

from kg._util.io import json_encoder, open_output, written
from kg.records import mention_to_dict

#: GEXF reads these node attributes as structure (node id, parent, time); ours are renamed.
_GEXF_RESERVED = {"id": "record_id", "pid": "record_pid", "start": "record_start", "end": "record_end"}
#: GEXF attribute titles of our attribute names: the reserved ones, and `key` as NetworkX writes it.
_GEXF_TITLES = {**_GEXF_RESERVED, "key": "networkx_key"}
#: Edge attributes written as attributes of `<edge>` itself, as NetworkX does (Gephi's edge weight).
_GEXF_EDGE_FIELDS = ("label", "weight", "type")
#: How GEXF spells the float values Python writes as `inf`, `-inf`, `nan`.
_GEXF_FLOATS = {"inf": "INF", "-inf": "-INF", "nan": "NaN"}
#: `json.dumps(value, ensure_ascii=False, sort_keys=True, default=mention_to_dict)`, its encoder
#: made once, not once a call.
_JSON = json_encoder(sort_keys=True, default=mention_to_dict)
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
        return _JSON(value)
    return value


def _stored_type(name: object, kind: type) -> type:
    """The type a value of type `kind` is written as, `list` for lists, tuples and dicts (JSON
    strings); a TypeError naming the attribute if GraphML and GEXF cannot hold it."""
    if issubclass(kind, (list, tuple, dict)):
        return list
    if kind not in _XML_TYPES:
        raise TypeError(f"attribute {name!r}: GraphML and GEXF cannot hold a {kind.__name__} value")
    return kind


#: What XML character data must escape (`&` first), CR as a reference (a raw one reads back as LF).
_TEXT_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\r", "&#13;"))
#: What a double-quoted attribute value must escape besides: a parser reads raw LF and tab as spaces.
_ATTR_ESCAPES = (("\"", "&quot;"), ("\n", "&#10;"), ("\t", "&#09;"))


def _escaped(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    """`text` with each (character, reference) of `escapes` replaced, in order; most text has none."""
    for char, reference in escapes:
        if char in text:
            text = text.replace(char, reference)
    return text


def _xml_text(text: str) -> str:
    """`text` as XML character data: `&`, `<`, `>` and CR escaped, characters XML 1.0 cannot hold
    as U+FFFD."""
    if not text.isprintable():  # printable text has no control characters, surrogates or non-characters
        text = _XML_INVALID.sub("\ufffd", text)
    return _escaped(text, _TEXT_ESCAPES)


def _xml_attr(text: str) -> str:
    """`text` as a double-quoted XML attribute value: as character data, then `"`, LF and tab."""
    return _escaped(_xml_text(text), _ATTR_ESCAPES)


def _json_text(value: object) -> str:
    """A list or dict as the XML character data of its JSON."""
    return _xml_text(_JSON(value))


def _json_attr(value: object) -> str:
    """A list or dict as the XML attribute value of its JSON."""
    return _xml_attr(_JSON(value))


def _gexf_bool(value: bool) -> str:
    """A boolean as GEXF (and XML Schema) writes it."""
    return "true" if value else "false"


def _gexf_float(value: float) -> str:
    """A float as GEXF writes it: Python's text, but `INF`, `-INF`, `NaN`."""
    text = repr(value)
    return _GEXF_FLOATS.get(text, text)


#: The GraphML key type and GEXF attribute type of each stored type.
_XML_TYPES = {bool: "boolean", int: "long", float: "double", str: "string", list: "string"}
#: The text of a GraphML `<data>` and the value of a GEXF `<attvalue>`, per stored type.
_GRAPHML_TEXT = {bool: str, int: str, float: str, str: _xml_text, list: _json_text}
_GEXF_VALUE = {bool: _gexf_bool, int: str, float: _gexf_float, str: _xml_attr, list: _json_attr}
#: How one attribute of a layout is written: the start of its XML and the function giving its
#: text; None when it is not written (a None value, a GEXF label).
_Step = tuple[str, Callable[[Any], str]] | None
#: Per layout (see `_layout`), how each of its attributes is written.
_Plans = dict[tuple, tuple[_Step, ...]]
#: GraphML keys: (attribute name, type, scope) -> key id.
_Keys = dict[tuple[object, str, str], str]
#: GEXF attribute declarations: class (`node`, `edge`) -> title -> (id, the types of its values).
_Declared = dict[str, dict[object, tuple[str, set[str]]]]


def _layout(scope: str, attrs: dict) -> tuple:
    """The shape of one element's attributes: scope, names, value types. Elements share a handful
    of shapes, so how to write an attribute is worked out once per shape, not once per value."""
    return scope, tuple(attrs), tuple(map(type, attrs.values()))


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
    out.writelines(children)
    out.write(f"{pad}</{tag}>\n")


def _xml_file(target: str | os.PathLike[str] | BinaryIO) -> AbstractContextManager[IO[str]]:
    """The output of an XML export, a path (written atomically) or an open binary file: ASCII,
    other characters as character references."""
    return open_output(target, encoding="ascii", errors="xmlcharrefreplace")


def _xml_ids(G: nx.Graph) -> dict[object, str]:
    """Each node's key as an XML attribute value, escaped once rather than once per edge."""
    return {node: _xml_attr(str(node)) for node in G}


def _edge_attrs(G: nx.Graph) -> Iterator[dict]:
    """The attribute dicts of `G`'s edges, in edge order."""
    return (attrs for *_, attrs in G.edges(data=True))


# ------------------------------------------------------------------------------------ GraphML
def _graphml_plan(G: nx.Graph) -> tuple[_Keys, _Plans]:
    """The keys of `G`, (name, type, scope) -> d0, d1, ... in order of first use (graph, nodes,
    edges) as NetworkX numbers them, a name with values of two types getting two keys; and per
    layout, how each attribute is written."""
    keys: _Keys = {}
    plans: _Plans = {}
    for scope, pad, records in (("graph", "    ", [G.graph]), ("node", "      ", G.nodes.values()),
                                ("edge", "      ", _edge_attrs(G))):
        for attrs in records:
            layout = _layout(scope, attrs)
            if layout not in plans:
                plans[layout] = tuple(_graphml_step(keys, scope, pad, name, kind)
                                      for name, kind in zip(*layout[1:]))
    return keys, plans


def _graphml_step(keys: _Keys, scope: str, pad: str, name: object, kind: type) -> _Step:
    """How a value of type `kind` of attribute `name` is written: the start of its `<data>` (its
    key made if new) and its text function; None for None values."""
    if kind is type(None):
        return None
    kind = _stored_type(name, kind)
    key = keys.setdefault((name, _XML_TYPES[kind], scope), f"d{len(keys)}")
    return f'{pad}<data key="{key}"', _GRAPHML_TEXT[kind]


def _graphml_data(attrs: dict, plan: tuple[_Step, ...]) -> str:
    """The `<data>` lines of one graph, node or edge."""
    lines = []
    for step, value in zip(plan, attrs.values()):
        if step is not None:
            text = step[1](value)
            lines.append(f"{step[0]}>{text}</data>\n" if text else f"{step[0]} />\n")
    return "".join(lines)


def write_graphml(G: nx.Graph, path: str | os.PathLike[str] | BinaryIO) -> Path | None:
    """Write `G` as GraphML (attribute names kept as they are in the graph), streamed to the file."""
    keys, plans = _graphml_plan(G)
    ids = _xml_ids(G)
    nodes = (_element("    ", "node", f' id="{ids[node]}"', _graphml_data(attrs, plans[_layout("node", attrs)]))
             for node, attrs in G.nodes(data=True))
    edges = (_element("    ", "edge", f' source="{ids[u]}" target="{ids[v]}"',
                      _graphml_data(attrs, plans[_layout("edge", attrs)]))
             for u, v, attrs in G.edges(data=True))
    graph_data = _graphml_data(G.graph, plans[_layout("graph", G.graph)])  # NetworkX puts it after the edges
    with _xml_file(path) as out:
        out.write(_GRAPHML_ROOT)
        for (name, kind, scope), key in reversed(keys.items()):  # NetworkX inserts each new key first
            out.write(f'  <key id="{key}" for="{scope}" attr.name="{_xml_attr(str(name))}" '
                      f'attr.type="{kind}" />\n')
        _write_element(out, "  ", "graph", f' edgedefault="{"directed" if G.is_directed() else "undirected"}"',
                       filter(None, itertools.chain(nodes, edges, [graph_data])))
        out.write("</graphml>\n")
    return written(path)


# --------------------------------------------------------------------------------------- GEXF
def _gexf_plan(G: nx.Graph) -> tuple[_Declared, _Plans]:
    """The attributes GEXF declares per class (`node`, `edge`), title -> (id, its values' types),
    ids 0, 1, ... in order of first use, nodes before edges, as NetworkX numbers them; and per
    layout, how each attribute is written (not the node label, nor the edge's own fields)."""
    declared: _Declared = {"node": {}, "edge": {}}
    plans: _Plans = {}
    for cls, fields, records in (("node", ("label",), G.nodes.values()),
                                 ("edge", _GEXF_EDGE_FIELDS, _edge_attrs(G))):
        for attrs in records:
            layout = _layout(cls, attrs)
            if layout not in plans:
                plans[layout] = tuple(None if name in fields else _gexf_step(declared, cls, name, kind)
                                      for name, kind in zip(*layout[1:]))
    return declared, plans


def _gexf_step(declared: _Declared, cls: str, name: object, kind: type) -> _Step:
    """How a value of type `kind` of attribute `name` is written: the start of its `<attvalue>` (the
    attribute declared if new) and its value function; None for None values."""
    if kind is type(None):
        return None
    kind = _stored_type(name, kind)
    title = _GEXF_TITLES.get(name, name)
    if title not in declared[cls]:
        declared[cls][title] = (str(sum(map(len, declared.values()))), set())
    attr_id, types = declared[cls][title]
    types.add(_XML_TYPES[kind])
    return f'          <attvalue for="{attr_id}" value="', _GEXF_VALUE[kind]


def _gexf_type(types: set[str]) -> str:
    """One GEXF type for an attribute: its values' type, `double` for ints and floats mixed, else
    `string` (NetworkX takes the first value's type, and its reader then fails on the others)."""
    if len(types) == 1:
        return next(iter(types))
    return "double" if types <= {"long", "double"} else "string"


def _gexf_attvalues(attrs: dict, plan: tuple[_Step, ...]) -> str:
    """The `<attvalues>` of one node or edge, "" if it has none to write."""
    values = "".join(f'{step[0]}{step[1](value)}" />\n'
                     for step, value in zip(plan, attrs.values()) if step is not None)
    return _element("        ", "attvalues", "", values) if values else ""


def _gexf_node(node: object, node_id: str, attrs: dict, plan: tuple[_Step, ...]) -> str:
    """One `<node>`: the node key as its id (`node_id`, escaped), its `label` attribute (else the
    key) as its label."""
    label = attrs.get("label")
    label = str(node) if label is None else str(_scalar(label))
    return _element("      ", "node", f' id="{node_id}" label="{_xml_attr(label)}"', _gexf_attvalues(attrs, plan))


def _gexf_edge(edge_id: int, source: str, target: str, attrs: dict, plan: tuple[_Step, ...]) -> str:
    """One `<edge>`, numbered `edge_id` (0, 1, ... in edge order, as NetworkX numbers them), between
    the (escaped) node ids `source` and `target`."""
    fields = "".join(f' {field}="{_xml_attr(str(_scalar(attrs[field])))}"'
                     for field in _GEXF_EDGE_FIELDS if attrs.get(field) is not None)
    return _element("      ", "edge", f' source="{source}" target="{target}" id="{edge_id}"{fields}',
                    _gexf_attvalues(attrs, plan))


def write_gexf(G: nx.Graph, path: str | os.PathLike[str] | BinaryIO) -> Path | None:
    """Write `G` as GEXF 1.2 for Gephi, streamed to the file. A node's `label` is its GEXF label, an
    edge's `label`, `weight` and `type` are attributes of `<edge>`; the attributes GEXF reserves
    (`id`, `pid`, `start`, `end`) are written as `record_id`, ... so node ids stay the keys."""
    declared, plans = _gexf_plan(G)
    name = G.graph.get("name")
    name = "" if name is None else str(_scalar(name))
    ids = _xml_ids(G)
    nodes = (_gexf_node(node, ids[node], attrs, plans[_layout("node", attrs)]) for node, attrs in G.nodes(data=True))
    edges = (_gexf_edge(i, ids[u], ids[v], attrs, plans[_layout("edge", attrs)])
             for i, (u, v, attrs) in enumerate(G.edges(data=True)))
    with _xml_file(path) as out:
        out.write(_GEXF_ROOT)
        out.write(f'  <graph defaultedgetype="{"directed" if G.is_directed() else "undirected"}" mode="static" '
                  f'name="{_xml_attr(name)}">\n')
        for cls in ("edge", "node"):  # NetworkX inserts each class's block first: edges come out before nodes
            if declared[cls]:
                lines = "".join(f'      <attribute id="{attr_id}" title="{_xml_attr(str(title))}" '
                                f'type="{_gexf_type(types)}" />\n' for title, (attr_id, types) in declared[cls].items())
                out.write(_element("    ", "attributes", f' mode="static" class="{cls}"', lines))
        _write_element(out, "    ", "nodes", "", nodes)
        _write_element(out, "    ", "edges", "", edges)
        out.write("  </graph>\n</gexf>\n\n")  # NetworkX's pretty printer ends the root with a newline too
    return written(path)
