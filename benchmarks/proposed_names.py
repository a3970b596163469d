"""How many of the names that abstracts say they propose are found: a recall check on listings
that have no gold annotations.

    python benchmarks/proposed_names.py [INPUT ...] [--misses N] [--spacy-model NAME]

INPUT defaults to the ICML 2020-2023 and IJCAI 2024 files of `../shared/data`. A sentence such as
`We propose DRCFS, a doubly robust ...` or `this paper introduces a framework named FREDIS` names what
the paper proposes: a word with a capital and a second capital or digit after `we`, `this paper` or
`this work` and propose, introduce, present, develop or design (an article, up to six words and a
naming verb may come between). A name counts as found when its lower-case form is, or is inside, a
label, alternative label or mention of one of the paper's method or data-set concepts. A
dash-joined word with a lower-case last part (`RL-based`, `HE-friendly`) is a modifier and is
skipped. The pattern is rough (it also takes an acronym in a proposal's object, `a framework for
semi-supervised AD`), so read the figure as a comparison between versions and the misses as a list
to look at. `main()` prints one line per input (and `--misses` missed names with their context) and
returns `{input: (found, total)}`.
"""
from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path

from kg.extract import extract_concepts, make_pipeline
from kg.readers import read

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
INPUTS = ("icml2020.jsonl", "icml2021.jsonl", "icml2022.jsonl", "icml2023.jsonl", "ijcai2024.jsonl")
PROPOSAL = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work))\s+(?:\w+ly\s+)?(?:propose|introduce|present|develop|design)s?\s+"
    r"(?:\w+ly\s+)?(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,6}?(?:(?:called|named|dubbed|termed|coined)\s+(?:as\s+)?(?:the\s+)?)?"
    r",?\s*([A-Z][\w+#-]*[A-Z0-9][\w+#-]*)")


def proposed_names(text: str) -> list[tuple[str, int]]:
    """The names `text` proposes by `PROPOSAL`, each with its offset; modifiers (`RL-based`) skipped."""
    found = []
    for match in PROPOSAL.finditer(text):
        name = match.group(1).rstrip("-")
        if len(name) >= 2 and not name.rsplit("-", 1)[-1].islower():
            found.append((name, match.start()))
    return found


def main(argv: Sequence[str] | None = None) -> dict[str, tuple[int, int]]:
    """Count each input's proposed names and those found; print and return the counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", default=[str(DATA / n) for n in INPUTS if (DATA / n).exists()])
    parser.add_argument("--misses", type=int, default=0, help="print up to N missed names per input")
    parser.add_argument("--spacy-model", default=None, help="trained spaCy pipeline (default: blank English)")
    args = parser.parse_args(argv)
    nlp = make_pipeline(args.spacy_model)
    counts: dict[str, tuple[int, int]] = {}
    for path in args.inputs:
        papers = read([path], require_authors=False).papers
        concepts = extract_concepts(papers, nlp=nlp, quiet=True)
        found = total = 0
        misses: list[str] = []
        for paper in papers:
            forms = {form.casefold() for kind in concepts for concept in kind.get(paper.key, ())
                     for form in (concept.label, *concept.alt_labels, *(m.text for m in concept.mentions))}
            for name, at in proposed_names(paper.text):
                total += 1
                if any(name.casefold() in form for form in forms):
                    found += 1
                else:
                    misses.append(f"  {name} | {' '.join(paper.text[at:at + 120].split())}")
        counts[path] = (found, total)
        print(f"{Path(path).name}: {found}/{total} proposed names found ({found / max(total, 1):.1%})")
        print("\n".join(misses[:args.misses]), end="\n" if misses[:args.misses] else "")
    return counts


if __name__ == "__main__":
    main()
