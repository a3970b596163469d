"""The HTML views on a large graph: render time in Python, then time to interactive in headless Chromium.

    python benchmarks/views_large.py [--papers 600] [--seed 0] [--top-n N|0] [INPUT ...]

Without INPUT the graph is the co-author network of a synthetic corpus (`benchmarks/corpus.py`;
600 papers give ~2,250 authors) and only the co-author view is measured (no extraction needed).
With INPUT the files are read, extracted and built as `kg build` does, and both views are measured.

Figures (printed, and returned by `main()` as a dict; never asserted in tests):
- `render_s`: `coauthor_view`/`topic_view` + `write_html` (projection, communities, layout, page);
- `ready_ms`: from navigation start to the network's first drawing (`window.kgReady`), i.e. the page
  is interactive; `open_ms`: the same seen from outside (`page.goto` until ready);
- `search_ms`: one search by label in the page (filter, focus, select, neighbour highlight, tooltip);
- `filter_ms`: one change of the minimum-link-weight filter (both DataViews refreshed).
Chromium is Debian's /usr/bin/chromium, headless; the page is opened from file:// and every request
is counted (it must be 1: the page itself).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
for _path in (str(ROOT), str(BENCH_DIR)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OUT_DIR = BENCH_DIR / "out" / "views"


def _graph(inputs: Sequence[str], papers: int, seed: int):
    """The hub graph: of the inputs (read + extract + build), or of a synthetic corpus (no methods)."""
    from kg.graph import build_graph

    if inputs:
        from kg.extract import extract
        from kg.readers import read

        records = read(list(inputs)).papers
        return build_graph(records, extract(records)), f"{', '.join(inputs)} ({len(records):,} papers)"
    import corpus

    return build_graph(list(corpus.iter_papers(papers, seed))), f"synthetic corpus, {papers:,} papers, seed {seed}"


def _render(make: Callable[[], object], path: Path) -> tuple[object, float]:
    from kg.views import write_html

    start = time.perf_counter()
    view = make()
    write_html(view, path)
    return view, time.perf_counter() - start


def _measure_page(browser, path: Path) -> dict:
    """Open `path` in a fresh context; time readiness, one search and one filter change."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_function("window.kgReady !== undefined", timeout=120_000)
    open_ms = (time.perf_counter() - start) * 1000
    figures = page.evaluate("""() => {
        const v = kgView, label = v.nodes.get().sort((a, b) => b.value - a.value)[0].label;
        let t = performance.now();
        v.find(label);
        const search = performance.now() - t;
        const slider = document.getElementById("kg-weight");
        slider.value = slider.max;
        t = performance.now();
        slider.dispatchEvent(new Event("input"));
        const filter = performance.now() - t;
        return {ready_ms: window.kgReady, search_ms: search, filter_ms: filter,
                nodes: v.nodes.length, edges: v.edges.length};
    }""")
    page.screenshot(path=str(path.with_suffix(".png")))
    context.close()
    return {**figures, "open_ms": open_ms, "requests": len(requests), "errors": errors}


def main(argv: Sequence[str] | None = None) -> dict:
    """Render the views of a large graph, open them in headless Chromium, print and return the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", metavar="INPUT", help="input files (default: a synthetic corpus)")
    parser.add_argument("--papers", type=int, default=600, help="synthetic corpus size (default: 600)")
    parser.add_argument("--seed", type=int, default=0, help="synthetic corpus seed (default: 0)")
    parser.add_argument("--top-n", type=int, help="cap each view at the N nodes with most papers, 0 = all "
                                                  "(default: kg.views.DEFAULT_TOP_N, as `kg build`)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from kg.views import DEFAULT_TOP_N, coauthor_view, topic_view

    top_n = DEFAULT_TOP_N if args.top_n is None else args.top_n or None

    start = time.perf_counter()
    G, source = _graph(args.inputs, args.papers, args.seed)
    print(f"graph: {source}: {G.graph['n_authors']:,} authors, {G.graph['n_methods']:,} methods "
          f"({time.perf_counter() - start:.1f} s)")
    views = {"coauthors": lambda: coauthor_view(G, top_n=top_n)}
    if args.inputs:
        views["topics"] = lambda: topic_view(G, top_n=top_n)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, make in views.items():
            path = OUT_DIR / f"{name}.html"
            view, render_s = _render(make, path)
            results[name] = {"render_s": render_s, "html_mb": path.stat().st_size / 2**20,
                             **_measure_page(browser, path)}
        browser.close()
    print(f"{'view':<10} {'nodes':>7} {'edges':>8} {'render s':>9} {'HTML MB':>8} {'ready ms':>9} "
          f"{'open ms':>8} {'search ms':>10} {'filter ms':>10} {'requests':>9} errors")
    for name, r in results.items():
        print(f"{name:<10} {r['nodes']:>7,} {r['edges']:>8,} {r['render_s']:>9.2f} {r['html_mb']:>8.1f} "
              f"{r['ready_ms']:>9.0f} {r['open_ms']:>8.0f} {r['search_ms']:>10.0f} {r['filter_ms']:>10.0f} "
              f"{r['requests']:>9} {len(r['errors'])}")
    print(f"pages and screenshots: {OUT_DIR}/")
    return results


if __name__ == "__main__":
    main()
