/// The console's script, served as `/__admin/ui/console.js` (a plain ES module: no build step, no
/// CDN). Everything a client sent is put into the page with `textContent` or SVG attributes, never
/// parsed as HTML. The admin token, when the server has one, is asked once and kept for the tab.
enum ConsoleScript {
    static let js = #"""
    const FILTERS = ["device", "endpoint", "event", "has_issues"];
    const TOKEN_KEY = "skan-mock-admin-token";
    const query = new URLSearchParams(location.search);
    const $ = (id) => document.getElementById(id);
    const state = { token: sessionStorage.getItem(TOKEN_KEY), ids: new Set(), paused: false, buffered: [],
                    source: null, entries: new Map(), coverageTimer: null, selected: null };

    function el(tag, text, className) {
      const node = document.createElement(tag);
      if (text !== undefined && text !== null) node.textContent = String(text);
      if (className) node.className = className;
      return node;
    }

    function svg(tag, attributes) {
      const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, String(value));
      return node;
    }

    class Unauthorized extends Error {}

    async function api(path) {
      const headers = state.token ? { Authorization: "Bearer " + state.token } : {};
      const response = await fetch(path, { headers });
      if (response.status === 401) throw new Unauthorized("admin token needed");
      if (!response.ok && response.status !== 404) throw new Error(path + ": HTTP " + response.status);
      return { status: response.status, json: response.status === 404 ? null : await response.json() };
    }

    function filterQuery() {
      const out = new URLSearchParams();
      for (const name of FILTERS) {
        const value = query.get(name);
        if (value) out.set(name, value);
      }
      return out;
    }

    function askForToken(message) {
      $("token-form").hidden = false;
      $("token-error").textContent = message || "";
      $("token").focus();
    }

    $("token-form").addEventListener("submit", (event) => {
      event.preventDefault();
      state.token = $("token").value;
      sessionStorage.setItem(TOKEN_KEY, state.token);
      $("token-form").hidden = true;
      start();
    });

    function setConnection(text) {
      $("connection").textContent = text;
      $("connection").dataset.state = text;
    }

    function parseBody(entry) {
      const body = entry.response ? entry.response.body : "";
      try { return body ? JSON.parse(body) : null; } catch { return null; }
    }

    function answerText(entry) {
      const response = entry.response || {};
      if (response.status === 0) return "dropped";
      const body = parseBody(entry);
      let text = response.body === "" ? "(empty)" : (response.body || "");
      if (body && typeof body === "object") {
        const parts = [];
        if (body.status && body.status !== "ok") parts.push(body.status + (body.reason ? ": " + body.reason : ""));
        if (body.conversion_value !== undefined) parts.push("fine " + body.conversion_value);
        if (body.skan_updated_coarse_value !== undefined) parts.push("coarse " + ["low", "medium", "high"][body.skan_updated_coarse_value]);
        if (body.skan_updated_lock_window_value === true) parts.push("lock");
        text = parts.length ? parts.join(", ") : body.status || text;
      }
      text = (response.status !== 200 ? response.status + " " : "") + text;
      return text.length > 90 ? text.slice(0, 89) + "…" : text;
    }

    function timeText(iso) {
      const date = new Date(iso);
      if (isNaN(date)) return iso || "";
      return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
    }

    function deviceLink(device) {
      if (!device) return el("span", "-");
      const link = el("a", device);
      link.href = "/__admin/ui?view=device&device=" + encodeURIComponent(device);
      link.addEventListener("click", (event) => event.stopPropagation());
      return link;
    }

    function row(entry) {
      const tr = document.createElement("tr");
      tr.dataset.id = entry.id;
      const issues = entry.issues || [];
      if (issues.length) tr.classList.add("issues");
      // --upstream: a row whose answers differ from (or got none from) the upstream is marked.
      if (issues.some((f) => f.code === "differs_from_upstream" || f.code === "upstream_timeout" || f.code === "upstream_unreachable")) {
        tr.classList.add("upstream-differs");
        tr.title = "the model's and the upstream's answers differ (or the upstream did not answer)";
      }
      tr.append(el("td", timeText(entry.time)), el("td", entry.endpoint || "-"));
      const device = el("td");
      device.append(deviceLink(entry.device));
      tr.append(device, el("td", entry.event || "-"), el("td", entry.window || "-"),
                el("td", answerText(entry), "answer"), el("td", issues.length, "findings"));
      tr.addEventListener("click", () => showDetails(entry, tr));
      return tr;
    }

    function addEntries(entries, fresh) {
      const body = $("feed").tBodies[0];
      for (const entry of entries) {
        if (state.ids.has(entry.id)) continue;
        state.ids.add(entry.id);
        state.entries.set(entry.id, entry);
        const tr = row(entry);
        if (fresh) tr.classList.add("fresh");
        body.insertBefore(tr, body.firstChild);
      }
      $("empty").hidden = body.rows.length > 0;
    }

    function clearFeed() {
      state.ids.clear();
      state.entries.clear();
      state.buffered = [];
      $("feed").tBodies[0].replaceChildren();
      $("empty").hidden = false;
      showBuffered();
    }

    function showBuffered() {
      $("buffered").hidden = state.buffered.length === 0;
      $("buffered").textContent = state.buffered.length + " new request(s) while paused: press follow to show them";
    }

    $("pause").addEventListener("click", () => {
      state.paused = !state.paused;
      $("pause").textContent = state.paused ? "follow" : "pause";
      if (!state.paused) {
        addEntries(state.buffered, true);
        state.buffered = [];
      }
      showBuffered();
    });

    function quote(text) { return "'" + String(text).replaceAll("'", "'\\''") + "'"; }

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

    function pretty(value) { return value === null || value === undefined ? "null" : JSON.stringify(value, null, 2); }

    function showDetails(entry, tr) {
      if (state.selected) state.selected.classList.remove("selected");
      state.selected = tr || null;
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
        const tr = document.createElement("tr");
        tr.append(el("td", name), el("td", Array.isArray(value) ? value.join(" | ") : value));
        params.append(tr);
      }
      $("details-skan").textContent = pretty(entry.skan) + (entry.window ? "\nwindow: " + entry.window : "");
      const response = entry.response || {};
      const body = parseBody(entry);
      $("details-answer").textContent = "HTTP " + response.status + "\n" + (body ? pretty(body) : (response.body === "" ? "(empty body)" : response.body))
        + (entry.fault ? "\nfault: " + JSON.stringify(entry.fault) : "");
      // --upstream: the other side's answer beside the one the client got.
      const other = entry.upstream ? (entry.model ? { title: "The model would have answered", answer: entry.model }
                                                  : { title: "The upstream answered", answer: entry.upstream }) : null;
      $("details-other").hidden = !other;
      if (other) {
        $("details-other-title").textContent = other.title;
        const a = other.answer;
        let text;
        if (a.error) {
          text = "no answer: " + a.error + (a.reason ? " (" + a.reason + ")" : "");
        } else {
          let parsed = null;
          try { parsed = JSON.parse(a.body); } catch (error) { parsed = null; }
          text = "HTTP " + a.status + "\n" + (parsed ? pretty(parsed) : a.body);
        }
        if (a.duration_us !== undefined) text += "\nin " + (a.duration_us / 1000).toFixed(1) + " ms";
        $("details-other-answer").textContent = text;
      }
      $("curl-text").hidden = true;
      $("curl-text").value = curlCommand(entry);
    }

    $("close-details").addEventListener("click", () => { $("details").hidden = true; });
    $("copy-curl").addEventListener("click", async () => {
      const text = $("curl-text");
      text.hidden = false;
      text.select();
      try { await navigator.clipboard.writeText(text.value); $("copy-curl").textContent = "copied"; }
      catch { $("copy-curl").textContent = "select and copy"; }
      setTimeout(() => { $("copy-curl").textContent = "copy as curl"; }, 1500);
    });

    function openStream(sinceId) {
      if (state.source) state.source.close();
      const params = filterQuery();
      params.set("since_id", String(sinceId));
      if (state.token) params.set("token", state.token);
      const source = new EventSource("/__admin/events?" + params.toString());
      state.source = source;
      source.addEventListener("open", () => setConnection("live"));
      source.addEventListener("error", () => setConnection("reconnecting"));
      source.addEventListener("entry", (event) => {
        const entry = JSON.parse(event.data);
        if (state.paused) {
          if (!state.ids.has(entry.id)) state.buffered.push(entry);
          showBuffered();
        } else {
          addEntries([entry], true);
        }
        scheduleCoverage();
      });
      source.addEventListener("reset", () => { clearFeed(); scheduleCoverage(); });
    }

    function scheduleCoverage() {
      if (state.coverageTimer) return;
      state.coverageTimer = setTimeout(() => { state.coverageTimer = null; loadCoverage(); }, 1000);
    }

    function conditionText(entry) {
      if (!entry || typeof entry !== "object") return "";
      return entry.when ? JSON.stringify(entry.when) : "always";
    }

    function valuesText(entry) {
      if (!entry || typeof entry !== "object") return "";
      const parts = [];
      if (entry.fine !== undefined) parts.push("fine " + entry.fine);
      if (entry.value !== undefined) parts.push("value " + entry.value);
      if (entry.coarse !== undefined) parts.push("coarse " + entry.coarse);
      if (entry.lock) parts.push("lock");
      return parts.join(", ");
    }

    async function loadCoverage() {
      try {
        const { json } = await api("/__admin/coverage");
        const body = $("coverage").querySelector("tbody");
        body.replaceChildren();
        for (const item of json.entries || []) {
          const tr = document.createElement("tr");
          if (item.hits === 0) tr.classList.add("never");
          tr.append(el("td", item.window), el("td", item.index), el("td", item.hits === 0 ? "never" : item.hits),
                    el("td", valuesText(item.entry)), el("td", conditionText(item.entry), "when"));
          body.append(tr);
        }
        if (!(json.entries || []).length) {
          const tr = document.createElement("tr");
          const td = el("td", "This model has no rule entries (SKAN 3 increment only).");
          td.colSpan = 5;
          tr.append(td);
          body.append(tr);
        }
      } catch (error) {
        if (error instanceof Unauthorized) askForToken();
      }
    }

    async function feedView() {
      $("feed-view").hidden = false;
      const form = $("filters");
      for (const name of FILTERS) {
        const field = form.elements[name];
        if (field.type === "checkbox") field.checked = query.get(name) === "true";
        else field.value = query.get(name) || "";
      }
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const next = new URLSearchParams();
        for (const name of FILTERS) {
          const field = form.elements[name];
          const value = field.type === "checkbox" ? (field.checked ? "true" : "") : field.value.trim();
          if (value) next.set(name, value);
        }
        location.search = next.toString();
      });
      const params = filterQuery();
      params.set("limit", "200");
      const { json } = await api("/__admin/requests?" + params.toString());
      const entries = json.requests || [];
      addEntries(entries, false);
      const lastId = entries.length ? entries[entries.length - 1].id : (await api("/__admin/requests?limit=1")).json.requests.map((e) => e.id)[0] || 0;
      openStream(lastId);
      loadCoverage();
    }

    function laneChart(entries) {
      const width = 1000, laneHeight = 120, top = 24, left = 48, right = 16;
      const chart = svg("svg", { viewBox: `0 0 ${width} ${top + 3 * laneHeight + 24}`, role: "img" });
      const times = entries.map((e) => Date.parse(e.time)).filter((t) => !isNaN(t));
      const start = times.length ? Math.min(...times) : Date.now();
      const end = times.length ? Math.max(...times) : start + 1;
      const span = Math.max(end - start, 1000);
      const x = (t) => left + (width - left - right) * (t - start) / span;
      const lastX = width - right;
      for (let n = 0; n < 3; n++) {
        const y0 = top + n * laneHeight;
        const label = svg("text", { x: 8, y: y0 + laneHeight / 2, class: "lane-label" });
        label.textContent = "p" + n;
        chart.append(svg("line", { x1: left, x2: lastX, y1: y0 + laneHeight, y2: y0 + laneHeight, class: "lane-line" }), label);
        const lane = entries.filter((e) => e.window === "p" + n);
        if (!lane.length) {
          const none = svg("text", { x: left + 8, y: y0 + laneHeight / 2, class: "axis" });
          none.textContent = "no requests in p" + n;
          chart.append(none);
          continue;
        }
        const fineY = (fine) => y0 + laneHeight - 10 - (laneHeight - 20) * Math.min(Math.max(fine, 0), 63) / 63;
        let path = "";
        lane.forEach((entry, index) => {
          const body = parseBody(entry) || {};
          const t = x(Date.parse(entry.time));
          const next = index + 1 < lane.length ? x(Date.parse(lane[index + 1].time)) : lastX;
          if (body.skan_updated_coarse_value !== undefined) {
            chart.append(svg("rect", { x: t, y: y0 + 2, width: Math.max(next - t, 2), height: laneHeight - 4,
                                       class: "band-" + body.skan_updated_coarse_value }));
          }
          if (body.conversion_value !== undefined) {
            const y = fineY(body.conversion_value);
            path += (path ? ` H ${t} V ${y}` : `M ${t} ${y}`);
            if (index + 1 === lane.length) path += ` H ${lastX}`;
          }
          if (body.skan_updated_lock_window_value === true) {
            chart.append(svg("line", { x1: t, x2: t, y1: y0 + 2, y2: y0 + laneHeight - 2, class: "lock" }));
          }
        });
        if (path) chart.append(svg("path", { d: path, class: "fine" }));
        for (const entry of lane) {
          const body = parseBody(entry) || {};
          const point = svg("circle", { cx: x(Date.parse(entry.time)), cy: fineY(body.conversion_value ?? 0), r: 6,
                                        class: "point" + ((entry.issues || []).length ? " issues" : "") });
          point.dataset.id = entry.id;
          const title = svg("title");
          title.textContent = "#" + entry.id + " " + (entry.event || "") + " → " + answerText(entry);
          point.append(title);
          point.addEventListener("click", () => showDetails(entry, null));
          chart.append(point);
        }
      }
      const axis = svg("text", { x: left, y: top + 3 * laneHeight + 16, class: "axis" });
      axis.textContent = new Date(start).toLocaleString() + " → " + new Date(end).toLocaleString();
      chart.append(axis);
      return chart;
    }

    async function deviceView(device) {
      $("device-view").hidden = false;
      $("feed-view").hidden = true;
      $("pause").hidden = true;
      $("device-title").textContent = "Device " + device;
      const { json } = await api("/__admin/requests?device=" + encodeURIComponent(device));
      const entries = json.requests || [];
      for (const entry of entries) state.entries.set(entry.id, entry);
      const lanes = $("lanes");
      lanes.replaceChildren(laneChart(entries),
        el("p", "Lanes p0, p1, p2 along time: the answered fine value as a step line, coarse values as bands (green low, yellow medium, red high), locks as red bars; each request is a point (red with findings): click it for its details.", "legend"));
      const deviceState = await api("/__admin/devices/" + encodeURIComponent(device));
      $("device-state").textContent = deviceState.status === 404 ? "The server keeps no state for this device." : pretty(deviceState.json);
      setConnection("live");
    }

    async function start() {
      try {
        const { json } = await api("/__admin/health");
        $("model").textContent = "model: " + (json.model ? json.model.name : "?");
        if (query.get("view") === "device" && query.get("device")) await deviceView(query.get("device"));
        else await feedView();
      } catch (error) {
        if (error instanceof Unauthorized) askForToken(state.token ? "that token was not accepted" : "");
        else setConnection("reconnecting");
      }
    }

    start();
    """#
}
