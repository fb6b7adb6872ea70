// One device in SKAN time: its answers along the device's own clock (the server's clock with its
// offset, counted from the device's first call), the three SKAN 4 windows with their boundaries and
// locks, and under each window the postback Apple would send for it beside the ones received.
import { $, el, pretty, setConnection, svg } from "./dom.js";
import { api } from "./api.js";
import {
  answerText, comparisonVerdict, conditionText, parseBody, postbackValue, receivedWindow, signatureText, valuesText,
} from "./answers.js";
import { COARSE } from "./vocabulary.js";
import { showDetails } from "./details.js";

const DAY = 86400;
/** The windows' ends in days from the first call (Apple: 0-2, 3-7, 8-35 days). */
const BOUNDS = [0, 2, 7, 35];
/** Where each boundary sits across the plot: the short first window gets room of its own. */
const STOPS = [0, 0.3, 0.58, 0.92, 1];
const WIDTH = 960;
const PLOT = { left: 56, right: 16, top: 34, fineHeight: 190, coarseTop: 240, coarseHeight: 18 };

const seconds = (iso) => Date.parse(iso) / 1000;

/** Days since the first call, as people say it: "day 2.5", "day 0 + 3 h". */
function dayText(offsetSeconds) {
  const days = offsetSeconds / DAY;
  if (days < 0) return "before the first call";
  if (days < 1) {
    const hours = offsetSeconds / 3600;
    return hours < 1 ? "day 0 + " + Math.round(offsetSeconds / 60) + " min" : "day 0 + " + hours.toFixed(1) + " h";
  }
  return "day " + (Math.round(days * 10) / 10).toString();
}

/** x for a time in days since the first call: linear inside each window, the tail after day 35. */
function xOf(days, lastDay) {
  const span = WIDTH - PLOT.left - PLOT.right;
  for (let n = 0; n < 3; n++) {
    if (days <= BOUNDS[n + 1]) {
      const f = Math.max(days - BOUNDS[n], 0) / (BOUNDS[n + 1] - BOUNDS[n]);
      return PLOT.left + span * (STOPS[n] + f * (STOPS[n + 1] - STOPS[n]));
    }
  }
  const f = Math.min((days - 35) / Math.max(lastDay - 35, 1), 1);
  return PLOT.left + span * (STOPS[3] + f * (STOPS[4] - STOPS[3]));
}

const fineY = (fine) => PLOT.top + PLOT.fineHeight * (1 - Math.min(Math.max(fine, 0), 63) / 63);

/** The first call in seconds: from the postbacks, else the requests' own SKAN timestamp. */
function origin(entries, postbacks) {
  const p0 = postbacks?.skan4?.[0]?.postbacks?.[0];
  if (p0?.window_start) return seconds(p0.window_start);
  for (const entry of entries) if (entry.skan && typeof entry.skan.first_call === "number") return entry.skan.first_call;
  return entries.length ? seconds(entries[0].time) : Date.now() / 1000;
}

/** Lock times by window, from the postbacks (a locked window ends at its lock). */
function locks(postbacks) {
  const out = [];
  for (const postback of postbacks?.skan4?.[3]?.postbacks || []) {
    if (postback.status === "locked") out.push({ window: postback.window, at: seconds(postback.window_end) });
  }
  return out;
}

/**
 * A request's age in the device's SKAN time: its time less the first call it sent. A simulated
 * device (`skan-mock simulate`) ages by sending an older first call, not by moving the clock, so
 * each request is measured against its own.
 */
function ageOf(entry, start) {
  const at = seconds(entry.time);
  const first = entry.skan && typeof entry.skan.first_call === "number" ? entry.skan.first_call : start;
  return at - first;
}

