"""Exports of the same graph for other tools: GraphML, GEXF (Gephi) and VOSviewer JSON maps.

GraphML and GEXF hold only scalar attributes, so lists and dicts (author spellings, alt labels,
mention evidence, edge paper lists) are written as JSON strings and None is never written.
Output is byte-for-byte deterministic: the graph's own order, no timestamps.

The VOSviewer JSON follows the format VOSviewer Online documents
(https://app.vosviewer.com/docs/file-types/json-file-type/): `network.items` with integer `id`,
`label`, `description`, `cluster` (1..1000), `weights`; `network.links` with `source_id`,
`target_id`, `strength`; `network.clusters`; and a `config` with the terminology and the
clustering resolution. Positions (`x`, `y`) are left out: VOSviewer computes its own layout.
"""
from __future__ import annotations

import html
import json
import os
from pathlib import Path

import networkx as nx
from networkx.readwrite.gexf import GEXFWriter

from kg.analysis import communities
from kg.io import atomic_write, json_text

#: VOSviewer accepts cluster numbers 1..1000; items of smaller communities beyond that get none.
VOSVIEWER_MAX_CLUSTER = 1000
#: GEXF reads these node attributes as structure (node id, parent, time); ours are renamed.
_GEXF_RESERVED = {"id": "record_id", "pid": "record_pid", "start": "record_start", "end": "record_end"}


def _scalar(value: object) -> object:
    """A GraphML/GEXF-storable value: lists and dicts become JSON strings (sorted keys)."""
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value


def _flat(attrs: dict, rename: dict[str, str] | None = None) -> dict:
    rename = rename or {}
    return {rename.get(k, k): _scalar(v) for k, v in attrs.items() if v is not None}


def flatten(G: nx.Graph, *, rename: dict[str, str] | None = None) -> nx.Graph:
    """A copy of `G` whose graph, node and edge attributes are all scalars (same order, same keys)."""
    H = G.__class__()
    H.graph.update(_flat(G.graph))
    H.add_nodes_from((n, _flat(d, rename)) for n, d in G.nodes(data=True))
    H.add_edges_from((u, v, _flat(d, rename)) for u, v, d in G.edges(data=True))
    return H


def write_graphml(G: nx.Graph, path: str | os.PathLike[str]) -> Path:
    """Write `G` as GraphML (attribute names kept as they are in the graph)."""
    return atomic_write(path, "\n".join(nx.generate_graphml(flatten(G))) + "\n")


def write_gexf(G: nx.Graph, path: str | os.PathLike[str]) -> Path:
    """Write `G` as GEXF 1.2 for Gephi. A node's `label` is its GEXF label; the node attributes GEXF
    reserves (`id`, `pid`, `start`, `end`; on edges too) are written as `record_id`, ... so node ids stay the keys."""
    writer = GEXFWriter(flatten(G, rename=_GEXF_RESERVED), encoding="utf-8", prettyprint=True)
    meta = writer.xml.find("meta")
    if meta is not None:
        meta.attrib.pop("lastmodifieddate", None)  # a date would make every build differ
    return atomic_write(path, str(writer) + "\n")


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
