// The QA console's entry point (a plain ES module: no build step, no CDN). Which view shows is in
// the page's address: the live feed, or one device (`?view=device&device=ID`).
import { $, setConnection } from "./dom.js";
import { api, askForToken, base, Unauthorized } from "./api.js";
import { initDetails } from "./details.js";
import { feedView } from "./feed.js";
import { deviceView } from "./device.js";

const query = new URLSearchParams(location.search);

async function start() {
  try {
    const { json } = await api("/__admin/health");
    $("model").textContent = "model: " + (json.model ? json.model.name : "?");
    await showTenants();
    if (query.get("view") === "device" && query.get("device")) await deviceView(query.get("device"));
    else await feedView(query, () => askForToken(start));
  } catch (error) {
    if (error instanceof Unauthorized) askForToken(start);
    else setConnection("reconnecting");
  }
}

/** The tenant picker: the default tenant and each named one (/t/NAME), when there are any; picking
 * one opens that tenant's console. The list is the root's, in a tenant's console too, which adds
 * its own tenant when the list does not have it (not asked yet, or dropped). */
async function showTenants() {
  const listed = (((await api("/__admin/tenants", { root: true })).json || {}).tenants || []).map(
    (tenant) => tenant.name,
  );
  const own = base ? base.slice("/t/".length) : "";
  const names = own && !listed.includes(own) ? [own, ...listed] : listed;
  if (names.length === 0) return;
  const select = $("tenant");
  select.replaceChildren();
  for (const name of ["", ...names]) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name || "(default)";
    option.selected = base === (name ? "/t/" + name : "");
    select.append(option);
  }
  select.onchange = () => {
    location.href = (select.value ? "/t/" + encodeURIComponent(select.value) : "") + "/__admin/ui";
  };
  $("tenant-picker").hidden = false;
}

initDetails();
start();
