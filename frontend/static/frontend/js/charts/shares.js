// Share of each release's entries by file system or vendor (data-by), as 100 % stacked bars.
import { axisLabel, createSvg, escapeHtml, legend, mountAll, showStatus, tooltip, widthOf } from "./common.js";

function draw(el, data, d3) {
  const shares = data[el.dataset.by];
  const rows = shares ? shares.releases.filter((r) => r.total > 0) : [];
  if (!rows.length) {
    showStatus(el, el.dataset.empty || "No entries to count.");
    return;
  }
  const categories = shares.categories;
  const width = widthOf(el, 380);
  // Release names are written at -40 degrees below the bars: the bottom margin grows with the longest
  // one ("ISC25 (reconstructed)"), so that a name never runs into the axis title or the legend.
  const longest = d3.max(rows, (r) => r.release.length) || 4;
  const bottom = Math.max(56, 36 + Math.ceil(longest * 6.2 * Math.sin((40 * Math.PI) / 180)));
  const margin = { top: 10, right: 10, bottom, left: 52 };
  const height = 224 + bottom;
  const svg = createSvg(el, width, height);
  const x = d3.scaleBand().domain(rows.map((r) => r.release)).range([margin.left, width - margin.right]).padding(0.18);
  const y = d3.scaleLinear().domain([0, 1]).range([height - margin.bottom, margin.top]);
  const palette = d3.schemeTableau10.concat(["#bab0ac"]);
  const color = d3.scaleOrdinal().domain(categories).range(palette);
  const stack = d3.stack().keys(categories).value((r, key) => r.shares[key] || 0)(rows);

  svg.append("g").selectAll("g").data(stack).join("g").attr("fill", (layer) => color(layer.key))
    .selectAll("rect").data((layer) => layer.map((segment) => ({ segment, key: layer.key })))
    .join("rect")
    .attr("x", (d) => x(d.segment.data.release)).attr("width", x.bandwidth())
    .attr("y", (d) => y(d.segment[1])).attr("height", (d) => Math.max(0, y(d.segment[0]) - y(d.segment[1])))
    .on("mousemove", (event, d) => {
      const row = d.segment.data;
      tooltip.show(event, `<strong>${escapeHtml(row.release)}</strong>: ${escapeHtml(d.key)}<br>
        ${row.counts[d.key]} of ${row.total} entries (${d3.format(".0%")(row.shares[d.key] || 0)})`);
    })
    .on("mouseleave", () => tooltip.hide());

  const step = Math.ceil(rows.length / Math.max(1, Math.floor((width - margin.left) / 34)));
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickValues(x.domain().filter((_, i) => i % step === 0)))
    .selectAll("text").attr("transform", "rotate(-40)").attr("text-anchor", "end").attr("dx", "-0.4em").attr("dy", "0.5em");
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).ticks(5, "%"));
  axisLabel(svg, "Share of entries (%)", { x: 14, y: (margin.top + height - margin.bottom) / 2, rotate: true });
  axisLabel(svg, "Release", { x: (margin.left + width - margin.right) / 2, y: height - 4 });
  legend(el, categories.map((c) => ({ label: c, color: color(c) })));
}

mountAll("shares", draw);