function timeline(entries, postbacks, info) {
  const start = origin(entries, postbacks);
  const now = (postbacks?.now ? seconds(postbacks.now) : Math.max(start, ...entries.map((e) => seconds(e.time)))) - start;
  const lastDay = Math.max(36, now / DAY, ...entries.map((e) => ageOf(e, start) / DAY));
  const x = (age) => xOf(age / DAY, lastDay);
  const height = PLOT.coarseTop + PLOT.coarseHeight + 34;
  const right = WIDTH - PLOT.right;
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": "answers along the device's SKAN time" });

  // Windows: shaded alternately, named at the top, boundaries labelled in days below.
  for (let n = 0; n < 3; n++) {
    const x0 = xOf(BOUNDS[n], lastDay), x1 = xOf(BOUNDS[n + 1], lastDay);
    chart.append(svg("rect", { x: x0, y: PLOT.top, width: x1 - x0, height: PLOT.coarseTop + PLOT.coarseHeight - PLOT.top, class: "window window-" + n }));
    chart.append(svg("text", { x: (x0 + x1) / 2, y: PLOT.top - 12, class: "window-label", "text-anchor": "middle" }, "p" + n));
  }
  chart.append(svg("text", { x: (xOf(35, lastDay) + right) / 2, y: PLOT.top - 12, class: "axis", "text-anchor": "middle" }, "after"));
  for (const day of BOUNDS) {
    const bx = xOf(day, lastDay);
    chart.append(svg("line", { x1: bx, x2: bx, y1: PLOT.top - 4, y2: PLOT.coarseTop + PLOT.coarseHeight + 4, class: "boundary" }));
    chart.append(svg("text", { x: bx, y: height - 12, class: "boundary-label", "text-anchor": "middle" }, "day " + day));
  }

  // The fine-value axis.
  chart.append(svg("text", { x: 14, y: PLOT.top + PLOT.fineHeight / 2, class: "axis-title", transform: `rotate(-90 14 ${PLOT.top + PLOT.fineHeight / 2})`, "text-anchor": "middle" }, "fine value"));
  for (const tick of [0, 16, 32, 48, 63]) {
    const y = fineY(tick);
    chart.append(svg("line", { x1: PLOT.left - 4, x2: right, y1: y, y2: y, class: "grid" }));
    chart.append(svg("text", { x: PLOT.left - 8, y: y + 4, class: "axis", "text-anchor": "end" }, tick));
  }
  chart.append(svg("text", { x: PLOT.left - 8, y: PLOT.coarseTop + 13, class: "axis", "text-anchor": "end" }, "coarse"));

  // Answers in time order: the fine value as a step line, the coarse value as a band.
  const answered = entries
    .map((entry) => ({ entry, at: ageOf(entry, start), body: parseBody(entry) || {} }))
    .filter((a) => !isNaN(a.at))
    .sort((a, b) => a.at - b.at || a.entry.id - b.entry.id);
  let path = "";
  answered.forEach((a, index) => {
    const ax = x(a.at);
    const next = index + 1 < answered.length ? x(answered[index + 1].at) : x(now);
    if (a.body.skan_updated_coarse_value !== undefined) {
      chart.append(svg("rect", { x: ax, y: PLOT.coarseTop, width: Math.max(next - ax, 2), height: PLOT.coarseHeight,
                                 class: "band-" + a.body.skan_updated_coarse_value }));
    }
    if (a.body.conversion_value !== undefined) {
      const y = fineY(a.body.conversion_value);
      path += path ? ` H ${ax} V ${y}` : `M ${ax} ${y}`;
    }
  });
  if (path) chart.append(svg("path", { d: path + ` H ${x(now)}`, class: "fine" }));

  for (const lock of locks(postbacks)) {
    const lx = x(lock.at - start);
    chart.append(svg("line", { x1: lx, x2: lx, y1: PLOT.top, y2: PLOT.coarseTop + PLOT.coarseHeight, class: "lock" }));
    chart.append(svg("text", { x: lx + 4, y: PLOT.top + 12, class: "lock-label" }, "lock " + lock.window + " (" + dayText(lock.at - start) + ")"));
  }
  const nx = x(now);
  chart.append(svg("line", { x1: nx, x2: nx, y1: PLOT.top, y2: PLOT.coarseTop + PLOT.coarseHeight, class: "now" }));
  chart.append(svg("text", { x: Math.min(nx + 4, right - 70), y: PLOT.coarseTop - 6, class: "now-label" }, "now, " + dayText(now)));

  // Each request a point, its value told on hover and on keyboard focus; Enter or a click opens it.
  // A request answered with no value stands hollow on the line, at the value the device still has.
  let held = 0;
  for (const a of answered) {
    const answeredValue = a.body.conversion_value !== undefined;
    if (answeredValue) held = a.body.conversion_value;
    const label = "#" + a.entry.id + " " + dayText(a.at) + " (" + (a.entry.window || "no window") + "): " +
      (a.entry.event || a.entry.endpoint || "") + " → " + answerText(a.entry) +
      ((a.entry.issues || []).length ? " · " + a.entry.issues.length + " finding(s)" : "");
    const point = svg("circle", { cx: x(a.at), cy: fineY(held), r: 6, tabindex: 0, "aria-label": label,
                                  class: "point" + (answeredValue ? "" : " no-value") + ((a.entry.issues || []).length ? " issues" : "") });
    point.dataset.id = a.entry.id;
    point.append(svg("title", {}, label));
    const tell = () => { info.textContent = label; };
    point.addEventListener("mouseenter", tell);
    point.addEventListener("focus", tell);
    point.addEventListener("click", () => showDetails(a.entry, null));
    point.addEventListener("keydown", (event) => { if (event.key === "Enter") showDetails(a.entry, null); });
    chart.append(point);
  }
  if (!answered.length) chart.append(svg("text", { x: PLOT.left + 12, y: PLOT.top + 40, class: "axis" }, "no requests from this device"));
  return chart;
}

