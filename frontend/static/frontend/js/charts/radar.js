// io500.org's top-5 radar: score, bandwidth, metadata, client nodes and processes, each axis
// logarithmic and ending at the largest value among the five entries (data.decades decades deep), so
// that an entry a hundred times below the leader is still a shape, not a speck.
import { SERIES_COLORS, createSvg, escapeHtml, formatNumber, legend, mountAll, showStatus, tooltip, widthOf } from "./common.js";

// Nodes and processes are counts: "512 nodes", not "512.00 nodes".
const countOrNumber = (value) => (Number.isInteger(value) ? window.d3.format(",")(value) : formatNumber(value));

function draw(el, data, d3) {
  const series = data.series || [];
  if (!series.length) {
    showStatus(el, "This list has no entries to compare.");
    return;
  }
  const axes = data.axes;
  const width = Math.min(widthOf(el, 520), 620);
  const height = Math.round(width * 0.8);
  const radius = Math.min(width, height) / 2 - 70;
  const svg = createSvg(el, width, height);
  const g = svg.append("g").attr("transform", `translate(${width / 2},${height / 2 + 6})`);
  const angle = (i) => (Math.PI * 2 * i) / axes.length - Math.PI / 2;
  const r = d3.scaleLinear().domain([0, 1]).range([0, radius]);

  const decades = data.decades || 3;
  // One ring per decade below the maximum: "max", "max/10", "max/100".
  for (let below = 0; below < decades; below += 1) {
    const level = 1 - below / decades;
    g.append("polygon").attr("fill", "none").attr("stroke", "#e0e4ea")
      .attr("points", axes.map((_, i) => [r(level) * Math.cos(angle(i)), r(level) * Math.sin(angle(i))].join(",")).join(" "));
    g.append("text").attr("class", "isoline-label").attr("x", 4).attr("y", -r(level) + 11)
      .text(below === 0 ? "max" : `max/${10 ** below}`);
  }
  axes.forEach((axis, i) => {
    const [cx, cy] = [Math.cos(angle(i)), Math.sin(angle(i))];
    g.append("line").attr("stroke", "#c4cad3").attr("x1", 0).attr("y1", 0).attr("x2", r(1) * cx).attr("y2", r(1) * cy);
    // The top label's second line would run into the ring labels: lift it by a line.
    const lift = cy < -0.9 ? -14 : 0;
    const label = g.append("text").attr("class", "axis-label")
      .attr("x", (r(1) + 14) * cx).attr("y", (r(1) + 14) * cy + 4 + lift)
      .attr("text-anchor", Math.abs(cx) < 0.2 ? "middle" : cx > 0 ? "start" : "end");
    label.append("tspan").text(axis.label);
    label.append("tspan").attr("x", (r(1) + 14) * cx).attr("dy", "1.2em").attr("font-weight", 400)
      .text(`max ${countOrNumber(axis.max)}${axis.unit ? ` ${axis.unit}` : ""}`);
  });

  const html = (s) => `<strong>#${s.rank} ${escapeHtml(s.system)}</strong><br>${escapeHtml(s.institution)}<br>` +
    s.values.map((v, i) => `${escapeHtml(axes[i].label)}: ${countOrNumber(v.value)}${axes[i].unit ? ` ${axes[i].unit}` : ""}`).join("<br>");
  const shapes = g.append("g").selectAll("polygon").data(series).join("polygon")
    .attr("points", (s) => s.values.map((v, i) => [r(v.normalised ?? 0) * Math.cos(angle(i)), r(v.normalised ?? 0) * Math.sin(angle(i))].join(",")).join(" "))
    .attr("fill", (_, i) => SERIES_COLORS[i % SERIES_COLORS.length]).attr("fill-opacity", 0.12)
    .attr("stroke", (_, i) => SERIES_COLORS[i % SERIES_COLORS.length]).attr("stroke-width", 2)
    .on("mousemove", function (event, s) {
      shapes.attr("fill-opacity", 0.05);
      d3.select(this).attr("fill-opacity", 0.35).raise();
      tooltip.show(event, html(s));
    })
    .on("mouseleave", () => { shapes.attr("fill-opacity", 0.12); tooltip.hide(); });
  legend(el, series.map((s, i) => ({ label: `#${s.rank} ${s.system} (${s.institution})`, color: SERIES_COLORS[i % SERIES_COLORS.length] })));
}

mountAll("radar", draw);
