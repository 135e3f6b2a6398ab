// Grouped bars on a log scale, one panel per unit (bandwidth phases in GiB/s, metadata in kIOPS),
// shared by the submission phase chart and the comparison.
import { axisLabel, createSvg, escapeHtml, formatNumber, logDomain, logTicks, tickFormat, tooltip, widthOf } from "./common.js";

// panels: [{title, unit, categories}]; series: [{label, color, value(category)}]; median(category) or null;
// labels(category) -> {text, note} or null: a short label above the first series' bar, its note in the tooltip.
export function drawBarPanels(el, d3, { panels, series, median = null, labels = null }) {
  const width = widthOf(el);
  const stacked = width < 640;
  const panelHeight = 300;
  const height = stacked ? panelHeight * panels.length : panelHeight;
  const svg = createSvg(el, width, height);
  const total = panels.reduce((n, p) => n + p.categories.length, 0);
  let offset = 0;
  panels.forEach((panel, index) => {
    const share = panel.categories.length / total;
    const panelWidth = stacked ? width : width * share;
    const left = stacked ? 0 : offset;
    const top = stacked ? index * panelHeight : 0;
    offset += panelWidth;
    const margin = { top: 22, right: 10, bottom: 92, left: 62 };
    const g = svg.append("g").attr("transform", `translate(${left},${top})`);
    const x0 = d3.scaleBand().domain(panel.categories).range([margin.left, panelWidth - margin.right]).padding(0.18);
    const x1 = d3.scaleBand().domain(series.map((_, i) => i)).range([0, x0.bandwidth()]).padding(0.08);
    const values = panel.categories.flatMap((c) => series.map((s) => s.value(c)).concat(median ? [median(c)] : []));
    const y = d3.scaleLog().domain(logDomain(values, 1.5)).range([panelHeight - margin.bottom, margin.top]);
    const base = y.domain()[0];

    g.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).tickValues(logTicks(y)).tickSize(-(panelWidth - margin.left - margin.right)).tickFormat(""));
    g.append("text").attr("class", "axis-label").attr("x", margin.left).attr("y", 12).text(panel.title);
    series.forEach((s, i) => {
      g.append("g").selectAll("rect").data(panel.categories.filter((c) => s.value(c) > 0)).join("rect")
        .attr("class", "bar")
        .attr("x", (c) => x0(c) + x1(i)).attr("width", x1.bandwidth())
        .attr("y", (c) => y(s.value(c))).attr("height", (c) => y(base) - y(s.value(c)))
        .attr("fill", s.color)
        .on("mousemove", (event, c) => {
          const m = median ? median(c) : null;
          const ratio = m ? `<br>${formatNumber(s.value(c) / m)}× the median (${formatNumber(m)})` : "";
          const label = labels && i === 0 ? labels(c) : null;
          const note = label && label.note ? `<br>${escapeHtml(label.note)}` : "";
          tooltip.show(event, `<strong>${escapeHtml(c)}</strong>${series.length > 1 ? `<br>${escapeHtml(s.label)}` : ""}
            <br>${formatNumber(s.value(c))} ${escapeHtml(panel.unit)}${ratio}${note}`);
        })
        .on("mouseleave", () => tooltip.hide());
    });
    if (labels && series.length) {
      const first = series[0];
      const labelled = panel.categories.filter((c) => first.value(c) > 0 && labels(c));
      g.append("g").selectAll("text").data(labelled).join("text")
        .attr("class", "bar-label")
        .attr("data-phase", (c) => c)
        .attr("text-anchor", "middle")
        .attr("x", (c) => x0(c) + x1(0) + x1.bandwidth() / 2)
        // Above the bar and above its median mark, so that the two never cross.
        .attr("y", (c) => Math.min(y(first.value(c)), median && median(c) > 0 ? y(median(c)) : Infinity) - 5)
        .text((c) => labels(c).text);
    }
    if (median) {
      g.append("g").selectAll("line").data(panel.categories.filter((c) => median(c) > 0)).join("line")
        .attr("class", "median-mark")
        .attr("x1", (c) => x0(c) - 3).attr("x2", (c) => x0(c) + x0.bandwidth() + 3)
        .attr("y1", (c) => y(median(c))).attr("y2", (c) => y(median(c)));
    }
    g.append("g").attr("class", "axis").attr("transform", `translate(0,${panelHeight - margin.bottom})`)
      .call(d3.axisBottom(x0))
      .selectAll("text").attr("transform", "rotate(-40)").attr("text-anchor", "end").attr("dx", "-0.4em").attr("dy", "0.5em");
    g.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`)
      .call(d3.axisLeft(y).tickValues(logTicks(y)).tickFormat(tickFormat));
    axisLabel(g, `${panel.unit}, log scale`, { x: 14, y: (margin.top + panelHeight - margin.bottom) / 2, rotate: true });
  });
}
