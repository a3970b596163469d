"""Synthetic paper corpora for the benchmarks, deterministic from a seed.

The generator imitates a conference listing closely enough that every stage does its real work:

* **authors**: Zipf-like productivity (a few authors write many papers, most write one), 1-15 authors
  per paper with the team-size histogram of IJCAI 2024, and team re-use (a paper often shares most of
  its authors with an earlier one); now and then a list truncated with `等` ("et al.");
* **tracks**: drawn from the real IJCAI 2024 taxonomy with its frequencies, a quarter of papers
  without a track line, as in the real data;
* **abstracts** of 150-250 words assembled from templates and a vocabulary mined from the real
  abstracts: defined acronyms (`long form (LF)`) that are used again later, CamelCase and hyphenated
  method names, technique phrases, some LaTeX (`$\\epsilon$`, `\\textbf{...}`, `\\enquote{...}`,
  `*emphasis*`), and filler sentences taken from the real abstracts.

The vocabulary is read at run time from `../shared/data/ijcai2024.jsonl` when it is there, else a
small built-in one is used (`Vocabulary.source` says which). Output: the listing format and JSONL
(`write_listing`, `write_jsonl`, `ensure_corpus` into `benchmarks/out/`), or kg `Paper` records in
memory (`iter_papers`).

    python benchmarks/corpus.py --sizes 1000,10000 [--seed 0] [--out benchmarks/out]
"""
from __future__ import annotations

import argparse
import bisect
import hashlib
import itertools
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: make the kg package importable
    sys.path.insert(0, str(ROOT))

from kg._util.io import atomic_open  # noqa: E402
from kg.records import Paper, Source  # noqa: E402

#: The shared data folder (`../shared/data` beside the repository), read when present.
DATA_DIR = ROOT.parent / "shared" / "data"
#: Where generated corpora go (git-ignored).
OUT_DIR = Path(__file__).resolve().parent / "out"
#: The largest team the generator makes.
MAX_AUTHORS = 15
#: Abstract length in words (IJCAI 2024: 167 on average).
MIN_WORDS, MAX_WORDS = 150, 250
#: Share of papers whose author list is truncated with `等`.
TRUNCATED_SHARE = 0.005
#: Probability that a paper re-uses (most of) an earlier team.
TEAM_REUSE = 0.15
#: Probability that an authorship goes to a new author (Simon's model; IJCAI 2024 has 4,303
#: distinct authors over 5,105 authorships, 87% of them with one paper; with team re-use this gives
#: about 3,950 over 4,970 and 84% at the same size).
NEW_AUTHOR = 0.88

_SKIP_WORDS = frozenset("a an and as at by for from in into of on or the to via with".split())
_NOT_IN_PHRASE = _SKIP_WORDS | frozenset(
    "our this that its their such more based which are can has have been novel existing proposed "
    "using while other these also both each most than then when where over under between through "
    "without not all any new two one use used during like different improve gained significant "
    "increasing method methods is be we it".split())
_PHRASE_HEADS = (
    "learning sampling training attention regression optimization search distillation alignment "
    "embedding augmentation tuning descent inference planning programming network networks "
    "transformer transformers encoder decoder propagation clustering pruning quantization estimation "
    "filtering aggregation").split()
_PHRASE = re.compile(r"\b((?:[a-z]+-)?[a-z]{3,} (?:[a-z]+(?:-[a-z]+)? )?(?:%s))\b" % "|".join(_PHRASE_HEADS))
_ACRONYM_DEF = re.compile(r"((?:[A-Za-z][\w'-]*\s+){1,8})\(([A-Z][A-Za-z0-9-]*[A-Z][A-Za-z0-9-]*?)s?\)")
_NAME = re.compile(r"(?<![\w-])(?=[A-Za-z0-9+-]*[a-z][A-Z]|[A-Z0-9]+-[A-Z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\+*(?![\w-])")
_SENTENCE_END = re.compile(r"(?<=\.)\s+(?=[A-Z])")
_PLAIN_SENTENCE = re.compile(r"[A-Z][a-z]*(?:,? [a-z][a-z'-]*)+\.")

#: LaTeX and markup snippets as they occur in real abstracts (the reader cleans them).
_LATEX = (r"$\epsilon$", r"$O(\sqrt{T \log n})$", r"$\ell_1$", r"$k$", r"$\mathcal{O}(n^2)$",
          r"$\delta$-approximate", r"$1/\epsilon^2$", r"$\lambda$")

