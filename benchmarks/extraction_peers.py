"""Our method-term extraction beside unsupervised peers, on SciERC dev (Luan et al., EMNLP 2018).

    python benchmarks/extraction_peers.py [GOLD.jsonl]

Every system is scored by `kg.evaluate.score` (the rules of `kg eval`: distinct normalised strings
per document, strict and lenient micro P/R/F1). Peers: YAKE top-10 (n <= 3; needs nothing),
pytextrank top-10 and all noun chunks (both need a dependency parser, so they run on the trained
pipeline `en_core_web_sm` when it is installed and are reported "n/a (needs a parser)" otherwise).
`main()` prints the table and returns `{system: {"strict": {...}, "lenient": {...}} or None}`.
"""
from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from kg.errors import ArgumentError
from kg.evaluate import GoldDoc, evaluate, load_gold, score
from kg.extract import make_pipeline

GOLD = Path(__file__).resolve().parents[2] / "shared" / "data" / "scierc_dev.jsonl"
TRAINED = "en_core_web_sm"
TOP = 10


def _yake(gold: Sequence[GoldDoc]) -> list[list[str]]:
    import yake

    extractor = yake.KeywordExtractor(lan="en", n=3, top=TOP)
    return [[kw for kw, _ in extractor.extract_keywords(doc.text)] for doc in gold]


def _textrank(gold: Sequence[GoldDoc]) -> list[list[str]]:
    import spacy

    with contextlib.redirect_stdout(io.StringIO()):  # pytextrank prints a git error on import outside its repo
        import pytextrank  # noqa: F401  (registers the `textrank` factory)

    nlp = _trained_spacy(spacy)
    nlp.add_pipe("textrank")
    return [[p.text for p in doc._.phrases[:TOP]] for doc in nlp.pipe(d.text for d in gold)]


def _noun_chunks(gold: Sequence[GoldDoc]) -> list[list[str]]:
    import spacy

    nlp = _trained_spacy(spacy)
    return [[c.text for c in doc.noun_chunks] for doc in nlp.pipe(d.text for d in gold)]


def _trained_spacy(spacy):
    from kg.extract.pipeline import ALIASES

    for name in ALIASES[TRAINED]:
        try:
            return spacy.load(name)
        except OSError:
            continue
    raise OSError(f"{TRAINED} is not installed")


def _row(name: str, result: dict | None, note: str = "") -> list[str]:
    if result is None:
        return [name] + [note] + [""] * 5
    s, l_ = result["strict"], result["lenient"]
    return [name] + [f"{x:.3f}" for x in (s["precision"], s["recall"], s["f1"], l_["precision"], l_["recall"], l_["f1"])]


def main(argv: Sequence[str] | None = None) -> dict[str, dict | None]:
    """Score ours and the peers on the gold file (default: shared SciERC dev); print and return."""
    argv = list(sys.argv[1:] if argv is None else argv)
    path = Path(argv[0]) if argv else GOLD
    if not path.exists():
        print(f"{path}: gold file not found; nothing to score")
        return {}
    gold = load_gold(path)
    results: dict[str, dict | None] = {"ours (blank en)": evaluate(path, make_pipeline())}
    notes: dict[str, str] = {}
    try:
        results[f"ours ({TRAINED})"] = evaluate(path, make_pipeline(TRAINED))
    except ArgumentError:
        results[f"ours ({TRAINED})"], notes[f"ours ({TRAINED})"] = None, "n/a (not installed)"
    peers: dict[str, Callable[[Sequence[GoldDoc]], list[list[str]]]] = {
        "YAKE top-10": _yake, "pytextrank top-10": _textrank, "noun chunks (all)": _noun_chunks}
    for name, predict in peers.items():
        try:
            results[name] = score(gold, predict(gold))
        except OSError:
            results[name], notes[name] = None, "n/a (needs a parser)"
        except ImportError as exc:
            results[name], notes[name] = None, f"n/a ({exc.name} not installed)"
    header = ["system", "strict P", "strict R", "strict F1", "lenient P", "lenient R", "lenient F1"]
    rows = [_row(name, r, notes.get(name, "")) for name, r in results.items()]
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    print(f"{path.name}: {len(gold)} documents, {results['ours (blank en)']['strict']['gold']} distinct normalised gold methods "
          "(SciERC, Luan et al. 2018)")
    for r in [header] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    return {name: None if r is None else {"strict": r["strict"], "lenient": r["lenient"]} for name, r in results.items()}


if __name__ == "__main__":
    main()
