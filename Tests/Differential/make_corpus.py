#!/usr/bin/env python3
"""Writes Tests/Differential/corpus/*.http, the tricky requests h11_differential.py compares.

Each file is the raw bytes one client sends on one connection (usually one request; a few pipeline
two, to see where each parser thinks the first one ends). Many come from the HTTP Garden's list of
parser bugs (https://github.com/narfindustries/http-garden); the name says what is odd about it.
The corpus is committed; run this again after editing CASES (it rewrites every file).
"""
import os

H = b"Host: x\r\n"
CASES = {
    # --- well-formed baselines ---------------------------------------------------------------
    "ok-get": b"GET /api/v1/conversion_value?a=K&n=__SESSION__ HTTP/1.1\r\n" + H + b"\r\n",
    "ok-post-content-length": b"POST /api/v1/evt HTTP/1.1\r\n" + H + b"Content-Length: 9\r\n\r\na=1&n=buy",
    "ok-chunked": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "ok-chunked-trailers": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n",
    "ok-chunk-extension": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5;name=value;q=\"a b\"\r\nhello\r\n0\r\n\r\n",
    "ok-http10-without-host": b"GET / HTTP/1.0\r\n\r\n",
    "ok-absolute-uri": b"GET http://x/api/v1/launch?a=1 HTTP/1.1\r\n" + H + b"\r\n",
    "ok-options-asterisk": b"OPTIONS * HTTP/1.1\r\n" + H + b"\r\n",
    "ok-pipelined-two": b"GET /a HTTP/1.1\r\n" + H + b"\r\nGET /b HTTP/1.1\r\n" + H + b"\r\n",
    "ok-duplicate-content-length-same": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
    "ok-content-length-list-same": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 3, 3\r\n\r\nabc",
    "ok-content-length-leading-zeros": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 0003\r\n\r\nabc",
    "ok-te-uppercase-chunked": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: CHUNKED\r\n\r\n0\r\n\r\n",
    "ok-obs-text-in-value": b"GET / HTTP/1.1\r\n" + H + b"X-Name: caf\xc3\xa9\r\n\r\n",
    "ok-whitespace-around-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: \t v \t\r\n\r\n",
    "ok-chunk-size-15-leading-zeros": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n000000000000005\r\nhello\r\n0\r\n\r\n",
    "ok-chunk-size-whitespace-before-crlf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n",
    "ok-http11-minor-2": b"GET / HTTP/1.2\r\n" + H + b"\r\n",
    "ok-expect-continue": b"POST / HTTP/1.1\r\n" + H + b"Expect: 100-continue\r\nContent-Length: 2\r\n\r\n{}",
    "ok-empty-host": b"GET / HTTP/1.1\r\nHost:\r\n\r\n",
    "ok-underscore-header-te-is-not-te": b"POST / HTTP/1.1\r\n" + H + b"Transfer_Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",

    # --- HTTP Garden: chunk sizes --------------------------------------------------------------
    "chunk-size-0_2e": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0_2e\r\n" + b"a" * 46 + b"\r\n0\r\n\r\n",
    "chunk-size-0x10": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0x10\r\n" + b"a" * 16 + b"\r\n0\r\n\r\n",
    "chunk-size-plus": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n",
    "chunk-size-minus": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
    "chunk-size-leading-space": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n",
    "chunk-size-empty": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n",
    "chunk-size-20-digits-leading-zeros": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n00000000000000000005\r\nhello\r\n0\r\n\r\n",
    "chunk-size-21-digits": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n000000000000000000005\r\nhello\r\n0\r\n\r\n",
    "chunk-size-overflow-64bit": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n10000000000000005\r\nhello\r\n0\r\n\r\n",
    "chunk-size-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\nhello\r\n0\r\n\r\n",
    "chunk-size-bare-cr": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\rhello\r\n0\r\n\r\n",
    "chunk-data-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\n0\r\n\r\n",
    "chunk-data-too-long": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n",
    "last-chunk-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\n\r\n",
    "chunk-terminator-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\n",
    "chunk-extension-control-char": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5;a=\x01\r\nhello\r\n0\r\n\r\n",
    "chunk-extension-nul": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5;a\x00b\r\nhello\r\n0\r\n\r\n",
    "chunk-extension-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5;a\nb\r\nhello\r\n0\r\n\r\n",
    "chunk-extension-without-semicolon": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5 a=b\r\nhello\r\n0\r\n\r\n",
    "trailer-space-before-colon": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T : 1\r\n\r\n",
    "trailer-obs-fold": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n 2\r\n\r\n",
    "chunk-extension-whitespace-before-semicolon": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5 ;a=b\r\nhello\r\n0\r\n\r\n",
    "chunk-extension-bare-cr": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n5;a\rb\r\nhello\r\n0\r\n\r\n",
    "chunk-size-uppercase-hex": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
    "trailer-invalid-content-length": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nContent-Length: abc\r\n\r\n",
    "trailer-transfer-encoding-gzip": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nTransfer-Encoding: gzip\r\n\r\n",
    "trailer-bare-lf": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\n\r\n",
    "trailer-nul-in-value": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: a\x00b\r\n\r\n",
    "trailer-without-colon": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n0\r\nnocolon\r\n\r\n",

    # --- HTTP Garden: Content-Length ---------------------------------------------------------
    "content-length-space-before-colon": b"POST / HTTP/1.1\r\n" + H + b"Content-Length : 34\r\n\r\n" + b"a" * 34,
    "content-length-plus": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: +5\r\n\r\nhello",
    "content-length-minus": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: -1\r\n\r\n",
    "content-length-hex": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 0x10\r\n\r\n" + b"a" * 16,
    "content-length-underscore": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 1_0\r\n\r\n" + b"a" * 10,
    "content-length-empty": b"POST / HTTP/1.1\r\n" + H + b"Content-Length:\r\n\r\n",
    "content-length-duplicate-conflicting": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 3\r\nContent-Length: 5\r\n\r\nhello",
    "content-length-list-conflicting": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 3, 5\r\n\r\nhello",
    "content-length-list-empty-member": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 3,\r\n\r\nabc",
    "content-length-internal-space": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 1 0\r\n\r\n" + b"a" * 10,
    "content-length-vertical-tab": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: \x0b5\r\n\r\nhello",
    "content-length-20-digits": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 99999999999999999999\r\n\r\nabc",
    "content-length-in-http10-and-chunked": b"POST / HTTP/1.0\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
    "content-length-and-chunked": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "chunked-and-content-length": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",

    # --- Transfer-Encoding ------------------------------------------------------------------
    "te-identity": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: identity\r\n\r\n",
    "te-identity-chunked": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n",
    "te-chunked-identity": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n",
    "te-gzip-chunked": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    "te-chunked-twice-one-field": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n",
    "te-chunked-two-fields": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "te-empty": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding:\r\n\r\n",
    "te-chunked-with-parameter": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n",
    "te-vertical-tab-chunked": b"POST / HTTP/1.1\r\n" + H + b"Transfer-Encoding: \x0bchunked\r\n\r\n0\r\n\r\n",
    "te-chunked-in-http10": b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",

    # --- header section ---------------------------------------------------------------------
    "tab-before-first-header": b"GET / HTTP/1.1\r\n\tHost: x\r\n\r\n",
    "space-before-first-header": b"GET / HTTP/1.1\r\n Host: x\r\n\r\n",
    "obs-fold": b"GET / HTTP/1.1\r\n" + H + b"X-Folded: a\r\n b\r\n\r\n",
    "nul-in-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: a\x00b\r\n\r\n",
    "control-char-in-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: a\x01b\r\n\r\n",
    "del-in-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: a\x7fb\r\n\r\n",
    "bare-cr-in-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: a\rb\r\n\r\n",
    "nul-in-header-name": b"GET / HTTP/1.1\r\n" + H + b"X\x00A: b\r\n\r\n",
    "space-in-header-name": b"GET / HTTP/1.1\r\n" + H + b"Bad Name: b\r\n\r\n",
    "empty-header-name": b"GET / HTTP/1.1\r\n" + H + b": b\r\n\r\n",
    "header-without-colon": b"GET / HTTP/1.1\r\n" + H + b"NoColon\r\n\r\n",
    "header-name-non-token": b"GET / HTTP/1.1\r\n" + H + b"X(A): b\r\n\r\n",
    "bare-lf-line-endings": b"GET / HTTP/1.1\n" + b"Host: x\n\n",
    "bare-lf-after-headers": b"GET / HTTP/1.1\r\n" + H + b"\n",
    "missing-host-http11": b"GET / HTTP/1.1\r\n\r\n",
    "two-host-fields": b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "host-space-before-colon": b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",

    # --- request line ---------------------------------------------------------------------------
    "space-in-method": b"G ET / HTTP/1.1\r\n" + H + b"\r\n",
    "non-token-method": b"G(T / HTTP/1.1\r\n" + H + b"\r\n",
    "empty-method": b" / HTTP/1.1\r\n" + H + b"\r\n",
    "two-spaces-after-method": b"GET  / HTTP/1.1\r\n" + H + b"\r\n",
    "tab-as-separator": b"GET\t/ HTTP/1.1\r\n" + H + b"\r\n",
    "space-after-version": b"GET / HTTP/1.1 \r\n" + H + b"\r\n",
    "lowercase-http-version": b"GET / http/1.1\r\n" + H + b"\r\n",
    "version-two-digit-minor": b"GET / HTTP/1.10\r\n" + H + b"\r\n",
    "version-missing": b"GET /\r\n" + H + b"\r\n",
    "version-http2": b"GET / HTTP/2.0\r\n" + H + b"\r\n",
    "nul-in-target": b"GET /a\x00b HTTP/1.1\r\n" + H + b"\r\n",
    "non-ascii-in-target": b"GET /caf\xc3\xa9 HTTP/1.1\r\n" + H + b"\r\n",
    "target-without-slash": b"GET api/v1/launch HTTP/1.1\r\n" + H + b"\r\n",
    "connect-authority-form": b"CONNECT x:443 HTTP/1.1\r\n" + H + b"\r\n",
    "version-http09": b"GET / HTTP/0.9\r\n" + H + b"\r\n",
    "absolute-uri-without-path": b"GET http://x HTTP/1.1\r\n" + H + b"\r\n",
    "asterisk-with-get": b"GET * HTTP/1.1\r\n" + H + b"\r\n",
    "whitespace-only-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: \t \r\n\r\n",
    "form-feed-in-header-value": b"GET / HTTP/1.1\r\n" + H + b"X-A: a\x0cb\r\n\r\n",
    "high-byte-in-header-name": b"GET / HTTP/1.1\r\n" + H + b"X\xe9: b\r\n\r\n",
    "tls-client-hello": bytes.fromhex("160301020001000 1fc0303".replace(" ", "")) + bytes(range(32)),
    "leading-cr-then-garbage": b"\r\x00GET / HTTP/1.1\r\n" + H + b"\r\n",
    "leading-nul": b"\x00GET / HTTP/1.1\r\n" + H + b"\r\n",
    "garbage-second-request-starting-with-space": b"GET /a HTTP/1.1\r\n" + H + b"\r\n GET /b HTTP/1.1\r\n",
    "leading-empty-line": b"\r\nGET / HTTP/1.1\r\n" + H + b"\r\n",
    "leading-bare-lf": b"\nGET / HTTP/1.1\r\n" + H + b"\r\n",

    # --- framing across two requests (where does the first end?) ----------------------------
    "pipelined-body-longer-than-content-length": b"POST /a HTTP/1.1\r\n" + H + b"Content-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\n" + H + b"\r\n",
    "pipelined-after-chunked": b"POST /a HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /b HTTP/1.1\r\n" + H + b"\r\n",
    "smuggle-te-comma-space": b"POST /a HTTP/1.1\r\n" + H + b"Transfer-Encoding: chunked ,\r\n\r\n0\r\n\r\nGET /b HTTP/1.1\r\n" + H + b"\r\n",
    "garbage-after-request": b"GET /a HTTP/1.1\r\n" + H + b"\r\nXYZ\r\n\r\n",
    "close-then-pipelined-garbage": b"GET /a HTTP/1.1\r\n" + H + b"Connection: close\r\n\r\nXYZ\r\n\r\n",
    "http10-keep-alive-pipelined": b"GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n",
    "incomplete-body": b"POST / HTTP/1.1\r\n" + H + b"Content-Length: 10\r\n\r\nabc",
    "incomplete-head": b"GET / HTTP/1.1\r\n" + H,
}

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "corpus")
os.makedirs(corpus, exist_ok=True)
for old in os.listdir(corpus):
    if old.endswith(".http"):
        os.remove(os.path.join(corpus, old))
for name, data in CASES.items():
    with open(os.path.join(corpus, name + ".http"), "wb") as f:
        f.write(data)
print(f"{len(CASES)} files in {corpus}")
