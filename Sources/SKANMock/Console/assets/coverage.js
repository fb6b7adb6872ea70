// The model coverage panel: which entries of the loaded model answered how many requests.
import { $, el } from "./dom.js";
import { api, Unauthorized } from "./api.js";
import { conditionText, valuesText } from "./answers.js";

let timer = null;
let onUnauthorized = () => {};

/** Reloads the panel at most once a second while requests stream in. */
export function scheduleCoverage() {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    loadCoverage();
  }, 1000);
}

export async function loadCoverage(unauthorized) {
  if (unauthorized) onUnauthorized = unauthorized;
  try {
    const { json } = await api("/__admin/coverage");
    const body = $("coverage").querySelector("tbody");
    body.replaceChildren();
    for (const item of json.entries || []) {
      const row = document.createElement("tr");
      if (item.hits === 0) row.classList.add("never");
      row.append(
        el("td", item.window),
        el("td", item.index),
        el("td", item.hits === 0 ? "never" : item.hits),
        el("td", valuesText(item.entry)),
        el("td", conditionText(item.entry), "when"),
      );
      body.append(row);
    }
    if (!(json.entries || []).length) {
      const row = document.createElement("tr");
      const cell = el("td", "This model has no rule entries (SKAN 3 increment only).");
      cell.colSpan = 5;
      row.append(cell);
      body.append(row);
    }
  } catch (error) {
    if (error instanceof Unauthorized) onUnauthorized();
  }
}
