"""What every page inlines: vis-network from the pyvis package, our script, style and template.

Everything is read from installed packages and inlined, so a page loads nothing; input data goes
into the page only through `script_json`, which no input can break out of.
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template
from markupsafe import Markup

from kg.errors import ArgumentError

#: The vis-network build inlined into every page (shipped inside the pyvis package).
VIS_VERSION = "9.1.2"


def script_json(data: Any) -> Markup:
    """JSON that is safe inside an HTML `<script>` element.

    `<`, `>`, `&`, U+2028 and U+2029 are written as `\\uXXXX` escapes (they can only occur inside
    JSON strings, where that is the same text), so no input can close the element or open a comment.

    Parameters
    ----------
    data : Any
        Anything `json.dumps` takes (no NaN or infinity).

    Returns
    -------
    markupsafe.Markup
        The JSON text, marked safe for the page template.

    Examples
    --------
    >>> from kg.views.assets import script_json
    >>> print(script_json({"name": "</script>"}))
    {"name":"\\u003c/script\\u003e"}
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return Markup(text)


@functools.lru_cache(maxsize=1)
def template() -> Template:
    """The page template (`templates/view.html.j2`), autoescaping, with the `script_json` filter."""
    env = Environment(loader=PackageLoader("kg.views", "templates"), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True)
    env.filters["script_json"] = script_json
    return env.get_template("view.html.j2")


@functools.lru_cache(maxsize=None)
def asset(name: str) -> Markup:
    """Our own script or style from kg/views/templates, checked to be safe to inline."""
    return _inlinable(resources.files("kg.views").joinpath("templates", name).read_text(encoding="utf-8"), name)


@functools.lru_cache(maxsize=1)
def vis_js() -> Markup:
    """vis-network's standalone build from the installed pyvis package (its licence header included)."""
    source = resources.files("pyvis").joinpath("templates", "lib", f"vis-{VIS_VERSION}", "vis-network.min.js")
    return _inlinable(source.read_text(encoding="utf-8"), f"pyvis vis-network {VIS_VERSION}")


def _inlinable(text: str, name: str) -> Markup:
    """Trusted code (never input data) that cannot end its `<script>`/`<style>` element early."""
    lowered = text.lower()
    if "</script" in lowered or "</style" in lowered or "<!--" in lowered:
        raise ArgumentError(f"{name} contains '</script', '</style' or '<!--' and cannot be inlined; "
                         "reinstall pyvis==0.3.2 or report this bug")
    return Markup(text)
