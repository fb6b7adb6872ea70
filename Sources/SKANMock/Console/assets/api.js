// The admin API, with the admin token when the server has one. The token is asked once and kept
// for the tab (sessionStorage), never in the page's address.
import { $ } from "./dom.js";

const TOKEN_KEY = "skan-mock-admin-token";
let token = sessionStorage.getItem(TOKEN_KEY);

export class Unauthorized extends Error {}

/** "/t/NAME" when the console is a tenant's (/t/NAME/__admin/ui), "" at the root: every call and
 * link of the page goes to the tenant it was opened for. */
export const base = location.pathname.startsWith("/t/")
  ? location.pathname.slice(0, location.pathname.indexOf("/__admin/"))
  : "";

/** The token for `EventSource`, which cannot send an Authorization header. */
export function currentToken() {
  return token;
}

/** `root`: the call is the server's, not the tenant's (the tenants' list is at the root only). */
export async function api(path, { root = false } = {}) {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch((root ? "" : base) + path, { headers });
  if (response.status === 401) throw new Unauthorized("admin token needed");
  if (!response.ok && response.status !== 404) throw new Error(path + ": HTTP " + response.status);
  return { status: response.status, json: response.status === 404 ? null : await response.json() };
}

/** Saves what `path` answers as the file `name`, with the admin token (a plain link could not
 * send it): fetched, then handed to the browser as a download. */
export async function download(path, name) {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch(base + path, { headers });
  if (response.status === 401) throw new Unauthorized("admin token needed");
  if (!response.ok) throw new Error(path + ": HTTP " + response.status);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Shows the token form; `then` runs once a token was entered. */
export function askForToken(then) {
  const form = $("token-form");
  form.hidden = false;
  $("token-error").textContent = token ? "that token was not accepted" : "";
  $("token").focus();
  form.onsubmit = (event) => {
    event.preventDefault();
    token = $("token").value;
    sessionStorage.setItem(TOKEN_KEY, token);
    form.hidden = true;
    then();
  };
}