/** The same requests as a list in SKAN time: readable where points overlap, and on a phone. */
function requestList(entries, start) {
  const list = el("ol", null, "device-requests");
  const sorted = [...entries].sort((a, b) => ageOf(a, start) - ageOf(b, start) || a.id - b.id);
  for (const entry of sorted) {
    const item = el("li");
    item.dataset.id = entry.id;
    const link = el("a", "#" + entry.id);
    link.href = "#";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      showDetails(entry, null);
    });
    item.append(link, el("span", " " + dayText(ageOf(entry, start)) + " · " + (entry.window || "no window") + " · ", "when"),
                el("span", (entry.event || entry.endpoint || "-"), "event"), el("span", " → " + answerText(entry), "answer"));
    if ((entry.issues || []).length) item.append(el("span", " · " + entry.issues.map((f) => f.code).join(", "), "finding"));
    list.append(item);
  }
  return list;
}

function legend() {
  const box = el("div", null, "legend");
  const swatch = (className, text) => {
    const item = el("span", null, "legend-item");
    item.append(el("span", null, "swatch " + className), el("span", text));
    return item;
  };
  box.append(swatch("swatch-line", "fine value answered"), swatch("swatch-point", "a request (red: with findings; hollow: no value answered)"),
             swatch("band-0", "coarse low"), swatch("band-1", "coarse medium"), swatch("band-2", "coarse high"),
             swatch("swatch-lock", "lock"), swatch("swatch-now", "now"));
  return box;
}

const STATUS = { pending: "pending: window open", locked: "locked", sent_by: "sent", never_sent: "never sent" };

function carried(postback) {
  if (postback.status === "never_sent") return "never sent: " + (postback.reason || "");
  const parts = [];
  if (postback.fine !== null && postback.fine !== undefined) parts.push("fine " + postback.fine);
  if (postback.coarse !== null && postback.coarse !== undefined) parts.push("coarse " + COARSE[postback.coarse]);
  return (parts.length ? parts.join(", ") : "no value") + (postback.status === "pending" ? " if it ended now" : "");
}

function sendText(postback, start) {
  if (!postback.send_earliest) return null;
  return "sent between " + dayText(seconds(postback.send_earliest) - start) + " and " + dayText(seconds(postback.send_latest) - start) +
    " (" + postback.send_earliest.slice(0, 16).replace("T", " ") + " – " + postback.send_latest.slice(0, 16).replace("T", " ") + " UTC)";
}

/** Developer Mode's window ends in minutes from the first call (Apple: 0-3, 3-6, 6-9 minutes). */
const DEVELOPER_BOUNDS = [0, 3, 6, 9];

/** The fields Apple's postback carries at the richest tier shown, in the chosen framework's format. */
function appleFields(postback, tier) {
  const box = el("details", null, "apple-fields");
  box.append(el("summary", "Apple's fields at tier " + tier + (postback.jws ? " (AdAttributionKit)" : " (SKAdNetwork)")));
  box.append(el("pre", pretty(postback.apple)));
  if (postback.jws) {
    box.append(el("p", "JWS payload" + (postback.jws.signature ? ", signed with the local CA's key:" : " (" + postback.jws.reason + "):")));
    box.append(el("pre", pretty(postback.jws.payload)));
  }
  return box;
}

