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
  // Tooltips stay out of the DataSets: vis-network walks every property of every item it draws
  // (keeping them apart saves ~15% of the start-up time of a large map).
  const tips = new Map();
  const untip = (items, prefix) => items.map(({ tip: content, ...item }) => {
    tips.set(prefix + item.id, content);
    return item;
  });
  const nodes = new vis.DataSet(untip(DATA.nodes, "n"));
  const edges = new vis.DataSet(untip(DATA.edges, "e"));
  const state = { track: "", community: "", minWeight: meta.weight.min };
  const nodeView = new vis.DataView(nodes, {
    filter: (n) => (state.track === "" || n.tracks.includes(Number(state.track))) &&
      (state.community === "" || String(n.community) === state.community),
  });
  let shown = new Set(nodeView.getIds());
  const edgeView = new vis.DataView(edges, {
    filter: (e) => shown.has(e.from) && shown.has(e.to) && e.weight >= state.minWeight - 1e-9 &&
      (state.track === "" || e.tracks.includes(Number(state.track))),
  });
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
    edgeView.refresh();
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

  // ---------------------------------------------------------------- legend and notes
  byId("kg-legend-title").textContent = meta.legend.title;
  for (const entry of meta.legend.entries) {
    const item = el("li");
    const swatch = el("span", null, "kg-swatch");
    swatch.style.background = entry.color;
    item.append(swatch, el("span", entry.label), el("span", String(entry.count), "kg-count"));
    byId("kg-legend").append(item);
  }
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
   * DataSet.update would re-parse every node (about 1 s per 2,000 nodes), so this sets the drawn
   * nodes' `opacity` option in place and redraws once (~0.1 s). `network.body` is internal to
   * vis-network; the build inlined here is pinned (9.1.2, from pyvis==0.3.2) and tested. */
  function highlight(id) {
    const keep = id === null ? null : new Set([id, ...network.getConnectedNodes(id)]);
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
  const labels = byId("kg-labels");
  for (const label of [...new Set(DATA.nodes.map((n) => n.label))].sort()) labels.append(new Option(label));
  let matches = [];
  let cursor = -1;
  let lastQuery = null;

  /** Select the next node whose label contains `query` (case-insensitive); exact matches first. */
  function find(query) {
    const q = query.trim().toLowerCase();
    if (q !== lastQuery) {
      lastQuery = q;
      cursor = -1;
      const hits = q ? nodeView.get({ filter: (n) => n.label.toLowerCase().includes(q) }) : [];
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
    byId("kg-status").textContent = "Match " + (cursor + 1) + " of " + matches.length;
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
    applyFilters };
})();
