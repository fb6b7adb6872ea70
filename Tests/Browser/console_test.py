"""The QA console in a real browser (Debian's chromium, driven by Selenium).

Usage: console_test.py PATH_TO_SKAN_MOCK. Each test starts its own server on a free port; the
script prints one line per test and ends with "N passed, M failed" (exit 1 on any failure).
"""
import http.server
import json
import os
import threading
import subprocess
import sys
import time
import traceback
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BINARY = sys.argv[1]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".out")
os.makedirs(OUT, exist_ok=True)


class Server:
    def __init__(self, *args):
        self.process = subprocess.Popen([BINARY, "--port", "0", *args], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if "listening on" not in line:
            raise RuntimeError("server did not start: " + line)
        self.base = line.strip().rsplit(" ", 1)[-1]

    def get(self, path, params=None, headers=None):
        url = self.base + path + ("?" + urllib.parse.urlencode(params) if params else "")
        request = urllib.request.Request(url, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def skan4(self, device, event="__SESSION__", **extra):
        params = {"a": "KEY", "i": "com.example.app", "p": "iOS", "idfv": device, "n": event,
                  "skan_current_conversion_value": "0",
                  "skan_first_call_to_skadnetwork_timestamp": str(int(time.time()) - 60)}
        params.update(extra)
        return self.get("/api/v2/conversion_value", params)

    def post(self, path, body):
        request = urllib.request.Request(self.base + path, data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def browser():
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                     "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(driver, condition, seconds=2.0, message="condition"):
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition(d), message)


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#feed tbody tr")


def javascript_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def text_lines(driver, element):
    """How many lines the element's text takes (a Range's boxes: one per line)."""
    return driver.execute_script(
        "const range = document.createRange(); range.selectNodeContents(arguments[0]);"
        " return new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top))).size;", element)


def live(driver):
    wait_for(driver, lambda d: d.find_element(By.ID, "connection").text == "live", 5, "connection live")


def test_rows_appear_live_and_details_open(driver):
    server = Server()
    try:
        server.skan4("QA-1")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "the first request listed on load")
        live(driver)
        server.skan4("QA-1")
        server.skan4("QA-2", p0_coarse="7")
        started = time.time()
        wait_for(driver, lambda d: len(rows(d)) == 3, 2, "two new rows within 2 s, no reload")
        assert time.time() - started < 2
        first = rows(driver)[0]  # newest first
        cells = [cell.text for cell in first.find_elements(By.TAG_NAME, "td")]
        assert cells[1:5] == ["skan4", "QA-2", "__SESSION__", "p0"], cells
        assert cells[6] == "1", cells
        first.click()
        details = driver.find_element(By.ID, "details")
        wait_for(driver, lambda d: details.is_displayed(), 2, "details shown")
        findings = driver.find_element(By.ID, "details-findings").text
        assert "coarse_value_out_of_range" in findings and "p0_coarse" in findings, findings
        params = driver.find_element(By.ID, "details-params").text
        assert "p0_coarse 7" in params, params
        assert '"status": "ok"' in driver.find_element(By.ID, "details-answer").text
        driver.find_element(By.ID, "copy-curl").click()
        curl = driver.find_element(By.ID, "curl-text").get_attribute("value")
        assert curl.startswith("curl '" + server.base + "/api/v2/conversion_value?") and "p0_coarse=7" in curl, curl
        driver.save_screenshot(os.path.join(OUT, "console-details.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_pause_and_follow(driver):
    server = Server()
    try:
        driver.get(server.base + "/__admin/ui")
        live(driver)
        driver.find_element(By.ID, "pause").click()
        server.skan4("P-1")
        wait_for(driver, lambda d: d.find_element(By.ID, "buffered").is_displayed(), 2, "buffered notice")
        assert len(rows(driver)) == 0
        driver.find_element(By.ID, "pause").click()
        wait_for(driver, lambda d: len(rows(d)) == 1, 2, "buffered row shown on follow")
    finally:
        server.stop()


def test_filter_link_reopens_the_same_view(driver):
    server = Server()
    try:
        server.skan4("QA-1")
        server.skan4("QA-1", p0_coarse="9")
        server.skan4("OTHER", p0_coarse="9")
        driver.get(server.base + "/__admin/ui?device=QA-1&has_issues=true")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "one matching row")
        assert driver.find_element(By.CSS_SELECTOR, "#filters input[name=device]").get_attribute("value") == "QA-1"
        assert driver.find_element(By.CSS_SELECTOR, "#filters input[name=has_issues]").is_selected()
        live(driver)
        server.skan4("QA-1", p0_coarse="8")   # matches
        server.skan4("QA-1")                  # clean: filtered out
        server.skan4("OTHER", p0_coarse="8")  # another device: filtered out
        wait_for(driver, lambda d: len(rows(d)) == 2, 2, "the matching live row")
        time.sleep(0.3)
        assert len(rows(driver)) == 2
    finally:
        server.stop()


def test_device_view_in_skan_time(driver):
    """A device driven through its windows (skan-mock simulate: it ages by sending an older first
    call) is drawn in SKAN time: windows and their boundaries, the lock, a point per request whose
    value is told on focus, the request list, and a postback card per window."""
    server = Server()
    try:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        subprocess.run([BINARY, "simulate", "--url", server.base, "--device", "LANE-1",
                        "--scenario", os.path.join(root, "config/scenarios/revenue-lock.json")],
                       check=True, stdout=subprocess.DEVNULL)
        payload = '<img src=x onerror="document.title=1">'
        last = json.loads(server.get("/__admin/requests", {"device": "LANE-1", "limit": "1"})[1])["requests"][0]
        server.skan4("LANE-1", event=payload, skan_first_call_to_skadnetwork_timestamp=str(last["skan"]["first_call"]))
        total = json.loads(server.get("/__admin/requests", {"device": "LANE-1"})[1])["total"]
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == total, 5, "rows")
        driver.find_element(By.LINK_TEXT, "LANE-1").click()
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#postbacks .postback-card")) == 3, 5, "postback cards")
        assert driver.find_element(By.ID, "device-title").text == "Device LANE-1"
        assert "view=device" in driver.current_url
        texts = lambda selector: [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]
        assert texts("#lanes .window-label") == ["p0", "p1", "p2"], texts("#lanes .window-label")
        assert texts("#lanes .boundary-label") == ["day 0", "day 2", "day 7", "day 35"], texts("#lanes .boundary-label")
        assert any(t.startswith("lock p2 (day 8") for t in texts("#lanes .lock-label")), texts("#lanes .lock-label")
        assert texts("#lanes .now-label")[0].startswith("now, day 8"), texts("#lanes .now-label")
        cards = driver.find_elements(By.CSS_SELECTOR, "#postbacks .postback-card")
        assert [c.get_attribute("data-window") for c in cards] == ["p0", "p1", "p2"]
        assert [c.get_attribute("data-status") for c in cards] == ["sent_by", "never_sent", "locked"]
        assert all(len(c.find_elements(By.CSS_SELECTOR, ".tiers tr")) == 4 for c in cards)
        assert "sent between day 3 and day 4" in cards[0].text and "tier 2 fine 1" in cards[0].text, repr(cards[0].text)
        assert "coarse high" in cards[2].text, repr(cards[2].text)
        points = driver.find_elements(By.CSS_SELECTOR, "#lanes circle.point")
        assert len(points) == total
        # A point tells its value on keyboard focus, as text.
        driver.execute_script("arguments[0].focus()", points[0])
        info = driver.find_element(By.ID, "point-info").text
        assert info.startswith("#1 day 0") and "→" in info, info
        items = driver.find_elements(By.CSS_SELECTOR, "#lanes .device-requests li")
        assert len(items) == total and payload in items[-1].text, items[-1].text
        assert not driver.find_elements(By.CSS_SELECTOR, "#lanes img, #postbacks img")
        assert driver.title == "skan-mock console"
        driver.set_window_size(1280, 800)
        driver.save_screenshot(os.path.join(OUT, "console-device.png"))
        driver.set_window_size(390, 844)
        time.sleep(0.2)
        driver.save_screenshot(os.path.join(OUT, "console-device-phone.png"))
        # Nothing wider than the phone but the chart, which scrolls inside its box.
        width = driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, width
        driver.set_window_size(1280, 900)
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", points[1])
        wait_for(driver, lambda d: d.find_element(By.ID, "details").is_displayed(), 2, "details from a point")
        assert driver.find_element(By.ID, "details-title").text.startswith("#2 GET /api/v2/conversion_value")
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_injected_html_is_shown_as_text(driver):
    server = Server()
    try:
        payload = "<img src=x onerror=alert(1)>"
        driver.get(server.base + "/__admin/ui")
        live(driver)
        server.skan4("XSS", event=payload, **{payload: payload})
        wait_for(driver, lambda d: len(rows(d)) == 1, 2, "row")
        assert rows(driver)[0].find_elements(By.TAG_NAME, "td")[3].text == payload
        assert not driver.find_elements(By.CSS_SELECTOR, "#feed img, #details img")
        rows(driver)[0].click()
        assert payload in driver.find_element(By.ID, "details-params").text
        assert not driver.find_elements(By.CSS_SELECTOR, "#details img")
        try:
            alert = driver.switch_to.alert
            raise AssertionError("an alert opened: " + alert.text)
        except Exception as error:  # NoAlertPresentException is the good case
            if isinstance(error, AssertionError):
                raise
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_reset_clears_the_open_page(driver):
    server = Server()
    try:
        server.skan4("R-1")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "row")
        live(driver)
        request = urllib.request.Request(server.base + "/__admin/reset", method="POST")
        urllib.request.urlopen(request, timeout=5).read()
        wait_for(driver, lambda d: len(rows(d)) == 0, 2, "rows cleared by the reset event")
        server.skan4("R-2")
        wait_for(driver, lambda d: len(rows(d)) == 1, 2, "new row after reset")
    finally:
        server.stop()