/**
 * What arrived at the receiver for one window, beside the prediction above it: each postback's
 * value, the tier it was read at, and how it compared with the prediction when it arrived.
 */
function receivedBlock(received) {
  const box = el("div", null, "received");
  box.append(el("p", "Received (" + received.length + ")", "received-title"));
  if (!received.length) {
    box.append(el("p", "nothing received for this window yet", "received-none"));
    return box;
  }
  const list = el("ul", null, "received-list");
  for (const entry of received) {
    const postback = entry.postback;
    const verdict = comparisonVerdict(postback);
    const tier = postback.comparison && postback.comparison.tier !== null && postback.comparison.tier !== undefined
      ? " at tier " + postback.comparison.tier : "";
    const item = el("li");
    item.dataset.verdict = verdict || "";
    item.tabIndex = 0;
    item.title = ((postback.comparison && postback.comparison.differences) || []).join("; ") || "click for the postback";
    item.append(
      el("span", "#" + entry.id + " " + postbackValue(postback) + tier, "received-value"),
      el("span", verdict || "not compared", "verdict"),
      el("span", "signature " + signatureText(postback), "signature"),
    );
    item.addEventListener("click", () => showDetails(entry, null));
    item.addEventListener("keydown", (event) => { if (event.key === "Enter") showDetails(entry, null); });
    list.append(item);
  }
  box.append(list);
  return box;
}

/**
 * One card: the postback of window `n` at every crowd-anonymity tier, what its value means, and
 * the postbacks received for that window.
 */
function card(n, tiers, start, developer, received) {
  const best = tiers[tiers.length - 1].postbacks[n];
  const box = el("section", null, "postback-card");
  box.dataset.window = "p" + n;
  box.dataset.status = best.status;
  const span = developer ? "minute " + DEVELOPER_BOUNDS[n] + "–" + DEVELOPER_BOUNDS[n + 1] : "day " + BOUNDS[n] + "–" + BOUNDS[n + 1];
  box.append(el("h4", "p" + n + " postback · " + span), el("p", STATUS[best.status] || best.status, "status status-" + best.status));
  const when = sendText(best, start);
  if (when) box.append(el("p", when, "send"));
  const table = el("table", null, "tiers");
  const body = document.createElement("tbody");
  for (const tier of tiers) {
    const row = document.createElement("tr");
    row.append(el("th", "tier " + tier.tier), el("td", carried(tier.postbacks[n])));
    body.append(row);
  }
  table.append(body);
  box.append(el("p", "What Apple would send", "predicted-title"), table, receivedBlock(received));
  const meaning = best.meaning || [];
  if (meaning.length) {
    const list = el("ul", null, "meaning");
    for (const item of meaning) list.append(el("li", "entry " + item.window + "#" + item.index + ": " + valuesText(item) + " when " + conditionText(item)));
    box.append(el("p", "What it means in the loaded model:", "meaning-title"), list);
  }
  for (const finding of best.findings || []) box.append(el("p", finding.code + ": " + finding.message, "finding"));
  if (best.value_source && best.value_source !== "answered") {
    box.append(el("p", best.value_source === "app_reported" ? "The server answered nothing in p0: the value is the one the app reported." : "Nothing known of p0: the value is registration's 0.", "value-source"));
  }
  if (best.apple) box.append(appleFields(best, tiers[tiers.length - 1].tier));
  return box;
}

function skan3Card(postback, start, tier, received) {
  const box = el("section", null, "postback-card");
  box.dataset.window = "skan3";
  box.dataset.status = postback.status;
  box.append(el("h4", "SKAN 3 postback"), el("p", STATUS[postback.status] || postback.status, "status status-" + postback.status));
  const when = sendText(postback, start);
  if (when) box.append(el("p", when, "send"));
  box.append(el("p", "What Apple would send: " + carried(postback), "carries"), receivedBlock(received));
  if (postback.apple) box.append(appleFields(postback, tier));
  return box;
}

