// Per-rank time (top) and throughput (bottom) of one phase; the slowest rank is marked red, the
// median dashed, so a straggler stands out. A select switches phases (fetched one at a time).
import { axisLabel, createSvg, escapeHtml, formatNumber, loadJSON, mountAll, showStatus, tooltip, widthOf } from "./common.js";

const SLOW = "#d62728";
const NORMAL = "#0b5cad";

function panel(svg, d3, { rows, column, top, height, width, label, highlight, x }) {
  const margin = { left: 70, right: 16 };
  const values = rows.map((r) => r[column]).filter((v) => Number.isFinite(v));
  if (!values.length) return;
  const y = d3.scaleLinear().domain([0, d3.max(values) * 1.05 || 1]).nice().range([top + height, top]);
  const g = svg.append("g");
  g.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).ticks(5).tickSize(-(width - margin.left - margin.right)).tickFormat(""));
  const median = d3.median(values);
  const barWidth = Math.max(1, (x.range()[1] - x.range()[0]) / rows.length - 0.5);
  g.append("g").selectAll("rect").data(rows.filter((r) => Number.isFinite(r[column]))).join("rect")
    .attr("x", (r) => x(r[0]) - barWidth / 2).attr("width", barWidth)
    .attr("y", (r) => y(r[column])).attr("height", (r) => y(0) - y(r[column]))
    .attr("fill", (r) => (r[0] === highlight ? SLOW : NORMAL)).attr("fill-opacity", (r) => (r[0] === highlight ? 1 : 0.75));
  g.append("line").attr("stroke", "#1d2430").attr("stroke-dasharray", "5 4")
    .attr("x1", margin.left).attr("x2", width - margin.right).attr("y1", y(median)).attr("y2", y(median));
  g.append("text").attr("class", "isoline-label").attr("x", width - margin.right).attr("y", y(median) - 4)
    .attr("text-anchor", "end").text(`median ${formatNumber(median)}`);
  g.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`).call(d3.axisLeft(y).ticks(5, "~s"));
  axisLabel(g, label, { x: 14, y: top + height / 2, rotate: true });
}

function drawPhase(el, chart, data, d3) {
  const summary = data.phases.find((p) => p.phase === data.phase);
  const rows = data.rows || [];
  if (!summary || !rows.length) {
    showStatus(chart, "No per-rank data for this phase.");
    return;
  }
  const width = widthOf(el);
  const height = 420;
  const svg = createSvg(chart, width, height);
  const ranks = rows.map((r) => r[0]);
  const x = d3.scaleLinear().domain([d3.min(ranks) - 0.5, d3.max(ranks) + 0.5]).range([70, width - 16]);
  panel(svg, d3, { rows, column: 1, top: 10, height: 160, width, x, label: "Time (s)", highlight: summary.slowest_rank });
  panel(svg, d3, { rows, column: 2, top: 210, height: 160, width, x, label: `Rate (${summary.rate_unit})`, highlight: summary.weakest_rank });
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${370})`).call(d3.axisBottom(x).ticks(Math.min(10, rows.length), "d"));
  axisLabel(svg, "MPI rank", { x: (70 + width - 16) / 2, y: height - 8 });

  // One transparent overlay finds the nearest rank: thousands of ranks stay responsive.
  const byRank = d3.bisector((r) => r[0]).center;
  svg.append("rect").attr("x", 70).attr("y", 0).attr("width", width - 86).attr("height", 370).attr("fill", "transparent")
    .on("mousemove", (event) => {
      const [mx] = d3.pointer(event);
      const r = rows[byRank(rows, x.invert(mx))];
      if (!r) return;
      tooltip.show(event, `<strong>Rank ${r[0]}</strong><br>Time ${formatNumber(r[1])} s<br>Rate ${formatNumber(r[2])} ${escapeHtml(summary.rate_unit)}`);
    })
    .on("mouseleave", () => tooltip.hide());
}

function draw(el, data, d3) {
  if (!data.phases || !data.phases.length) {
    showStatus(el, "No per-rank data in this archive.");
    return;
  }
  el.replaceChildren();
  const controls = document.createElement("div");
  controls.className = "chart-controls";
  const label = document.createElement("label");
  label.textContent = "Phase ";
  const select = document.createElement("select");
  select.setAttribute("aria-label", "Phase shown in the per-rank chart");
  for (const p of data.phases) {
    const option = document.createElement("option");
    option.value = p.phase;
    const ratio = p.straggler_ratio ? ` (slowest rank ${formatNumber(p.straggler_ratio)}× the median time)` : "";
    option.textContent = `${p.phase}${ratio}`;
    option.selected = p.phase === data.phase;
    select.appendChild(option);
  }
  label.appendChild(select);
  controls.appendChild(label);
  const note = document.createElement("p");
  note.className = "chart-note";
  const chart = document.createElement("div");
  chart.className = "chart";
  chart.dataset.role = "ranks-plot";
  el.append(controls, note, chart);
  const describe = (current) => {
    const s = current.phases.find((p) => p.phase === current.phase);
    note.textContent = s && s.slowest_rank !== undefined
      ? `${s.ranks} ranks. The slowest, rank ${s.slowest_rank}, took ${formatNumber(s.max_time_s)} s against a median of ${formatNumber(s.median_time_s)} s.`
      : "";
  };
  describe(data);
  drawPhase(el, chart, data, d3);
  el.dataset.state = "drawn";
  select.addEventListener("change", () => {
    const url = new URL(el.dataset.src, window.location.href);
    url.searchParams.set("phase", select.value);
    loadJSON(url.toString())
      .then((next) => { describe(next); drawPhase(el, chart, next, d3); })
      .catch((error) => showStatus(chart, error.message, true));
  });
}

mountAll("ranks", draw);
