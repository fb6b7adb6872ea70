#!/usr/bin/env python3
"""Differential test of skan-mock's HTTPRequestParser against h11, a strict reference parser.

Requires h11 (PyPI), which this script does not install:  python3 -m pip install h11
(Tests/Differential/run.sh installs it when missing, builds the Swift helper and runs this.)

    h11_differential.py PARSE_CORPUS CORPUS_DIR [--verbose]

PARSE_CORPUS is the `parse-corpus` executable of Tests/Fuzz (one JSON line per file: the status our
parser gives it, 200 accepted / 0 incomplete / else the error's status, and the requests it returned).
Each file in CORPUS_DIR is the bytes one client sends on one connection. h11 reads the same bytes as a
server (h11.Connection(h11.SERVER): receive_data, next_event until NEED_DATA or an error; after each
EndOfMessage it answers 404 and starts the next cycle, so pipelined requests are read too).

Verdicts per file:
  agree          both reject, or both accept the same requests (method, target, body)
  STRICTER       we reject what h11 accepts (or is still waiting on): intended strictness, listed
  LENIENT        h11 rejects and we do not: a bug (exit status 1)
  EXCEPTION      h11 rejects and we accept on purpose (KNOWN_EXCEPTIONS below, each with its reason)
  FRAMING        neither rejects but the requests or their bodies differ: a bug (exit status 1)
Where both reject, a different status (e.g. h11 501 for an unknown transfer coding, ours 400) is shown
but is not a failure; we must answer 400 where the reason is malformed syntax, h11's hint is 400 there.
"""
import json
import os
import re
import subprocess
import sys

import h11

# Where h11 rejects and we accept on purpose. Each rule: (h11's reason starts with, a test on the
# bytes, why). Listed as EXCEPTION, not failures.
KNOWN_EXCEPTIONS = [
    # None: the parser follows h11 wherever h11 rejects, including the two places where RFC 9112
    # is laxer than h11 (empty lines before a request line, §2.2; whitespace before a chunk
    # extension's ';', §7.1.1). A rule here is (h11's reason starts with, a test on the bytes, why).
]


def known_exception(reason, data, ours):
    for prefix, test, why in KNOWN_EXCEPTIONS:
        if reason.startswith(prefix) and test(data, ours):
            return why
    return None


def run_h11(data):
    """What h11 makes of `data`: (state, requests, error status, error text).
    state: 'reject' (RemoteProtocolError), 'complete' (>= 1 request, nothing left over),
    'incomplete' (waiting for more bytes), 'closed' (a request asked to close; the rest is ignored)."""
    # Our limits (request line 8 KiB + header section 16 KiB) are tested elsewhere; let h11 read as much.
    conn = h11.Connection(h11.SERVER, max_incomplete_event_size=64 * 1024)
    conn.receive_data(data)
    requests, current = [], None
    while True:
        try:
            event = conn.next_event()
        except h11.RemoteProtocolError as error:
            return "reject", requests, error.error_status_hint, str(error)
        if event is h11.NEED_DATA:
            pending = current is not None or bool(conn.trailing_data[0])
            if pending or not requests:
                return "incomplete", requests, None, None
            return "complete", requests, None, None
        if isinstance(event, h11.Request):
            current = {"method": event.method.decode("latin-1"), "target": event.target.decode("latin-1"),
                       "body": b""}
        elif isinstance(event, h11.Data):
            current["body"] += bytes(event.data)
        elif isinstance(event, h11.EndOfMessage):
            requests.append(current)
            current = None
            if conn.their_state is h11.MUST_CLOSE:
                # h11 keeps no HTTP/1.0 connection alive, and honours Connection: close; either way
                # it reads nothing more (its "Got data when expecting EOF" is policy, not syntax).
                return "closed", requests, None, None
        elif event is h11.PAUSED:
            # 404, not 200: a 2xx to CONNECT (or to an Upgrade) would switch protocols.
            conn.send(h11.Response(status_code=404, headers=[("Content-Length", "0")]))
            conn.send(h11.EndOfMessage())
            if conn.our_state is h11.MUST_CLOSE or conn.their_state is not h11.DONE:
                return "closed", requests, None, None
            conn.start_next_cycle()
        elif isinstance(event, h11.ConnectionClosed):
            return "closed", requests, None, None


def run_ours(binary, paths):
    output = subprocess.run([binary, *paths], check=True, capture_output=True).stdout
    return {entry["file"]: entry for entry in map(json.loads, output.decode().splitlines())}


def same_requests(theirs, ours):
    if len(theirs) != len(ours):
        return False
    for t, o in zip(theirs, ours):
        if t["method"] != o["method"] or t["body"].decode("utf-8", "replace") != o["body"]:
            return False
        # Absolute-form targets are routed by their path; h11 keeps them as sent.
        if not t["target"].lower().startswith(("http://", "https://")) and t["target"] != o["target"]:
            return False
    return True


def compare(name, data, ours):
    state, theirs, hint, reason = run_h11(data)
    status = ours["status"]
    rejected = status >= 400
    h11_text = f"h11 {state}" + (f" {hint} ({reason})" if state == "reject" else f" {len(theirs)} request(s)")
    our_text = f"ours {status}" + (f" ({ours['reason']})" if rejected else f" {len(ours['requests'])} request(s)"
                                   + (f", {ours['leftover']} bytes pending" if ours["leftover"] else ""))
    if state == "reject":
        if not rejected:
            why = known_exception(reason, data, ours)
            if why:
                return "EXCEPTION", h11_text, our_text + " -- " + why
            return "LENIENT", h11_text, our_text
        note = "" if hint == status else f" [status differs: h11 {hint}, ours {status}]"
        return "agree", h11_text + note, our_text
    if rejected:
        # A request that asked to close ends h11's reading; what follows it is never parsed.
        if state == "closed" and len(ours["requests"]) >= len(theirs) and same_requests(theirs, ours["requests"][:len(theirs)]):
            return "agree", h11_text, our_text
        return "STRICTER", h11_text, our_text
    ours_requests = ours["requests"] if state != "closed" else ours["requests"][:len(theirs)]
    if not same_requests(theirs, ours_requests):
        return "FRAMING", h11_text, our_text
    if state in ("complete", "incomplete") and (state == "incomplete") != (status == 0 or ours["leftover"] > 0):
        return "FRAMING", h11_text, our_text
    return "agree", h11_text, our_text


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, corpus = sys.argv[1], sys.argv[2]
    verbose = "--verbose" in sys.argv[3:]
    names = sorted(n for n in os.listdir(corpus) if not n.startswith("."))
    paths = [os.path.join(corpus, n) for n in names]
    ours = run_ours(binary, paths)
    verdicts = {}
    for name, path in zip(names, paths):
        with open(path, "rb") as f:
            data = f.read()
        verdict, h11_text, our_text = compare(name, data, ours[path])
        verdicts.setdefault(verdict, []).append(name)
        if verdict != "agree" or verbose:
            print(f"{verdict:8} {name}: {h11_text}; {our_text}")
    print("summary: " + ", ".join(f"{k} {len(v)}" for k, v in sorted(verdicts.items())) + f" (of {len(names)} files)")
    bad = len(verdicts.get("LENIENT", [])) + len(verdicts.get("FRAMING", []))
    if bad:
        print(f"FAIL: {bad} file(s) where h11 rejects and we do not, or the framing differs", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
