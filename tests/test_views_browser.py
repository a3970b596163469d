"""The HTML views in real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Each page must load with no console error and no request but itself, hold the expected nodes and
edges, find a node by label, show hostile names as text (running nothing), filter, and highlight
neighbours. Screenshots go to the test's tmp folder.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.views import coauthor_view, display, topic_view, write_html
from test_readers_real import SHARED
from views_data import SCRIPT_LABEL, XSS_NAME, dated_graph, hub_graph

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 20_000  # generous for a loaded CI machine; a page is ready in well under a second

pytestmark = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                reason=f"{CHROMIUM} not installed (`make system-deps` installs Debian chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=TIMEOUT_MS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    G = hub_graph()
    folder = tmp_path_factory.mktemp("views")
    return {"coauthors": write_html(coauthor_view(G), folder / "coauthors.html"),
            "topics": write_html(topic_view(G), folder / "topics.html")}


class Opened:
    """A page opened in a fresh context, with every console message, page error and request recorded."""

    def __init__(self, browser, url: str | None = None, content: str | None = None) -> None:
        self.context = browser.new_context(viewport={"width": 1200, "height": 800})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.messages: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda m: self.messages.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.messages.append(f"pageerror: {e}"))
        self.context.on("request", lambda r: self.requests.append(r.url))
        if url is not None:
            self.page.goto(url)
        else:
            self.page.set_content(content)
        self.frame = self.page.frames[-1]  # the page itself, or the notebook wrapper's iframe
        self.frame.wait_for_function("window.kgReady !== undefined")

    def js(self, expression: str):
        return self.frame.evaluate(expression)

    def hover(self, node_id: str) -> str:
        """Move the real mouse onto a node; return the tooltip's text."""
        x, y = self.js(f"""(() => {{ const v = kgView.network, c = document.getElementById("kg-network")
            .getBoundingClientRect(), p = v.canvasToDOM(v.getPosition({node_id!r}));
            return [c.left + p.x, c.top + p.y]; }})()""")
        self.page.mouse.move(x, y)
        self.frame.wait_for_selector("#kg-tip:not([hidden])")
        return self.js('document.getElementById("kg-tip").textContent')

    def close(self) -> None:
        self.context.close()


@pytest.fixture()
def opened(browser, pages, request) -> Iterator:
    """Open one of `pages` (`request.param`), yield it, close it."""
    view = Opened(browser, pages[request.param].as_uri())
    yield view
    view.close()


def counts(view: Opened) -> list[int]:
    return view.js("[kgView.network.body.data.nodes.length, kgView.network.body.data.edges.length]")


@pytest.mark.parametrize(("opened", "expected"), [("coauthors", [7, 7]), ("topics", [5, 4])], indirect=["opened"])
def test_page_loads_offline_without_errors(opened, expected, pages, tmp_path):
    assert counts(opened) == expected
    opened.page.screenshot(path=str(tmp_path / "view.png"))
    assert (tmp_path / "view.png").stat().st_size > 10_000
    assert opened.messages == []
    assert opened.requests == [opened.page.url]  # the file itself, nothing else
    assert opened.js("document.querySelectorAll('img, iframe, link, script[src]').length") == 0


@pytest.mark.parametrize("opened", ["coauthors"], indirect=True)
def test_search_finds_and_selects_a_node(opened):
    opened.page.fill("#kg-search", "lovelace")
    opened.page.press("#kg-search", "Enter")
    assert opened.js("kgView.network.getSelectedNodes()") == ["author:ada-lovelace"]
    assert opened.js('document.getElementById("kg-status").textContent') == "Match 1 of 1"
    tip = opened.js('document.getElementById("kg-tip").textContent')
    assert tip.startswith("Ada Lovelace2 papers") and "Top co-authors" in tip
    opened.page.fill("#kg-search", "nobody-like-this")
    opened.page.press("#kg-search", "Enter")
    assert opened.js("kgView.network.getSelectedNodes()") == []


@pytest.mark.parametrize("opened", ["coauthors"], indirect=True)
def test_xss_name_is_shown_as_text_and_runs_nothing(opened):
    node = opened.js(f"kgView.nodes.get({{filter: n => n.label === {XSS_NAME!r}}})[0].id")
    tip = opened.hover(node)
    assert tip.startswith(XSS_NAME) and "Papers" in tip
    assert opened.js("window.__xss") is None
    assert opened.js("document.querySelectorAll('#kg-tip img, #kg-legend img').length") == 0
    assert XSS_NAME in opened.js('document.getElementById("kg-legend").textContent')
    assert opened.messages == [] and len(opened.requests) == 1


