// One metric (data-metric = score | bw | md) per release: the median entry as a line, the best as dots.
import {
  axisLabel, createSvg, escapeHtml, formatNumber, legend, logDomain, logTicks, mountAll, showStatus,
  tickFormat, tooltip, widthOf,
} from "./common.js";

const LABELS = { score: "Score", bw: "Bandwidth (GiB/s)", md: "Metadata (kIOPS)" };
const MEDIAN_COLOR = "#0b5cad";
const TOP_COLOR = "#d62728";

function draw(el, data, d3) {
  const metric = el.dataset.metric;
  const rows = (data.releases || []).filter((r) => r[metric]);
  if (!rows.length) {
    showStatus(el, el.dataset.empty || "No release to show.");
    return;
  }
  const width = widthOf(el, 380);
  const height = 260;
  const margin = { top: 12, right: 14, bottom: 56, left: 62 };
  const svg = createSvg(el, width, height);
  const x = d3.scalePoint().domain(rows.map((r) => r.release)).range([margin.left, width - margin.right]).padding(0.4);
  const values = rows.flatMap((r) => [r[metric].median, r[metric].top]);
  const y = d3.scaleLog().domain(logDomain(values, 1.3)).range([height - margin.bottom, margin.top]);

  svg.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickSize(-(width - margin.left - margin.right)).tickFormat(""));
  const step = Math.ceil(rows.length / Math.max(1, Math.floor((width - margin.left) / 34)));
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickValues(x.domain().filter((_, i) => i % step === 0)))
    .selectAll("text").attr("transform", "rotate(-40)").attr("text-anchor", "end").attr("dx", "-0.4em").attr("dy", "0.5em");
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickFormat(tickFormat));
  axisLabel(svg, `${LABELS[metric]}, log scale`, { x: 14, y: (margin.top + height - margin.bottom) / 2, rotate: true });
  axisLabel(svg, "Release", { x: (margin.left + width - margin.right) / 2, y: height - 4 });

  svg.append("path").datum(rows).attr("fill", "none").attr("stroke", MEDIAN_COLOR).attr("stroke-width", 2)
    .attr("d", d3.line().x((r) => x(r.release)).y((r) => y(r[metric].median)));
  const html = (r) => `<strong>${escapeHtml(r.release)}</strong> (${r.count} entries)<br>
    Median ${formatNumber(r[metric].median)}<br>Best ${formatNumber(r[metric].top)}:
    ${escapeHtml(r[metric].top_system)}${r[metric].top_institution ? `, ${escapeHtml(r[metric].top_institution)}` : ""}`;
  svg.append("g").selectAll("circle.median").data(rows).join("circle").attr("class", "median")
    .attr("cx", (r) => x(r.release)).attr("cy", (r) => y(r[metric].median)).attr("r", 3.5).attr("fill", MEDIAN_COLOR)
    .on("mousemove", (event, r) => tooltip.show(event, html(r))).on("mouseleave", () => tooltip.hide());
  svg.append("g").selectAll("circle.top").data(rows).join("circle").attr("class", "top")
    .attr("cx", (r) => x(r.release)).attr("cy", (r) => y(r[metric].top)).attr("r", 5)
    .attr("fill", TOP_COLOR).attr("fill-opacity", 0.85).style("cursor", "pointer")
    .on("mousemove", (event, r) => tooltip.show(event, html(r))).on("mouseleave", () => tooltip.hide())
    .on("click", (event, r) => { window.location.href = `/submissions/${r[metric].top_id}/`; });
  legend(el, [{ label: "median entry", color: MEDIAN_COLOR }, { label: "best entry", color: TOP_COLOR }]);
}

mountAll("trend", draw);