def test_admin_token_is_asked_once(driver):
    server = Server("--admin-token", "s3cret")
    try:
        server.skan4("TOKEN-1")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: d.find_element(By.ID, "token-form").is_displayed(), 5, "token form")
        # Issue 50.11: nothing is said about the requests before the token is given.
        assert not driver.find_element(By.ID, "empty").is_displayed(), "'No requests yet' beside the token prompt"
        driver.save_screenshot(os.path.join(OUT, "console-token.png"))
        driver.find_element(By.ID, "token").send_keys("s3cret")
        driver.find_element(By.CSS_SELECTOR, "#token-form button").click()
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "rows with the token")
        live(driver)
        server.skan4("TOKEN-1")
        wait_for(driver, lambda d: len(rows(d)) == 2, 2, "live row through the token-bearing stream")
        driver.refresh()  # kept for the tab
        wait_for(driver, lambda d: len(rows(d)) == 2, 5, "rows after reload without asking again")
        assert not driver.find_element(By.ID, "token-form").is_displayed()
    finally:
        server.stop()


def test_long_values_stay_inside_the_details_panel(driver):
    server = Server()
    try:
        long_value = "L" * 600
        server.skan4("LONG-" + "D" * 300, receipt=long_value)
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "the long request listed")
        live(driver)
        driver.execute_script("arguments[0].click()", rows(driver)[0].find_elements(By.TAG_NAME, "td")[0])
        details = driver.find_element(By.ID, "details")
        wait_for(driver, lambda d: details.is_displayed(), 2, "details shown")
        feed = driver.find_element(By.ID, "feed").rect
        panel = details.rect
        width = driver.execute_script("return document.documentElement.clientWidth")
        assert feed["x"] + feed["width"] <= panel["x"] + 1, (feed, panel)
        assert panel["x"] + panel["width"] <= width + 1, (panel, width)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width + 1
        driver.save_screenshot(os.path.join(OUT, "console-long-values.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_a_tenants_console_lists_every_tenant(driver):
    """Issue 50.3: at /t/alice/__admin/ui the picker lists the default tenant and every named one,
    as docs/console.md says, not only alice."""
    server = Server()
    try:
        for tenant in ("alice", "bob", "carol"):
            server.get("/t/" + tenant + "/api/v2/conversion_value",
                       {"a": "K", "i": "app", "p": "iOS", "idfv": "T-" + tenant, "n": "__SESSION__"})
        driver.get(server.base + "/t/alice/__admin/ui")
        picker = driver.find_element(By.ID, "tenant")
        wait_for(driver, lambda d: d.find_element(By.ID, "tenant-picker").is_displayed(), 5, "tenant picker")
        names = [option.text for option in picker.find_elements(By.TAG_NAME, "option")]
        assert sorted(names) == ["(default)", "alice", "bob", "carol"], names
        selected = [option.text for option in picker.find_elements(By.TAG_NAME, "option") if option.is_selected()]
        assert selected == ["alice"], selected
        driver.save_screenshot(os.path.join(OUT, "console-tenant-picker.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_answers_and_the_details_head_read_whole(driver):
    """Issue 50.11: a SKAN 3 answer reads as a SKAN 3 conversion value (not a SKAN 4 `fine`); the
    details' buttons and a device id in the feed stay on one line beside the open panel."""
    server = Server()
    try:
        server.get("/api/v1/conversion_value", {"a": "K", "i": "app", "p": "iOS", "n": "__SESSION__",
                                                "idfv": "D1F2A3B4-5C6D-7E8F-9A0B-1C2D3E4F5A6B",
                                                "conversion_value": "0"})
        driver.set_window_size(900, 900)  # a laptop's half screen: where `close` wrapped
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "the SKAN 3 request listed")
        cells = rows(driver)[0].find_elements(By.TAG_NAME, "td")
        assert cells[5].text == "value 1", cells[5].text
        driver.execute_script("arguments[0].click()", cells[0])
        details = driver.find_element(By.ID, "details")
        wait_for(driver, lambda d: details.is_displayed(), 2, "details shown")
        for button in ("close-details", "copy-curl"):
            assert text_lines(driver, driver.find_element(By.ID, button)) == 1, button + " wraps"
        link = cells[2].find_element(By.TAG_NAME, "a")
        assert text_lines(driver, link) == 1, "the device id wraps"
        assert link.get_attribute("title") == "D1F2A3B4-5C6D-7E8F-9A0B-1C2D3E4F5A6B"
        driver.save_screenshot(os.path.join(OUT, "console-skan3-details.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        driver.set_window_size(1280, 900)
        server.stop()


def test_a_page_of_another_origin_cannot_change_anything(driver):
    """Issue 22: a page on another origin (another port of 127.0.0.1 here) tries every way a page
    can send a change without asking: fetch with no-cors, a form posting text/plain, a form posting
    form data. The journal and the clock stay as they were."""
    server = Server()
    page_server = None
    try:
        server.skan4("VICTIM")
        target = server.base + "/__admin/reset?scope=all"
        page = """<!doctype html><body>
            <form id="plain" method="POST" enctype="text/plain" action="%(target)s" target="sink"><input name="a" value="b"></form>
            <form id="form" method="POST" action="%(target)s" target="sink"><input name="a" value="b"></form>
            <iframe name="sink"></iframe>
            <script>
              fetch("%(target)s", {method: "POST", mode: "no-cors", body: "{}"}).finally(() => {
                document.getElementById("plain").submit();
                setTimeout(() => { document.getElementById("form").submit(); document.title = "sent"; }, 300);
              });
            </script></body>""" % {"target": target}

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        page_server = http.server.HTTPServer(("127.0.0.1", 0), Page)
        threading.Thread(target=page_server.serve_forever, daemon=True).start()
        driver.get("http://127.0.0.1:%d/evil" % page_server.server_address[1])
        wait_for(driver, lambda d: d.title == "sent", 5, "the page's attempts sent")
        time.sleep(0.5)
        status, body = server.get("/__admin/requests/count")
        assert status == 200 and json.loads(body)["count"] == 1, body
    finally:
        if page_server:
            page_server.shutdown()
        server.stop()


def test_upstream_answers_side_by_side(driver):
    config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config", "revenue.json")
    upstream = Server("--model", config)
    server = None
    try:
        # Inside the try: a build without libcurl refuses --upstream, and the upstream still stops.
        server = Server("--upstream", upstream.base)
        server.skan4("SIDE-1")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "the shadowed request listed")
        live(driver)
        row = rows(driver)[0]
        assert "upstream-differs" in row.get_attribute("class"), row.get_attribute("class")
        driver.execute_script("arguments[0].click()", row.find_elements(By.TAG_NAME, "td")[0])
        other = driver.find_element(By.ID, "details-other")
        wait_for(driver, lambda d: other.is_displayed(), 2, "the upstream's answer shown")
        assert driver.find_element(By.ID, "details-other-title").text == "The upstream answered"
        text = driver.find_element(By.ID, "details-other-answer").text
        assert "HTTP 200" in text and '"conversion_value": 0' in text, text
        assert "differs_from_upstream" in driver.find_element(By.ID, "details-findings").text
        # The coverage panel says how many answers matched the upstream's, per entry.
        driver.get(driver.current_url)
        wait_for(driver, lambda d: d.find_element(By.ID, "coverage-upstream").is_displayed(), 5, "coverage upstream line")
        assert "matched the model's for 0 of 1 answers" in driver.find_element(By.ID, "coverage-upstream").text
        cells = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "#coverage tbody td.upstream-col")]
        assert "0 of 1" in cells, cells
        driver.save_screenshot(os.path.join(OUT, "console-upstream.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        if server:
            server.stop()
        upstream.stop()


def test_replayed_rows_show_the_models_answer(driver):
    """--replay: a row answered from the recording is marked, and its details show what the model
    would have answered beside production's recorded answer."""
    recorded = '{"status":"ok","conversion_value":0,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}'
    replay = {"version": 1, "recorded_from": "run.jsonl", "devices": [{"device": "RP-1", "requests": [
        {"endpoint": "skan4", "state": {"event": "__SESSION__", "window": "p0", "current_fine": 0},
         "status": 200, "body": recorded, "journal_id": 7}]}]}
    path = os.path.join(OUT, "replay.json")
    with open(path, "w") as file:
        json.dump(replay, file)
    server = Server("--replay", path)
    try:
        assert server.skan4("RP-1") == (200, recorded)
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 1, 5, "the replayed row")
        row = rows(driver)[0]
        assert "replayed" in row.get_attribute("class")
        driver.execute_script("arguments[0].click()", row.find_elements(By.TAG_NAME, "td")[0])
        wait_for(driver, lambda d: d.find_element(By.ID, "details-other").is_displayed(), 2, "the model's answer shown")
        assert driver.find_element(By.ID, "details-other-title").text == "Replayed from the recording; the model would have answered"
        assert '"conversion_value": 1' in driver.find_element(By.ID, "details-other-answer").text
        assert '"conversion_value": 0' in driver.find_element(By.ID, "details-answer").text
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def downloaded(directory, name, seconds=5.0):
    """The JSON of the file the browser saved as `name` in `directory`, once it is whole."""
    path = os.path.join(directory, name)
    deadline = time.time() + seconds
    while time.time() < deadline:
        if os.path.exists(path) and not os.path.exists(path + ".crdownload"):
            try:
                with open(path, encoding="utf-8") as f:
                    return json.load(f)
            except ValueError:
                pass  # still being written
        time.sleep(0.05)
    raise AssertionError(name + " was not downloaded; the folder has " + str(os.listdir(directory)))


def test_download_har_saves_the_requests_on_screen(driver):
    """Issue 49: "Download HAR" saves the rows on screen (the page's filters, the held-back rows of
    a paused feed left out) through /__admin/requests.har, under /t/NAME and with --admin-token."""
    server = Server("--admin-token", "s3cret")
    directory = os.path.join(OUT, "downloads-" + str(os.getpid()))
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        os.remove(os.path.join(directory, name))
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": directory})
    auth = {"Authorization": "Bearer s3cret"}
    try:
        tenant = "/t/qa-har"
        params = {"a": "KEY", "i": "com.example.app", "p": "iOS", "n": "__SESSION__",
                  "skan_current_conversion_value": "0",
                  "skan_first_call_to_skadnetwork_timestamp": str(int(time.time()) - 60)}
        server.get(tenant + "/api/v2/conversion_value", dict(params, idfv="HAR-1", p0_coarse="7"))
        server.get(tenant + "/api/v2/conversion_value", dict(params, idfv="HAR-2"))
        server.get(tenant + "/api/v2/conversion_value", dict(params, idfv="HAR-3", p0_coarse="9"))
        server.skan4("ROOT-1", p0_coarse="7")  # the default tenant's: never in the tenant's file
        driver.get(server.base + tenant + "/__admin/ui?has_issues=true")
        wait_for(driver, lambda d: d.find_element(By.ID, "token-form").is_displayed(), 5, "token form")
        driver.find_element(By.ID, "token").send_keys("s3cret")
        driver.find_element(By.CSS_SELECTOR, "#token-form button").click()
        wait_for(driver, lambda d: len(rows(d)) == 2, 5, "the two rows with findings")
        live(driver)
        button = driver.find_element(By.ID, "download-har")
        assert button.is_displayed() and button.text == "Download HAR", button.text
        # Paused: a row that arrives is held back, so not on screen, so not in the file.
        driver.find_element(By.ID, "pause").click()
        server.get(tenant + "/api/v2/conversion_value", dict(params, idfv="HAR-4", p0_coarse="8"))
        wait_for(driver, lambda d: d.find_element(By.ID, "buffered").is_displayed(), 2, "a row held back")
        button.click()
        har = downloaded(directory, "skan-mock-qa-har.har")
        assert har["log"]["version"] == "1.2", har["log"].get("version")
        entries = har["log"]["entries"]
        urls = [entry["request"]["url"] for entry in entries]
        assert len(entries) == 2, urls
        assert all("/t/qa-har/api/v2/conversion_value?" in url for url in urls), urls
        assert ["idfv=HAR-1" in urls[0], "idfv=HAR-3" in urls[1]] == [True, True], urls
        assert all("coarse_value_out_of_range" in entry["comment"] for entry in entries), entries
        # Following again: the held-back row is on screen, and in the next file.
        driver.find_element(By.ID, "pause").click()
        wait_for(driver, lambda d: len(rows(d)) == 3, 2, "the held-back row shown")
        os.remove(os.path.join(directory, "skan-mock-qa-har.har"))
        button.click()
        har = downloaded(directory, "skan-mock-qa-har.har")
        assert len(har["log"]["entries"]) == 3, [e["request"]["url"] for e in har["log"]["entries"]]
        # The server's own file, with the same filters, has the same entries.
        status, body = server.get(tenant + "/__admin/requests.har", {"has_issues": "true"}, auth)
        assert status == 200 and len(json.loads(body)["log"]["entries"]) == 3, status
        driver.save_screenshot(os.path.join(OUT, "console-download-har.png"))
        # The calls made before the token was given answered 401, which the browser logs.
        errors = [e for e in javascript_errors(driver) if "401 (Unauthorized)" not in e["message"]]
        assert not errors, errors
    finally:
        server.stop()


def test_postback_rows_say_what_the_postback_says(driver):
    """Issue 48: a postback's row showed "postback - - - ok 0"; it shows its framework, window,
    value and the signature's verdict (received) or the receiver's answer (sent), and its details
    the postback itself."""
    server = Server()
    try:
        server.skan4("PB-1")
        status, answer = server.post("/__admin/devices/PB-1/postbacks/send",
                                     json.dumps({"url": server.base, "tier": 3}))
        assert status == 200, answer
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 7, 5, "the request and six postback rows")
        cells = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows(driver)]
        received = [row for row in cells if row[1] == "postback" and row[3].startswith("received")]
        sent = [row for row in cells if row[1] == "postback" and row[3] == "sent"]
        assert len(received) == 3 and len(sent) == 3, cells
        assert sorted(row[4] for row in received) == ["p0", "p1", "p2"], received
        assert all(row[3] == "received SKAdNetwork" for row in received), received
        p0 = next(row for row in received if row[4] == "p0")
        # Sent to the receiver without ?device=: nothing to compare with, and no signature skan-mock knows.
        assert p0[5].startswith("fine ") and p0[5].endswith(", unverified, signature unverified"), p0
        assert all(row[5].endswith(", HTTP 200") for row in sent), sent
        row = next(r for r in rows(driver) if r.find_elements(By.TAG_NAME, "td")[3].text.startswith("received"))
        row.click()
        panel = driver.find_element(By.ID, "details-postback")
        wait_for(driver, lambda d: panel.is_displayed(), 2, "the postback in the details")
        text = driver.find_element(By.ID, "details-postback-json").text
        assert '"transaction_id"' in text and '"framework": "skan"' in text, text
        driver.save_screenshot(os.path.join(OUT, "console-postbacks.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


RECEIVER = "/.well-known/skadnetwork/report-attribution/"


def received_and_predicted(server, device):
    """A device whose three predicted postbacks were sent to the receiver named for it (so each
    matches), then a p1 postback with a value skan-mock does not predict for it (differs) and the
    same without a device named (unverified): 1 request, 3 sent, 5 received."""
    server.skan4(device)
    status, answer = server.post("/__admin/devices/" + device + "/postbacks/send",
                                 json.dumps({"url": server.base + RECEIVER + "?device=" + device, "tier": 3}))
    assert status == 200, answer
    differing = {"version": "4.0", "ad-network-id": "example.skadnetwork", "source-identifier": "5239",
                 "transaction-id": "T-DIFFERS", "redownload": False, "did-win": True,
                 "postback-sequence-index": 1, "coarse-conversion-value": "high"}
    status, answer = server.post(RECEIVER + "?device=" + device, json.dumps(differing))
    assert status == 200, answer
    status, answer = server.post(RECEIVER, json.dumps(dict(differing, **{"transaction-id": "T-NO-DEVICE"})))
    assert status == 200, answer


def test_a_received_postbacks_row_says_how_it_compares(driver):
    """Issue 48: a received postback's row says how it compares with the prediction (matches,
    differs, unverified: decided when it arrived, not only by the admin API), and its details show
    the decoded postback beside the prediction, the difference in words."""
    server = Server()
    try:
        received_and_predicted(server, "PB-2")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 9, 5, "the request, three sent and five received")
        received = [r for r in rows(driver) if r.find_elements(By.TAG_NAME, "td")[3].text.startswith("received")]
        verdicts = sorted(r.get_attribute("data-verdict") for r in received)
        assert verdicts == ["differs", "matches", "matches", "matches", "unverified"], verdicts
        answers = {r.find_elements(By.TAG_NAME, "td")[5].text for r in received}
        assert "coarse high, differs, signature unverified" in answers, answers
        assert "coarse high, unverified, signature unverified" in answers, answers
        assert any(a.startswith("fine ") and ", matches, " in a for a in answers), answers
        differs = next(r for r in received if r.get_attribute("data-verdict") == "differs")
        colour = differs.find_elements(By.TAG_NAME, "td")[5].value_of_css_property("color")
        assert colour != received[0].find_elements(By.TAG_NAME, "td")[0].value_of_css_property("color"), colour
        differs.click()
        panel = driver.find_element(By.ID, "details-postback-received")
        wait_for(driver, lambda d: panel.is_displayed(), 2, "the received postback beside the prediction")
        verdict = driver.find_element(By.ID, "details-postback-verdict")
        assert verdict.text == "differs from skan-mock's prediction", verdict.text
        table = {}
        for row in driver.find_elements(By.CSS_SELECTOR, "#details-postback-compare tbody tr"):
            cells = [row.find_element(By.TAG_NAME, "th").text] + [c.text for c in row.find_elements(By.TAG_NAME, "td")]
            table[cells[0]] = cells[1:]
        assert table["framework"][0] == "SKAdNetwork" and table["window"][0] == "p1", table
        assert table["value"][0] == "coarse high" and table["value"][1] not in ("coarse high", "–"), table
        assert table["tier"][1] == "3" and table["source identifier"][0] == "5239", table
        differences = driver.find_element(By.ID, "details-postback-differences").text
        assert "coarse-conversion-value is high, skan-mock predicts" in differences, differences
        driver.save_screenshot(os.path.join(OUT, "console-postback-differs.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_the_device_view_shows_what_was_received_beside_what_apple_would_send(driver):
    """Issue 48: under each window's predicted postback, the device view lists the postbacks
    received for that window (named for the device), each with its value and how it compared."""
    server = Server()
    try:
        received_and_predicted(server, "PB-3")
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 9, 5, "rows")
        driver.find_element(By.LINK_TEXT, "PB-3").click()
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#postbacks .postback-card")) == 3, 5, "postback cards")
        cards = driver.find_elements(By.CSS_SELECTOR, "#postbacks .postback-card")
        assert [c.get_attribute("data-window") for c in cards] == ["p0", "p1", "p2"]
        got = [[li.get_attribute("data-verdict") for li in c.find_elements(By.CSS_SELECTOR, ".received-list li")]
               for c in cards]
        # The postback without a device named is not this device's.
        assert got == [["matches"], ["matches", "differs"], ["matches"]], got
        for card in cards:
            assert "What Apple would send" in card.text and "Received (" in card.text, card.text
        p1 = cards[1].find_elements(By.CSS_SELECTOR, ".received-list li")
        assert "coarse high at tier 3" in p1[1].text and "differs" in p1[1].text, p1[1].text
        driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.ID, "postbacks"))
        driver.save_screenshot(os.path.join(OUT, "console-device-received.png"))
        p1[1].click()
        wait_for(driver, lambda d: d.find_element(By.ID, "details-postback-received").is_displayed(), 2,
                 "the postback's details from the device view")
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def test_screenshot_of_the_console(driver):
    server = Server()
    try:
        now = str(int(time.time()) - 60)
        for device in ("iPhone-QA-1", "iPhone-QA-2"):
            server.skan4(device)
            server.skan4(device)
        server.skan4("iPhone-QA-1", event="purchase", skan_total_revenue_by_currency='{"USD":4.99}')
        server.skan4("iPhone-QA-2", event="level_up", p0_coarse="5", skan_first_call_to_skadnetwork_timestamp=now + "000")
        server.get("/api/v2/conversion-value", {"idfv": "iPhone-QA-3", "n": "__SESSION__"})
        driver.get(server.base + "/__admin/ui")
        wait_for(driver, lambda d: len(rows(d)) == 7, 5, "rows")
        live(driver)
        time.sleep(0.5)
        driver.save_screenshot(os.path.join(OUT, "console.png"))
        assert not javascript_errors(driver), javascript_errors(driver)
    finally:
        server.stop()


def main():
    tests = [value for name, value in sorted(globals().items()) if name.startswith("test_")]
    passed = failed = 0
    driver = browser()
    try:
        for test in tests:
            driver.get("about:blank")
            driver.get_log("browser")
            try:
                test(driver)
                passed += 1
                print("ok   ", test.__name__, flush=True)
            except Exception:
                failed += 1
                print("FAIL ", test.__name__, flush=True)
                traceback.print_exc()
    finally:
        driver.quit()
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
