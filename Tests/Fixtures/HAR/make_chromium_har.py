#!/usr/bin/env python3
"""Records headless Chromium's network log of a page that calls skan-mock, and writes it as HAR 1.2.

Usage: make_chromium_har.py PATH_TO_SKAN_MOCK OUT.har

How (see README.md): skan-mock starts on a free loopback port; Debian's chromium, driven by Selenium
through chromedriver with the performance log on (Chrome DevTools Protocol `Network.*` events), opens
skan-mock's home page and runs `fetch` calls from it (same origin, as an app's web view would); the
events are turned into HAR entries as DevTools' own "Save all as HAR" does (request, response, body
from `Network.getResponseBody`, timings from the response's `timing`), in the order the requests
started. The live journal's findings are printed, to compare with what `skan-mock check` finds.
"""
import datetime
import json
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

BINARY, OUT = sys.argv[1], sys.argv[2]

# What the page sends: a SKAN 4 device three days after its first call (window p1) with an
# out-of-range p1_coarse, a SKAN 3 call without conversion_value, and an S2S event as a form POST.
SCRIPT = """
const done = arguments[arguments.length - 1];
const first = Math.floor(Date.now() / 1000) - 3 * 86400;
const skan4 = (event, extra) => "/api/v2/conversion_value?" + new URLSearchParams({a: "KEY", v: "17.4",
  i: "com.example.app", p: "iOS", idfv: "CHROME-1", n: event, skan_current_conversion_value: "0",
  prev_fine_value: "0", skan_first_call_to_skadnetwork_timestamp: String(first), ...extra});
(async () => {
  await (await fetch(skan4("__SESSION__", {}))).text();
  await (await fetch(skan4("level_up", {p1_coarse: "9"}))).text();
  await (await fetch("/api/v1/conversion_value?a=KEY&i=com.example.app&p=iOS&idfv=CHROME-2&n=__SESSION__")).text();
  await (await fetch("/api/v1/evt?ip=127.0.0.1&ve=17.4", {method: "POST",
    headers: {"Content-Type": "application/x-www-form-urlencoded"},
    body: "a=KEY&i=com.example.app&p=iOS&idfv=CHROME-1&n=purchase&skan_current_conversion_value=0"
      + "&skan_first_call_to_skadnetwork_timestamp=" + first})).text();
  done("ok");
})().catch((error) => done(String(error)));
"""


def iso(wall_seconds):
    moment = datetime.datetime.fromtimestamp(wall_seconds, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def pairs(headers):
    return [{"name": k, "value": v} for k, v in headers.items()]


def entry(driver, sent, response, finished):
    request = sent["request"]
    url = request["url"]
    timing = response.get("timing") or {}
    # DevTools' HAR: blocked until the connection, then send, wait (to the headers), receive.
    send = max(timing.get("sendEnd", 0) - timing.get("sendStart", 0), 0)
    wait = max(timing.get("receiveHeadersEnd", 0) - timing.get("sendEnd", 0), 0)
    receive = max((finished["timestamp"] - sent["timestamp"]) * 1000 - (timing.get("receiveHeadersEnd", 0)), 0)
    blocked = max(timing.get("dnsStart", timing.get("sendStart", 0)), 0) if timing else 0
    body = driver.execute_cdp_cmd("Network.getResponseBody", {"requestId": sent["requestId"]})
    content = {"size": len(body["body"].encode()), "mimeType": response.get("mimeType", "")}
    if body.get("base64Encoded"):
        content["encoding"] = "base64"
    content["text"] = body["body"]
    protocol = response.get("protocol", "http/1.1").upper()
    har_request = {
        "method": request["method"], "url": url, "httpVersion": protocol,
        "headers": pairs(request.get("headers", {})),
        "queryString": [{"name": k, "value": v} for k, v in urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query, keep_blank_values=True)],
        "cookies": [], "headersSize": -1, "bodySize": 0,
    }
    if request.get("hasPostData"):
        posted = request.get("postData") or driver.execute_cdp_cmd(
            "Network.getRequestPostData", {"requestId": sent["requestId"]})["postData"]
        har_request["bodySize"] = len(posted.encode())
        har_request["postData"] = {
            "mimeType": request.get("headers", {}).get("Content-Type", ""), "text": posted,
            "params": [{"name": k, "value": v} for k, v in urllib.parse.parse_qsl(posted, keep_blank_values=True)],
        }
    return {
        "_initiator": sent.get("initiator", {}).get("type", ""),
        "_resourceType": sent.get("type", "").lower(),
        "cache": {},
        "connection": str(response.get("connectionId", "")),
        "request": har_request,
        "response": {
            "status": response["status"], "statusText": response.get("statusText", ""), "httpVersion": protocol,
            "headers": pairs(response.get("headers", {})), "cookies": [], "content": content, "redirectURL": "",
            "headersSize": -1, "bodySize": finished.get("encodedDataLength", -1), "_transferSize": finished.get("encodedDataLength", -1),
            "_error": None,
        },
        "serverIPAddress": response.get("remoteIPAddress", ""),
        "startedDateTime": iso(sent["wallTime"]),
        "time": round((finished["timestamp"] - sent["timestamp"]) * 1000, 3),
        "timings": {"blocked": round(blocked, 3), "dns": -1, "ssl": -1, "connect": -1,
                    "send": round(send, 3), "wait": round(wait, 3), "receive": round(receive, 3)},
    }


def main():
    server = subprocess.Popen([BINARY, "--port", "0"], stdout=subprocess.PIPE, text=True)
    base = server.stdout.readline().strip().rsplit(" ", 1)[-1]
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.get(base + "/")
        driver.set_script_timeout(10)
        result = driver.execute_async_script(SCRIPT)
        assert result == "ok", result
        time.sleep(0.5)
        events = [json.loads(item["message"])["message"] for item in driver.get_log("performance")]
        sent, responses, finished = {}, {}, {}
        for event in events:
            params = event.get("params", {})
            if event["method"] == "Network.requestWillBeSent" and params["requestId"] not in sent:
                sent[params["requestId"]] = params
            elif event["method"] == "Network.responseReceived":
                responses[params["requestId"]] = params["response"]
            elif event["method"] == "Network.loadingFinished":
                finished[params["requestId"]] = params
        entries = [entry(driver, sent[r], responses[r], finished[r])
                   for r in sorted(sent, key=lambda r: sent[r]["timestamp"]) if r in responses and r in finished]
        har = {"log": {"version": "1.2",
                       "creator": {"name": "Chromium DevTools (Selenium performance log)",
                                   "version": driver.capabilities.get("browserVersion", "")},
                       "pages": [], "entries": entries}}
        with open(OUT, "w", encoding="utf-8") as f:
            json.dump(har, f, indent=2)
            f.write("\n")
        with urllib.request.urlopen(base + "/__admin/requests") as response:
            journal = json.load(response)["requests"]
        print(len(entries), "entries written to", OUT)
        for item in journal:
            print("live:", item.get("endpoint"), item.get("device"), [i["code"] for i in item.get("issues", [])])
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
