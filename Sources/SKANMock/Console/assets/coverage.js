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
    // --upstream: how many of each entry's answers the upstream's matched.
    $("coverage").classList.toggle("with-upstream", Boolean(json.upstream));
    $("coverage-upstream").hidden = !json.upstream;
    if (json.upstream) {
      $("coverage-upstream").textContent = "The upstream's answer matched the model's for " + json.upstream.matched + " of " +
        json.upstream.compared + " answers it gave.";
    }
    for (const item of json.entries || []) {
      const row = document.createElement("tr");
      if (item.hits === 0) row.classList.add("never");
      const upstream = item.upstream ? item.upstream.matched + " of " + item.upstream.compared : "-";
      const upstreamCell = el("td", upstream, "upstream-col");
      if (item.upstream && item.upstream.matched < item.upstream.compared) upstreamCell.classList.add("differs");
      row.append(
        el("td", item.window),
        el("td", item.index),
        el("td", item.hits === 0 ? "never" : item.hits),
        upstreamCell,
        el("td", valuesText(item.entry)),
        el("td", conditionText(item.entry), "when"),
      );
      body.append(row);
    }
    if (!(json.entries || []).length) {
      const row = document.createElement("tr");
      const cell = el("td", "This model has no rule entries (SKAN 3 increment only).");
      cell.colSpan = 6;
      row.append(cell);
      body.append(row);
    }
  } catch (error) {
    if (error instanceof Unauthorized) onUnauthorized();
  }
}
