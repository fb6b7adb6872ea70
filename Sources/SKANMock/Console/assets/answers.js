// What an answer or a model entry says, in a few words.
import { COARSE } from "./vocabulary.js";

export function parseBody(entry) {
  const body = entry.response ? entry.response.body : "";
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/** An answer in a few words: a SKAN 3 value as `value N` (one 6-bit value, as the model's `value`),
 * a SKAN 4 one as `fine N`, with its coarse value and lock. */
export function answerText(entry) {
  const response = entry.response || {};
  if (response.status === 0) return "dropped";
  const body = parseBody(entry);
  let text = response.body === "" ? "(empty)" : response.body || "";
  if (body && typeof body === "object") {
    const parts = [];
    if (body.status && body.status !== "ok") parts.push(body.status + (body.reason ? ": " + body.reason : ""));
    if (body.conversion_value !== undefined) {
      parts.push((entry.endpoint === "skan3" ? "value " : "fine ") + body.conversion_value);
    }
    if (body.skan_updated_coarse_value !== undefined) parts.push("coarse " + COARSE[body.skan_updated_coarse_value]);
    if (body.skan_updated_lock_window_value === true) parts.push("lock");
    text = parts.length ? parts.join(", ") : body.status || text;
  }
  text = (response.status !== 200 ? response.status + " " : "") + text;
  return text.length > 90 ? text.slice(0, 89) + "…" : text;
}

/** A model entry's condition. */
export function conditionText(entry) {
  if (!entry || typeof entry !== "object") return "";
  return entry.when ? JSON.stringify(entry.when) : "always";
}

/** The values a model entry gives. */
export function valuesText(entry) {
  if (!entry || typeof entry !== "object") return "";
  const parts = [];
  if (entry.fine !== undefined) parts.push("fine " + entry.fine);
  if (entry.value !== undefined) parts.push("value " + entry.value);
  if (entry.coarse !== undefined) parts.push("coarse " + entry.coarse);
  if (entry.lock) parts.push("lock");
  return parts.join(", ");
}

const FRAMEWORKS = { skan: "SKAdNetwork", aak: "AdAttributionKit" };

/** A postback's value in a few words: its fine value, else its coarse one. */
export function postbackValue(postback) {
  if (postback.fine !== null && postback.fine !== undefined) return "fine " + postback.fine;
  return postback.coarse ? "coarse " + postback.coarse : "no value";
}

/** The window a received postback is for: `skan3` for SKAN 3's one, else `p0`-`p2`. */
export function receivedWindow(received) {
  return received.version && received.version.startsWith("3.") ? "skan3" : "p" + received.index;
}

/** The signature's verdict in a word: verified, unverified (skan-mock cannot tell) or bad. */
export function signatureText(received) {
  return received.bad_signature ? "bad signature" : received.verified ? "verified" : "unverified";
}

/**
 * How a received postback compares with skan-mock's prediction, decided when it arrived
 * (`postback.comparison`): matches, differs or unverified (no device named to compare with).
 * Null for a line an older version wrote.
 */
export function comparisonVerdict(received) {
  return received.comparison ? received.comparison.result : null;
}

/**
 * A postback's row, received (`entry.postback`, decoded by the server) or sent (`entry.sent`, the
 * body Apple's fields name): its framework, window and value, and for a received one the
 * comparison with the prediction and the signature's verdict. Null for any other entry.
 */
export function postbackSummary(entry) {
  if (entry.endpoint !== "postback") return null;
  const received = entry.postback;
  if (received) {
    const verdict = comparisonVerdict(received);
    const parts = [postbackValue(received)];
    if (verdict) parts.push(verdict);
    parts.push("signature " + signatureText(received));
    return {
      event: "received " + (FRAMEWORKS[received.framework] || received.framework),
      window: receivedWindow(received),
      answer: parts.join(", "),
      verdict,
      detail: received,
    };
  }
  const sent = entry.sent;
  if (sent) {
    const body = sent.postback || {};
    const fine = sent.fine !== undefined ? sent.fine : body["conversion-value"];
    const coarse = sent.coarse !== undefined ? sent.coarse : body["coarse-conversion-value"];
    const status = (entry.response || {}).status;
    const outcome = sent.not_sent ? "not sent" : status ? "HTTP " + status : "no answer";
    return { event: "sent", window: sent.window || "-", answer: postbackValue({ fine, coarse }) + ", " + outcome, verdict: null, detail: sent };
  }
  return null;
}

export { FRAMEWORKS };
