"""Node colours and their legend: by community, or by a method's main track; the datasets' colour and shape."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

import networkx as nx

from kg.views.tips import NO_TRACK, Papers

#: Qualitative colours (Tableau 20 order, strong shades first); further groups share `OTHER_COLOR`.
PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#9edae5", "#dbdb8d",
)
OTHER_COLOR = "#b0b0b0"
#: Datasets and benchmarks on the topic map: dark grey diamonds. No colour of `PALETTE` is a grey and
#: `OTHER_COLOR` is a light one, so the kind shows by lightness (which colour-blind readers see) and by
#: shape, whatever colours the methods have.
DATASET_COLOR = "#3c3c3c"
DATASET_SHAPE = "diamond"

Legend = list[dict]


def community_colors(P: nx.Graph, membership: dict[str, int]) -> tuple[dict[str, str], Legend]:
    """Colour by community number (1 = largest); communities past the palette share grey."""
    sizes = Counter(membership.values())
    colors = {n: PALETTE[c - 1] if c <= len(PALETTE) else OTHER_COLOR for n, c in membership.items()}
    legend = [{"color": PALETTE[c - 1], "label": f"Community {c}: " + ", ".join(leaders(P, group)),
               "count": sizes[c]}
              for c, group in sorted(members(membership).items()) if c <= len(PALETTE)]
    rest = [c for c in sizes if c > len(PALETTE)]
    if rest:
        legend.append({"color": OTHER_COLOR, "label": f"{len(rest):,} smaller communities",
                       "count": sum(sizes[c] for c in rest)})
    return colors, legend


def track_colors(P: nx.Graph, papers: Papers, evidence: dict[str, dict[str, str]]
                 ) -> tuple[dict[str, str], Legend, str]:
    """Colour each method by its main track (where most of its papers are; ties to a known track, then
    by label); the tracks that are main to most methods get the palette's colours, the others share
    grey. When the view's papers have more tracks than the palette has colours and the tracks have
    areas, by main area instead (a few distinct colours rather than many greys). Returns the colours,
    the legend and its title."""
    seen = {papers.track[p] for method in P for p in evidence[method]} - {NO_TRACK}
    by, title = (papers.area, "Main area") if len(seen) > len(PALETTE) and papers.area != papers.track \
        else (papers.track, "Main track")
    main = {}
    for method in P:
        counts = Counter(by[p] for p in evidence[method])
        main[method] = min(counts, key=lambda t: (-counts[t], t == NO_TRACK, t)) if counts else NO_TRACK
    tally = Counter(main.values())
    ranked = sorted(tally, key=lambda t: (t == NO_TRACK, -tally[t], t))
    known = [t for t in ranked if t != NO_TRACK][:len(PALETTE)]
    palette = {t: PALETTE[i] for i, t in enumerate(known)}
    legend = [{"color": palette[t], "label": t, "count": tally[t]} for t in known]
    others = [t for t in ranked if t not in palette]
    if others:
        kind = "areas" if title == "Main area" else "tracks"
        label = NO_TRACK if others == [NO_TRACK] else f"other {kind}" + (f" or {NO_TRACK}" if NO_TRACK in others else "")
        legend.append({"color": OTHER_COLOR, "label": label, "count": sum(tally[t] for t in others)})
    return {m: palette.get(t, OTHER_COLOR) for m, t in main.items()}, legend, title


def members(membership: dict[str, int]) -> dict[int, list[str]]:
    """Community number -> its nodes."""
    groups: dict[int, list[str]] = defaultdict(list)
    for node, number in membership.items():
        groups[number].append(node)
    return groups


def leaders(P: nx.Graph, nodes: Sequence[str], k: int = 3) -> list[str]:
    """The labels of the `k` of `nodes` with most papers (ties by label)."""
    ranked = sorted(nodes, key=lambda n: (-P.nodes[n]["papers"], P.nodes[n]["label"]))
    return [P.nodes[n]["label"] for n in ranked[:k]]
