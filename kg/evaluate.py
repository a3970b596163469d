"""Method-extraction quality against gold data: `kg eval GOLD.jsonl ...`.

Gold: JSON Lines, one document a line, in either of two forms:

* `{"id", "text", "methods": [mention strings]}` (`doc_id` or `doc_key` instead of `id` are
  accepted, as SciERC's releases name it);
* SciERC's original release: `{"doc_key", "sentences": [[token, ...], ...], "ner": [[[start, end,
  type], ...], ...]}`, spans inclusive over the document's tokens; the text is the tokens joined by
  spaces and the methods are the `Method` spans.

Each document is scored on *distinct normalised strings* (`normalize_term`): the gold set is its
normalised `methods`, the predicted set the normalised text of every mention extraction found.
Counts are summed over documents (micro average).

* strict: a predicted string is a true positive when it equals a gold string.
* lenient: two strings match when one's token sequence is a contiguous run of the other's
  (`quantization` ~ `weight quantization error`). Precision = predicted strings that match some
  gold string / predicted strings; recall = gold strings matched by some predicted string / gold
  strings; so one prediction may recall several gold strings and vice versa.

F1 is the harmonic mean of precision and recall (0 when both are 0). `errors` lists, per
document, what the two sides disagree on.
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


_ID_KEYS = ("id", "doc_id", "doc_key")
GOLD_TYPE = "Method"


def load_gold(path: str | Path) -> list[GoldDoc]:
    """Read a gold JSONL file (either form, see the module docstring); a malformed line raises
    RecordError naming file and line."""
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
            docs.append(gold_doc(json.loads(line)))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise RecordError(str(path), number, "not a gold record with id (or doc_id/doc_key), text and methods, "
                                                 f"or doc_key, sentences and ner ({exc})") from exc
    if not docs:
        raise InputError(f"{path}: no gold records; expected one JSON object per line")
    return docs


def gold_doc(record: dict) -> GoldDoc:
    """One parsed gold line as a GoldDoc; raises KeyError/TypeError/ValueError when malformed."""
    if not isinstance(record, dict):
        raise TypeError(f"a JSON object expected, got {type(record).__name__}")
    key = next((k for k in _ID_KEYS if k in record), None)
    if key is None:
        raise KeyError("id")
    if "text" not in record and "sentences" in record:
        return _from_sentences(str(record[key]), record["sentences"], record["ner"])
    methods = record["methods"]
    if not isinstance(methods, list) or not all(isinstance(m, str) for m in methods):
        raise TypeError("methods must be a list of strings")
    if not isinstance(record["text"], str):
        raise TypeError("text must be a string")
    return GoldDoc(str(record[key]), record["text"], tuple(methods))


def _from_sentences(doc_id: str, sentences: list, ner: list) -> GoldDoc:
    """SciERC's original form: tokenised sentences and per-sentence `[start, end, type]` spans,
    inclusive, indexing the document's tokens."""
    tokens = [str(t) for sentence in sentences for t in sentence]
    methods = []
    for spans in ner:
        for start, end, label in spans:
            if label != GOLD_TYPE:
                continue
            if not 0 <= int(start) <= int(end) < len(tokens):
                raise ValueError(f"span [{start}, {end}] outside the document's {len(tokens)} tokens")
            methods.append(" ".join(tokens[int(start):int(end) + 1]))
    return GoldDoc(doc_id, " ".join(tokens), tuple(methods))


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


def _compare(gold: Iterable[str], pred: Iterable[str]) -> tuple[set[str], set[str], set[str], set[str]]:
    """Normalised gold and predicted sets, and those of each matched leniently by the other side."""
    g = {n for n in map(normalize_term, gold) if n}
    p = {n for n in map(normalize_term, pred) if n}
    g_tokens = {x: tuple(x.split()) for x in g}
    p_tokens = {x: tuple(x.split()) for x in p}
    p_hit = {x for x, pt in p_tokens.items() if any(_matches(pt, gt) for gt in g_tokens.values())}
    g_hit = {x for x, gt in g_tokens.items() if any(_matches(pt, gt) for pt in p_tokens.values())}
    return g, p, g_hit, p_hit


