// The details panel: one request's findings, parameters as sent, SKAN fields as parsed, the answer
// (and, with --upstream, the other side's answer), and the request as a curl command.
import { $, el, pretty } from "./dom.js";
import { FRAMEWORKS, parseBody, postbackSummary, postbackValue, receivedWindow, signatureText } from "./answers.js";

let selected = null;

function quote(text) {
  return "'" + String(text).replaceAll("'", "'\\''") + "'";
}

function curlCommand(entry) {
  const pairs = [];
  for (const [name, value] of Object.entries(entry.params || {})) {
    for (const one of Array.isArray(value) ? value : [value]) {
      pairs.push(encodeURIComponent(name) + "=" + encodeURIComponent(one));
    }
  }
  const url = location.origin + entry.path + (pairs.length ? "?" + pairs.join("&") : "");
  return "curl " + (entry.method && entry.method !== "GET" ? "-X " + entry.method + " " : "") + quote(url);
}

/** The upstream's or the model's answer, whichever the client did not get. */
function otherAnswerText(answer) {
  let text;
  if (answer.error) {
    text = "no answer: " + answer.error + (answer.reason ? " (" + answer.reason + ")" : "");
  } else {
    let parsed = null;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      parsed = null;
    }
    text = "HTTP " + answer.status + "\n" + (parsed ? pretty(parsed) : answer.body);
  }
  if (answer.duration_us !== undefined) text += "\nin " + (answer.duration_us / 1000).toFixed(1) + " ms";
  return text;
}

const VERDICT_TEXT = {
  matches: "matches skan-mock's prediction",
  differs: "differs from skan-mock's prediction",
  unverified: "unverified: nothing to compare with",
};

function show(value) {
  return value === null || value === undefined ? "–" : String(value);
}

/** A received postback, decoded, beside what skan-mock predicted for its window when it arrived. */
function receivedBesidePrediction(received) {
  const comparison = received.comparison || null;
  const predicted = (comparison && comparison.predicted) || {};
  const verdict = $("details-postback-verdict");
  verdict.textContent = comparison ? VERDICT_TEXT[comparison.result] || comparison.result : "not compared (journaled by an older skan-mock)";
  verdict.dataset.verdict = comparison ? comparison.result : "";
  const rows = [
    ["framework", FRAMEWORKS[received.framework] || received.framework, null],
    ["version", received.version, null],
    ["window", receivedWindow(received), null],
    ["tier", null, comparison ? comparison.tier : null],
    ["status", null, predicted.status],
    ["value", postbackValue(received), comparison && comparison.predicted ? postbackValue(predicted) : null],
    ["did-win", received.did_win, null],
    ["source identifier", received.source_identifier, null],
    // The verifier's reason starts with its verdict ("unverified: app-id is missing").
    ["signature", received.reason || signatureText(received), null],
  ];
  const body = $("details-postback-compare").tBodies[0];
  body.replaceChildren();
  for (const [name, got, expected] of rows) {
    const row = document.createElement("tr");
    if (name === "value" && comparison && comparison.result === "differs") row.className = "differs";
    row.append(el("th", name), el("td", show(got)), el("td", show(expected)));
    body.append(row);
  }
  const differences = $("details-postback-differences");
  differences.replaceChildren();
  for (const text of (comparison && comparison.differences) || []) differences.append(el("li", text, "message"));
}

/** Shows `entry`; `tr` is its feed row when it was opened from the feed. */
export function showDetails(entry, tr) {
  if (selected) selected.classList.remove("selected");
  selected = tr || null;
  if (tr) tr.classList.add("selected");
  $("details").hidden = false;
  $("details").dataset.id = entry.id;
  $("details-title").textContent = "#" + entry.id + " " + entry.method + " " + entry.path;
  const findings = $("details-findings");
  findings.replaceChildren();
  for (const finding of entry.issues || []) {
    const li = el("li");
    li.append(el("span", finding.code, "code"), el("span", " (" + finding.param + "): "), el("span", finding.message, "message"));
    findings.append(li);
  }
  if (!(entry.issues || []).length) findings.append(el("li", "no findings: the request is clean", "none"));
  const params = $("details-params").tBodies[0];
  params.replaceChildren();
  for (const [name, value] of Object.entries(entry.params || {})) {
    const row = document.createElement("tr");
    row.append(el("td", name), el("td", Array.isArray(value) ? value.join(" | ") : value));
    params.append(row);
  }
  $("details-skan").textContent = pretty(entry.skan) + (entry.window ? "\nwindow: " + entry.window : "");
  const response = entry.response || {};
  const body = parseBody(entry);
  $("details-answer").textContent =
    "HTTP " + response.status + "\n" + (body ? pretty(body) : response.body === "" ? "(empty body)" : response.body) +
    (entry.fault ? "\nfault: " + JSON.stringify(entry.fault) : "");
  // --upstream, --replay: the other side's answer beside the one the client got.
  let other = null;
  if (entry.replayed && entry.model) other = { title: "Replayed from the recording; the model would have answered", answer: entry.model };
  else if (entry.upstream && entry.model) other = { title: "The model would have answered", answer: entry.model };
  else if (entry.upstream) other = { title: "The upstream answered", answer: entry.upstream };
  $("details-other").hidden = !other;
  if (other) {
    $("details-other-title").textContent = other.title;
    $("details-other-answer").textContent = otherAnswerText(other.answer);
  }
  // A postback: what it says, decoded (received) or as posted (sent).
  const postback = postbackSummary(entry);
  $("details-postback").hidden = !postback;
  if (postback) $("details-postback-json").textContent = pretty(postback.detail);
  const received = postback && entry.postback ? entry.postback : null;
  $("details-postback-received").hidden = !received;
  if (received) receivedBesidePrediction(received);
  $("curl-text").hidden = true;
  $("curl-text").value = curlCommand(entry);
}

/** Wires the panel's buttons; once, at start. */
export function initDetails() {
  $("close-details").addEventListener("click", () => {
    $("details").hidden = true;
  });
  $("copy-curl").addEventListener("click", async () => {
    const text = $("curl-text");
    text.hidden = false;
    text.select();
    try {
      await navigator.clipboard.writeText(text.value);
      $("copy-curl").textContent = "copied";
    } catch {
      $("copy-curl").textContent = "select and copy";
    }
    setTimeout(() => {
      $("copy-curl").textContent = "copy as curl";
    }, 1500);
  });
}