@pytest.mark.parametrize("opened", ["topics"], indirect=True)
def test_script_label_and_evidence_are_text(opened):
    opened.page.fill("#kg-search", SCRIPT_LABEL)
    opened.page.press("#kg-search", "Enter")
    tip = opened.js('document.getElementById("kg-tip").textContent')
    assert tip.startswith(SCRIPT_LABEL) and "A method called </script> appears here." in tip
    assert opened.js("window.__xss") is None
    opened.page.fill("#kg-search", "quantization-aware")
    opened.page.press("#kg-search", "Enter")
    assert "We use quantization-aware training <b>carefully</b>." in opened.js(
        'document.getElementById("kg-tip").textContent')
    assert opened.js("document.querySelectorAll('#kg-tip b').length") == 0


@pytest.mark.parametrize("opened", ["coauthors"], indirect=True)
def test_filters_by_track_community_and_link_weight(opened):
    opened.page.select_option("#kg-track", label="Reinforcement Learning · Deep RL (4)")
    assert counts(opened) == [4, 4]
    opened.page.select_option("#kg-track", "")
    opened.page.select_option("#kg-community", "3")  # Claude Shannon alone
    assert counts(opened) == [1, 0]
    opened.page.select_option("#kg-community", "")
    opened.page.fill("#kg-weight", "2")  # fires `input`
    assert counts(opened) == [7, 2]
    assert "7 of 7 authors, 2 of 7 links" in opened.js('document.getElementById("kg-status").textContent')


@pytest.mark.parametrize("opened", ["coauthors"], indirect=True)
def test_click_highlights_neighbours_and_escape_clears(opened):
    x, y = opened.js("""(() => { const v = kgView.network, c = document.getElementById("kg-network")
        .getBoundingClientRect(), p = v.canvasToDOM(v.getPosition("author:grace-hopper"));
        return [c.left + p.x, c.top + p.y]; })()""")
    opened.page.mouse.click(x, y)
    opacity = "Object.fromEntries(Object.values(kgView.network.body.nodes).map(n => [n.options.label, n.options.opacity]))"
    dimmed = {label for label, value in opened.js(opacity).items() if value < 1}
    assert dimmed == {"Ada Lovelace", XSS_NAME, "Claude Shannon"}
    assert opened.js("kgView.network.getSelectedNodes()") == ["author:grace-hopper"]
    assert opened.js("document.getElementById('kg-tip').classList.contains('kg-pinned')")
    opened.page.keyboard.press("Escape")
    assert set(opened.js(opacity).values()) == {1}
    assert opened.js("document.getElementById('kg-tip').hidden")


def test_notebook_display_renders_inside_a_sandboxed_iframe(browser):
    view = Opened(browser, content=display(topic_view(hub_graph())).data)
    try:
        assert counts(view) == [5, 4]
        assert view.messages == []
        assert all(url in ("about:blank", "about:srcdoc") for url in view.requests)
    finally:
        view.close()


# ------------------------------------------------------------------------------------ labels

#: The label boxes drawn at the current zoom, each re-measured here with the font it was drawn in
#: (a fresh canvas, not the page's cache), in DOM pixels.
MEASURED_LABELS = """(() => {
    const ctx = document.createElement("canvas").getContext("2d");
    return kgView.labels.boxes().map((b) => {
        ctx.font = b.size + "px system-ui, -apple-system, Segoe UI, sans-serif";
        const width = ctx.measureText(b.text).width;
        const p = kgView.network.canvasToDOM(kgView.network.getPosition(b.id));
        return {id: b.id, left: p.x - width / 2, top: p.y - b.size / 2, width, height: b.size};
    });
})()"""


def overlapping(boxes: list[dict]) -> int:
    """Pairs of label boxes whose rectangles overlap."""
    return sum(1 for i, a in enumerate(boxes) for b in boxes[:i]
               if a["left"] < b["left"] + b["width"] and b["left"] < a["left"] + a["width"]
               and a["top"] < b["top"] + b["height"] and b["top"] < a["top"] + a["height"])


def in_view(view: Opened) -> list[str]:
    """The shown nodes whose centre is inside the network's box."""
    return view.js("""(() => { const c = document.getElementById("kg-network"), v = kgView.network;
        return kgView.nodeView.getIds().filter((id) => { const p = v.canvasToDOM(v.getPosition(id));
            return p.x >= 0 && p.y >= 0 && p.x <= c.clientWidth && p.y <= c.clientHeight; }); })()""")


