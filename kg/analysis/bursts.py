"""Kleinberg's two-state burst detection over batches (yearly counts).

Kleinberg, J. (2002). Bursty and hierarchical structure in streams. KDD '02, section 4
("enumerating bursts" in a stream of batches): batch t has `d_t` documents, `r_t` of them relevant
(here: papers of a year, and those mentioning a method). The base state emits relevant documents at
the overall rate p0 = Σr / Σd, the burst state at p1 = s·p0 (capped below 1). A state costs
σ_i(t) = -ln(p_i^r_t · (1 - p_i)^(d_t - r_t)) (the binomial coefficient is the same in both states
and left out); entering the burst state costs γ·ln(n) for n batches, leaving it nothing. The
cheapest state sequence (Viterbi) marks the bursts; a burst's weight is Σ(σ_0 - σ_1) over its
batches, how much better the burst state explains them. The packages that implement this are
unmaintained (`burst_detection`, last release 2018), hence these few lines.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The burst rate p1 = s·p0 is capped here: a rate of 1 makes any batch with one irrelevant document infinitely costly.
MAX_RATE = 1 - 1e-9


@dataclass(frozen=True)
class Burst:
    """One burst: the first and last batch in it (0-based, inclusive) and its weight."""

    start: int
    end: int
    weight: float


def _costs(relevant: Sequence[int], totals: Sequence[int], rate: float) -> list[float]:
    return [-(r * math.log(rate) + (d - r) * math.log1p(-rate)) for r, d in zip(relevant, totals)]


def burst_states(relevant: Sequence[int], totals: Sequence[int], *, s: float = 2.0, gamma: float = 1.0) -> list[int]:
    """The cheapest state sequence (0 = base, 1 = burst) of Kleinberg's two-state automaton.

    Parameters
    ----------
    relevant : sequence of int
        Relevant documents per batch (e.g. papers mentioning a method, per year).
    totals : sequence of int
        Documents per batch (papers per year); each at least its `relevant` and above 0.
    s : float
        Ratio of the burst rate to the base rate (> 1).
    gamma : float
        Cost of entering the burst state, in units of ln(number of batches).

    Returns
    -------
    list of int
        One state per batch; all 0 when nothing is relevant or everything is.

    Examples
    --------
    >>> from kg.analysis.bursts import burst_states
    >>> burst_states([1, 1, 12, 14, 1], [100, 100, 100, 100, 100])
    [0, 0, 1, 1, 0]
    """
    if len(relevant) != len(totals) or any(not 0 <= r <= d or d <= 0 for r, d in zip(relevant, totals)):
        raise ValueError("each batch needs 0 <= relevant <= total and total > 0")
    n, base = len(totals), sum(relevant) / sum(totals) if totals else 0.0
    if n == 0 or base in (0.0, 1.0) or s <= 1:
        return [0] * n
    cost = (_costs(relevant, totals, base), _costs(relevant, totals, min(s * base, MAX_RATE)))
    enter = gamma * math.log(n) if n > 1 else gamma
    best = [cost[0][0], enter + cost[1][0]]  # the automaton starts in the base state
    back: list[tuple[int, int]] = []
    for t in range(1, n):
        to_base = (0, best[0]) if best[0] <= best[1] else (1, best[1])  # leaving a burst is free
        to_burst = (1, best[1]) if best[1] <= best[0] + enter else (0, best[0] + enter)
        back.append((to_base[0], to_burst[0]))
        best = [to_base[1] + cost[0][t], to_burst[1] + cost[1][t]]
    states = [0 if best[0] <= best[1] else 1]
    for choices in reversed(back):
        states.append(choices[states[-1]])
    return states[::-1]


def kleinberg_bursts(relevant: Sequence[int], totals: Sequence[int], *, s: float = 2.0,
                     gamma: float = 1.0) -> list[Burst]:
    """The bursts of a batched stream (Kleinberg 2002, two states), in batch order.

    Parameters
    ----------
    relevant, totals, s, gamma
        As `burst_states`.

    Returns
    -------
    list of Burst
        Each run of burst states: first and last batch, and its weight Σ(σ_0 - σ_1).

    Examples
    --------
    >>> from kg.analysis.bursts import kleinberg_bursts
    >>> [(b.start, b.end, round(b.weight, 2)) for b in kleinberg_bursts([1, 1, 12, 14, 1], [100] * 5)]
    [(2, 3, 6.96)]
    """
    states = burst_states(relevant, totals, s=s, gamma=gamma)
    if not any(states):
        return []
    base = sum(relevant) / sum(totals)
    gain = [c0 - c1 for c0, c1 in zip(_costs(relevant, totals, base),
                                      _costs(relevant, totals, min(s * base, MAX_RATE)))]
    bursts, start = [], None
    for t, state in enumerate([*states, 0]):
        if state and start is None:
            start = t
        elif not state and start is not None:
            bursts.append(Burst(start, t - 1, sum(gain[start:t])))
            start = None
    return bursts
