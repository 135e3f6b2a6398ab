// Bandwidth (x, log) against metadata rate (y, log) with lines of equal IO500 score sqrt(BW * MD).
// data-mode="path" joins the points in release order (one system's balance moving over time).
import {
  axisLabel, createSvg, escapeHtml, formatNumber, legend, logDomain, logTicks, mountAll, releaseColors,
  showStatus, tickFormat, tooltip, widthOf,
} from "./common.js";

function pointHtml(p) {
  const where = [p.institution, p.filesystem].filter(Boolean).join(", ");
  const listed = p.rank ? `${escapeHtml(p.release)} ${escapeHtml(p.kind)} list, rank ${p.rank}` : escapeHtml(p.release);
  return `<strong>${escapeHtml(p.system || `Submission ${p.id}`)}</strong>${where ? `<br>${escapeHtml(where)}` : ""}
    <br>${listed}<br>Score ${formatNumber(p.score)} · BW ${formatNumber(p.bw)} GiB/s · MD ${formatNumber(p.md)} kIOPS`;
}

function draw(el, data, d3) {
  const points = data.points || [];
  if (!points.length) {
    showStatus(el, el.dataset.empty || "No entry has both a bandwidth and a metadata value to place.");
    return;
  }
  const path = el.dataset.mode === "path";
  const width = widthOf(el);
  const height = Math.round(Math.min(560, Math.max(320, width * 0.62)));
  const margin = { top: 16, right: 24, bottom: 48, left: 70 };
  const svg = createSvg(el, width, height);
  const x = d3.scaleLog().domain(logDomain(points.map((p) => p.bw), path ? 2.5 : 1.4)).range([margin.left, width - margin.right]);
  const y = d3.scaleLog().domain(logDomain(points.map((p) => p.md), path ? 2.5 : 1.4)).range([height - margin.bottom, margin.top]);

  const clipId = `clip-${Math.random().toString(36).slice(2)}`;
  svg.append("clipPath").attr("id", clipId).append("rect")
    .attr("x", margin.left).attr("y", margin.top)
    .attr("width", width - margin.left - margin.right).attr("height", height - margin.top - margin.bottom);

  svg.append("g").attr("class", "grid").attr("transform", `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickValues(logTicks(x)).tickSize(-(height - margin.top - margin.bottom)).tickFormat(""));
  svg.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickSize(-(width - margin.left - margin.right)).tickFormat(""));

  // Isolines: MD = score^2 / BW is a straight line on log-log axes.
  const [x0, x1] = x.domain();
  const iso = svg.append("g").attr("clip-path", `url(#${clipId})`);
  const placed = [];
  for (const score of data.isolines || []) {
    iso.append("line").attr("class", "isoline")
      .attr("x1", x(x0)).attr("y1", y((score * score) / x0))
      .attr("x2", x(x1)).attr("y2", y((score * score) / x1));
    const labelBw = Math.min(x1 / 1.15, Math.max(x0, (score * score) / (y.domain()[0] * 1.3)));
    const labelY = y((score * score) / labelBw);
    if (labelY > margin.top + 8 && labelY < height - margin.bottom - 4) {
      const label = iso.append("text").attr("class", "isoline-label").attr("x", x(labelBw) - 4).attr("y", labelY - 4)
        .attr("text-anchor", "end").text(`score ${tickFormat(score)}`);
      // A label longer than the room left of its anchor would run under the clip and the metadata
      // axis's numbers, and on a narrow chart the lines' labels crowd together near the bottom axis:
      // such a label goes (its line stays, and the next label names the spacing).
      const box = label.node().getBBox();
      const crowded = placed.some((other) => box.x < other.x + other.width + 4 && other.x < box.x + box.width + 4
        && box.y < other.y + other.height && other.y < box.y + box.height);
      if (box.x < margin.left || crowded) label.remove();
      else placed.push(box);
    }
  }

  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`)
    .call(d3.axisBottom(x).tickValues(logTicks(x)).tickFormat(tickFormat));
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(logTicks(y)).tickFormat(tickFormat));
  axisLabel(svg, "Bandwidth (GiB/s, log scale)", { x: (margin.left + width - margin.right) / 2, y: height - 8 });
  axisLabel(svg, "Metadata (kIOPS, log scale)", { x: 16, y: (margin.top + height - margin.bottom) / 2, rotate: true });

  const releases = data.releases || [...new Set(points.map((p) => p.release))];
  const color = releaseColors(d3, releases);
  const layer = svg.append("g").attr("clip-path", `url(#${clipId})`);
  if (path && points.length > 1) {
    layer.append("path").datum(points)
      .attr("fill", "none").attr("stroke", "#7b8494").attr("stroke-width", 1.5)
      .attr("d", d3.line().x((p) => x(p.bw)).y((p) => y(p.md)));
  }
  layer.selectAll("circle").data(points).join("circle")
    .attr("class", "point")
    .attr("cx", (p) => x(p.bw)).attr("cy", (p) => y(p.md))
    .attr("r", path ? 6 : 4.5)
    .attr("fill", (p) => color(p.release))
    // A reconstructed release (no public IO500 list) is drawn hollow: the registry ranked it, not IO500.
    .attr("fill-opacity", (p) => (p.reconstructed ? 0.15 : 0.85))
    .attr("stroke", (p) => (p.reconstructed ? color(p.release) : "#fff"))
    .attr("stroke-width", (p) => (p.reconstructed ? 1.5 : 0.8))
    .style("cursor", "pointer")
    .on("mousemove", (event, p) => tooltip.show(event, pointHtml(p)))
    .on("mouseleave", () => tooltip.hide())
    .on("click", (event, p) => { window.location.href = `/submissions/${p.id}/`; });
  if (path) {
    layer.selectAll("text.point-label").data(points).join("text")
      .attr("class", "isoline-label").attr("x", (p) => x(p.bw) + 8).attr("y", (p) => y(p.md) - 8).text((p) => p.release);
  }
  legend(el, releases.filter((r) => points.some((p) => p.release === r)).map((r) => ({ label: r, color: color(r) })));
}

mountAll("balance", draw);