def crowded_graph():
    """120 papers by teams drawn from 150 authors (seeded): more names than fit at the opening zoom."""
    import random

    from kg.graph import build_graph
    from kg.names import author_key
    from kg.records import Author, Paper

    rng = random.Random(7)
    names = [f"Author Number {i}" for i in range(150)]
    papers = []
    for i in range(120):
        team = rng.sample(names[:40] if i % 2 else names, rng.randint(2, 5))
        papers.append(Paper(key=f"p{i}", title=f"Paper {i} on things", abstract="x", text="x",
                            authors=tuple(Author(n, author_key(n)) for n in team)))
    return build_graph(papers, {})


def test_labels_never_overlap_and_more_show_as_one_zooms_in(browser, tmp_path):
    page = write_html(coauthor_view(crowded_graph()), tmp_path / "crowded.html")
    view = Opened(browser, page.as_uri())
    try:
        boxes = view.js(MEASURED_LABELS)
        assert overlapping(boxes) == 0
        shown = in_view(view)
        assert 5 <= len(boxes) < len(shown)  # names are left out, not drawn over each other
        biggest = view.js("kgView.nodeView.get().sort((a, b) => b.value - a.value)[0].id")
        assert biggest in {b["id"] for b in boxes}
        opening = len(boxes) / len(shown)
        view.js("kgView.network.moveTo({scale: kgView.network.getScale() * 4})")
        view.js("kgView.network.redraw()")
        zoomed = view.js(MEASURED_LABELS)
        assert overlapping(zoomed) == 0
        assert len(zoomed) / len(in_view(view)) > opening  # a larger share of what is in view is named
        assert view.messages == []
    finally:
        view.close()


@pytest.mark.skipif(not (SHARED / "ijcai2024.jsonl").exists(), reason="../shared/data/ijcai2024.jsonl not available")
def test_real_conference_opens_on_a_readable_first_look(browser, tmp_path):
    from kg.workflow import load_graph

    _, G = load_graph([SHARED / "ijcai2024.jsonl"], quiet=True)
    for name, make in (("coauthors", coauthor_view), ("topics", topic_view)):
        view = Opened(browser, write_html(make(G), tmp_path / f"{name}.html").as_uri())
        try:
            boxes = view.js(MEASURED_LABELS)
            assert overlapping(boxes) == 0 and len(boxes) >= 20, name
            shown, held = view.js("[kgView.nodeView.length, kgView.nodes.length]")
            assert shown <= 500 and view.js("kgView.edgeView.length") <= 1000, name
            view.page.fill("#kg-papers", "1")  # widen: everything the page holds
            assert view.js("kgView.nodeView.length") == held > shown or name == "topics"
        finally:
            view.close()


def test_overlay_colours_by_mean_year_and_the_year_range_filters(browser, tmp_path):
    view = Opened(browser, write_html(coauthor_view(dated_graph()), tmp_path / "dated.html").as_uri())
    try:
        colour = "Object.fromEntries(kgView.nodes.get().map(n => [n.label, n.color]))"
        groups = view.js(colour)
        assert view.js('document.getElementById("kg-colors-control").hidden') is False
        view.page.select_option("#kg-colors", "year")
        overlay = view.js(colour)
        assert overlay["Old Hand"] == "#440154" and overlay["New Face"] == "#fde725"  # the ends of the scale
        assert overlay["Bridge"] not in (overlay["Old Hand"], overlay["New Face"], groups["Bridge"])
        assert view.js('document.getElementById("kg-legend-title").textContent') == "Mean publication year"
        ticks = view.js('document.getElementById("kg-scale-ticks").textContent')
        assert ticks.startswith("2020.5") and ticks.endswith("2023.0")
        view.page.select_option("#kg-year-from", "2023")
        shown = view.js("kgView.nodeView.get().map(n => n.label).sort()")
        assert shown == ["Bridge", "New Face"] and counts(view) == [2, 1]
        view.page.select_option("#kg-year-from", "2020")
        assert counts(view) == [4, 3]
        view.page.select_option("#kg-colors", "groups")
        assert view.js(colour) == groups
        assert view.messages == []
    finally:
        view.close()


def test_no_year_controls_without_years(browser, pages):
    view = Opened(browser, pages["coauthors"].as_uri())
    try:
        assert view.js('[document.getElementById("kg-colors-control").hidden, '
                       'document.getElementById("kg-years-control").hidden]') == [True, True]
    finally:
        view.close()


