// Throughput over time per phase (small multiples: phases have different units), from the runner's
// per-second bins summed over all ranks.
import { axisLabel, createSvg, escapeHtml, formatNumber, mountAll, showStatus, tooltip, widthOf } from "./common.js";

function drawOne(container, d3, phase) {
  const box = document.createElement("div");
  box.className = "chart";
  const title = document.createElement("h3");
  title.textContent = phase.phase;
  container.append(title, box);
  const width = widthOf(container, 360);
  const height = 200;
  const margin = { top: 8, right: 12, bottom: 40, left: 64 };
  const svg = createSvg(box, width, height);
  const points = phase.points;
  // Each value is the work of one one-second bin [s, s + 1): drawn as steps, so that a phase shorter
  // than two seconds (one bin) still shows its block instead of a line of one point.
  const last = points[points.length - 1];
  const steps = [...points, [last[0] + 1, last[1], last[2]]];
  const x = d3.scaleLinear().domain([0, Math.max(1, last[0] + 1)]).range([margin.left, width - margin.right]);
  const y = d3.scaleLinear().domain([0, (d3.max(points, (p) => p[1]) || 1) * 1.08]).nice().range([height - margin.bottom, margin.top]);
  svg.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).ticks(4).tickSize(-(width - margin.left - margin.right)).tickFormat(""));
  svg.append("path").datum(steps).attr("fill", "#0b5cad").attr("fill-opacity", 0.15)
    .attr("d", d3.area().curve(d3.curveStepAfter).x((p) => x(p[0])).y0(y(0)).y1((p) => y(p[1])));
  svg.append("path").datum(steps).attr("fill", "none").attr("stroke", "#0b5cad").attr("stroke-width", 1.5)
    .attr("d", d3.line().curve(d3.curveStepAfter).x((p) => x(p[0])).y((p) => y(p[1])));
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`).call(d3.axisBottom(x).ticks(6));
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`).call(d3.axisLeft(y).ticks(4, "~s"));
  axisLabel(svg, "Seconds since the phase started", { x: (margin.left + width - margin.right) / 2, y: height - 6 });
  axisLabel(svg, phase.unit, { x: 14, y: (margin.top + height - margin.bottom) / 2, rotate: true });
  // The bin under the pointer: the last one starting at or before it.
  const bisect = (values, at) => Math.max(0, d3.bisector((p) => p[0]).right(values, at) - 1);
  svg.append("rect").attr("x", margin.left).attr("y", margin.top).attr("fill", "transparent")
    .attr("width", width - margin.left - margin.right).attr("height", height - margin.top - margin.bottom)
    .on("mousemove", (event) => {
      const p = points[bisect(points, x.invert(d3.pointer(event)[0]))];
      if (p) tooltip.show(event, `<strong>${escapeHtml(phase.phase)}</strong>, second ${p[0]}<br>${formatNumber(p[1])} ${escapeHtml(phase.unit)} from ${p[2]} rank${p[2] === 1 ? "" : "s"}`);
    })
    .on("mouseleave", () => tooltip.hide());
}

function draw(el, data, d3) {
  const phases = (data.phases || []).filter((p) => p.points && p.points.length);
  if (!phases.length) {
    showStatus(el, "No throughput timeline in this archive.");
    return;
  }
  el.replaceChildren();
  const grid = document.createElement("div");
  grid.className = "chart-grid";
  el.appendChild(grid);
  // Lay out every cell first, so each measures its final grid column width.
  const cells = phases.map(() => grid.appendChild(document.createElement("div")));
  phases.forEach((phase, i) => drawOne(cells[i], d3, phase));
  el.dataset.state = "drawn";
}

mountAll("timeline", draw);
