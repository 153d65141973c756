// @ts-check
// The totals across the rounds as an inline SVG line chart.
const NS = "http://www.w3.org/2000/svg";
export const COLOURS = ["#1f6fd1", "#d1342f", "#1c8a4a", "#b06a00", "#7a3fc2", "#008c8c", "#c2337a", "#555"];
const MARKS = ["circle", "square", "diamond", "triangle", "circle", "square", "diamond", "triangle"];

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function mark(kind, x, y, colour) {
  const r = 4;
  if (kind === "square") return svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  if (kind === "diamond") return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, fill: colour });
  if (kind === "triangle") return svg("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`, fill: colour });
  return svg("circle", { cx: x, cy: y, r, fill: colour });
}

// running: [[total per player after round 1], [after round 2], ...]
export function totalsChart(names, running, { title = "" } = {}) {
  const W = 360, H = 200, L = 40, R = 10, T = 12, B = 26;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title });
  if (title) root.append(svg("title", {}, title));
  const rounds = running.length;
  const all = running.flat();
  const top = Math.max(10, ...all);
  const low = Math.min(0, ...all);
  const raw = (top - low) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepV = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((k) => k >= raw) || 10 * mag;
  const min = Math.floor(low / stepV) * stepV;
  const max = Math.ceil(top / stepV) * stepV;
  const x = (i) => L + (rounds <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (rounds - 1 || 1));
  const y = (v) => T + ((max - v) * (H - T - B)) / (max - min || 1);
  for (let v = min; v <= max + 1e-9; v += stepV) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(Math.round(v))));
  }
  for (let i = 0; i < rounds; i++) {
    root.append(svg("text", { x: x(i), y: H - 8, "text-anchor": "middle", class: "axis" }, String(i + 1)));
  }
  names.forEach((name, p) => {
    const colour = COLOURS[p % COLOURS.length];
    const pts = running.map((r, i) => `${x(i)},${y(r[p])}`).join(" ");
    const g = svg("g", { class: "series" });
    g.append(svg("title", {}, name));
    if (rounds > 1) g.append(svg("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": p >= 4 ? "5 3" : "" }));
    running.forEach((r, i) => g.append(mark(MARKS[p % MARKS.length], x(i), y(r[p]), colour)));
    root.append(g);
  });
  return root;
}

export function legend(names, extra = []) {
  const ul = document.createElement("ul");
  ul.className = "legend";
  names.forEach((n, p) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = `swatch m-${MARKS[p % MARKS.length]}`;
    sw.style.background = COLOURS[p % COLOURS.length];
    li.append(sw, document.createTextNode(` ${n}${extra[p] !== undefined ? `: ${extra[p]}` : ""}`));
    ul.append(li);
  });
  return ul;
}
