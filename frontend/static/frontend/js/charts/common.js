// Shared pieces of the chart modules: loading D3 and the data, tooltips, number formats, axes.
// Every chart is a <div data-chart="name" data-src="...json" data-d3="...d3.min.js">; a module calls
// mountAll("name", draw) and draw(el, data, d3) renders into the div (again on resize).

let d3Promise = null;

function ensureD3(url) {
  if (window.d3) return Promise.resolve(window.d3);
  if (!d3Promise) {
    d3Promise = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => resolve(window.d3);
      script.onerror = () => reject(new Error("The chart library could not be loaded."));
      document.head.appendChild(script);
    });
  }
  return d3Promise;
}

const jsonCache = new Map();

export function loadJSON(url) {
  // Several charts of one page read the same endpoint (the three trend charts): fetch it once.
  if (!jsonCache.has(url)) {
    jsonCache.set(
      url,
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" }).then(async (response) => {
        const body = await response.json().catch(() => ({}));
        if (!response.ok) throw new Error(body.error || `The chart data could not be loaded (HTTP ${response.status}).`);
        return body;
      }),
    );
  }
  return jsonCache.get(url);
}

// state: "loading" while the data comes, "empty" when there is nothing to draw, "error" on failure.
export function showStatus(el, text, isError = false, state = null) {
  el.replaceChildren();
  const p = document.createElement("p");
  p.className = isError ? "chart-status chart-error" : "chart-status";
  p.textContent = text;
  el.appendChild(p);
  el.dataset.state = state || (isError ? "error" : "empty");
}

export function escapeHtml(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

let tooltipEl = null;

export const tooltip = {
  show(event, html) {
    if (!tooltipEl) {
      tooltipEl = document.createElement("div");
      tooltipEl.className = "chart-tooltip";
      tooltipEl.setAttribute("role", "status");
      document.body.appendChild(tooltipEl);
    }
    tooltipEl.innerHTML = html;
    tooltipEl.style.display = "block";
    const pad = 14;
    const { innerWidth } = window;
    const width = tooltipEl.offsetWidth;
    let left = event.pageX + pad;
    if (left + width > window.scrollX + innerWidth - 8) left = event.pageX - width - pad;
    tooltipEl.style.left = `${Math.max(window.scrollX + 4, left)}px`;
    tooltipEl.style.top = `${event.pageY + pad}px`;
  },
  hide() {
    if (tooltipEl) tooltipEl.style.display = "none";
  },
};

export function formatNumber(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  const d3 = window.d3;
  if (Math.abs(value) >= 1000) return d3.format(",.0f")(value);
  if (Math.abs(value) >= 1) return d3.format(",.2f")(value);
  return d3.format(".3~g")(value);
}

export function tickFormat(value) {
  const d3 = window.d3;
  return Math.abs(value) >= 1e5 ? d3.format(".2~s")(value) : d3.format(",~g")(value);
}

// Log-scale axes label 1, 2 and 5 times a power of ten, or only the powers of ten when the axis is
// too short for that many labels, so labels never collide.
export function logTicks(scale) {
  const pixels = Math.abs(scale.range()[1] - scale.range()[0]);
  const room = Math.max(3, Math.floor(pixels / 22));
  const [low, high] = scale.domain();
  const ticks = [];
  for (let e = Math.floor(Math.log10(low)); e <= Math.ceil(Math.log10(high)); e += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= low && v <= high) ticks.push(v);
    }
  }
  if (ticks.length > Math.min(12, room)) return ticks.filter((v) => Math.round(v / 10 ** Math.floor(Math.log10(v))) === 1);
  return ticks;
}

export function logDomain(values, pad = 1.6) {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0);
  if (!finite.length) return [0.1, 10];
  const low = Math.min(...finite) / pad;
  const high = Math.max(...finite) * pad;
  return [low, high];
}

export function createSvg(el, width, height) {
  el.replaceChildren();
  const svg = window.d3
    .select(el)
    .append("svg")
    .attr("viewBox", `0 0 ${width} ${height}`)
    .attr("width", width)
    .attr("height", height)
    .attr("preserveAspectRatio", "xMinYMin meet")
    .style("max-width", `${width}px`);
  el.dataset.state = "drawn";
  return svg;
}

export function axisLabel(g, text, { x, y, rotate = false, anchor = "middle" }) {
  g.append("text")
    .attr("class", "axis-label")
    .attr("text-anchor", anchor)
    .attr("transform", rotate ? `translate(${x},${y}) rotate(-90)` : `translate(${x},${y})`)
    .text(text);
}

export function legend(el, items) {
  const list = document.createElement("ul");
  list.className = "chart-legend";
  for (const item of items) {
    const li = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = item.hollow ? "transparent" : item.color;
    if (item.hollow) swatch.style.border = `2px solid ${item.color}`;
    if (item.role) li.dataset.series = item.role;
    li.append(swatch, document.createTextNode(item.label));
    list.appendChild(li);
  }
  el.appendChild(list);
}

export function releaseColors(d3, releases) {
  // Oldest dark blue to newest yellow-green: the order of time reads off the colour.
  const scale = d3.scaleSequential(d3.interpolateViridis).domain([0, Math.max(1, releases.length - 1) / 0.92]);
  const colors = new Map(releases.map((name, i) => [name, scale(i)]));
  return (name) => colors.get(name) ?? "#888";
}

export const SERIES_COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

export function mountAll(name, draw) {
  const elements = document.querySelectorAll(`[data-chart="${name}"]`);
  for (const el of elements) mount(el, draw);
}

function mount(el, draw) {
  showStatus(el, "Loading the chart…", false, "loading");
  ensureD3(el.dataset.d3)
    .then((d3) => loadJSON(el.dataset.src).then((data) => [d3, data]))
    .then(([d3, data]) => {
      const render = () => {
        try {
          draw(el, data, d3);
        } catch (error) {
          showStatus(el, `The chart could not be drawn: ${error.message}`, true);
        }
        // The width it was drawn at: a chart drawn in a closed fold (0 px) or before the screen
        // turned is drawn again once its box has another width, and tests wait for that.
        el.dataset.drawnWidth = String(el.clientWidth);
      };
      render();
      let timer = null;
      // The box, not the window: a fold opening or a column growing changes it too.
      new ResizeObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (String(el.clientWidth) !== el.dataset.drawnWidth) render();
        }, 150);
      }).observe(el);
    })
    .catch((error) => showStatus(el, error.message, true));
}

export function widthOf(el, fallback = 720) {
  return Math.max(280, el.clientWidth || fallback);
}