def test_search_by_paper_title_selects_its_authors(browser, tmp_path):
    G = crowded_graph()
    authors = sorted(G.nodes[a]["label"] for a in G.successors("paper:p7") if G.nodes[a]["kind"] == "author")
    view = Opened(browser, write_html(coauthor_view(G, first_look=False), tmp_path / "titles.html").as_uri())
    try:
        view.page.fill("#kg-search", "paper 7 on")
        view.page.press("#kg-search", "Enter")
        status = view.js('document.getElementById("kg-status").textContent')
        assert status.endswith("(by paper title)")
        found = set()
        for _ in range(int(status.split(" of ")[1].split(" ")[0])):
            found.update(view.js("kgView.network.getSelectedNodes().map(id => kgView.nodes.get(id).label)"))
            view.page.press("#kg-search", "Enter")
        tip = view.js('document.getElementById("kg-tip").textContent')
        assert "Paper 7 on things" in tip
        assert sorted(found) == authors
    finally:
        view.close()


#: Zoom onto a node until its shape is far larger than the label drawn over its centre; return the point
#: halfway between its centre and the bottom of its shape (pixels of the canvas).
ZOOM_ONTO = """(id) => { const v = kgView.network, at = v.getPosition(id), half = v.body.nodes[id].options.size;
    v.moveTo({position: at, scale: 60 / half, animation: false});
    const p = v.canvasToDOM({x: at.x, y: at.y + half / 2});
    const canvas = document.querySelector("#kg-network canvas"), r = canvas.width / canvas.clientWidth;
    return [Math.round(p.x * r), Math.round(p.y * r)]; }"""
#: The RGBA of a canvas pixel, read once the next frame is drawn.
PIXEL = """([x, y]) => new Promise((done) => { kgView.network.once("afterDrawing", () => done(Array.from(
    document.querySelector("#kg-network canvas").getContext("2d").getImageData(x, y, 1, 1).data)));
    kgView.network.redraw(); })"""


def shape_colour(view: Opened, node: str) -> list[int]:
    """The colour vis-network drew inside a node's shape (red, green, blue)."""
    return view.frame.evaluate(PIXEL, view.frame.evaluate(ZOOM_ONTO, node))[:3]


def test_datasets_render_as_dark_grey_diamonds_with_text_tooltips(browser, tmp_path):
    from kg.views.colors import DATASET_COLOR

    from views_data import BOLD_BENCH

    page = write_html(topic_view(hub_graph(datasets=True), datasets=4), tmp_path / "datasets.html")
    view = Opened(browser, page.as_uri())
    try:
        assert counts(view) == [9, 13]  # 5 methods, 4 datasets; 4 method links, 9 dataset-method links
        assert view.messages == []
        assert "of 9 methods and datasets, " in view.js('document.getElementById("kg-status").textContent')
        shapes = view.js("Object.fromEntries(Object.entries(kgView.network.body.nodes).map(([id, n]) => "
                         "[id, n.options.shape]))")
        assert {i: s for i, s in shapes.items() if s != "dot"} == {
            "dataset:atari": "diamond", "dataset:imagenet": "diamond", "dataset:glue": "diamond",
            "dataset:safebench": "diamond"}
        grey = [int(DATASET_COLOR[i:i + 2], 16) for i in (1, 3, 5)]
        assert shape_colour(view, "dataset:imagenet") == grey  # drawn, in its colour
        assert shape_colour(view, "method:lora") != grey
        view.js("kgView.network.fit({animation: false})")
        tip = view.hover("dataset:imagenet")
        assert tip.startswith("ImageNetDataset or benchmarkUsed in 2 papers")
        assert "We train on ImageNet <i>at scale</i>." in tip and "Methods in the same papers" in tip
        view.page.fill("#kg-search", "safebench")
        view.page.press("#kg-search", "Enter")
        assert view.js("kgView.network.getSelectedNodes()") == ["dataset:safebench"]
        tip = view.js('document.getElementById("kg-tip").textContent')
        assert tip.startswith(BOLD_BENCH) and "We release <b>SafeBench</b> & more." in tip
        assert view.js("document.querySelectorAll('#kg-tip b, #kg-tip i').length") == 0
        assert "◆ datasets and benchmarks4" in view.js('document.getElementById("kg-legend").textContent')
        # the only message is Chromium's hint that this test read the canvas twice
        assert [m for m in view.messages if "willReadFrequently" not in m] == []
        assert view.requests == [view.page.url]
    finally:
        view.close()