def score(gold: Sequence[GoldDoc], predicted: Sequence[Iterable[str]]) -> dict[str, dict[str, float | int]]:
    """Strict and lenient micro P/R/F1 of `predicted` (strings per document, in gold order)."""
    if len(gold) != len(predicted):
        raise ValueError(f"{len(predicted)} predictions for {len(gold)} gold documents")
    strict = [0, 0, 0]  # tp, predicted, gold
    lenient = [0, 0]  # predicted matched, gold matched
    for doc, pred in zip(gold, predicted):
        g, p, g_hit, p_hit = _compare(doc.methods, pred)
        strict[0] += len(g & p)
        strict[1] += len(p)
        strict[2] += len(g)
        lenient[0] += len(p_hit)
        lenient[1] += len(g_hit)
    return {"strict": _prf(strict[0], strict[1], strict[0], strict[2]),
            "lenient": _prf(lenient[0], strict[1], lenient[1], strict[2])}


def errors(gold: Sequence[GoldDoc], predicted: Sequence[Iterable[str]]) -> list[dict]:
    """What gold and prediction disagree on, per document with a disagreement, in gold order.

    Each entry is `{"id", "false_positives", "misses", "partial"}` over normalised strings:
    predictions matching no gold string even leniently, gold strings no prediction matches, and
    predictions that match only leniently (strict errors, lenient hits). Sorted lists.
    """
    found = []
    for doc, pred in zip(gold, predicted):
        g, p, g_hit, p_hit = _compare(doc.methods, pred)
        entry = {"id": doc.id, "false_positives": sorted(p - p_hit), "misses": sorted(g - g_hit),
                 "partial": sorted(p_hit - g)}
        if entry["false_positives"] or entry["misses"] or entry["partial"]:
            found.append(entry)
    return found


def gold_papers(gold: Sequence[GoldDoc]) -> list[Paper]:
    """The gold documents as Papers (their text is extraction's input as is)."""
    return [Paper(key=doc.id, authors=(), abstract=doc.text, text=doc.text, id=doc.id) for doc in gold]


def evaluate(gold_path: str | Path, nlp: Language | None = None, *, workers: int = 1,
             with_errors: bool = False) -> dict:
    """Score our extraction on a gold file of annotated method mentions (`kg eval`).

    Parameters
    ----------
    gold_path : str or Path
        A gold JSONL file, in SciERC's form or the flat `{"id", "text", "methods"}` form.
    nlp : spacy.language.Language, optional
        The pipeline to extract with; default `make_pipeline()` (blank English).
    workers : int, optional
        Extraction processes (default 1).
    with_errors : bool, optional
        Also list, per document, the false positives and the misses.

    Returns
    -------
    dict
        `{"gold", "documents", "pipeline", "strict": {...}, "lenient": {...}}`, each scoring block
        with precision, recall, f1 and the counts behind them; with `with_errors`, also `"errors"`
        (see `errors`).

    Examples
    --------
    >>> import json, tempfile
    >>> doc = {"id": "d1", "text": "We train a support vector machine (SVM) on the data.",
    ...        "methods": ["support vector machine", "SVM"]}
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     print(json.dumps(doc), file=f)
    >>> report = evaluate(f.name)
    >>> report["documents"], report["pipeline"], report["lenient"]["recall"]
    (1, 'blank:en', 1.0)
    """
    from kg.extract import extract, make_pipeline

    gold = load_gold(gold_path)
    nlp = nlp if nlp is not None else make_pipeline()
    found = extract(gold_papers(gold), nlp=nlp, workers=workers, quiet=True)
    predicted = [[m.text for method in found.get(doc.id, ()) for m in method.mentions] for doc in gold]
    report = {"gold": str(gold_path), "documents": len(gold), "pipeline": pipeline_name(nlp), **score(gold, predicted)}
    if with_errors:
        report["errors"] = errors(gold, predicted)
    return report


def pipeline_name(nlp: Language) -> str:
    """`blank:en` or the trained pipeline's `lang_name-version`."""
    name = nlp.meta.get("name", "pipeline")
    return f"blank:{nlp.lang}" if not nlp.meta.get("version") or name == "pipeline" else \
        f"{nlp.lang}_{name}-{nlp.meta['version']}"
