// io500.org's top-5 radar: score, bandwidth, metadata, client nodes and processes, each axis
// logarithmic and ending at the largest value among the five entries (data.decades decades deep), so
// that an entry a hundred times below the leader is still a shape, not a speck.
import { SERIES_COLORS, createSvg, escapeHtml, formatNumber, legend, mountAll, showStatus, tooltip, widthOf } from "./common.js";

// Room kept between a label and the chart's edge, and the smallest rings drawn on a narrow screen.
const LABEL_AIR = 4;
const MIN_RADIUS = 40;
const COMFORTABLE_RADIUS = 60;

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
  const svg = createSvg(el, width, height);
  const g = svg.append("g").attr("transform", `translate(${width / 2},${height / 2 + 6})`);
  const angle = (i) => (Math.PI * 2 * i) / axes.length - Math.PI / 2;
  // Each side label needs its width beside the rings: on a phone the rings shrink to leave it room,
  // and where they would shrink below a readable size the unit gets a line of its own (a label that
  // still does not fit is moved in, below).
  const half = width / 2 - LABEL_AIR;
  const probe = g.append("text").attr("class", "axis-label");
  const measure = (labels) => labels.map((rows) => Math.max(...rows.map((row) => probe.text(row).node().getComputedTextLength())));
  const room = (widest) => axes.reduce((fit, _, i) => {
    const cx = Math.abs(Math.cos(angle(i)));
    return cx < 0.2 ? fit : Math.min(fit, (half - widest[i]) / cx - 14);
  }, Math.min(width, height) / 2 - 70);
  // An axis none of the entries has a value for (lists without process counts) says so, not "max –".
  const maxOf = (axis) => (axis.max == null ? "none recorded" : `max ${countOrNumber(axis.max)}`);
  let lines = axes.map((axis) => [axis.label, `${maxOf(axis)}${axis.unit && axis.max != null ? ` ${axis.unit}` : ""}`]);
  let widest = measure(lines);
  if (room(widest) < COMFORTABLE_RADIUS) {
    lines = axes.map((axis) => [axis.label, maxOf(axis), ...(axis.unit && axis.max != null ? [axis.unit] : [])]);
    widest = measure(lines);
  }
  probe.remove();
  const r = d3.scaleLinear().domain([0, 1]).range([0, Math.max(room(widest), MIN_RADIUS)]);

  const decades = data.decades || 3;
  // One ring per decade below the maximum: "max", "max/10", "max/100".
  for (let below = 0; below < decades; below += 1) {
    const level = 1 - below / decades;
    g.append("polygon").attr("fill", "none").attr("stroke", "#e0e4ea")
      .attr("points", axes.map((_, i) => [r(level) * Math.cos(angle(i)), r(level) * Math.sin(angle(i))].join(",")).join(" "));
    g.append("text").attr("class", "isoline-label").attr("x", 4).attr("y", -r(level) + 11)
      .text(below === 0 ? "max" : `max/${10 ** below}`);
  }
  axes.forEach((_, i) => {
    const [cx, cy] = [Math.cos(angle(i)), Math.sin(angle(i))];
    g.append("line").attr("stroke", "#c4cad3").attr("x1", 0).attr("y1", 0).attr("x2", r(1) * cx).attr("y2", r(1) * cy);
    // The top label's lines below its first would run into the ring labels: lift it by as many.
    const lift = cy < -0.9 ? -14 * (lines[i].length - 1) : 0;
    const anchor = Math.abs(cx) < 0.2 ? "middle" : cx > 0 ? "start" : "end";
    // Kept inside the chart: where it would run past the edge, the label moves in over the rings.
    const start = { start: 0, middle: -widest[i] / 2, end: -widest[i] }[anchor];
    const x = Math.min(Math.max((r(1) + 14) * cx, -half - start), half - start - widest[i]);
    const label = g.append("text").attr("class", "axis-label")
      .attr("x", x).attr("y", (r(1) + 14) * cy + 4 + lift)
      .attr("text-anchor", anchor)
      // A white halo keeps a label moved in over the rings readable.
      .attr("paint-order", "stroke").attr("stroke", "#fff").attr("stroke-width", 3).attr("stroke-linejoin", "round");
    label.append("tspan").text(lines[i][0]);
    for (const row of lines[i].slice(1)) {
      label.append("tspan").attr("x", x).attr("dy", "1.2em").attr("font-weight", 400).text(row);
    }
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
