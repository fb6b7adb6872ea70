// The live feed: the journal's latest requests, then every new one as the event stream sends it;
// filters in the page's address, pause and follow.
import { $, el, setConnection, timeText } from "./dom.js";
import { api, base, currentToken, download, Unauthorized } from "./api.js";
import { answerText, postbackSummary } from "./answers.js";
import { showDetails } from "./details.js";
import { loadCoverage, scheduleCoverage } from "./coverage.js";
import { UPSTREAM_CODES } from "./vocabulary.js";

const FILTERS = ["device", "endpoint", "event", "has_issues"];

const feed = { ids: new Set(), paused: false, buffered: [], source: null, lastId: 0 };

function filterQuery(query) {
  const out = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) out.set(name, value);
  }
  return out;
}

function deviceLink(device) {
  if (!device) return el("span", "-");
  const link = el("a", device);
  link.title = device; // the whole id, where the cell shows its start
  link.href = base + "/__admin/ui?view=device&device=" + encodeURIComponent(device);
  link.addEventListener("click", (event) => event.stopPropagation());
  return link;
}

function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.id = entry.id;
  const issues = entry.issues || [];
  if (issues.length) tr.classList.add("issues");
  // --upstream: a row whose answers differ from (or got none from) the upstream is marked.
  if (issues.some((finding) => UPSTREAM_CODES.includes(finding.code))) {
    tr.classList.add("upstream-differs");
    tr.title = "the model's and the upstream's answers differ (or the upstream did not answer)";
  }
  if (entry.replayed) {
    tr.classList.add("replayed");
    tr.title = "answered from the --replay recording";
  }
  const device = el("td");
  device.append(deviceLink(entry.device));
  // A postback has no event or answer of Singular's: its framework, window, value and verdict.
  const postback = postbackSummary(entry);
  if (postback) tr.classList.add("postback");
  if (postback && postback.verdict) tr.dataset.verdict = postback.verdict;
  tr.append(
    el("td", timeText(entry.time)),
    el("td", entry.endpoint || "-"),
    device,
    el("td", postback ? postback.event : entry.event || "-"),
    el("td", postback ? postback.window : entry.window || "-"),
    el("td", postback ? postback.answer : answerText(entry), "answer"),
    el("td", issues.length, "findings"),
  );
  tr.addEventListener("click", () => showDetails(entry, tr));
  return tr;
}

function addEntries(entries, fresh) {
  const body = $("feed").tBodies[0];
  for (const entry of entries) {
    if (feed.ids.has(entry.id)) continue;
    feed.ids.add(entry.id);
    const tr = row(entry);
    if (fresh) tr.classList.add("fresh");
    body.insertBefore(tr, body.firstChild);
  }
  $("empty").hidden = body.rows.length > 0;
}

function clearFeed() {
  feed.ids.clear();
  feed.buffered = [];
  $("feed").tBodies[0].replaceChildren();
  $("empty").hidden = false;
  showBuffered();
}

function showBuffered() {
  $("buffered").hidden = feed.buffered.length === 0;
  $("buffered").textContent = feed.buffered.length + " new request(s) while paused: press follow to show them";
}

function togglePause() {
  feed.paused = !feed.paused;
  $("pause").textContent = feed.paused ? "follow" : "pause";
  if (!feed.paused) {
    addEntries(feed.buffered, true);
    feed.buffered = [];
  }
  showBuffered();
}

function openStream(query, sinceId) {
  if (feed.source) feed.source.close();
  const params = filterQuery(query);
  params.set("since_id", String(sinceId));
  if (currentToken()) params.set("token", currentToken());
  const source = new EventSource(base + "/__admin/events?" + params.toString());
  feed.source = source;
  source.addEventListener("open", () => setConnection("live"));
  source.addEventListener("error", () => setConnection("reconnecting"));
  source.addEventListener("entry", (event) => {
    const entry = JSON.parse(event.data);
    if (feed.paused) {
      if (!feed.ids.has(entry.id)) feed.buffered.push(entry);
      showBuffered();
    } else {
      addEntries([entry], true);
    }
    scheduleCoverage();
  });
  source.addEventListener("reset", () => {
    clearFeed();
    scheduleCoverage();
  });
}

/** The filter form shows the address's filters; applying it changes the address. */
function initFilters(query) {
  const form = $("filters");
  for (const name of FILTERS) {
    const field = form.elements[name];
    if (field.type === "checkbox") field.checked = query.get(name) === "true";
    else field.value = query.get(name) || "";
  }
  form.onsubmit = (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const field = form.elements[name];
      const value = field.type === "checkbox" ? (field.checked ? "true" : "") : field.value.trim();
      if (value) next.set(name, value);
    }
    location.search = next.toString();
  };
}

/** The requests on screen as a HAR file (`/__admin/requests.har`): the page's filters, from the
 * oldest row shown, as many as are shown; rows held back while paused are not on screen, so not
 * in the file. Under /t/NAME the tenant's, named after it. */
async function downloadHAR(query, unauthorized) {
  const params = filterQuery(query);
  if (feed.ids.size > 0) {
    params.set("since_id", String(Math.min(...feed.ids) - 1));
    params.set("limit", String(feed.ids.size));
  } else {
    params.set("since_id", String(feed.lastId));
    params.set("limit", "0");
  }
  const tenant = base ? "-" + decodeURIComponent(base.slice("/t/".length)) : "";
  try {
    await download("/__admin/requests.har?" + params.toString(), "skan-mock" + tenant + ".har");
  } catch (error) {
    if (error instanceof Unauthorized) unauthorized();
    else setConnection("reconnecting");
  }
}

/** The feed view; `unauthorized` runs when the token is missing or wrong. */
export async function feedView(query, unauthorized) {
  $("feed-view").hidden = false;
  initFilters(query);
  $("pause").onclick = togglePause;
  $("download-har").onclick = () => downloadHAR(query, unauthorized);
  const params = filterQuery(query);
  params.set("limit", "200");
  const { json } = await api("/__admin/requests?" + params.toString());
  const entries = json.requests || [];
  addEntries(entries, false);
  const lastId = entries.length
    ? entries[entries.length - 1].id
    : (await api("/__admin/requests?limit=1")).json.requests.map((e) => e.id)[0] || 0;
  feed.lastId = lastId;
  openStream(query, lastId);
  loadCoverage(unauthorized);
}
