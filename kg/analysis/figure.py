"""The trends figure: the top rising methods' shares of papers by year, as small multiples (PNG).

Drawn with matplotlib's object API on an Agg canvas (no pyplot, no global backend switch), with
no timestamp or version in the file, so the same trends give the same bytes.
"""
from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

from kg._util.io import atomic_open

#: Panels in the figure, and per row.
FIGURE_PANELS = 12
FIGURE_COLUMNS = 4


def write_trends_figure(rising: Sequence[dict], path: str | os.PathLike[str], *,
                        panels: int = FIGURE_PANELS) -> Path:
    """Write small multiples of the `panels` first rising methods' shares by year as a PNG.

    Parameters
    ----------
    rising : sequence of dict
        Rows with `label`, `score` and `share_by_year` ({"2023": share}), as `trends()["rising"]`.
    path : path
        The PNG file (written atomically).
    panels : int
        How many methods to draw.

    Returns
    -------
    pathlib.Path
        `path`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from kg.analysis.figure import write_trends_figure
    >>> rows = [{"label": "diffusion model", "score": 0.8, "share_by_year": {"2022": 0.005, "2023": 0.03}}]
    >>> out = write_trends_figure(rows, pathlib.Path(tempfile.mkdtemp()) / "trends.png")
    >>> out.read_bytes()[:4]
    b'\\x89PNG'
    """
    from matplotlib.figure import Figure

    shown = list(rising[:panels])
    columns = max(1, min(FIGURE_COLUMNS, len(shown)))
    rows = max(1, math.ceil(len(shown) / columns))
    fig = Figure(figsize=(3.2 * columns, 2.4 * rows + 0.6), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False, sharex=True)
    top = max((100 * v for row in shown for v in row["share_by_year"].values()), default=1.0)
    for ax, row in zip(axes.flat, shown):
        years = [int(y) for y in row["share_by_year"]]
        shares = [100 * v for v in row["share_by_year"].values()]
        ax.plot(years, shares, marker="o", color="#1f6fb4")
        ax.fill_between(years, shares, alpha=0.15, color="#1f6fb4")
        label = row["label"] if len(row["label"]) <= 32 else row["label"][:31] + "…"
        ax.set_title(f"{label}\n{row['score']:+.2f} pp/year", fontsize=9)
        ax.set_ylim(0, top * 1.1)
        ax.set_xticks(years, [str(y) for y in years], fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(shown):]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("% of the year's papers", fontsize=8)
    fig.suptitle("Top rising methods: share of papers by year" if shown else "No rising methods", fontsize=11)
    with atomic_open(path, "wb") as handle:
        fig.savefig(handle, format="png", dpi=100, metadata={"Software": None})
    return Path(path)