_TEMPLATES_INTRO = (
    "{Task} has attracted increasing attention in recent years.",
    "Existing approaches to {task} rely on {phrase}, which scales poorly to large inputs.",
    "However, {phrase} struggles when the data for {task} are scarce or noisy.",
)
_TEMPLATES_PROPOSE = (
    "To address this, we propose {long} ({acr}), which combines {phrase} with {phrase2}.",
    "In this paper, we introduce {long} ({acr}), a \\textbf{{{name}}} variant built on {phrase}.",
    "We present {long} ({acr}) for {task}, trained with {phrase} and \\enquote{{{phrase2}}}.",
)
_TEMPLATES_METHOD = (
    "Specifically, {acr} adopts {phrase} and a {name} module to encode each instance.",
    "We prove that {acr} converges at a rate of {latex} under mild assumptions.",
    "Unlike {name}, our model uses *{phrase}* with a budget of {latex} per step.",
    "The {name} encoder is combined with {phrase} to reduce the cost of {task}.",
    "We further show that {phrase} is a special case of {acr} when {latex} vanishes.",
)
_TEMPLATES_RESULT = (
    "Experiments on {name} and {name2} show that {acr} outperforms {name3} on {task}.",
    "Extensive experiments demonstrate that {acr} improves over {phrase} baselines by a wide margin.",
)


