// The 12 scored phases of one submission, with the median of a published list as black marks and,
// above each bar, the phase's percentile among the runs chosen in the switch next to the chart.
import { drawBarPanels } from "./bars.js";
import { legend, mountAll, showStatus } from "./common.js";

function chosenScope(data) {
  const checked = document.querySelector(`[data-placement-switch="${data.submission}"] input:checked`);
  return checked ? checked.value : "comparable";
}

function percentileLabel(bar, scope, scopes) {
  const placed = bar.placement;
  if (!placed) return null;
  const standing = placed[scope];
  const among = scopes[scope] || scope;
  if (!standing || standing.percentile === null) {
    const why = (placed.missing || {})[scope] || "no comparable run";
    return { text: "–", note: `No percentile among ${among}: ${why}.` };
  }
  return {
    text: standing.label,
    note: `Ahead of ${standing.percentile}% of the other ${among} (rank ${standing.rank} of ${standing.runs}; ${placed.comparable_with}).`,
  };
}

function bindSwitch(el, data, d3) {
  const box = document.querySelector(`[data-placement-switch="${data.submission}"]`);
  if (!box || box.dataset.bound) return;
  box.dataset.bound = "true";
  box.addEventListener("change", () => draw(el, data, d3));
}

function draw(el, data, d3) {
  const phases = data.phases || [];
  if (!phases.some((p) => p.value > 0)) {
    showStatus(el, "No phase value of this submission could be read, so there is nothing to draw.");
    return;
  }
  const byName = new Map(phases.map((p) => [p.phase, p]));
  const group = (g) => phases.filter((p) => p.group === g).map((p) => p.phase);
  const hasMedian = phases.some((p) => p.median > 0);
  const scopes = (data.placement && data.placement.scopes) || {};
  const scope = chosenScope(data);
  drawBarPanels(el, d3, {
    panels: [
      { title: "Bandwidth phases", unit: "GiB/s", categories: group("bw") },
      { title: "Metadata phases", unit: "kIOPS", categories: group("md") },
    ],
    series: [{ label: data.label, color: "#0b5cad", value: (c) => byName.get(c)?.value ?? null }],
    median: hasMedian ? (c) => byName.get(c)?.median ?? null : null,
    labels: data.placement ? (c) => percentileLabel(byName.get(c), scope, scopes) : null,
  });
  el.dataset.placementScope = scope;
  const items = [{ label: "this submission", color: "#0b5cad" }];
  if (hasMedian && data.context) items.push({ label: `median of ${data.context.title}`, color: "#1d2430" });
  legend(el, items);
  bindSwitch(el, data, d3);
}

mountAll("phases", draw);
