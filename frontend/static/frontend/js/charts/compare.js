// The compared submissions' phases as grouped bars, one colour per submission.
import { drawBarPanels } from "./bars.js";
import { SERIES_COLORS, legend, mountAll, showStatus } from "./common.js";

function draw(el, data, d3) {
  const phases = data.phases || [];
  if (!phases.some((row) => row.values.some((v) => v > 0))) {
    showStatus(el, "None of these submissions has phase values to draw.");
    return;
  }
  const rowOf = new Map(phases.map((row) => [row.key, row]));
  // IOR phases are the bandwidth phases; everything else is metadata.
  const bandwidth = phases.filter((row) => row.key.startsWith("ior")).map((row) => row.key);
  const metadata = phases.filter((row) => !row.key.startsWith("ior")).map((row) => row.key);
  const series = data.submissions.map((s, i) => ({
    label: s.label,
    color: SERIES_COLORS[i % SERIES_COLORS.length],
    value: (phase) => rowOf.get(phase)?.values[i] ?? null,
  }));
  drawBarPanels(el, d3, {
    panels: [
      { title: "Bandwidth phases", unit: "GiB/s", categories: bandwidth },
      { title: "Metadata phases", unit: "kIOPS", categories: metadata },
    ],
    series,
  });
  legend(el, series.map((s) => ({ label: s.label, color: s.color })));
}

mountAll("compare", draw);
