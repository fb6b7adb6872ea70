// DOM helpers. Every value a client sent goes into the page as text (textContent, attributes),
// never parsed as HTML: the console shows hostile input as it came.

export const $ = (id) => document.getElementById(id);

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

export function svg(tag, attributes, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

export function pretty(value) {
  return value === null || value === undefined ? "null" : JSON.stringify(value, null, 2);
}

/** A wall-clock time of day with milliseconds: when the request arrived. */
export function timeText(iso) {
  const date = new Date(iso);
  if (isNaN(date)) return iso || "";
  return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
}

/** The header's connection badge: connecting, live or reconnecting. */
export function setConnection(text) {
  $("connection").textContent = text;
  $("connection").dataset.state = text;
}
