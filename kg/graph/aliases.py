"""Author identity overrides (an aliases file) and the "possibly the same person" report.

kg never merges two author names on a guess: the identity key (`kg.names.author_key`) only folds
case, accents and punctuation. What a human knows goes into an aliases file, applied by
`kg.graph.build_graph(..., aliases=load_aliases(path))`:

YAML (`.yaml`/`.yml`)::

    merge:                       # these spellings are one person, shown as `into`
      - into: Jing Liu
        names: [J. Liu, Jing M. Liu]
    split:                       # on this paper, `name` is a different person, called `into`
      - name: Jing Liu
        paper: 3f2a9c01d4e5      # Paper.key or the record's own id (a `paper:` prefix is allowed)
        into: Jing Liu (Peking University)

CSV (`.csv`), one rule a row, header `action,name,into,paper`::

    action,name,into,paper
    merge,J. Liu,Jing Liu,
    split,Jing Liu,Jing Liu (Peking University),3f2a9c01d4e5

A split is applied first (on its paper only), then merges. Merge targets are final: a target that
is itself merged elsewhere is an error, so no chain can loop. `possible_duplicates(G)` lists the
author pairs that look alike (initials, a middle name, swapped name order) for a human to decide.
"""
from __future__ import annotations

import csv
import io
import os
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import networkx as nx
import yaml

from kg.errors import InputError
from kg.names import author_key, fold
from kg.records import Author, Paper


@dataclass(frozen=True)
class Aliases:
    """Identity overrides. `merges`: author key -> (target key, target name);
    `splits`: (paper key or id, author key) -> (new key, new name)."""

    merges: dict[str, tuple[str, str]] = field(default_factory=dict)
    splits: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def resolve(self, paper: Paper, author: Author) -> tuple[str, str | None]:
        """The identity key of `author` on `paper`, and the display name the file gives it (or None)."""
        key, name = author.key, None
        for ref in (paper.key, paper.id):
            if ref is not None and (ref, key) in self.splits:
                key, name = self.splits[(ref, key)]
                break
        if key in self.merges:
            key, name = self.merges[key]
        return key, name


def _rule_error(path: Path, where: str, message: str) -> InputError:
    return InputError(f"{path}: {where}: {message} (see the aliases format in kg/aliases.py or docs/analysis.md)")


