// One metric (data-metric = score | bw | md) per release: the median entry of the official lists as a
// line, their best entry as dots. The lists reconstructed here (the runs new in a release whose
// official lists are not public: a handful, against the hundred-odd systems of an official list) are
// a series of their own, hollow and never joined to the line, with their entry count in the legend.
import {
  axisLabel, createSvg, escapeHtml, formatNumber, legend, logDomain, logTicks, mountAll, showStatus,
  tickFormat, tooltip, widthOf,
} from "./common.js";

const LABELS = { score: "Score", bw: "Bandwidth (GiB/s)", md: "Metadata (kIOPS)" };
const MEDIAN_COLOR = "#0b5cad";
const TOP_COLOR = "#d62728";
const REBUILT_COLOR = "#9a6200";

function draw(el, data, d3) {
  const metric = el.dataset.metric;
  const rows = (data.releases || []).filter((r) => r[metric]);
  const rebuilt = (data.reconstructed || []).filter((r) => r[metric]);
  if (!rows.length && !rebuilt.length) {
    showStatus(el, el.dataset.empty || "No release to show.");
    return;
  }
  const width = widthOf(el, 380);
  const height = 260;
  const margin = { top: 12, right: 14, bottom: 56, left: 62 };
  const svg = createSvg(el, width, height);
  // Release names only on the axis (the series says what is reconstructed), in date order.
  const releases = [...rows, ...rebuilt].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((r) => r.release).filter((name, i, all) => all.indexOf(name) === i);
  const x = d3.scalePoint().domain(releases).range([margin.left, width - margin.right]).padding(0.4);
  const values = [...rows, ...rebuilt].flatMap((r) => [r[metric].median, r[metric].top]);
  const y = d3.scaleLog().domain(logDomain(values, 1.3)).range([height - margin.bottom, margin.top]);

  svg.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickSize(-(width - margin.left - margin.right)).tickFormat(""));
  const step = Math.ceil(releases.length / Math.max(1, Math.floor((width - margin.left) / 34)));
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickValues(x.domain().filter((_, i) => i % step === 0)))
    .selectAll("text").attr("transform", "rotate(-40)").attr("text-anchor", "end").attr("dx", "-0.4em").attr("dy", "0.5em");
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickFormat(tickFormat));
  axisLabel(svg, `${LABELS[metric]}, log scale`, { x: 14, y: (margin.top + height - margin.bottom) / 2, rotate: true });
  axisLabel(svg, "Release", { x: (margin.left + width - margin.right) / 2, y: height - 4 });

  const html = (r, what) => `<strong>${escapeHtml(r.release)}</strong> ${what} (${r.count} entries)<br>
    Median ${formatNumber(r[metric].median)}<br>Best ${formatNumber(r[metric].top)}:
    ${escapeHtml(r[metric].top_system)}${r[metric].top_institution ? `, ${escapeHtml(r[metric].top_institution)}` : ""}`;
  const official = (r) => html(r, "official list");
  const reconstructed = (r) => html(r, "reconstructed here, runs new in this release, not an IO500 list");
  if (rows.length) {
    svg.append("path").datum(rows).attr("fill", "none").attr("stroke", MEDIAN_COLOR).attr("stroke-width", 2)
      .attr("d", d3.line().x((r) => x(r.release)).y((r) => y(r[metric].median)));
  }
  svg.append("g").selectAll("circle.median").data(rows).join("circle").attr("class", "median")
    .attr("cx", (r) => x(r.release)).attr("cy", (r) => y(r[metric].median)).attr("r", 3.5).attr("fill", MEDIAN_COLOR)
    .on("mousemove", (event, r) => tooltip.show(event, official(r))).on("mouseleave", () => tooltip.hide());
  svg.append("g").selectAll("circle.top").data(rows).join("circle").attr("class", "top")
    .attr("cx", (r) => x(r.release)).attr("cy", (r) => y(r[metric].top)).attr("r", 5)
    .attr("fill", TOP_COLOR).attr("fill-opacity", 0.85).style("cursor", "pointer")
    .on("mousemove", (event, r) => tooltip.show(event, official(r))).on("mouseleave", () => tooltip.hide())
    .on("click", (event, r) => { window.location.href = `/submissions/${r[metric].top_id}/`; });
  // The reconstructed series: hollow squares (median) and hollow diamonds (best), no line.
  svg.append("g").selectAll("rect.rebuilt-median").data(rebuilt).join("rect").attr("class", "rebuilt-median")
    .attr("x", (r) => x(r.release) - 3.5).attr("y", (r) => y(r[metric].median) - 3.5).attr("width", 7).attr("height", 7)
    .attr("fill", "#fff").attr("stroke", REBUILT_COLOR).attr("stroke-width", 1.5)
    .on("mousemove", (event, r) => tooltip.show(event, reconstructed(r))).on("mouseleave", () => tooltip.hide());
  svg.append("g").selectAll("path.rebuilt-top").data(rebuilt).join("path").attr("class", "rebuilt-top")
    .attr("d", d3.symbol(d3.symbolDiamond, 70)).attr("transform", (r) => `translate(${x(r.release)},${y(r[metric].top)})`)
    .attr("fill", "#fff").attr("stroke", REBUILT_COLOR).attr("stroke-width", 1.5).style("cursor", "pointer")
    .on("mousemove", (event, r) => tooltip.show(event, reconstructed(r))).on("mouseleave", () => tooltip.hide())
    .on("click", (event, r) => { window.location.href = `/submissions/${r[metric].top_id}/`; });
  const items = [
    { label: "official lists: median entry", color: MEDIAN_COLOR, role: "official-median" },
    { label: "best entry", color: TOP_COLOR, role: "official-best" },
  ];
  if (rebuilt.length) {
    const counts = rebuilt.map((r) => `${r.release} ${r.count}`).join(", ");
    items.push({
      label: `reconstructed here, not official: median and best of the runs new in a release (entries: ${counts})`,
      color: REBUILT_COLOR, hollow: true, role: "reconstructed",
    });
  }
  legend(el, items);
}

mountAll("trend", draw);
