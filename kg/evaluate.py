"""Method-extraction quality against gold data: `kg eval GOLD.jsonl`.

Gold: JSON Lines `{"id", "text", "methods": [mention strings]}` (SciERC's Method mentions in
`../shared/data/scierc_dev.jsonl`). Each document is scored on *distinct normalised strings*
(`normalize_term`): the gold set is its normalised `methods`, the predicted set the normalised
text of every mention extraction found. Counts are summed over documents (micro average).

* strict: a predicted string is a true positive when it equals a gold string.
* lenient: two strings match when one's token sequence is a contiguous run of the other's
  (`quantization` ~ `weight quantization error`). Precision = predicted strings that match some
  gold string / predicted strings; recall = gold strings matched by some predicted string / gold
  strings; so one prediction may recall several gold strings and vice versa.

F1 is the harmonic mean of precision and recall (0 when both are 0).
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from spacy.language import Language

from kg.errors import InputError, RecordError
from kg.records import Paper

_DROP = frozenset({"a", "an", "the", "of", "for", "and", "with", "to", "in", "on"})
_SEPARATORS = re.compile(r"[^\w\s+#.]|_")


def normalize_term(text: str) -> str:
    """NFKC, case-fold, dashes and punctuation other than `+ # .` to spaces, drop
    a/an/the/of/for/and/with/to/in/on, singularise words longer than 3 chars ending in one `s`."""
    text = _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    words = [w for w in text.split() if w not in _DROP]
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words)


@dataclass(frozen=True)
class GoldDoc:
    """One gold document: its id, text and annotated method mention strings."""

    id: str
    text: str
    methods: tuple[str, ...]


def load_gold(path: str | Path) -> list[GoldDoc]:
    """Read a gold JSONL file; a malformed line raises RecordError naming file and line."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read gold file ({exc}); give a UTF-8 JSON Lines file") from exc
    docs = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            docs.append(GoldDoc(str(record["id"]), record["text"], tuple(record["methods"])))
        except (ValueError, KeyError, TypeError) as exc:
            raise RecordError(str(path), number, f"not a gold record with id, text, methods ({exc})") from exc
    if not docs:
        raise InputError(f"{path}: no gold records; expected one JSON object per line")
    return docs


def _matches(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Is one token sequence a contiguous run of the other?"""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return any(long[i:i + len(short)] == short for i in range(len(long) - len(short) + 1))


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


def _prf(tp_p: int, n_pred: int, tp_g: int, n_gold: int) -> dict[str, float | int]:
    p, r = _ratio(tp_p, n_pred), _ratio(tp_g, n_gold)
    return {"precision": p, "recall": r, "f1": _ratio(2 * p * r, p + r) if p + r else 0.0,
            "tp_predicted": tp_p, "tp_gold": tp_g, "predicted": n_pred, "gold": n_gold}


def score(gold: Sequence[GoldDoc], predicted: Sequence[Iterable[str]]) -> dict[str, dict[str, float | int]]:
    """Strict and lenient micro P/R/F1 of `predicted` (strings per document, in gold order)."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(predicted)} predictions for {len(gold)} gold documents")
    strict = [0, 0, 0]  # tp, predicted, gold
    lenient = [0, 0]  # predicted matched, gold matched
    for doc, pred in zip(gold, predicted):
        g = {n for n in map(normalize_term, doc.methods) if n}
        p = {n for n in map(normalize_term, pred) if n}
        strict[0] += len(g & p)
        strict[1] += len(p)
        strict[2] += len(g)
        g_tokens = [tuple(x.split()) for x in g]
        p_tokens = [tuple(x.split()) for x in p]
        lenient[0] += sum(any(_matches(pt, gt) for gt in g_tokens) for pt in p_tokens)
        lenient[1] += sum(any(_matches(pt, gt) for pt in p_tokens) for gt in g_tokens)
    return {"strict": _prf(strict[0], strict[1], strict[0], strict[2]),
            "lenient": _prf(lenient[0], strict[1], lenient[1], strict[2])}


def gold_papers(gold: Sequence[GoldDoc]) -> list[Paper]:
    """The gold documents as Papers (their text is extraction's input as is)."""
    return [Paper(key=doc.id, authors=(), abstract=doc.text, text=doc.text, id=doc.id) for doc in gold]


def evaluate(gold_path: str | Path, nlp: Language | None = None, *, workers: int = 1) -> dict:
    """Score our extraction (`kg.extract.extract` with `nlp`, default blank English) on a gold file.

    Returns `{"gold", "documents", "pipeline", "strict": {...}, "lenient": {...}}`, each scoring
    block with precision, recall, f1 and the counts behind them.
    """
    from kg.extract import extract, make_pipeline

    gold = load_gold(gold_path)
    nlp = nlp if nlp is not None else make_pipeline()
    found = extract(gold_papers(gold), nlp=nlp, workers=workers)
    predicted = [[m.text for method in found[doc.id] for m in method.mentions] for doc in gold]
    return {"gold": str(gold_path), "documents": len(gold), "pipeline": pipeline_name(nlp), **score(gold, predicted)}


def pipeline_name(nlp: Language) -> str:
    """`blank:en` or the trained pipeline's `lang_name-version`."""
    name = nlp.meta.get("name", "pipeline")
    return f"blank:{nlp.lang}" if not nlp.meta.get("version") or name == "pipeline" else \
        f"{nlp.lang}_{name}-{nlp.meta['version']}"
