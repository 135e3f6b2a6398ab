// The 12 scored phases of one submission, with the median of a published list as black marks.
import { drawBarPanels } from "./bars.js";
import { legend, mountAll, showStatus } from "./common.js";

function draw(el, data, d3) {
  const phases = data.phases || [];
  if (!phases.some((p) => p.value > 0)) {
    showStatus(el, "No phase value of this submission could be read, so there is nothing to draw.");
    return;
  }
  const byName = new Map(phases.map((p) => [p.phase, p]));
  const group = (g) => phases.filter((p) => p.group === g).map((p) => p.phase);
  const hasMedian = phases.some((p) => p.median > 0);
  drawBarPanels(el, d3, {
    panels: [
      { title: "Bandwidth phases", unit: "GiB/s", categories: group("bw") },
      { title: "Metadata phases", unit: "kIOPS", categories: group("md") },
    ],
    series: [{ label: data.label, color: "#0b5cad", value: (c) => byName.get(c)?.value ?? null }],
    median: hasMedian ? (c) => byName.get(c)?.median ?? null : null,
  });
  const items = [{ label: "this submission", color: "#0b5cad" }];
  if (hasMedian && data.context) items.push({ label: `median of ${data.context.title}`, color: "#1d2430" });
  legend(el, items);
}

mountAll("phases", draw);
