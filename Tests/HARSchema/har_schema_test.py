#!/usr/bin/env python3
"""The journal out as HAR is HAR 1.2, and `skan-mock check` reads it back with the live findings.

Usage: har_schema_test.py PATH_TO_SKAN_MOCK. Starts skan-mock (with --log) on a free port, sends it
SKAN 3, SKAN 4 and S2S traffic (right and wrong, a form POST, a tenant's, a path that is no
endpoint), then takes the journal as HAR every way skan-mock writes it (`GET /__admin/requests.har`,
filtered, under /t/NAME, and `skan-mock report LOG --har`) and checks each file: it validates against
the HAR 1.2 schema beside this script (every required field and type of the spec); each entry's `time`
is the sum of its timings (the spec's rule); it holds the entries `/__admin/requests` lists for the
same filter; and `skan-mock check FILE --json` finds, entry for entry, what the live server found.
The schema is shown to reject a file with a required field removed, and to accept the captures real
tools wrote (Tests/Fixtures/HAR). Prints one line per check and "N passed, M failed".
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import jsonschema

BINARY = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = json.load(open(os.path.join(HERE, "har-1.2.schema.json"), encoding="utf-8"))
jsonschema.Draft7Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)
results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    results["passed" if condition else "failed"] += 1
    print(("ok    " if condition else "FAIL  ") + name + ("" if condition else ": " + str(detail)), flush=True)


def schema_errors(document):
    return ["$." + ".".join(map(str, e.absolute_path)) + ": " + e.message for e in VALIDATOR.iter_errors(document)]


def get(base, path, params=None, data=None):
    url = base + path + ("?" + urllib.parse.urlencode(params) if params else "")
    request = urllib.request.Request(url, data=data.encode() if data is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def live_findings(base, prefix, filters):
    """`code: message` of every finding of the journal's Singular entries, oldest first."""
    _, body = get(base, prefix + "/__admin/requests", dict(filters, limit="10000"))
    entries = json.loads(body)["requests"]
    return entries, [f'{i["code"]}: {i["message"]}' for e in entries if e["endpoint"] != "unmatched"
                     for i in e.get("issues", [])]


def checked_findings(path):
    run = subprocess.run([BINARY, "check", path, "--json"], capture_output=True, text=True, timeout=60)
    report = json.loads(run.stdout)
    findings = sorted((f["id"], f'{f["code"]}: {f["message"]}')
                      for d in report["report"]["devices"] for f in d["findings"])
    return run.returncode, run.stderr, report, [text for _, text in findings]


def verify(name, path, base, prefix, filters):
    document = json.load(open(path, encoding="utf-8"))
    errors = schema_errors(document)
    check(name + ": valid HAR 1.2", not errors, errors[:5])
    entries = document["log"]["entries"]
    off = [e["request"]["url"] for e in entries
           if abs(e["time"] - sum(v for k, v in e["timings"].items() if k != "comment" and v != -1)) > 0.002]
    check(name + ": each entry's time is the sum of its timings", not off, off)
    live, findings = live_findings(base, prefix, filters)
    check(name + ": the entries /__admin/requests lists", len(entries) == len(live), (len(entries), len(live)))
    status, stderr, report, found = checked_findings(path)
    check(name + ": check reads it whole", status == 0 and not stderr and report["problems"] == [], stderr)
    unmatched = sum(1 for e in live if e["endpoint"] == "unmatched")
    check(name + ": Singular's entries judged, the others counted",
          report["singular"] == len(live) - unmatched and report["others"] == unmatched,
          (report["singular"], report["others"], len(live), unmatched))
    check(name + ": check finds what the live server found", found == findings and findings, (found, findings))


def main():
    work = tempfile.mkdtemp(prefix="skan-har-schema-")
    log = os.path.join(work, "run.jsonl")
    server = subprocess.Popen([BINARY, "--port", "0", "--log", log], stdout=subprocess.PIPE, text=True)
    try:
        base = server.stdout.readline().strip().rsplit(" ", 1)[-1]
        first = str(int(time.time()) - 60)
        skan4 = {"a": "KEY", "v": "17.4", "i": "com.example.app", "p": "iOS", "idfv": "HAR-1", "n": "__SESSION__",
                 "skan_current_conversion_value": "0", "skan_first_call_to_skadnetwork_timestamp": first}
        get(base, "/api/v2/conversion_value", skan4)
        get(base, "/api/v2/conversion_value", dict(skan4, n="level_up", p0_coarse="9"))
        get(base, "/api/v2/conversion_value", dict(skan4, idfv="HAR-2", skan_current_conversion_value="x"))
        get(base, "/api/v1/conversion_value", {"a": "KEY", "i": "com.example.app", "p": "iOS", "idfv": "HAR-3",
                                               "n": "__SESSION__"})
        get(base, "/api/v1/evt", {"ip": "127.0.0.1", "ve": "17.4"},
            data="a=KEY&i=com.example.app&p=iOS&idfv=HAR-1&n=purchase&skan_current_conversion_value=1"
                 "&skan_first_call_to_skadnetwork_timestamp=" + first)
        get(base, "/api/v2/conversion-value", {"idfv": "HAR-4", "n": "__SESSION__"})
        get(base, "/t/qa-har/api/v2/conversion_value", dict(skan4, idfv="HAR-T", p0_coarse="5"))

        exports = [("GET /__admin/requests.har", "", {}), ("?has_issues=true", "", {"has_issues": "true"}),
                   ("?device=HAR-1", "", {"device": "HAR-1"}), ("/t/qa-har", "/t/qa-har", {})]
        for name, prefix, filters in exports:
            status, body = get(base, prefix + "/__admin/requests.har", filters)
            path = os.path.join(work, "export-%d.har" % exports.index((name, prefix, filters)))
            open(path, "wb").write(body)
            check(name + ": 200", status == 200, status)
            verify(name, path, base, prefix, filters)

        out = os.path.join(work, "report.har")
        run = subprocess.run([BINARY, "report", log, "--har", out], capture_output=True, text=True, timeout=60)
        check("report --har: written", run.returncode == 0 and os.path.exists(out), run.stderr)
        verify("report --har", out, base, "", {})

        # The schema can fail: a required field removed, a wrong type.
        document = json.load(open(os.path.join(work, "export-0.har"), encoding="utf-8"))
        broken = copy.deepcopy(document)
        del broken["log"]["entries"][0]["request"]["httpVersion"]
        broken["log"]["entries"][1]["response"]["status"] = "200"
        errors = schema_errors(broken)
        check("the schema rejects a missing field and a wrong type",
              any("'httpVersion' is a required property" in e for e in errors)
              and any("'200' is not of type 'integer'" in e for e in errors), errors)
        fixtures = os.path.join(HERE, "..", "Fixtures", "HAR")
        for name in sorted(os.listdir(fixtures)):
            if name.endswith(".har"):
                errors = schema_errors(json.load(open(os.path.join(fixtures, name), encoding="utf-8")))
                check("the schema accepts " + name + ", which a real tool wrote", not errors, errors[:5])
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
    print(f"har-schema: {results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)


if __name__ == "__main__":
    main()
