"""Both views written into a folder: what `kg views` and `kg build` produce."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import networkx as nx

from kg._util.progress import progress
from kg.views.coauthors import coauthor_view
from kg.views.options import ViewOptions, with_changes
from kg.views.page import View, Whole, write_html
from kg.views.topics import topic_view


def write_views(
    G: nx.DiGraph,
    out_dir: str | os.PathLike[str],
    options: ViewOptions | None = None,
    *,
    coauthors: nx.Graph | Whole | None = None,
    topics: nx.Graph | Whole | None = None,
    quiet: bool = False,
    **changes,
) -> list[Path]:
    """Write `coauthors.html` and `topics.html` into `out_dir` (what `kg views` does).

    Parameters
    ----------
    G : nx.DiGraph
        The knowledge graph.
    out_dir : str or PathLike
        The folder (made if missing); the pages are written atomically.
    options : ViewOptions, optional
        The options of both views (default: `ViewOptions()`).
    coauthors, topics : nx.Graph or Whole, optional
        The whole projections when the caller has them (as `kg build` has), each alone or as a
        `Whole` with its communities: cut for the views instead of projecting again (see
        `coauthor_view`).
    quiet : bool
        No progress bar (one shows the view being rendered on a terminal otherwise).
    **changes
        Fields of `ViewOptions` to change.

    Returns
    -------
    list of Path
        The two pages.

    Examples
    --------
    >>> import kg, tempfile
    >>> from kg.views import ViewOptions, write_views
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> [p.name for p in write_views(G, tempfile.mkdtemp(), ViewOptions(top_n=50), quiet=True)]
    ['coauthors.html', 'topics.html']
    """
    options = with_changes(options, changes)
    out = Path(out_dir)
    views: list[tuple[str, Callable[[], View]]] = [
        ("coauthors.html", lambda: coauthor_view(G, options, within=coauthors)),
        ("topics.html", lambda: topic_view(G, options, within=topics)),
    ]
    return [write_html(make(), out / name)
            for name, make in progress(views, "rendering", unit="view", quiet=quiet, describe=lambda v: v[0])]
