"""The choices a view is made with: one `ViewOptions` shared by both views and `write_views`."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from kg.errors import ArgumentError
from kg.graph import Cuts

#: Nodes a view keeps by default (those with most papers): bigger maps take long to open and to
#: read. Pass `top_n=None` for all; the page notes any cut.
DEFAULT_TOP_N = 3000
#: Links a view keeps by default (the heaviest): a dense topic map has far more links than anyone
#: can read or a browser draws quickly. Pass `top_links=None` for all; the page notes any cut.
DEFAULT_TOP_LINKS = 20_000

#: Datasets and benchmarks the topic map shows beside its methods by default (those with most papers):
#: a few landmarks to read the methods against, not a second map. Pass `datasets=0` for none.
DEFAULT_DATASETS = 15

#: The first look a page opens with (see `first_look_levels`): at most this many nodes...
FIRST_LOOK_NODES = 500
#: ...and at most this many links, the heaviest (VOSviewer's default for the lines it draws).
FIRST_LOOK_LINKS = 1000
#: A page holds the next level below its first look (one paper fewer) when that is at most this many
#: nodes, so its "Min. papers" control can widen the map without a new page.
HELD_NODES = 1500

COUNTINGS = ("full", "fractional")
NORMALIZATIONS = (None, "association")
COLORINGS = ("track", "community", "year")


@dataclass(frozen=True)
class ViewOptions:
    """What to show and how: the cuts, the link weights, the colouring and the seeded algorithms.

    Parameters
    ----------
    counting : {"full", "fractional"}
        Co-author link weight: shared papers, or 1/(n-1) per paper of n authors.
    normalize : {None, "association"}
        Topic link weight: papers mentioning both methods, or their association strength.
    color_by : {"track", "community", "year"}
        Topic node colour (co-authors: by community). "year" opens either page in its overlay
        colouring, by the mean publication year of a node's papers (topics: with the track colouring
        to switch to); the page switches between the two when its papers have years.
    min_weight, min_papers, top_n, top_links : float, int, int or None, int or None
        The cuts of the projection shown (`kg.graph.Cuts`; `cuts` gathers them): links lighter than
        `min_weight` and nodes with fewer than `min_papers` papers are dropped; the `top_n` nodes
        with most papers and the `top_links` heaviest links are kept (None = all).
    track : str or None
        Only the papers of this track or area (its label, any case).
    seed : int
        Seed of Louvain and of the layout: same input, same options, same page.
    resolution : float
        Louvain resolution (higher: more, smaller communities).
    first_look : bool
        Open the page on a first look chosen from the data (at most `FIRST_LOOK_NODES` nodes, those
        with most papers, and `FIRST_LOOK_LINKS` links), stated on the page, whose controls widen it.
        False: open on everything the page holds.
    datasets : int
        The topic map also shows the `datasets` data sets and benchmarks with most papers (ties by
        key), as their own kind of node linked to the methods their papers mention (0 = none).

    Examples
    --------
    >>> from kg.views import ViewOptions
    >>> options = ViewOptions(top_n=500, min_weight=2)
    >>> options.top_n, options.counting
    (500, 'full')
    >>> options.cuts
    Cuts(min_weight=2, min_papers=1, top_n=500, top_links=20000)
    >>> ViewOptions(counting="half")
    Traceback (most recent call last):
    ...
    kg.errors.ArgumentError: counting must be 'full' or 'fractional', not 'half'
    """

    counting: str = "full"
    normalize: str | None = None
    color_by: str = "track"
    min_weight: float = 0
    min_papers: int = 1
    top_n: int | None = DEFAULT_TOP_N
    top_links: int | None = DEFAULT_TOP_LINKS
    track: str | None = None
    seed: int = 42
    resolution: float = 1.0
    first_look: bool = True
    datasets: int = DEFAULT_DATASETS

    def __post_init__(self) -> None:
        for name, allowed in (("counting", COUNTINGS), ("normalize", NORMALIZATIONS), ("color_by", COLORINGS)):
            value = getattr(self, name)
            if value not in allowed:
                choices = " or ".join(repr(a) for a in allowed)
                raise ArgumentError(f"{name} must be {choices}, not {value!r}")
        if self.datasets < 0:
            raise ArgumentError(f"datasets must be 0 (none) or more, not {self.datasets}")

    @property
    def cuts(self) -> Cuts:
        """The cuts of the projection shown (`min_weight`, `min_papers`, `top_n`, `top_links`)."""
        return Cuts(self.min_weight, self.min_papers, self.top_n, self.top_links)


def with_changes(options: ViewOptions | None, changes: dict) -> ViewOptions:
    """`options` (default: `ViewOptions()`) with the fields named in `changes` replaced.

    Unknown names raise TypeError, as an unknown keyword argument does.
    """
    base = options if options is not None else ViewOptions()
    return replace(base, **changes) if changes else base


def first_look_levels(counts: list[int], floor: int = 1) -> tuple[int, int]:
    """The "Min. papers" a page opens at, and the lowest it holds, for nodes with these paper `counts`.

    The page opens at the smallest level (at least `floor`) that shows at most `FIRST_LOOK_NODES`
    nodes, and holds one level lower when that adds few enough nodes (`HELD_NODES` in all), so a
    reader can widen the map in the page.

    Examples
    --------
    >>> first_look_levels([5, 4, 3] + [2] * 400 + [1] * 4000)
    (2, 2)
    >>> first_look_levels([5] * 100 + [2] * 600 + [1] * 4000)
    (3, 2)
    >>> first_look_levels([1, 1, 2])
    (1, 1)
    >>> first_look_levels([3] * 900)  # no level leaves at most 500: the fewest it can
    (3, 3)
    """
    tally = Counter(counts)
    at_least: dict[int, int] = {}  # level -> how many counts reach it
    running = 0
    for value in sorted(tally, reverse=True):
        running += tally[value]
        at_least[value] = running

    def reaching(level: int) -> int:
        return next((at_least[v] for v in sorted(at_least) if v >= level), 0)

    level = floor
    while reaching(level) > FIRST_LOOK_NODES and reaching(level + 1) > 0:  # never a first look of nothing
        level += 1
    widens = level > floor and reaching(level) < reaching(level - 1) <= HELD_NODES
    held = level - 1 if widens else level
    return level, held
