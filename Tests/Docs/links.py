#!/usr/bin/env python3
"""Tests/Docs/links.py: every relative link in README.md and docs/*.md resolves, anchor included.

A link `[text](path)` or `[text](path#anchor)` or `[text](#anchor)` outside code blocks and code spans
must name a file of the repository, and its anchor a heading of that Markdown file as GitHub spells it
(lower case; punctuation but `-` and `_` dropped; spaces to `-`; a repeated heading gets `-1`, `-2`).
Links with a scheme (https:, mailto:) are not followed. Prints one line per broken link and exits 1,
or "Tests/Docs/links.py: N links ... resolve" and exits 0.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def prose(text):
    """The page without fenced code blocks and code spans."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def slug(heading):
    text = re.sub(r"<[^>]+>", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, result, fenced = {}, set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                base = slug(m.group(1))
                n = seen.get(base, 0)
                result.add(base if n == 0 else f"{base}-{n}")
                seen[base] = n + 1
    result.update(re.findall(r'<a (?:name|id)="([^"]+)"', open(path, encoding="utf-8").read()))
    return result


def main():
    pages = ["README.md"] + sorted("docs/" + n for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))
    broken, count = [], 0
    for page in pages:
        text = open(os.path.join(ROOT, page), encoding="utf-8").read()
        for lineno, line in enumerate(prose(text).split("\n"), 1):
            for target in LINK.findall(line):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                file = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) if path else os.path.join(ROOT, page)
                if not os.path.exists(file):
                    broken.append(f"{page}:{lineno}: {target}: no file {os.path.relpath(file, ROOT)}")
                elif anchor and file.endswith(".md") and anchor not in anchors(file):
                    broken.append(f"{page}:{lineno}: {target}: no heading #{anchor} in {os.path.relpath(file, ROOT)}")
    for line in broken:
        print("Tests/Docs/links.py: " + line)
    if broken:
        print(f"Tests/Docs/links.py: FAIL: {len(broken)} of {count} relative links broken")
        return 1
    print(f"Tests/Docs/links.py: {count} relative links in {len(pages)} pages resolve, anchors included")
    return 0


if __name__ == "__main__":
    sys.exit(main())
