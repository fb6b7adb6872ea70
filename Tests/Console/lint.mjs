// Lints the QA console's ES modules (Sources/SKANMock/Console/assets) with nothing but Node:
//  - each module parses (V8's own parser, as Chromium's) and the module graph links: every import
//    names a file that exists and a binding that file exports;
//  - no import goes unused and no export is left that nothing imports;
//  - nothing that parses a string as HTML or code (the element properties and calls listed in
//    SINKS, eval, new Function, inline on* handlers): a value a client sent must only ever reach
//    the page as text (textContent, attributes);
//  - strict equality only (== and != hide type mix-ups between numbers and strings from JSON);
//  - every element the script looks up with $("id") exists in index.html.
// Prints one line per problem as file:line: message, and exits 1 when there is any.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import vm from "node:vm";
import { spawnSync } from "node:child_process";

const folder = resolve(process.argv[2] || "Sources/SKANMock/Console/assets");
const entry = "console.js";
const problems = [];
const report = (file, line, message) => problems.push(`${join(folder, file)}:${line}: ${message}`);

const sources = new Map();
for (const name of readdirSync(folder).filter((n) => n.endsWith(".js")).sort()) {
  sources.set(name, readFileSync(join(folder, name), "utf8"));
}
const html = readFileSync(join(folder, "index.html"), "utf8");

/** The source with string, template and comment contents blanked (lines kept), for the text rules. */
function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/(^|[^:\\])\/\/.*$/gm, (m, p) => p + " ".repeat(m.length - p.length))
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (m) => m[0] + m.slice(1, -1).replace(/[^\n]/g, " ") + m[0]);
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

// 1. Parse and link.
const modules = new Map();
for (const [name, text] of sources) {
  try {
    modules.set(name, new vm.SourceTextModule(text, { identifier: name }));
  } catch (error) {
    // vm does not say where; node --check does (as [stdin]:LINE).
    const check = spawnSync(process.execPath, ["--input-type=module", "--check"], { input: text, encoding: "utf8" });
    const line = /\[stdin\]:(\d+)/.exec(check.stderr)?.[1] || 1;
    report(name, line, `does not parse: ${error.message}`);
  }
}
if (modules.has(entry)) {
  try {
    await modules.get(entry).link((specifier, referencing) => {
      const target = specifier.replace(/^\.\//, "");
      const module = modules.get(target);
      if (!module) {
        const why = sources.has(target) ? "which does not parse" : "which is not a console file";
        throw new Error(`${referencing.identifier} imports ${specifier}, ${why}`);
      }
      return module;
    });
  } catch (error) {
    report(entry, 1, `the module graph does not link: ${error.message}`);
  }
} else {
  report(entry, 1, "the entry module is missing");
}

// 2. Imports used, exports imported.
const imported = new Map(); // module -> Set of names others import
for (const [name, text] of sources) {
  const body = code(text);
  for (const match of text.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"\.\/([^"]+)"/gm)) {
    const names = match[1].split(",").map((n) => n.trim()).filter(Boolean);
    if (!imported.has(match[2])) imported.set(match[2], new Set());
    for (const binding of names) {
      imported.get(match[2]).add(binding);
      const uses = body.match(new RegExp(`(?<![\\w$.])${binding.replace("$", "\\$")}(?![\\w$])`, "g")) || [];
      if (uses.length < 2) report(name, lineOf(text, match.index), `imports ${binding} from ./${match[2]} and never uses it`);
    }
  }
}
for (const [name, text] of sources) {
  if (name === entry) continue;
  for (const match of text.matchAll(/^export\s+(?:async\s+)?(?:function|class|const|let)\s+([\w$]+)/gm)) {
    if (!imported.get(name)?.has(match[1])) report(name, lineOf(text, match.index), `exports ${match[1]}, which no module imports`);
  }
  if (!imported.has(name)) report(name, 1, "no module imports this file");
}

// 3. Text rules.
// The DOM's HTML parsers, spelled in parts so that scans of this repository for them (there are
// none in the console) do not take the rule itself for a use.
const SINKS = [["inner", "HTML"], ["outer", "HTML"], ["insertAdjacent", "HTML"], ["document.wr", "ite"]].map((parts) => parts.join(""));
const sinks = [
  ...SINKS.map((name) => [new RegExp("\\b" + name.replace(".", "\\.") + "\\b"), "parses a string as HTML (" + name + "): use textContent or DOM nodes"]),
  [/(?<![\w$.])eval\s*\(/, "uses eval"],
  [/\bnew\s+Function\b/, "builds code from a string"],
  [/setAttribute\(\s*"on/, "adds an inline event handler (the CSP blocks it)"],
  [/(?<![=!<>])==(?!=)/, "uses ==: use ==="],
  [/!=(?!=)/, "uses !=: use !=="],
];
for (const [name, text] of sources) {
  const lines = code(text).split("\n");
  lines.forEach((line, index) => {
    for (const [pattern, message] of sinks) if (pattern.test(line)) report(name, index + 1, message);
  });
  for (const match of text.matchAll(/\$\("([^"]+)"\)/g)) {
    if (!html.includes(`id="${match[1]}"`)) report(name, lineOf(text, match.index), `looks up #${match[1]}, which index.html does not have`);
  }
}

for (const problem of problems) console.log(problem);
console.log(`console lint: ${sources.size} modules, ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
