"""VOSviewer JSON maps of the co-author and topic projections.

The JSON follows the format VOSviewer Online documents
(https://app.vosviewer.com/docs/file-types/json-file-type/): `network.items` with integer `id`,
`label`, `description`, `cluster` (1..1000), `weights`; `network.links` with `source_id`,
`target_id`, `strength`; `network.clusters`; and a `config` with the terminology and the
clustering resolution. Positions (`x`, `y`) are left out: VOSviewer computes its own layout.
"""
from __future__ import annotations

import html
import os
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

import networkx as nx

from kg._util.io import write_json
from kg.analysis import communities

#: VOSviewer accepts cluster numbers 1..1000; items of smaller communities beyond that get none.
VOSVIEWER_MAX_CLUSTER = 1000

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


def vosviewer_json(P: nx.Graph, *, seed: int = 42, resolution: float = 1.0,
                   membership: Mapping[str, int] | None = None) -> dict:
    """The VOSviewer Online JSON of a projection (`coauthor_graph` or `topic_graph`).

    Item ids are 1.. in the projection's node order; clusters are its seeded Louvain communities
    (`kg.analysis.communities`, 1 = largest; `membership` when the caller computed them with this
    seed and resolution); weights are links, total link strength and the number of papers; link
    strength is the projection's edge weight.
    """
    kind = P.graph.get("kind", "coauthor")
    if membership is None:
        membership = communities(P, seed=seed, resolution=resolution)
    ids = {node: i for i, node in enumerate(P, start=1)}
    links_of, strength_of = dict(P.degree()), dict(P.degree(weight="weight"))  # one pass, not a view per node
    items = []
    for node, data in P.nodes(data=True):
        item = {"id": ids[node], "label": data["label"], "description": _description(node, data)}
        if membership[node] <= VOSVIEWER_MAX_CLUSTER:
            item["cluster"] = membership[node]
        item["weights"] = {"Links": links_of[node], "Total link strength": round(strength_of[node], 6),
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


def write_vosviewer(P: nx.Graph, path: str | os.PathLike[str] | BinaryIO, *, seed: int = 42,
                    resolution: float = 1.0, membership: Mapping[str, int] | None = None) -> Path | None:
    """Write a projection as a VOSviewer Online JSON file (open it at app.vosviewer.com).

    Parameters
    ----------
    P : networkx.Graph
        A co-author or topic projection (`kg.coauthor_graph`, `kg.topic_graph`).
    path : str, PathLike or binary file
        The file to write (atomically), or an open binary file, left open.
    seed, resolution : optional
        Louvain's seed and resolution for the clusters, unless `membership` is given.
    membership : mapping, optional
        Node -> cluster number, when the caller has the partition already.

    Returns
    -------
    Path or None
        `path` as a Path; None when given a file.

    Examples
    --------
    >>> import io, json, kg
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> buffer = io.BytesIO()
    >>> write_vosviewer(kg.coauthor_graph(G), buffer)
    >>> sorted(json.loads(buffer.getvalue())["network"])
    ['clusters', 'items', 'links']
    """
    return write_json(path, vosviewer_json(P, seed=seed, resolution=resolution, membership=membership))
