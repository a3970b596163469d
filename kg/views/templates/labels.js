/* kg view: the label layer, drawn over the network by the page rather than by vis-network.
 * Labels are drawn with fillText on the canvas: input text is never parsed as markup. */
"use strict";
/* Labels are drawn here, not by vis-network: the most important nodes (most papers) first, each
 * only where it overlaps no label already drawn, at a size fixed on screen. Zooming in spreads the
 * nodes apart, so more labels fit: the map shows the main names at the opening zoom and the rest
 * as one zooms in, never one label over another. */
function kgLabelLayer(network, nodeView, container, allNodes) {
  const ratio = () => window.devicePixelRatio || 1;
  const low = allNodes.reduce((m, n) => Math.min(m, n.value), Infinity);
  const high = allNodes.reduce((m, n) => Math.max(m, n.value), -Infinity);
  const fontSize = (value) => Math.round(11 + 7 * Math.sqrt(high > low ? (value - low) / (high - low) : 0));
  const font = (size) => size + "px system-ui, -apple-system, Segoe UI, sans-serif";
  const widths = new Map();
  let ranked = [];
  let drawn = [];
  let only = null; // while a node is highlighted: the nodes whose labels may show

  function order() {
    ranked = nodeView.get().sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  }

  function overlaps(box, grid, cell) {
    for (let gx = Math.floor(box.left / cell); gx <= Math.floor((box.left + box.width) / cell); gx++) {
      for (let gy = Math.floor(box.top / cell); gy <= Math.floor((box.top + box.height) / cell); gy++) {
        for (const other of grid.get(gx + ":" + gy) || []) {
          if (box.left < other.left + other.width && other.left < box.left + box.width &&
              box.top < other.top + other.height && other.top < box.top + box.height) return true;
        }
      }
    }
    return false;
  }

  function place(box, grid, cell) {
    for (let gx = Math.floor(box.left / cell); gx <= Math.floor((box.left + box.width) / cell); gx++) {
      for (let gy = Math.floor(box.top / cell); gy <= Math.floor((box.top + box.height) / cell); gy++) {
        const key = gx + ":" + gy;
        if (!grid.has(key)) grid.set(key, []);
        grid.get(key).push(box);
      }
    }
  }

  function draw(ctx) {
    const width = container.clientWidth;
    const height = container.clientHeight;
    const cell = 80;
    const grid = new Map();
    const selected = network.getSelectedNodes();
    const candidates = selected.length ? [...nodeView.get(selected), ...ranked] : ranked;
    const seen = new Set();
    drawn = [];
    ctx.save();
    ctx.setTransform(ratio(), 0, 0, ratio(), 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    for (const node of candidates) {
      if (seen.has(node.id) || (only !== null && !only.has(node.id))) continue;
      seen.add(node.id);
      const body = network.body.nodes[node.id];
      if (!body) continue;
      const at = network.canvasToDOM({ x: body.x, y: body.y });
      if (at.x < -200 || at.y < -50 || at.x > width + 200 || at.y > height + 50) continue;
      const size = fontSize(node.value);
      const key = size + "|" + node.id;
      if (!widths.has(key)) {
        ctx.font = font(size);
        widths.set(key, ctx.measureText(node.label).width);
      }
      const box = { id: node.id, text: node.label, size, left: at.x - widths.get(key) / 2 - 2,
        top: at.y - size / 2 - 2, width: widths.get(key) + 4, height: size + 4 };
      if (overlaps(box, grid, cell)) continue;
      place(box, grid, cell);
      drawn.push(box);
      ctx.font = font(size);
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(255,255,255,0.85)";
      ctx.strokeText(node.label, at.x, at.y);
      ctx.fillStyle = "#1a1a1a";
      ctx.fillText(node.label, at.x, at.y);
    }
    ctx.restore();
  }

  order();
  network.on("afterDrawing", draw);
  return { order, boxes: () => drawn.map((b) => ({ ...b })), limit: (keep) => { only = keep; } };
}
