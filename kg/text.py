"""Clean abstracts for extraction: LaTeX and markdown markup out, the words and symbols kept.

`clean_text` is deliberately small and predictable, a fixed sequence of rewrites:

1. math `$...$`, `$$...$$`, `\\(...\\)`: the delimiters go; inside, font commands keep their
   argument (`$\\mathbf{z}_t$` -> `z_t`), `\\_` -> `_`, `\\sqrt{x}` -> `√(x)`, braces go;
2. everywhere: Greek letters and common symbols become Unicode (`\\epsilon` -> `ε`, `\\times` -> `×`,
   `\\leq` -> `≤`); `\\enquote{x}` -> `"x"`; `\\href{url}{text}` -> `text`; any other command with an
   argument keeps the argument (`\\textbf{x}`, `\\emph{x}`, `\\url{u}`); `{\\it x}` -> `x`;
   `\\ie`/`\\eg`/`\\etal` -> `i.e.`/`e.g.`/`et al.`; other bare commands lose the backslash
   (`\\methodname` -> `methodname`); escaped `\\% \\& \\# \\$ \\_` -> the character; `---`/`--` -> `—`/`–`;
   all remaining braces go (LaTeX grouping, `\\{` included);
3. markdown: `**x**`, `*x*` (only as emphasis, so `A*` and `O*(n)` survive), `` `x` ``, `[text](url)`;
4. whitespace collapsed to single spaces.
"""
from __future__ import annotations

import re

#: LaTeX symbol commands -> Unicode. Anything not listed keeps its name without the backslash.
SYMBOLS: dict[str, str] = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ",
    "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
    "times": "×", "cdot": "·", "pm": "±", "mp": "∓", "div": "÷", "leq": "≤", "le": "≤",
    "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "infty": "∞",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "Rightarrow": "⇒", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "sum": "∑", "prod": "∏",
    "partial": "∂", "nabla": "∇", "forall": "∀", "exists": "∃", "log": "log", "exp": "exp",
    "ldots": "…", "dots": "…", "cdots": "⋯", "ie": "i.e.", "eg": "e.g.", "etal": "et al.",
}

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)", re.DOTALL)
_SQRT = re.compile(r"\\sqrt\s*\{([^{}]*)\}")
_ENQUOTE = re.compile(r"\\enquote\s*\{([^{}]*)\}")
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")
_COMMAND_ARG = re.compile(r"\\[a-zA-Z]+\*?\s*\{([^{}]*)\}")
_OLD_FONT = re.compile(r"\{\\(?:it|bf|em|sl|sc|tt|rm|sf)\b\s*([^{}]*)\}")
_BARE_COMMAND = re.compile(r"\\([a-zA-Z]+)")
_ESCAPED = re.compile(r"\\([%&#_])")
_DOLLAR = "\ue000"  # stands in for an escaped `\$` while math is paired
_BOLD = re.compile(r"(?<![\w*])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![\w*])")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*(])")
_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\((?:[^)\s]+)\)")


def _innermost(pattern: re.Pattern[str], repl, text: str) -> str:
    """Apply `pattern` until nothing changes, so nested groups unwrap from the inside out."""
    while True:
        new = pattern.sub(repl, text)
        if new == text:
            return text
        text = new


def _symbol(match: re.Match[str]) -> str:
    """A known symbol command as Unicode; an unknown one keeps its name without the backslash."""
    return SYMBOLS.get(match.group(1), match.group(1))


def _math(match: re.Match[str]) -> str:
    body = next(group for group in match.groups() if group is not None)
    body = _innermost(_SQRT, lambda m: f"√{m.group(1)}" if len(m.group(1)) == 1 else f"√({m.group(1)})", body)
    body = _ESCAPED.sub(r"\1", body)
    body = _innermost(_COMMAND_ARG, r"\1", body)
    body = _BARE_COMMAND.sub(_symbol, body)
    body = body.replace("{", "").replace("}", "")
    return " ".join(body.split())


def clean_text(abstract: str) -> str:
    """The abstract as extraction should see it: LaTeX/markdown markup removed, whitespace collapsed.

    Each group of rewrites runs only when its trigger character occurs: most abstracts are plain.
    """
    text = abstract
    if "$" in text or "\\" in text:
        text = _MATH.sub(_math, text.replace("\\$", _DOLLAR))
        text = _innermost(_ENQUOTE, r'"\1"', text)
        text = _innermost(_HREF, r"\1", text)
        text = _innermost(_OLD_FONT, r"\1", text)
        text = _innermost(_COMMAND_ARG, r"\1", text)
        text = _BARE_COMMAND.sub(_symbol, text)
        text = _ESCAPED.sub(r"\1", text)
        text = text.replace(_DOLLAR, "$")
    text = text.replace("{", "").replace("}", "").replace("---", "—").replace("--", "–")
    if "*" in text:
        text = _innermost(_BOLD, r"\1", text)
        text = _EMPHASIS.sub(r"\1", text)
    if "`" in text:
        text = _CODE.sub(r"\1", text)
    if "](" in text:
        text = _LINK.sub(r"\1", text)
    return " ".join(text.split())
