#!/usr/bin/env python3
"""Writes the Info.plist fixtures of Tests/Fixtures/Plist (see README.md): run it from this folder.

The XML and binary files are written by Python's plistlib (the same bytes every run: plistlib
sorts nothing away and writes no dates); the broken ones are built byte by byte below.
"""
import plistlib
import struct

GOOD = {
    "CFBundleIdentifier": "com.example.app",
    "SKAdNetworkItems": [
        {"SKAdNetworkIdentifier": "cstr6suwn9.skadnetwork"},
        {"SKAdNetworkIdentifier": "4fzdc2evr5.skadnetwork"},
        {"SKAdNetworkIdentifier": "v72qych5uu.skadnetwork"},
    ],
    "NSAdvertisingAttributionReportEndpoint": "https://example.com",
    "AdAttributionKit": {
        "AttributionCopyEndpoint": "https://example.com",
        "EligibleForAdAttributionKitReengagementPostbackCopies": True,
    },
    "EligibleForAdAttributionKitOverlappingConversions": True,
    "AdAttributionKitConfigurations": {
        "AttributionWindows": {
            "global": {"install": {"view": 3}},
            "test.adattributionkit": {"install": {"click": 23, "ignoreInteractionType": "view"}},
        },
        "AttributionCooldown": {"install-cooldown-hours": 24, "re-engagement-cooldown-hours": 12},
    },
}

# Every rule broken once (see the tests for the finding each gives).
BAD = {
    "CFBundleIdentifier": "com.example.app",
    "SKAdNetworkItems": [
        {"SKAdNetworkIdentifier": "CSTR6SUWN9.skadnetwork"},
        {"SKAdNetworkIdentifier": "4fzdc2evr5"},
        {"SKAdNetworkIdentifier": "v72qych5uu.skadnetwork"},
        {"SKAdNetworkIdentifier": "v72qych5uu.skadnetwork"},
        {"SkAdNetworkIdentifier": "22mmun2rn5.skadnetwork"},
        "c6k4g5qg8m.skadnetwork",
    ],
    "NSAdvertisingAttributionReportEndpoint": "https://example.com/skan/postbacks",
    "AdAttributionKit": {
        "AttributionCopyEndpoint": "http://example.com:8443",
        "OptInForReengagementPostbackCopies": True,
    },
    "EligibleForAdAttributionKitOverlappingConversions": "YES",
    "AdAttributionKitConfigurations": {
        "AttributionWindows": {
            "global": {"install": {"view": 9, "ignoreInteractionType": "click"}},
            "test.adattributionkit": {"install": {"click": 45, "ignoreInteractionType": "tap"}},
        },
        "AttributionCooldown": {"install-cooldown-hours": 1000, "re-engagement-cooldown-hours": "12"},
    },
}

# A QA build: its copies go to skan-mock's HTTPS listener on the Mac's private address.
QA = {
    "NSAdvertisingAttributionReportEndpoint": "https://192.168.1.20",
    "AdAttributionKit": {"AttributionCopyEndpoint": "https://skan-mock.local"},
}


def write(name, value, fmt):
    with open(name, "wb") as f:
        plistlib.dump(value, f, fmt=fmt, sort_keys=False)


def bplist(objects, top=0, table=None):
    """A bplist00 of the given encoded objects (1-byte offsets and references)."""
    out = bytearray(b"bplist00")
    offsets = []
    for o in objects:
        offsets.append(len(out))
        out += o
    table_at = len(out)
    out += bytes(table if table is not None else offsets)
    out += bytes(6) + bytes([1, 1]) + struct.pack(">QQQ", len(objects), top, table_at)
    return bytes(out)


write("good.xml.plist", GOOD, plistlib.FMT_XML)
write("good.binary.plist", GOOD, plistlib.FMT_BINARY)
write("bad.xml.plist", BAD, plistlib.FMT_XML)
write("bad.binary.plist", BAD, plistlib.FMT_BINARY)
write("qa-build.binary.plist", QA, plistlib.FMT_BINARY)
write("Example.app/Info.plist", GOOD, plistlib.FMT_BINARY)

good = open("good.binary.plist", "rb").read()
# Cut short: the file ends 40 bytes early, trailer and all.
open("broken-truncated.binary.plist", "wb").write(good[:-40])
# A dictionary {"a": [that dictionary]}: object 0 holds object 2, which holds object 0.
open("broken-cycle.binary.plist", "wb").write(bplist([b"\xd1\x01\x02", b"\x51a", b"\xa1\x00"]))
# Object 1's offset (200) points past the objects.
open("broken-offset.binary.plist", "wb").write(bplist([b"\xd1\x01\x02", b"\x51a", b"\x09"], table=[8, 200, 13]))
# XML whose <dict> is closed by </array>.
open("broken.xml.plist", "wb").write(
    b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
    b"\t<key>SKAdNetworkItems</key>\n\t<array>\n\t\t<dict>\n"
    b"\t\t\t<key>SKAdNetworkIdentifier</key>\n\t\t\t<string>cstr6suwn9.skadnetwork</string>\n"
    b"\t\t</array>\n</dict>\n</plist>\n"
)
