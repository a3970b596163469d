"""The HTML views: the co-author map and the topic map, each one self-contained, offline page.

`coauthor_view(G)` and `topic_view(G)` return a `View` (a pyvis Network) made with `ViewOptions`;
`write_html` writes its page, `write_views` writes both into a folder, `display` shows one in a
notebook. What the pages guarantee (offline, safe text, fast to open) is in docs/views.md.
"""
from kg.views.coauthors import coauthor_view
from kg.views.files import write_views
from kg.views.notebook import display
from kg.views.options import DEFAULT_DATASETS, DEFAULT_TOP_LINKS, DEFAULT_TOP_N, ViewOptions
from kg.views.page import View, Whole, render_html, write_html
from kg.views.topics import topic_view

__all__ = ["DEFAULT_DATASETS", "DEFAULT_TOP_LINKS", "DEFAULT_TOP_N", "View", "ViewOptions", "Whole", "coauthor_view",
           "display", "render_html", "topic_view", "write_html", "write_views"]
