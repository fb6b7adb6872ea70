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

/**
 * A postback's row, received (`entry.postback`, decoded by the server) or sent (`entry.sent`, the
 * body Apple's fields name): its framework, window and value, and for a received one the
 * signature's verdict. Null for any other entry.
 */
export function postbackSummary(entry) {
  if (entry.endpoint !== "postback") return null;
  const received = entry.postback;
  if (received) {
    const value = received.fine !== null && received.fine !== undefined ? "fine " + received.fine
      : received.coarse ? "coarse " + received.coarse : "no value";
    const verdict = received.bad_signature ? "bad signature" : received.verified ? "verified" : "unverified";
    return {
      event: "received " + (FRAMEWORKS[received.framework] || received.framework),
      window: "p" + received.index,
      answer: value + ", " + verdict,
      detail: received,
    };
  }
  const sent = entry.sent;
  if (sent) {
    const body = sent.postback || {};
    const fine = body["conversion-value"];
    const value = fine !== undefined ? "fine " + fine : body["coarse-conversion-value"] ? "coarse " + body["coarse-conversion-value"] : "no value";
    const status = (entry.response || {}).status;
    const outcome = sent.not_sent ? "not sent" : status ? "HTTP " + status : "no answer";
    return { event: "sent", window: sent.window || "-", answer: value + ", " + outcome, detail: sent };
  }
  return null;
}