@dataclass(frozen=True)
class Vocabulary:
    """What abstracts, tracks and names are made of; `source` says where it came from."""

    source: str
    tracks: tuple[str | None, ...]  #: track labels (`Area · Subarea`, or None for no track line)
    track_weights: tuple[int, ...]  #: how often each label occurs
    acronyms: tuple[tuple[str, str], ...]  #: (long form, acronym) pairs
    names: tuple[str, ...]  #: CamelCase / hyphenated method names
    phrases: tuple[str, ...]  #: multi-word technique phrases
    filler: tuple[str, ...]  #: plain sentences without method names
    given: tuple[str, ...]  #: given names
    family: tuple[str, ...]  #: family names
    team_sizes: tuple[int, ...]  #: weight of team size 1..MAX_AUTHORS (index 0 = one author)

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task names for the templates: the subareas (else areas) of the taxonomy, lower-cased."""
        labels = {label.split(" · ")[-1].lower() for label in self.tracks if label}
        return tuple(sorted(labels))


_BUILTIN = Vocabulary(
    source="built-in",
    tracks=("Machine Learning · Reinforcement learning", "Machine Learning · Federated learning",
            "Computer Vision · 3D computer vision", "Data Mining · Mining graphs",
            "Natural Language Processing · Language models", "Search · Evolutionary computation",
            "Game Theory and Economic Paradigms · Computational social choice",
            "Knowledge Representation and Reasoning · Argumentation", "Planning and Scheduling", None),
    track_weights=(24, 22, 18, 17, 8, 7, 18, 10, 6, 60),
    acronyms=(("Graph Neural Network", "GNN"), ("Failure is Feedback", "FiF"),
              ("parameter-efficient fine-tuning", "PEFT"), ("Behavior-Aware Detection and Adaptation", "BADA"),
              ("Large Language Model", "LLM"), ("Vision-Language Pre-training", "VLP"),
              ("Monte Carlo Tree Search", "MCTS"), ("Knowledge Graph", "KG")),
    names=("BlockPerm-SJLT", "GP-UCB", "PPI++", "FedAvg", "SimRank", "GraphSAGE", "ImageNet",
           "TrAdaBoost", "AnchorGT", "FastKGE", "ResNet-50", "MaxSAT"),
    phrases=("quantization-aware training", "Thompson sampling", "contrastive learning",
             "knowledge distillation", "graph neural networks", "policy gradient optimization",
             "federated learning", "data augmentation", "self-supervised learning", "local search"),
    filler=("Our results show a clear improvement in both accuracy and efficiency.",
            "This setting is common in practice and has received little attention so far.",
            "We analyse the trade-off between the quality of the solution and the running time.",
            "The problem is hard in general, but tractable cases arise in many applications.",
            "We release our code and data to support further research.",
            "A series of ablation studies confirms the contribution of each component.",
            "These findings suggest several directions for future work.",
            "In addition, the approach is robust to the choice of its hyperparameters."),
    given=tuple(a + b for a in ("Wei", "Xun", "An", "Jie", "Ma", "Yan", "Lu", "Pri", "Hao", "So", "Ken", "Omar",
                                "Li", "Ta", "Ra", "Ele", "Mi", "Ju", "Ka", "No")
                for b in ("", "na", "ran", "ko", "lia", "min", "do", "ya", "ri", "sha", "el", "tan")),
    family=tuple(a + b for a in ("Zhang", "Li", "Wang", "Smith", "Müller", "Rossi", "Chen", "Kumar", "Tanaka",
                                 "Garcia", "Liu", "Nguyen", "Berg", "Okafor", "Silva", "Novak", "Haddad", "Kim")
                 for b in ("", "son", "ova", "ini", "er", "ez", "berg", "mann", "yama", "ski")),
    team_sizes=(20, 90, 180, 220, 200, 140, 90, 50, 25, 12, 7, 4, 2, 1, 1),
)


def _acronym_long_form(words: Sequence[str], acronym: str) -> str | None:
    """The shortest tail of `words` whose initials (skipping `and`, `of`, ...) spell `acronym`."""
    letters = "".join(ch for ch in acronym if ch.isupper())
    for start in range(max(0, len(words) - len(letters) - 3), len(words)):
        tail = words[start:]
        if tail[0].lower() in _SKIP_WORDS:
            continue
        initials = "".join(part[:1] for word in tail for part in word.split("-")
                           if part and part.lower() not in _SKIP_WORDS)
        if initials.upper() == letters:
            return " ".join(tail)
    return None


def _mine(records: Sequence[dict]) -> Vocabulary:
    """Build the vocabulary from real records (JSON objects with authors, track, abstract)."""
    acronyms: dict[str, str] = {}
    names: Counter[str] = Counter()
    phrases: Counter[str] = Counter()
    filler: list[str] = []
    tracks: Counter[str | None] = Counter()
    given: Counter[str] = Counter()
    family: Counter[str] = Counter()
    team_sizes = [0] * MAX_AUTHORS
    for record in records:
        abstract = record.get("abstract") or ""
        tracks[record.get("track")] += 1
        authors = record.get("authors") or []
        team_sizes[min(max(len(authors), 1), MAX_AUTHORS) - 1] += 1
        for author in authors:
            parts = author.split()
            if len(parts) >= 2:
                given[" ".join(parts[:-1])] += 1
                family[parts[-1]] += 1
        for match in _ACRONYM_DEF.finditer(abstract):
            long_form = _acronym_long_form(match.group(1).split(), match.group(2))
            if long_form:
                acronyms.setdefault(match.group(2), long_form)
        names.update(m.group() for m in _NAME.finditer(abstract))
        for match in _PHRASE.finditer(abstract):
            words = match.group(1).split()
            if not any(word in _NOT_IN_PHRASE for word in words):
                phrases[" ".join(words)] += 1
        filler += (s for s in _SENTENCE_END.split(abstract)
                   if _PLAIN_SENTENCE.fullmatch(s) and 8 <= s.count(" ") + 1 <= 35)
    names_kept = [n for n in sorted(names) if n not in acronyms]
    return Vocabulary(
        source="ijcai2024",
        tracks=tuple(tracks), track_weights=tuple(tracks.values()),
        acronyms=tuple((long, acr) for acr, long in sorted(acronyms.items())),
        names=tuple(names_kept),
        phrases=tuple(sorted(p for p, n in phrases.items() if n >= 2)),
        filler=tuple(sorted(set(filler))),
        given=tuple(sorted(given)), family=tuple(sorted(family)),
        team_sizes=tuple(team_sizes),
    )


def load_vocabulary(data_dir: Path | None = DATA_DIR) -> Vocabulary:
    """The vocabulary mined from `data_dir/ijcai2024.jsonl`, or the built-in one if it is absent."""
    path = None if data_dir is None else Path(data_dir) / "ijcai2024.jsonl"
    if path is None or not path.is_file():
        return _BUILTIN
    with path.open(encoding="utf-8") as handle:
        return _mine([json.loads(line) for line in handle if line.strip()])


@dataclass(frozen=True)
class SyntheticPaper:
    """One generated paper, before any reader has seen it."""

    title: str
    authors: tuple[str, ...]
    truncated: bool
    track: str | None
    abstract: str

    def to_listing(self) -> str:
        """The record in the listing format (no trailing blank line)."""
        names = ", ".join(self.authors) + (", 等" if self.truncated else "")
        lines = ([self.track] if self.track else []) + [names, self.abstract]
        return "\n\n".join(lines)

    def to_json(self) -> dict:
        """The record as a JSONL object (title, authors, track, abstract)."""
        authors = list(self.authors) + (["等"] if self.truncated else [])
        return {"title": self.title, "authors": authors, "track": self.track, "abstract": self.abstract}


class _AuthorPool:
    """Authors with Zipf-like productivity, by Simon's preferential-attachment model.

    Each author slot goes to a new author with probability `NEW_AUTHOR`, else to an author already
    seen, chosen in proportion to the papers they have (the rich get richer): the number of authors
    with k papers then falls off as a power of k (Lotka's law). Author i's name comes from a fixed
    bijection over given x family names, so names are unique until the combinations run out (then
    they repeat, as homonyms do).
    """

    def __init__(self, vocab: Vocabulary, rng: random.Random) -> None:
        self._given, self._family = vocab.given, vocab.family
        self._combos = len(self._given) * len(self._family)
        self._stride = next(p for p in itertools.count(7919, 2) if all(self._combos % q for q in _factors(p)))
        self._offset = rng.randrange(self._combos)
        self._rng = rng
        self._slots: list[int] = []  # one entry per authorship so far: a draw from it is preferential
        self._count = 0

    def name(self, index: int) -> str:
        """The name of author `index` (authors are numbered in order of appearance)."""
        slot = (index * self._stride + self._offset) % self._combos
        return f"{self._given[slot % len(self._given)]} {self._family[slot // len(self._given)]}"

    def draw(self) -> int:
        """An author for one more authorship: new, or an earlier one by preferential attachment."""
        if not self._slots or self._rng.random() < NEW_AUTHOR:
            self._count += 1
            index = self._count - 1
        else:
            index = self._rng.choice(self._slots)
        return index

    def record(self, team: Iterable[int]) -> None:
        """Count the authorships of one paper."""
        self._slots.extend(team)


def _factors(n: int) -> list[int]:
    """The prime factors of `n` (n small)."""
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


class _Generator:
    """The state of one deterministic generation run."""

    def __init__(self, seed: int, vocab: Vocabulary) -> None:
        self.rng = random.Random(seed)
        self.vocab = vocab
        self.tasks = vocab.tasks or ("learning",)
        self.pool = _AuthorPool(vocab, self.rng)
        self.teams: list[tuple[int, ...]] = []
        self.track_cum = list(itertools.accumulate(vocab.track_weights))
        self.size_cum = list(itertools.accumulate(vocab.team_sizes))

    def team(self) -> tuple[int, ...]:
        """Author indices of one paper: a fresh Zipf team, or an earlier team with a change or two."""
        rng = self.rng
        size = rng.choices(range(1, MAX_AUTHORS + 1), cum_weights=self.size_cum)[0]
        if self.teams and rng.random() < TEAM_REUSE:
            earlier = list(rng.choice(self.teams))
            keep = rng.sample(earlier, k=max(1, len(earlier) - rng.randint(0, 2)))
            members = dict.fromkeys(keep[:size] if len(keep) >= size else keep)
        else:
            members = {}
        while len(members) < size:
            members.setdefault(self.pool.draw())
        team = tuple(members)
        self.teams.append(team)
        self.pool.record(team)
        return team

    def abstract(self) -> tuple[str, str]:
        """(title, abstract) of MIN_WORDS to MAX_WORDS words (a template sentence may overshoot a little)."""
        rng, vocab = self.rng, self.vocab
        long, acr = rng.choice(vocab.acronyms)
        task = rng.choice(self.tasks)
        names = rng.sample(vocab.names, 3)
        slots = {"long": long, "acr": acr, "task": task, "Task": task[:1].upper() + task[1:],
                 "name": names[0], "name2": names[1], "name3": names[2]}

        def fill(template: str) -> str:
            phrases = rng.sample(vocab.phrases, 2)
            return template.format(**slots, phrase=phrases[0], phrase2=phrases[1], latex=rng.choice(_LATEX))

        head = [fill(rng.choice(_TEMPLATES_INTRO)), fill(rng.choice(_TEMPLATES_PROPOSE))]
        head += [fill(t) for t in rng.sample(_TEMPLATES_METHOD, rng.randint(2, 3))]
        tail = fill(rng.choice(_TEMPLATES_RESULT))
        target = rng.randint(MIN_WORDS, MAX_WORDS)
        words = sum(s.count(" ") + 1 for s in head) + tail.count(" ") + 1
        while words < target:
            sentence = rng.choice(vocab.filler)
            length = sentence.count(" ") + 1
            if words + length > MAX_WORDS and words >= MIN_WORDS:
                break
            head.insert(rng.randint(1, len(head)), sentence)
            words += length
        title = f"{acr}: {long} for {task[:1].upper() + task[1:]}"
        return title, " ".join(head + [tail])

    def paper(self) -> SyntheticPaper:
        """One paper."""
        team = self.team()
        track = self.vocab.tracks[bisect.bisect_left(self.track_cum, self.rng.random() * self.track_cum[-1])]
        truncated = len(team) > 1 and self.rng.random() < TRUNCATED_SHARE
        title, abstract = self.abstract()
        return SyntheticPaper(title=title, authors=tuple(self.pool.name(i) for i in team),
                              truncated=truncated, track=track, abstract=abstract)


def generate(n: int, seed: int = 0, vocab: Vocabulary | None = None) -> Iterator[SyntheticPaper]:
    """`n` synthetic papers, the same ones for the same `seed` and vocabulary."""
    state = _Generator(seed, vocab or load_vocabulary())
    for _ in range(n):
        yield state.paper()


def iter_papers(n: int, seed: int = 0, vocab: Vocabulary | None = None) -> Iterator[Paper]:
    """The same corpus as kg `Paper` records, built in memory the way the readers build them.

    Each record's `source` is `synthetic-seed<seed>` and its 1-based position.
    """
    from kg.readers.fields import make_paper, parse_track

    name = f"synthetic-seed{seed}"
    for number, paper in enumerate(generate(n, seed, vocab), start=1):
        yield make_paper(abstract=paper.abstract, authors=paper.authors, truncated=paper.truncated,
                         track=parse_track(paper.track), title=paper.title, source=Source(name, number))


def write_listing(papers: Iterable[SyntheticPaper], path: Path) -> Path:
    """Write `papers` in the listing format (records separated by blank lines), atomically."""
    with atomic_open(path) as out:
        for i, paper in enumerate(papers):
            out.write(("\n\n" if i else "") + paper.to_listing())
        out.write("\n")
    return Path(path)


def write_jsonl(papers: Iterable[SyntheticPaper], path: Path) -> Path:
    """Write `papers` as JSON Lines, atomically."""
    with atomic_open(path) as out:
        for paper in papers:
            out.write(json.dumps(paper.to_json(), ensure_ascii=False) + "\n")
    return Path(path)


def _fingerprint(vocab: Vocabulary) -> str:
    """A short hash of this generator's code and vocabulary source, so stale corpora are not reused."""
    digest = hashlib.sha1(Path(__file__).read_bytes())
    digest.update(vocab.source.encode())
    return digest.hexdigest()[:8]


def ensure_corpus(n: int, seed: int = 0, out_dir: Path = OUT_DIR,
                  vocab: Vocabulary | None = None) -> tuple[Path, Path]:
    """(listing path, JSONL path) of the corpus of `n` papers, generated unless already on disk.

    File names carry a fingerprint of the generator; files of an older generator are removed.
    """
    vocab = vocab or load_vocabulary()
    prefix = f"synthetic-{n}-seed{seed}-"
    stem = Path(out_dir) / f"{prefix}{_fingerprint(vocab)}"
    listing, jsonl = stem.with_suffix(".txt"), stem.with_suffix(".jsonl")
    for stale in Path(out_dir).glob(f"{prefix}*"):
        if stale not in (listing, jsonl):
            stale.unlink()
    if not listing.is_file():
        write_listing(generate(n, seed, vocab), listing)
    if not jsonl.is_file():
        write_jsonl(generate(n, seed, vocab), jsonl)
    return listing, jsonl


def main(argv: Sequence[str] | None = None) -> int:
    """Write the corpora of the given sizes and print their paths."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated paper counts")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    vocab = load_vocabulary()
    for n in (int(s) for s in args.sizes.split(",")):
        for path in ensure_corpus(n, args.seed, args.out, vocab):
            print(f"{path}\t{path.stat().st_size / 1e6:.1f} MB\t(vocabulary: {vocab.source})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
