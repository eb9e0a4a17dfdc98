// The turn timer: a bar that empties until the deadline (red for the last five seconds), the
// seconds beside it, and the time left said to a screen reader.

import { h } from "../dom.js";

/** The bar of a deadline (an ISO date), `big` with its seconds; null without a deadline. The
 * bar's length is the share left of a turn of `turnSeconds`. */
export function deadlineBar(deadline, turnSeconds, big = false) {
  if (!deadline) return null;
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) return null;
  const total = (turnSeconds ?? 30) * 1000;
  const left = Math.max(0, end - Date.now());
  const fill = h("span.fill", { style: { width: `${Math.min(100, (left / total) * 100)}%` } });
  const secs = h("span.secs", { dataset: { end: String(end) } }, `${Math.ceil(left / 1000)} s`);
  const bar = h(`span.timer${big ? ".big" : ""}`, { title: "temps restant" }, fill);
  requestAnimationFrame(() => requestAnimationFrame(() => {
    fill.style.transition = `width ${left}ms linear`;
    fill.style.width = "0%";
  }));
  if (left < 5000) bar.classList.add("hurry");
  else setTimeout(() => bar.classList.add("hurry"), left - 5000);
  return big ? h("span.timer-wrap", bar, secs) : bar;
}

/** The time left said once in words (the bar and the seconds are for the eyes), and once more
 * when five seconds are left. */
export function timeLeft(deadline, turnSeconds) {
  const bar = deadlineBar(deadline, turnSeconds, true);
  if (!bar) return null;
  bar.setAttribute("aria-hidden", "true");
  const left = Math.max(0, Date.parse(deadline) - Date.now());
  const said = h("span.sr-only", `Il vous reste ${Math.ceil(left / 1000)} secondes.`);
  if (left > 5000) {
    setTimeout(() => {
      if (said.isConnected) said.textContent = "Plus que 5 secondes !";
    }, left - 5000);
  }
  return [said, bar];
}

/** How long a person has been away, in words: "absent depuis 2 min". */
export function absentFor(since, now = Date.now()) {
  const secs = Math.max(0, Math.floor((now - Date.parse(since)) / 1000));
  if (secs < 60) return `${secs} s`;
  if (secs < 3600) return `${Math.floor(secs / 60)} min`;
  return `${Math.floor(secs / 3600)} h ${String(Math.floor((secs % 3600) / 60)).padStart(2, "0")}`;
}

/** Ticks the seconds of every timer under `root`, and how long each absent person has been
 * away; returns the function that stops it. */
export function tickSeconds(root) {
  const ticker = setInterval(() => {
    for (const el of root.querySelectorAll(".secs[data-end]")) {
      el.textContent = `${Math.max(0, Math.ceil((Number(el.dataset.end) - Date.now()) / 1000))} s`;
    }
    for (const el of root.querySelectorAll(".absent-for[data-since]")) el.textContent = absentFor(el.dataset.since);
  }, 250);
  return () => clearInterval(ticker);
}
