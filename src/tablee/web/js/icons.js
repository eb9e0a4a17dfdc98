// Small inline SVG icons (no emoji: not every machine has a font for them).

const NS = "http://www.w3.org/2000/svg";

function svg(paths, title, cls) {
  const el = document.createElementNS(NS, "svg");
  el.setAttribute("viewBox", "0 0 16 16");
  el.setAttribute("class", `icon ${cls}`);
  el.setAttribute("aria-label", title);
  el.setAttribute("role", "img");
  const t = document.createElementNS(NS, "title");
  t.textContent = title;
  el.append(t);
  for (const d of paths) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    el.append(p);
  }
  return el;
}

export function botIcon() {
  return svg(
    ["M7.25 1.5h1.5v2h3.25a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-6a2 2 0 0 1 2-2h3.25z M5.5 7a1.25 1.25 0 1 0 0 2.5 1.25 1.25 0 0 0 0-2.5z m5 0a1.25 1.25 0 1 0 0 2.5 1.25 1.25 0 0 0 0-2.5z M5.5 11h5v1h-5z"],
    "robot",
    "bot-icon",
  );
}

export function trophyIcon() {
  return svg(["M4 2h8v2h2v2a3 3 0 0 1-3 3h-.2A3 3 0 0 1 9 10.9V12h2v2H5v-2h2v-1.1A3 3 0 0 1 5.2 9H5a3 3 0 0 1-3-3V4h2z"], "victoire", "trophy");
}
