/* kg view: network, search, filters, legend, neighbour highlight and tooltips.
 * Every text from the data goes through textContent / Option(): input is never parsed as markup. */
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("kg-data").textContent);
  const meta = DATA.meta;
  const byId = (id) => document.getElementById(id);
  const DIM_OPACITY = 0.2;
  const DIM_EDGE = "rgba(200,200,200,0.15)";
  const EDGE = DATA.options.edges.color.color;

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  // ---------------------------------------------------------------- data, filters, network
  // Tooltips stay out of the DataSets: vis-network walks every property of every item it draws.
  const tips = new Map();
  const untip = (items, prefix) => items.map(({ tip: content, ...item }) => {
    tips.set(prefix + item.id, content);
    return item;
  });
  const nodes = new vis.DataSet(untip(DATA.nodes, "n"));
  const edges = new vis.DataSet(untip(DATA.edges, "e"));
  // The page opens on its first look (meta.opening: the fewest papers a node has, the most links
  // drawn, the heaviest first); the controls widen or narrow it.
  const state = { track: "", community: "", minWeight: meta.weight.min, minPapers: meta.opening.minPapers,
    maxLinks: meta.opening.maxLinks };
  // Years: a node or link shows when one of its papers is in the range (all, when no range is set).
  state.yearFrom = null;
  state.yearTo = null;
  const inYears = (item) => state.yearFrom === null ||
    (item.years || []).some((y) => y >= state.yearFrom && y <= state.yearTo);
  const nodeView = new vis.DataView(nodes, {
    filter: (n) => n.value >= state.minPapers && inYears(n) && (state.track === "" || n.tracks.includes(Number(state.track))) &&
      (state.community === "" || String(n.community) === state.community),
  });
  let shown = new Set(nodeView.getIds());
  const passes = (e) => shown.has(e.from) && shown.has(e.to) && e.weight >= state.minWeight - 1e-9 && inYears(e) &&
    (state.track === "" || e.tracks.includes(Number(state.track)));
  let heaviest = null; // the ids of the `maxLinks` heaviest links that pass the filters (null: all)

  function rankLinks() {
    if (state.maxLinks === null || state.maxLinks === undefined) {
      heaviest = null;
      return;
    }
    const passing = edges.get({ filter: passes });
    passing.sort((a, b) => b.weight - a.weight || a.id - b.id);
    heaviest = new Set(passing.slice(0, state.maxLinks).map((e) => e.id));
  }
  rankLinks();
  const edgeView = new vis.DataView(edges, { filter: (e) => passes(e) && (heaviest === null || heaviest.has(e.id)) });
  const container = byId("kg-network");
  const network = new vis.Network(container, { nodes: nodeView, edges: edgeView }, DATA.options);

  function updateStatus() {
    byId("kg-status").textContent = "Showing " + nodeView.length + " of " + nodes.length + " " + meta.noun +
      ", " + edgeView.length + " of " + edges.length + " links";
  }

  function applyFilters() {
    clearSelection();
    nodeView.refresh();
    shown = new Set(nodeView.getIds());
    rankLinks();
    edgeView.refresh();
    labels.order();
    updateStatus();
  }

  function fillSelect(select, choices) {
    for (const c of choices) select.add(new Option(c.label + " (" + c.count + ")", String(c.value)));
    select.addEventListener("change", () => {
      state[select.id === "kg-track" ? "track" : "community"] = select.value;
      applyFilters();
    });
  }
  fillSelect(byId("kg-track"), meta.tracks);
  fillSelect(byId("kg-community"), meta.communities);

  const slider = byId("kg-weight");
  Object.assign(slider, { min: meta.weight.min, max: meta.weight.max, step: meta.weight.step,
    value: meta.weight.min, disabled: meta.weight.max <= meta.weight.min, title: meta.weight.label });
  byId("kg-weight-value").textContent = String(meta.weight.min);
  slider.addEventListener("input", () => {
    state.minWeight = Number(slider.value);
    byId("kg-weight-value").textContent = slider.value;
    applyFilters();
  });

  const papersSlider = byId("kg-papers");
  const papersLow = DATA.nodes.reduce((m, n) => Math.min(m, n.value), state.minPapers);
  const papersHigh = DATA.nodes.reduce((m, n) => Math.max(m, n.value), state.minPapers);
  Object.assign(papersSlider, { min: papersLow, max: papersHigh, step: 1, value: state.minPapers });
  papersSlider.disabled = Number(papersSlider.max) <= Number(papersSlider.min);
  byId("kg-papers-value").textContent = String(state.minPapers);
  papersSlider.addEventListener("input", () => {
    state.minPapers = Number(papersSlider.value);
    byId("kg-papers-value").textContent = papersSlider.value;
    applyFilters();
  });
  const linksInput = byId("kg-links");
  linksInput.value = state.maxLinks === null ? "" : String(state.maxLinks);
  linksInput.addEventListener("change", () => {
    const value = linksInput.value.trim();
    state.maxLinks = value === "" ? null : Math.max(0, Math.floor(Number(value)));
    applyFilters();
  });

  // ---------------------------------------------------------------- labels (labels.js)
  const labels = kgLabelLayer(network, nodeView, container, DATA.nodes);

  // ---------------------------------------------------------------- colours, legend and notes
  /* Two colourings: the groups (community, or main track) computed by kg, and the overlay, as
   * VOSviewer has: a node's mean publication year on a continuous scale (viridis), with its legend. */
  const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58",
    "#b5de2b", "#fde725"];
  const NO_YEAR = "#c8c8c8";
  const means = DATA.nodes.map((n) => n.year).filter((y) => y !== null && y !== undefined);
  const scale = { low: means.reduce((a, b) => Math.min(a, b), Infinity),
    high: means.reduce((a, b) => Math.max(a, b), -Infinity) };

  function yearColor(year) {
    if (year === null || year === undefined) return NO_YEAR;
    const t = scale.high > scale.low ? (year - scale.low) / (scale.high - scale.low) : 1;
    const at = t * (VIRIDIS.length - 1);
    const i = Math.min(Math.floor(at), VIRIDIS.length - 2);
    const mix = (k) => Math.round(parseInt(VIRIDIS[i].slice(k, k + 2), 16) * (i + 1 - at) +
      parseInt(VIRIDIS[i + 1].slice(k, k + 2), 16) * (at - i));
    return "#" + [1, 3, 5].map((k) => mix(k).toString(16).padStart(2, "0")).join("");
  }

  function renderLegend(mode) {
    const list = byId("kg-legend");
    list.replaceChildren();
    byId("kg-scale").hidden = mode !== "year";
    if (mode === "year") {
      byId("kg-legend-title").textContent = "Mean publication year";
      byId("kg-scale-bar").style.background = "linear-gradient(to right, " + VIRIDIS.join(", ") + ")";
      const ticks = [scale.low, (scale.low + scale.high) / 2, scale.high];
      byId("kg-scale-ticks").replaceChildren(...ticks.map((y) => el("span", y.toFixed(1))));
      const undated = DATA.nodes.length - means.length;
      if (undated) list.append(legendItem(NO_YEAR, "no year", undated));
      return;
    }
    byId("kg-legend-title").textContent = meta.legend.title;
    for (const entry of meta.legend.entries) list.append(legendItem(entry.color, entry.label, entry.count));
  }

  function legendItem(color, label, count) {
    const item = el("li");
    const swatch = el("span", null, "kg-swatch");
    swatch.style.background = color;
    item.append(swatch, el("span", label), el("span", String(count), "kg-count"));
    return item;
  }

  function colorBy(mode) {
    state.colors = mode;
    nodes.update(DATA.nodes.map((n) => ({ id: n.id, color: mode === "year" ? yearColor(n.year) : n.color })));
    renderLegend(mode);
    byId("kg-colors").value = mode;
  }

  if (meta.years) {
    byId("kg-colors-control").hidden = false;
    byId("kg-years-control").hidden = false;
    byId("kg-colors").options[0].textContent = meta.legend.title.toLowerCase();
    byId("kg-colors").addEventListener("change", () => colorBy(byId("kg-colors").value));
    const from = byId("kg-year-from");
    const to = byId("kg-year-to");
    for (let y = meta.years.min; y <= meta.years.max; y++) {
      from.add(new Option(String(y), String(y)));
      to.add(new Option(String(y), String(y)));
    }
    from.value = String(meta.years.min);
    to.value = String(meta.years.max);
    const onYears = () => {
      let low = Number(from.value);
      let high = Number(to.value);
      if (low > high) [low, high] = [high, low];
      const all = low === meta.years.min && high === meta.years.max;
      state.yearFrom = all ? null : low;
      state.yearTo = all ? null : high;
      applyFilters();
    };
    from.addEventListener("change", onYears);
    to.addEventListener("change", onYears);
  }
  state.colors = "groups";
  if (meta.years && meta.opening.colors === "year") colorBy("year");
  else renderLegend("groups");
  byId("kg-sizes").textContent = meta.legend.sizes;
  for (const note of meta.notes) byId("kg-notes").append(el("li", note));

  // ---------------------------------------------------------------- tooltip
  const tip = byId("kg-tip");
  let pinned = false;

  function renderTip(content) {
    tip.replaceChildren(el("h3", content.title));
    for (const line of content.lines) tip.append(el("p", line));
    for (const section of content.sections) {
      const list = el("ul");
      for (const cited of section.items) {
        const item = cited.paper === undefined ? cited : { ...meta.papers[cited.paper], ...cited };
        const li = el("li");
        li.append(el("span", item.text, "kg-item"));
        if (item.detail) li.append(el("span", " — " + item.detail, "kg-detail"));
        for (const quote of item.quotes || []) li.append(el("blockquote", meta.quotes[quote]));
        list.append(li);
      }
      if (section.more) list.append(el("li", "… and " + section.more + " more", "kg-more"));
      tip.append(el("h4", section.heading), list);
    }
  }

  function showTip(content, at) {
    renderTip(content);
    tip.hidden = false;
    const box = container.getBoundingClientRect();
    const x = Math.min(at.x + 14, box.width - tip.offsetWidth - 4);
    const y = Math.min(at.y + 14, box.height - tip.offsetHeight - 4);
    tip.style.left = Math.max(x, 4) + "px";
    tip.style.top = Math.max(y, 4) + "px";
  }

  function hideTip() {
    tip.hidden = true;
    tip.classList.remove("kg-pinned");
  }

  // ---------------------------------------------------------------- highlight and selection
  let highlighted = false;

  /** Dim every node but `id` and its neighbours, and every link but theirs (`null`: undim all).
   * DataSet.update would re-parse every node, so this sets the drawn nodes' `opacity` option in
   * place and redraws once. `network.body` is internal to vis-network; the build inlined here is
   * pinned (9.1.2, from pyvis==0.3.2) and tested. */
  function highlight(id) {
    const keep = id === null ? null : new Set([id, ...network.getConnectedNodes(id)]);
    labels.limit(keep);
    for (const [nodeId, node] of Object.entries(network.body.nodes)) {
      node.options.opacity = keep === null || keep.has(nodeId) ? 1 : DIM_OPACITY;
    }
    network.setOptions({ edges: { color: { color: keep === null ? EDGE : DIM_EDGE } } });
    network.redraw();
    highlighted = keep !== null;
  }

  function selectNode(id, at) {
    network.selectNodes([id]);
    highlight(id);
    pinned = true;
    showTip(tips.get("n" + id), at);
    tip.classList.add("kg-pinned");
  }

  function clearSelection() {
    pinned = false;
    hideTip();
    network.unselectAll();
    if (highlighted) highlight(null);
  }

  network.on("hoverNode", (p) => { if (!pinned) showTip(tips.get("n" + p.node), p.pointer.DOM); });
  network.on("hoverEdge", (p) => { if (!pinned) showTip(tips.get("e" + p.edge), p.pointer.DOM); });
  network.on("blurNode", () => { if (!pinned) hideTip(); });
  network.on("blurEdge", () => { if (!pinned) hideTip(); });
  network.on("click", (p) => {
    if (p.nodes.length) selectNode(p.nodes[0], p.pointer.DOM);
    else if (p.edges.length) {
      clearSelection();
      pinned = true;
      showTip(tips.get("e" + p.edges[0]), p.pointer.DOM);
      tip.classList.add("kg-pinned");
    } else clearSelection();
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") clearSelection(); });

  // ---------------------------------------------------------------- search
  const choices = byId("kg-labels");
  for (const label of [...new Set(DATA.nodes.map((n) => n.label))].sort()) choices.append(new Option(label));
  for (const title of [...new Set(meta.papers.map((p) => p.text))].sort()) choices.append(new Option(title));
  let byTitle = false;
  let matches = [];
  let cursor = -1;
  let lastQuery = null;

  /** Select the next node whose label contains `query` (case-insensitive); exact matches first. */
  function find(query) {
    const q = query.trim().toLowerCase();
    if (q !== lastQuery) {
      lastQuery = q;
      cursor = -1;
      let hits = q ? nodeView.get({ filter: (n) => n.label.toLowerCase().includes(q) }) : [];
      byTitle = false;
      if (q && !hits.length) { // no label matches: the nodes of the papers whose title does
        const rows = new Set(meta.papers.flatMap((p, i) => (p.text.toLowerCase().includes(q) ? [i] : [])));
        hits = nodeView.get({ filter: (n) => n.rows.some((r) => rows.has(r)) });
        byTitle = hits.length > 0;
      }
      const exact = (n) => (n.label.toLowerCase() === q ? 0 : 1);
      hits.sort((a, b) => exact(a) - exact(b) || b.value - a.value || a.label.localeCompare(b.label));
      matches = hits.map((n) => n.id);
    }
    if (!matches.length) {
      clearSelection();
      byId("kg-status").textContent = q ? "No " + meta.noun + " match “" + query.trim() + "”" : "";
      return null;
    }
    cursor = (cursor + 1) % matches.length;
    const id = matches[cursor];
    network.focus(id, { scale: Math.max(network.getScale(), 1.2), animation: false });
    selectNode(id, network.canvasToDOM(network.getPosition(id)));
    byId("kg-status").textContent = "Match " + (cursor + 1) + " of " + matches.length +
      (byTitle ? " (by paper title)" : "");
    return id;
  }
  byId("kg-search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    find(byId("kg-search").value);
  });

  updateStatus();
  network.once("afterDrawing", () => {
    window.kgReady = performance.now();
    document.body.dataset.ready = "true";
  });
  window.kgView = { network, nodes, edges, nodeView, edgeView, tips, state, find, selectNode, clearSelection,
    applyFilters, labels, colorBy, yearColor };
})();
