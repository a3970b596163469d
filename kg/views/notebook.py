"""Notebook display: a page inside a sandboxed `srcdoc` iframe (Jupyter, JupyterLab, VS Code)."""
from __future__ import annotations

import html
from typing import TYPE_CHECKING

from kg.views.page import View, render_html

if TYPE_CHECKING:
    from IPython.display import HTML


def display(view: View, height: int = 650) -> HTML:
    """Show a view in a notebook.

    The page goes into a sandboxed `srcdoc` iframe, so it needs no file, no server and no CDN, and
    its style cannot leak into the notebook.

    Parameters
    ----------
    view : View
        A view made by `coauthor_view` or `topic_view`.
    height : int
        The iframe's height in pixels (its width is the cell's).

    Returns
    -------
    IPython.display.HTML
        What a notebook cell shows when it is the cell's last value.

    Examples
    --------
    >>> import kg
    >>> from kg.views import coauthor_view, display
    >>> _, G = kg.load_graph(quiet=True)  # the embedded sample
    >>> display(coauthor_view(G, top_n=5), height=400).data[:41]
    '<div class="kg-view"><iframe srcdoc="&lt;'
    """
    from IPython.display import HTML

    return HTML(iframe(render_html(view), height))


def iframe(page: str, height: int = 650) -> str:
    """The page as an isolated iframe (wrapped in a div: IPython warns about a bare `<iframe>` in HTML)."""
    return (f'<div class="kg-view"><iframe srcdoc="{html.escape(page, quote=True)}" sandbox="allow-scripts" '
            f'style="width:100%;height:{int(height)}px;border:1px solid #ddd" title="kg view"></iframe></div>')
