// TOP500-style history: the system's rank in each kind of list over time, rank 1 at the top.
import { SERIES_COLORS, axisLabel, createSvg, escapeHtml, formatNumber, legend, mountAll, showStatus, tooltip, widthOf } from "./common.js";

function draw(el, data, d3) {
  const series = (data.series || []).filter((s) => s.points.length);
  if (!series.length) {
    showStatus(el, "This system has not appeared on a published ranked list yet.");
    return;
  }
  const all = series.flatMap((s) => s.points.map((p) => ({ ...p, date: new Date(p.date) })));
  const width = widthOf(el);
  const height = 300;
  const margin = { top: 14, right: 24, bottom: 44, left: 60 };
  const svg = createSvg(el, width, height);
  const [first, last] = d3.extent(all, (p) => p.date);
  const spread = Math.max(last - first, 1000 * 60 * 60 * 24 * 200);
  const x = d3.scaleTime()
    .domain([new Date(first.getTime() - spread * 0.08), new Date(last.getTime() + spread * 0.08)])
    .range([margin.left, width - margin.right]);
  const worst = d3.max(all, (p) => Math.max(p.rank, p.list_size || p.rank));
  const y = d3.scaleLinear().domain([1, Math.max(worst, 5)]).range([margin.top, height - margin.bottom]);
  const rankTicks = [1, ...y.ticks(6).filter((t) => t > 1 && Number.isInteger(t))];
  // Label the time axis with the releases themselves: a reader knows "SC19", not "2019-11-19".
  const releases = [...new Map(all.map((p) => [p.date.getTime(), p])).values()].sort((a, b) => a.date - b.date);
  const shown = releases.filter((_, i) => i % Math.ceil(releases.length / Math.max(1, Math.floor(width / 70))) === 0);

  svg.append("g").attr("class", "grid").attr("transform", `translate(${margin.left},0)`)
    .call(d3.axisLeft(y).tickValues(rankTicks).tickSize(-(width - margin.left - margin.right)).tickFormat(""));
  svg.append("g").attr("class", "axis").attr("transform", `translate(0,${height - margin.bottom})`).call(d3.axisBottom(x).tickValues(shown.map((p) => p.date)).tickFormat((d) => shown.find((p) => p.date.getTime() === d.getTime())?.release ?? ""));
  svg.append("g").attr("class", "axis").attr("transform", `translate(${margin.left},0)`).call(d3.axisLeft(y).tickValues(rankTicks).tickFormat(d3.format("d")));
  axisLabel(svg, "Rank (1 = best)", { x: 16, y: (margin.top + height - margin.bottom) / 2, rotate: true });
  axisLabel(svg, "List release", { x: (margin.left + width - margin.right) / 2, y: height - 6 });

  series.forEach((s, i) => {
    const color = SERIES_COLORS[i % SERIES_COLORS.length];
    const points = s.points.map((p) => ({ ...p, date: new Date(p.date) }));
    svg.append("path").datum(points).attr("fill", "none").attr("stroke", color).attr("stroke-width", 2)
      .attr("d", d3.line().x((p) => x(p.date)).y((p) => y(p.rank)));
    svg.append("g").selectAll("circle").data(points).join("circle")
      .attr("cx", (p) => x(p.date)).attr("cy", (p) => y(p.rank)).attr("r", 5).attr("fill", color).style("cursor", "pointer")
      .on("mousemove", (event, p) => tooltip.show(event, `<strong>${escapeHtml(p.release)} ${escapeHtml(s.label)}</strong><br>
        Rank ${p.rank} of ${p.list_size}<br>Score ${formatNumber(p.score)}`))
      .on("mouseleave", () => tooltip.hide())
      .on("click", (event, p) => { window.location.href = `/lists/${p.release_slug}/${s.kind}/`; });
  });
  legend(el, series.map((s, i) => ({ label: `${s.label} list`, color: SERIES_COLORS[i % SERIES_COLORS.length] })));
}

mountAll("rank-history", draw);
