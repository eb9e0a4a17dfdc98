// Tiny DOM helpers: the client builds its pages from plain elements, no framework.

import { describeError } from "./errors.js";

/**
 * h("div.seat.me", {onclick, title, dataset: {...}}, child, "text", [children]...)
 * Attributes starting with "on" become listeners; `class` adds classes; false/null children vanish.
 */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      for (const c of String(value).split(/\s+/).filter(Boolean)) el.classList.add(c);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    } else if (key in el && typeof value !== "string" && key !== "list") {
      el[key] = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

let toastTimer = null;

/** A short message at the bottom of the screen (errors from the server, confirmations); a
 * detail (the server's own reason) goes on a second, smaller line. */
export function toast(message, kind = "info", detail = "") {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status" });
    document.body.append(box);
  }
  replace(box, h("span.toast-text", message), detail ? h("small.toast-detail", detail) : null);
  box.className = `show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ""; }, kind === "error" ? 5000 : 2500);
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An error as a toast: the French sentence for its code, the server's reason as detail. */
export function toastError(err) {
  const { text, detail } = describeError(err);
  toast(text, "error", detail);
}
