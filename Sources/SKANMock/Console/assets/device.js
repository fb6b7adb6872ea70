// One device: its requests along time in lanes p0, p1, p2, and the state the server keeps for it.
import { $, el, pretty, setConnection, svg } from "./dom.js";
import { api } from "./api.js";
import { answerText, parseBody } from "./answers.js";
import { showDetails } from "./details.js";

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

export async function deviceView(device) {
  $("device-view").hidden = false;
  $("feed-view").hidden = true;
  $("pause").hidden = true;
  $("device-title").textContent = "Device " + device;
  const { json } = await api("/__admin/requests?device=" + encodeURIComponent(device));
  const entries = json.requests || [];
  const lanes = $("lanes");
  lanes.replaceChildren(
    laneChart(entries),
    el("p", "Lanes p0, p1, p2 along time: the answered fine value as a step line, coarse values as bands (green low, yellow medium, red high), locks as red bars; each request is a point (red with findings): click it for its details.", "legend"),
  );
  const deviceState = await api("/__admin/devices/" + encodeURIComponent(device));
  $("device-state").textContent = deviceState.status === 404 ? "The server keeps no state for this device." : pretty(deviceState.json);
  setConnection("live");
}