def _text(value: object, path: Path, where: str, field_name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _rule_error(path, where, f"`{field_name}` must be a non-empty name")
    return value.strip()


def _rules_from_yaml(text: str, path: Path) -> list[tuple[str, str, str, str, str | None]]:
    """(where, action, name, into, paper) rules of a YAML aliases file."""
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or set(data) - {"merge", "split"}:
        raise InputError(f"{path}: expected a mapping with `merge` and/or `split` lists")
    rules = []
    for i, entry in enumerate(data.get("merge") or [], start=1):
        where = f"merge entry {i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("names"), list):
            raise _rule_error(path, where, "expected `into: NAME` and `names: [NAME, ...]`")
        into = _text(entry.get("into"), path, where, "into")
        rules += [(where, "merge", _text(n, path, where, "names"), into, None) for n in entry["names"]]
    for i, entry in enumerate(data.get("split") or [], start=1):
        where = f"split entry {i}"
        if not isinstance(entry, dict):
            raise _rule_error(path, where, "expected `name`, `paper` and `into`")
        rules.append((where, "split", _text(entry.get("name"), path, where, "name"),
                      _text(entry.get("into"), path, where, "into"), _text(str(entry.get("paper") or ""),
                                                                           path, where, "paper")))
    return rules


def _rules_from_csv(text: str, path: Path) -> list[tuple[str, str, str, str, str | None]]:
    """(where, action, name, into, paper) rules of a CSV aliases file."""
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or not {"action", "name", "into"} <= set(reader.fieldnames):
        raise InputError(f"{path}: line 1: expected the header `action,name,into,paper`")
    rules = []
    for row in reader:
        where = f"line {reader.line_num}"
        action = (row.get("action") or "").strip().lower()
        if action not in ("merge", "split"):
            raise _rule_error(path, where, f"action must be `merge` or `split`, not {action!r}")
        paper = (row.get("paper") or "").strip() or None
        if action == "split" and paper is None:
            raise _rule_error(path, where, "a split needs the `paper` it applies to")
        rules.append((where, action, _text(row.get("name"), path, where, "name"),
                      _text(row.get("into"), path, where, "into"), paper))
    return rules


def load_aliases(path: str | os.PathLike[str]) -> Aliases:
    """Read an aliases file (YAML or CSV, by extension); errors name the file and the entry.

    Parameters
    ----------
    path : path
        A `.yaml`/`.yml` or `.csv` file of merge and split rules (the module's docstring shows both).

    Returns
    -------
    Aliases
        The rules, for `build_graph(..., aliases=...)`.

    Examples
    --------
    >>> rules = ["action,name,into,paper", "merge,J. Liu,Jing Liu,"]
    >>> _ = Path("aliases.csv").write_text("\\n".join(rules))
    >>> table = load_aliases("aliases.csv")
    >>> table.merges
    {'j-liu': ('jing-liu', 'Jing Liu')}
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the aliases file: {exc}") from exc
    parse = _rules_from_csv if path.suffix.lower() == ".csv" else _rules_from_yaml
    merges: dict[str, tuple[str, str]] = {}
    splits: dict[tuple[str, str], tuple[str, str]] = {}
    for where, action, name, into, paper in parse(text, path):
        target = (author_key(into), into)
        if action == "merge":
            if author_key(name) == target[0]:
                continue  # a spelling of the target itself: already the same key
            if merges.get(author_key(name), target) != target:
                raise _rule_error(path, where, f"{name!r} is merged into two different people")
            merges[author_key(name)] = target
        else:
            splits[(paper.removeprefix("paper:"), author_key(name))] = target
    for target_key, into in merges.values():
        if target_key in merges:
            raise InputError(f"{path}: {into!r} is a merge target and is itself merged into "
                             f"{merges[target_key][1]!r}; merge every name into the final one")
    return Aliases(merges=merges, splits=splits)


# ---------------------------------------------------------------------------- possible duplicates
def _tokens(name: str) -> list[str]:
    return [t for t in "".join(ch if ch.isalnum() else " " for ch in fold(name)).split() if t]


def _same(a: str, b: str) -> bool:
    """Equal tokens, or one is an initial of the other."""
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def similarity_reason(a: str, b: str) -> str | None:
    """Why two author names may be one person (`"same name"`, `"name order"`, `"middle name"`,
    `"initials"`), or None.

    `Jing Liu`/`Liu Jing` (order), `Jing Liu`/`Jing M. Liu` (middle name), `Jing Liu`/`J. Liu`
    (initials). Two authors with one name are distinct nodes only when external ids tell them apart
    (or one has an id and the other none): reported as `same name` for a human to judge. Single-token
    names are never matched; at least one full token must agree.
    """
    return _reason(_tokens(a), _tokens(b))


def _reason(ta: list[str], tb: list[str]) -> str | None:
    if len(ta) < 2 or len(tb) < 2:
        return None
    if ta == tb:  # two author nodes of one name: their external ids (or one's lack of them) differ
        return "same name"
    if sorted(ta) == sorted(tb):
        return "name order"
    if not (_same(ta[0], tb[0]) and _same(ta[-1], tb[-1])):
        return None
    if not any(x == y and len(x) > 1 for x, y in ((ta[0], tb[0]), (ta[-1], tb[-1]))):
        return None
    ma, mb = ta[1:-1], tb[1:-1]
    if ma and mb:
        return "initials" if len(ma) == len(mb) and all(map(_same, ma, mb)) else None
    return "middle name" if ma or mb else "initials"


def possible_duplicates(G: nx.DiGraph) -> list[dict]:
    """Author pairs of the graph whose labels look like one person; never merged, only reported.

    Each entry: `authors` (the two node keys, sorted), `labels`, `reason`, `papers` (count each),
    `shared_coauthors` and `shared_tracks` (evidence for or against: same people, same tracks).
    Sorted by the pair of keys.
    """
    papers_of: dict[str, list[str]] = defaultdict(list)
    for paper, author, rel in G.edges(data="rel"):
        if rel == "authored_by":
            papers_of[author].append(paper)
    tokens = {node: _tokens(data["label"]) for node, data in G.nodes(data=True) if data.get("kind") == "author"}
    # Every pair `_reason` accepts shares a bucket: the same tokens in any order, or the same last
    # token and first initial, or the same first token and last initial. (Bucketing by any shared
    # token would pair every two Wangs: millions of pairs at 10,000 papers.)
    buckets: dict[tuple, set[str]] = defaultdict(set)
    for node, words in tokens.items():
        if len(words) >= 2:
            for bucket in (tuple(sorted(words)), ("", words[-1], words[0][0]), ("", words[0], words[-1][0])):
                buckets[bucket].add(node)

    def neighbourhood(author: str, rel: str) -> set[str]:
        return {v for p in papers_of[author] for _, v, r in G.out_edges(p, data="rel") if r == rel} - {author}

    # Pairs are judged bucket by bucket and only the accepted ones kept: at 100,000 papers the
    # buckets hold millions of candidate pairs for each few thousand accepted.
    reasons = {(u, v): reason for group in buckets.values() for u, v in combinations(sorted(group), 2)
               if (reason := _reason(tokens[u], tokens[v])) is not None}
    return [{
        "authors": [u, v], "labels": [G.nodes[u]["label"], G.nodes[v]["label"]], "reason": reason,
        "papers": [len(papers_of[u]), len(papers_of[v])],
        "shared_coauthors": len(neighbourhood(u, "authored_by") & neighbourhood(v, "authored_by")),
        "shared_tracks": len(neighbourhood(u, "in_track") & neighbourhood(v, "in_track")),
    } for (u, v), reason in sorted(reasons.items())]
