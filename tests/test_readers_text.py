"""clean_text: LaTeX and markdown out, words and symbols kept, predictable."""
from __future__ import annotations

import pytest

from kg.text import clean_text


@pytest.mark.parametrize("raw, clean", [
    (r"explicit $\epsilon $-rank conditions", "explicit ε-rank conditions"),
    (r"roughly $1.7 \times$ over", "roughly 1.7 × over"),
    (r"up to 1.34$\times$ faster", "up to 1.34× faster"),
    (r"strong $R^2$ scores", "strong R^2 scores"),
    (r"$\mathcal{F}(\mathbf{z}_{<t}; \mathbf{c})$ with", "F(z_<t; c) with"),
    (r"$\mathbf{z}\_t$---are", "z_t—are"),
    (r"at least $1/\sqrt{n - 2}$ and $\sqrt{n}$", "at least 1/√(n - 2) and √n"),
    (r"\textbf{SOTA (as low as 3\%)}", "SOTA (as low as 3%)"),
    (r"\textbf{\emph{nested}} markup", "nested markup"),
    (r"an \enquote{free lunch} result", 'an "free lunch" result'),
    (r"{\it European Skills} and \url{https://x.org}", "European Skills and https://x.org"),
    (r"see \href{https://x.org}{our code}", "see our code"),
    (r"(\mu+1)-EA, \ie, \methodname", "(μ+1)-EA, i.e., methodname"),
    (r"costs \$5 and \$10", "costs $5 and $10"),
    (r"$$x \leq y$$ and \(a \neq b\)", "x ≤ y and a ≠ b"),
    ("along *the full generative path*. **Bold** too", "along the full generative path. Bold too"),
    ("the A* search, O*(2^n) and Zeta*-SIPP", "the A* search, O*(2^n) and Zeta*-SIPP"),
    ("`code` and [a link](https://x.org)", "code and a link"),
    ("pages 3--5,\n  spread   out", "pages 3–5, spread out"),
])
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


def test_plain_text_is_unchanged_but_for_whitespace():
    text = "Large language models (LLMs) reach 95.1% on GSM8K, i.e. state of the art."
    assert clean_text(f"  {text}\n") == text