/** The cards, window by window; `received` are the device's received postbacks' journal entries. */
function postbackCards(postbacks, start, received) {
  const cards = el("div", null, "postback-cards");
  const tiers = postbacks?.skan4 || [];
  const forWindow = (name) => received.filter((entry) => receivedWindow(entry.postback) === name);
  if (tiers.length) for (let n = 0; n < 3; n++) cards.append(card(n, tiers, start, postbacks.developer_mode, forWindow("p" + n)));
  if (postbacks?.skan3) {
    cards.append(skan3Card(postbacks.skan3, start, tiers.length ? tiers[tiers.length - 1].tier : 3, forWindow("skan3")));
  }
  return cards;
}

/** What the cards are shown as: Developer Mode's timings, a network whose ad did not win, AdAttributionKit. */
const choice = { developer_mode: false, did_win: true, framework: "skan" };

function postbacksPath(device) {
  const query = new URLSearchParams();
  if (choice.developer_mode) query.set("developer_mode", "true");
  if (!choice.did_win) query.set("did_win", "false");
  if (choice.framework !== "skan") query.set("framework", choice.framework);
  const text = query.toString();
  return "/__admin/devices/" + encodeURIComponent(device) + "/postbacks" + (text ? "?" + text : "");
}

function checkbox(label, checked, change) {
  const box = el("label", null, "postback-option");
  const input = document.createElement("input");
  input.type = "checkbox";
  input.checked = checked;
  input.addEventListener("change", () => change(input.checked));
  box.append(input, document.createTextNode(" " + label));
  return box;
}

/** The switches above the cards; each change asks the server again and redraws the cards. */
function postbackControls(device, start, redraw) {
  const form = el("fieldset", null, "postback-options");
  form.append(el("legend", "Show the postbacks as"));
  form.append(checkbox("Developer Mode (iOS Settings > Developer: windows of minutes)", choice.developer_mode, (on) => { choice.developer_mode = on; redraw(); }));
  form.append(checkbox("a network whose ad did not win", !choice.did_win, (on) => { choice.did_win = !on; redraw(); }));
  const select = document.createElement("select");
  for (const [value, text] of [["skan", "SKAdNetwork"], ["aak", "AdAttributionKit (iOS 17.4+)"]]) {
    const option = el("option", text);
    option.value = value;
    option.selected = choice.framework === value;
    select.append(option);
  }
  select.addEventListener("change", () => { choice.framework = select.value; redraw(); });
  const framework = el("label", "format ", "postback-option");
  framework.append(select);
  form.append(framework);
  return form;
}

async function showPostbacks(device, postbacks, start, received) {
  const redraw = async () => showPostbacks(device, (await api(postbacksPath(device))).json, start, received);
  $("postbacks").replaceChildren(
    postbackControls(device, start, redraw),
    postbacks ? postbackCards(postbacks, start, received) : el("p", "The server keeps no state for this device, so no postbacks.", "empty"),
  );
}

export async function deviceView(device) {
  $("device-view").hidden = false;
  $("feed-view").hidden = true;
  $("pause").hidden = true;
  $("device-title").textContent = "Device " + device;
  const { json } = await api("/__admin/requests?device=" + encodeURIComponent(device));
  const entries = json.requests || [];
  const postbacks = (await api("/__admin/devices/" + encodeURIComponent(device) + "/postbacks")).json;
  const info = el("p", "Hover over or tab to a point for its answer; click it (or press Enter) for the request.", "point-info");
  info.id = "point-info";
  const scroller = el("div", null, "timeline");
  scroller.append(timeline(entries, postbacks, info));
  const start = origin(entries, postbacks);
  const details = el("details", null, "device-requests-box");
  details.append(el("summary", entries.length + " request(s) in SKAN time"), requestList(entries, start));
  details.open = entries.length <= 20;
  $("lanes").replaceChildren(scroller, legend(), info, details);
  // The timeline keeps Apple's usual timings; the cards follow the switches.
  const shown = postbacksPath(device).includes("?") ? (await api(postbacksPath(device))).json : postbacks;
  // Received postbacks named for this device (`?device=ID` on the receiving URL), oldest first.
  const received = entries.filter((entry) => entry.endpoint === "postback" && entry.postback);
  await showPostbacks(device, shown, start, received);
  const deviceState = await api("/__admin/devices/" + encodeURIComponent(device));
  $("device-state").textContent = deviceState.status === 404 ? "The server keeps no state for this device." : pretty(deviceState.json);
  setConnection("live");
}
