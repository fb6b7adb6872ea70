// The QA console's entry point (a plain ES module: no build step, no CDN). Which view shows is in
// the page's address: the live feed, or one device (`?view=device&device=ID`).
import { $, setConnection } from "./dom.js";
import { api, askForToken, Unauthorized } from "./api.js";
import { initDetails } from "./details.js";
import { feedView } from "./feed.js";
import { deviceView } from "./device.js";

const query = new URLSearchParams(location.search);

async function start() {
  try {
    const { json } = await api("/__admin/health");
    $("model").textContent = "model: " + (json.model ? json.model.name : "?");
    if (query.get("view") === "device" && query.get("device")) await deviceView(query.get("device"));
    else await feedView(query, () => askForToken(start));
  } catch (error) {
    if (error instanceof Unauthorized) askForToken(start);
    else setConnection("reconnecting");
  }
}

initDetails();
start();
