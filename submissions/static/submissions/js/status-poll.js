// Live status of submissions that are still being checked, without reloading the page.
//
// Every element `.submission-status[data-final="false"]` is polled at its `data-status-url` (the small
// JSON of submissions:status). Polling starts fast, backs off while nothing changes, slows right down
// while the tab is hidden, and stops for an element once its submission reaches a final state.

const FIRST_DELAY_MS = 1000;
const MAX_VISIBLE_DELAY_MS = 15000;
const HIDDEN_DELAY_MS = 60000;
const BACKOFF = 1.5;

function pendingElements() {
  return [...document.querySelectorAll('.submission-status[data-final="false"]')];
}

function render(element, state) {
  const badge = element.querySelector('[data-role="status"]');
  if (badge) {
    badge.textContent = state.status_label;
    badge.className = `badge badge-${state.status}`;
  }
  const bar = element.querySelector('[data-role="progress"]');
  if (bar) {
    bar.value = state.progress;
    bar.textContent = `${state.progress} %`;
    bar.hidden = state.final;
  }
  const row = element.closest("tr");
  if (row) {
    const score = row.querySelector('[data-role="score"]');
    if (score) score.textContent = state.score === null ? "" : state.score.toFixed(2);
    const error = row.querySelector('[data-role="error"]');
    if (error) error.textContent = state.error.length > 160 ? `${state.error.slice(0, 159)}…` : state.error;
  }
  if (state.final) {
    element.dataset.final = "true";
    if (element.dataset.reloadWhenFinal === "true") window.location.reload();
  }
}

async function poll(element) {
  const response = await fetch(element.dataset.statusUrl, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`status ${response.status}`);
  const state = await response.json();
  const changed = element.dataset.lastProgress !== `${state.status}:${state.progress}`;
  element.dataset.lastProgress = `${state.status}:${state.progress}`;
  render(element, state);
  return changed;
}

let delay = FIRST_DELAY_MS;
let timer = null;
let running = false;

async function tick() {
  timer = null;
  const elements = pendingElements();
  if (running || elements.length === 0) return;
  running = true;
  try {
    const outcomes = await Promise.allSettled(elements.map(poll));
    const anyChange = outcomes.some((o) => o.status === "fulfilled" && o.value);
    delay = anyChange ? FIRST_DELAY_MS : Math.min(delay * BACKOFF, MAX_VISIBLE_DELAY_MS);
  } finally {
    running = false;
  }
  schedule();
}

function schedule() {
  if (timer !== null || pendingElements().length === 0) return;
  timer = window.setTimeout(tick, document.hidden ? HIDDEN_DELAY_MS : delay);
}

document.addEventListener("visibilitychange", () => {
  if (timer !== null) window.clearTimeout(timer);
  timer = null;
  if (!document.hidden) {
    // Back in view: show the current state at once, then poll fast again.
    delay = FIRST_DELAY_MS;
    tick();
  } else {
    schedule();
  }
});

schedule();
