#!/usr/bin/env python3
"""Tests of the GitHub Action (action.yml, Scripts/action.sh) under a pretend runner.

The runner is pretended with the variables GitHub sets (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_ENV,
GITHUB_OUTPUT, GITHUB_PATH, GITHUB_ACTION_PATH, GITHUB_JOB) and the action's steps are run as action.yml
runs them: Scripts/action.sh fetch, start and stop with the environment each step gets. Releases are a
folder served on 127.0.0.1 (SKAN_MOCK_RELEASE_URL) holding an archive that Scripts/release.sh made
(Tests/Release/make-archive.sh), laid out as GitHub's releases/download/TAG/FILE. Nothing leaves the
machine: the only addresses used are on loopback.

Cases: the archive fetched, checked and started on a free port, answering at SKAN_MOCK_URL, stopped by
its PID with its journal kept; a model and args; no archive for the platform (without swift: a clear
failure; with swift and the action at that version: a build from source, here with a stand-in swift);
a checksum that does not match (never built around); a Windows runner; a port in use; a server that
exits at start; a server that never answers (stopped after the wait); stop leaving alone a process
that is not the server it started; action.yml passing each step what the script reads; inputs with a
line break refused, never printed as a workflow command; args with --admin-token (the probe sends it),
and what a refused probe was told.

Prints one line per case and "action: N passed, M failed"; exits 1 when a case failed. Every process it
starts has a timeout; the whole run is bounded by .ci/run's `timeout`.
"""

import functools
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
with open(os.path.join(ROOT, "VERSION")) as version_file:
    VERSION = version_file.readline().strip()
WORK = tempfile.mkdtemp(prefix="skan-mock-action-test.")
STARTED_PIDS = []


def log(text):
    print(text, flush=True)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# --- the release: an archive made by Scripts/release.sh, served on loopback ---------------------------

def make_release():
    dist = os.path.join(WORK, "dist")
    made = subprocess.run(["bash", os.path.join(ROOT, "Tests/Release/make-archive.sh"), dist],
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    if made.returncode != 0:
        sys.stderr.write(made.stderr)
        raise SystemExit("action: Tests/Release/make-archive.sh failed")
    archive = made.stdout.strip()
    name = os.path.basename(archive)
    check(name == f"skan-mock-{VERSION}-linux-x86_64.tar.gz" or name == f"skan-mock-{VERSION}-linux-aarch64.tar.gz",
          f"unexpected archive {name}")
    releases = os.path.join(WORK, "releases")
    os.makedirs(os.path.join(releases, f"v{VERSION}"))
    for f in (archive, archive + ".sha256"):
        shutil.copy(f, os.path.join(releases, f"v{VERSION}"))
    # A release whose checksum file does not match its archive.
    bad = os.path.join(releases, "v9.9.9")
    os.makedirs(bad)
    bad_name = name.replace(VERSION, "9.9.9")
    shutil.copy(archive, os.path.join(bad, bad_name))
    with open(os.path.join(bad, bad_name + ".sha256"), "w") as f:
        f.write("0" * 64 + "  " + bad_name + "\n")
    return name, releases


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


# --- the pretend runner ---------------------------------------------------------------------------------

class Runner:
    """One job: its RUNNER_TEMP, GITHUB_ENV, GITHUB_OUTPUT and GITHUB_PATH, and the action checked out
    where the runner puts it (.../_actions/OWNER/skan-mock/REF)."""

    def __init__(self, name, ref=f"v{VERSION}", os_name="Linux", arch=None):
        self.dir = os.path.join(WORK, name)
        os.makedirs(self.dir)
        self.temp = os.path.join(self.dir, "runner-temp")
        os.makedirs(self.temp)
        self.action_path = os.path.join(self.dir, "_actions", "OWNER", "skan-mock", ref)
        os.makedirs(self.action_path)
        shutil.copy(os.path.join(ROOT, "action.yml"), self.action_path)
        shutil.copy(os.path.join(ROOT, "Package.swift"), self.action_path)
        shutil.copy(os.path.join(ROOT, "VERSION"), self.action_path)
        shutil.copytree(os.path.join(ROOT, "Scripts"), os.path.join(self.action_path, "Scripts"))
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(self.action_path, "Sources"))
        self.os = os_name
        self.arch = arch or ("ARM64" if os.uname().machine in ("aarch64", "arm64") else "X64")
        self.step = 0

    def run(self, mode, env=None, timeout=120):
        """Runs one step of action.yml; returns (exit code, output, step outputs, exported env)."""
        self.step += 1
        files = {k: os.path.join(self.dir, f"{k}.{self.step}") for k in ("GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH")}
        for f in files.values():
            open(f, "w").close()
        step_env = {k: v for k, v in os.environ.items() if not k.startswith(("SKAN_MOCK_", "GITHUB_", "RUNNER_"))}
        step_env.update(files)
        step_env.update({
            "RUNNER_OS": self.os, "RUNNER_ARCH": self.arch, "RUNNER_TEMP": self.temp,
            "GITHUB_ACTIONS": "true", "GITHUB_ACTION_PATH": self.action_path, "GITHUB_JOB": "ui-tests", "GITHUB_REPOSITORY": "someone/app",
            "SKAN_MOCK_RELEASE_URL": RELEASE_URL,
        })
        step_env.update(env or {})
        done = subprocess.run(["bash", os.path.join(self.action_path, "Scripts/action.sh"), mode],
                              cwd=self.dir, env=step_env, capture_output=True, text=True, timeout=timeout)
        outputs = dict(line.split("=", 1) for line in open(files["GITHUB_OUTPUT"]).read().splitlines() if "=" in line)
        exported = dict(line.split("=", 1) for line in open(files["GITHUB_ENV"]).read().splitlines() if "=" in line)
        self.path_lines = open(files["GITHUB_PATH"]).read().splitlines()
        if "pid" in outputs:
            STARTED_PIDS.append(int(outputs["pid"]))
        return done.returncode, done.stdout + done.stderr, outputs, exported

    def start(self, env=None, timeout=120):
        """fetch, then start with fetch's outputs, as action.yml chains them."""
        code, out, fetched, _ = self.run("fetch", env)
        if code != 0:
            return code, out, fetched, {}
        start_env = {"SKAN_MOCK_ACTION_BINARY": fetched.get("binary", ""),
                     "SKAN_MOCK_ACTION_BUILD": fetched.get("build", "")}
        start_env.update(env or {})
        code, out2, outputs, exported = self.run("start", start_env, timeout)
        outputs.update({"fetch." + k: v for k, v in fetched.items()})
        return code, out + out2, outputs, exported


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is not running.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def get(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the cases ---------------------------------------------------------------------------------------------

def case_archive_start_answer_stop():
    job = Runner("happy")
    code, out, outputs, exported = job.start()
    check(code == 0, f"start failed:\n{out}")
    check(outputs.get("fetch.build") == "false", f"fetch did not use the archive: {outputs}")
    check(f"{ARCHIVE} matches its .sha256" in out, f"no checksum line:\n{out}")
    url = exported.get("SKAN_MOCK_URL", "")
    check(re.fullmatch(r"http://127\.0\.0\.1:\d+", url), f"SKAN_MOCK_URL is '{url}'")
    port = int(url.rsplit(":", 1)[1])
    check(port != 8080 and outputs.get("port") == str(port) and exported.get("SKAN_MOCK_PORT") == str(port),
          f"port 0 should pick a free port: {outputs}, {exported}")
    check(outputs.get("url") == url, f"the url output differs from SKAN_MOCK_URL: {outputs}")
    binary = outputs["fetch.binary"]
    check(job.path_lines == [os.path.dirname(binary)], f"GITHUB_PATH: {job.path_lines}")
    status, body = get(url + "/api/v1/conversion_value?a=KEY&i=com.example.app&p=iOS&idfv=ACTION-1&n=level_up&conversion_value=0")
    check(status == 200 and json.loads(body) == {"conversion_value": 1, "status": "ok"}, f"answer: {status} {body}")
    health = subprocess.run([binary, "health", "--port", str(port)], capture_output=True, timeout=30)
    check(health.returncode == 0, "skan-mock health failed")
    pid = int(outputs["pid"])
    check(alive(pid), "the server is not running after start")
    # Starting twice in one job is refused while the first server runs.
    code2, out2, _, _ = job.run("start", {"SKAN_MOCK_ACTION_BINARY": binary})
    check(code2 == 1 and "still running" in out2, f"a second start was not refused:\n{out2}")
    code, out, stopped, _ = job.run("stop")
    check(code == 0, f"stop failed:\n{out}")
    check(not alive(pid), f"pid {pid} still runs after stop")
    journal = stopped.get("journal", "")
    check(journal == exported["SKAN_MOCK_JOURNAL_FILE"] and os.path.exists(journal), f"journal output: {stopped}")
    lines = [json.loads(line) for line in open(journal) if line.startswith("{")]
    check(any(e.get("device") == "ACTION-1" for e in lines), f"the request is not in the journal {journal}")
    check(re.fullmatch(r"skan-mock-journal-ui-tests-linux-\w+-[0-9a-f]{6}", stopped.get("artifact", "")),
          f"artifact name: {stopped}")
    check("1 request from 1 device" in out, f"stop did not print the report:\n{out}")
    code, out, _, _ = job.run("stop")
    check(code == 0 and "nothing to stop" in out, f"a second stop:\n{out}")


def case_version_model_args():
    job = Runner("model-args", ref="main")
    port = free_port()
    model = os.path.join(ROOT, "config/revenue.json")
    code, out, outputs, exported = job.start({
        "SKAN_MOCK_ACTION_VERSION": VERSION, "SKAN_MOCK_ACTION_PORT": str(port),
        "SKAN_MOCK_ACTION_MODEL": model, "SKAN_MOCK_ACTION_ARGS": "--strict --allowed-host 'ci.example.test'",
        "SKAN_MOCK_ACTION_ARTIFACT": "my-journal"})
    check(code == 0, f"start failed:\n{out}")
    check(f"/v{VERSION}/{ARCHIVE}" in out, f"version {VERSION} (without v) should download tag v{VERSION}:\n{out}")
    check(exported["SKAN_MOCK_URL"] == f"http://127.0.0.1:{port}", f"SKAN_MOCK_URL: {exported}")
    _, body = get(exported["SKAN_MOCK_URL"] + "/__admin/health")
    health = json.loads(body)
    check(model in json.dumps(health), f"the model input was not used: {body}")
    check("--strict --allowed-host ci.example.test" in out, f"args were not split as a shell would:\n{out}")
    code, out, stopped, _ = job.run("stop", {"SKAN_MOCK_ACTION_ARTIFACT": "my-journal"})
    check(code == 0 and stopped.get("artifact") == "my-journal", f"stop: {stopped}\n{out}")


def case_args_unmatched_quote():
    job = Runner("bad-args")
    code, out, _, exported = job.start({"SKAN_MOCK_ACTION_ARGS": "--strict --route 'a=b"})
    check(code == 1 and "cannot read args" in out and "SKAN_MOCK_URL" not in exported, f"start:\n{out}")


def case_no_archive_without_swift():
    other = "ARM64" if os.uname().machine not in ("aarch64", "arm64") else "X64"
    job = Runner("no-archive", arch=other)
    code, out, outputs, _ = job.run("fetch", {"SKAN_MOCK_ACTION_SWIFT": "/nonexistent/swift"})
    check(code == 1, f"fetch should fail:\n{out}")
    check("has no archive for linux-" in out and "no swift on this runner" in out, f"message:\n{out}")
    check("::error title=skan-mock::" in out, f"no ::error line:\n{out}")
    check("build" not in outputs, f"outputs: {outputs}")
    # A version other than the action's own ref is never built from this checkout.
    job2 = Runner("no-archive-other-version", ref="main", arch=other)
    code, out, _, _ = job2.run("fetch", {"SKAN_MOCK_ACTION_VERSION": f"v{VERSION}"})
    check(code == 1 and "Use a version that has one" in out, f"fetch of another version:\n{out}")


def case_no_archive_builds_from_source():
    """No archive for this runner, the action at that version, swift present: fetch says build (with a
    cache key), start builds with swift in the action's folder and starts what it built."""
    other = "ARM64" if os.uname().machine not in ("aarch64", "arm64") else "X64"
    job = Runner("from-source", arch=other)
    stub = os.path.join(job.dir, "swift")
    built = os.path.join(job.dir, "built")
    real = os.path.join(WORK, "dist", os.path.basename(ARCHIVE).replace(".tar.gz", ""), "skan-mock")
    calls = os.path.join(job.dir, "swift-calls")
    with open(stub, "w") as f:
        f.write(f"""#!/bin/sh
# A stand-in for swift build: records its arguments, "builds" by copying a release binary.
echo "$PWD: $*" >> '{calls}'
case " $* " in *" --show-bin-path "*) echo '{built}'; exit 0 ;; esac
mkdir -p '{built}' && cp '{real}' '{built}/skan-mock'
""")
    os.chmod(stub, 0o755)
    code, out, outputs, exported = job.start({"SKAN_MOCK_ACTION_SWIFT": stub})
    check(code == 0, f"start failed:\n{out}")
    check(outputs.get("fetch.build") == "true", f"fetch: {outputs}")
    check(re.fullmatch(r"skan-mock-build-linux-\w+-[0-9a-f]{16}", outputs.get("fetch.cache-key", "")), f"cache key: {outputs}")
    check(outputs.get("fetch.build-path") == os.path.join(job.action_path, ".build-action"), f"build path: {outputs}")
    recorded = open(calls).read()
    check(f"{job.action_path}: build -c release --product skan-mock --scratch-path {job.action_path}/.build-action" in recorded,
          f"swift was called as:\n{recorded}")
    status, _ = get(exported["SKAN_MOCK_URL"] + "/__admin/health")
    check(status == 200, "the built server does not answer")
    code, out, _, _ = job.run("stop")
    check(code == 0 and not alive(int(outputs["pid"])), f"stop:\n{out}")


def case_macos_runner_asks_for_the_universal_archive():
    job = Runner("macos", os_name="macOS", arch="ARM64")
    code, out, _, _ = job.run("fetch", {"SKAN_MOCK_ACTION_SWIFT": "/nonexistent/swift"})
    check(code == 1 and f"/v{VERSION}/skan-mock-{VERSION}-macos-universal.tar.gz" in out
          and "has no archive for macos-universal" in out, f"fetch on a macOS runner:\n{out}")


def case_checksum_mismatch():
    job = Runner("bad-checksum", ref="v9.9.9")
    code, out, outputs, _ = job.run("fetch", {"SKAN_MOCK_ACTION_SWIFT": "/bin/true"})
    check(code == 1 and "does not match its .sha256" in out, f"fetch:\n{out}")
    check("build" not in outputs, f"a bad checksum must not fall back to a build: {outputs}")


def case_windows():
    job = Runner("windows", os_name="Windows")
    code, out, _, _ = job.run("fetch")
    check(code == 1 and "no skan-mock for Windows runners" in out, f"fetch:\n{out}")


def case_port_in_use():
    job = Runner("port-in-use")
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    try:
        code, out, outputs, exported = job.start({"SKAN_MOCK_ACTION_PORT": str(port)})
    finally:
        holder.close()
    check(code == 1, f"start should fail:\n{out}")
    check("the server did not start" in out and "Address already in use" in out and "--port 0" in out, f"message:\n{out}")
    check("SKAN_MOCK_URL" not in exported and "pid" not in outputs, f"exported {exported}, outputs {outputs}")
    check(not os.path.exists(os.path.join(job.temp, "skan-mock-action", "pid")), "a pid file was left")
    code, out, _, _ = job.run("stop")
    check(code == 0 and "nothing to stop" in out, f"stop after a failed start:\n{out}")


def case_server_exits_at_start():
    job = Runner("bad-model")
    model = os.path.join(job.dir, "broken.json")
    with open(model, "w") as f:
        f.write('{"name": "broken", "skan4": ')
    code, out, _, _ = job.start({"SKAN_MOCK_ACTION_MODEL": model})
    check(code == 1 and "the server did not start" in out and "broken.json" in out, f"start:\n{out}")


def case_server_never_answers():
    job = Runner("never-answers")
    stub = os.path.join(job.dir, "skan-mock")
    pid_file = os.path.join(job.dir, "stub.pid")
    with open(stub, "w") as f:
        f.write(f"""#!/bin/sh
# Starts and never listens.
case "$1" in --version) echo 0.0.0-stub; exit 0 ;; esac
echo $$ > '{pid_file}'
exec sleep 300
""")
    os.chmod(stub, 0o755)
    t0 = time.monotonic()
    code, out, _, exported = job.run("start", {"SKAN_MOCK_ACTION_BINARY": stub, "SKAN_MOCK_ACTION_WAIT": "3"})
    elapsed = time.monotonic() - t0
    check(code == 1 and "did not answer skan-mock health within 3 s" in out, f"start:\n{out}")
    check(elapsed < 20, f"the wait took {elapsed:.0f} s")
    check("SKAN_MOCK_URL" not in exported, f"exported: {exported}")
    pid = int(open(pid_file).read())
    for _ in range(50):
        if not alive(pid):
            break
        time.sleep(0.1)
    check(not alive(pid), f"the server that never answered (pid {pid}) was left running")


def case_stop_spares_other_processes():
    job = Runner("spare")
    code, out, outputs, _ = job.start()
    check(code == 0, f"start failed:\n{out}")
    server = int(outputs["pid"])
    other = subprocess.Popen(["sleep", "300"])
    try:
        # The pid file now names another process (the server gone, its number reused, or a file edited).
        with open(os.path.join(job.temp, "skan-mock-action", "pid"), "w") as f:
            f.write(f"{other.pid}\n")
        code, out, _, _ = job.run("stop")
        check(code == 0 and "no longer running" in out, f"stop:\n{out}")
        check(other.poll() is None, "stop signalled a process that is not its server")
    finally:
        other.kill()
        other.wait()
        os.kill(server, signal.SIGTERM)


def case_inputs_with_line_breaks():
    """Issue 47.3: an input with a line break is refused before it reaches an output, and nothing the
    caller wrote is printed as a workflow command (a line starting with ::)."""
    job = Runner("line-breaks", ref="main")
    state = os.path.join(job.temp, "skan-mock-action")
    os.makedirs(state)
    open(os.path.join(state, "journal.jsonl"), "w").close()
    code, out, outputs, _ = job.run("stop", {"SKAN_MOCK_ACTION_ARTIFACT": "mine\njournal=/etc/passwd"})
    check(code == 1 and "the input artifact (SKAN_MOCK_ACTION_ARTIFACT) has a line break" in out, f"stop:\n{out}")
    check("/etc/passwd" not in outputs.values(), f"the artifact input rewrote an output: {outputs}")
    for variable, value in [("SKAN_MOCK_ACTION_VERSION", f"{VERSION}\n::warning::injected"),
                            ("SKAN_MOCK_ACTION_VERSION", f"{VERSION}\r::warning::injected")]:
        code, out, outputs, _ = job.run("fetch", {variable: value})
        check(code == 1 and "the input version (SKAN_MOCK_ACTION_VERSION) has a line break" in out, f"fetch:\n{out}")
        check(not any(line.startswith("::warning") for line in re.split(r"[\r\n]", out)),
              f"the caller's text was printed as a workflow command:\n{out}")
        check(outputs == {}, f"outputs: {outputs}")
    code, out, _, _ = job.run("start", {"SKAN_MOCK_ACTION_MODEL": "m.json\nurl=http://elsewhere"})
    check(code == 1 and "the input model" in out, f"start:\n{out}")
    # The version is matched whole: a release followed by anything else is no release.
    code, out, _, _ = job.run("fetch", {"SKAN_MOCK_ACTION_VERSION": f"{VERSION} junk"})
    check(code == 1 and "is not a release" in out, f"fetch:\n{out}")


def case_admin_token_in_args():
    """Issue 47.8: the action's own example, args: --strict --admin-token secret, starts (the
    readiness probe sends the token), and the server asks for the token afterwards."""
    job = Runner("admin-token")
    code, out, outputs, exported = job.start({"SKAN_MOCK_ACTION_ARGS": "--strict --admin-token secret",
                                              "SKAN_MOCK_ACTION_WAIT": "20"})
    check(code == 0, f"start failed:\n{out}")
    # The token is masked for GitHub and never printed as it is.
    check("::add-mask::secret" in out and "--admin-token ***" in out, f"the token is not masked:\n{out}")
    check("--admin-token secret" not in out, f"the token is in the log:\n{out}")
    try:
        urllib.request.urlopen(exported["SKAN_MOCK_URL"] + "/__admin/health", timeout=10)
        check(False, "the server took an admin request without its token")
    except urllib.error.HTTPError as error:
        check(error.code == 401, f"admin without the token: {error.code}")
    code, out, _, _ = job.run("stop")
    check(code == 0 and not alive(int(outputs["pid"])), f"stop:\n{out}")


def case_probe_refused_is_said():
    """Issue 47.8: what the readiness probe was told is said: a 401 is a server that answers (up, with
    a line saying the probe's token was refused); any other refusal is named when the wait ends."""
    job = Runner("probe-refused")
    for status, wait in (("401", "10"), ("503", "2")):
        stub = os.path.join(job.dir, f"skan-mock-{status}")
        with open(stub, "w") as f:
            f.write(f"""#!/bin/sh
# Answers its start-up line, and every health probe with HTTP {status}.
case "$1" in
    --version) echo 0.0.0-stub; exit 0 ;;
    health) echo 'skan-mock health: HTTP {status}: refused' >&2; exit 1 ;;
esac
echo 'skan-mock listening on http://127.0.0.1:{free_port()}'
exec sleep 300
""")
        os.chmod(stub, 0o755)
        code, out, outputs, _ = job.run("start", {"SKAN_MOCK_ACTION_BINARY": stub, "SKAN_MOCK_ACTION_WAIT": wait})
        if status == "401":
            check(code == 0 and "refused the readiness probe's admin token (skan-mock health: HTTP 401: refused)" in out,
                  f"start with a 401:\n{out}")
            job.run("stop")
        else:
            check(code == 1 and "the last probe: skan-mock health: HTTP 503: refused" in out, f"start with a 503:\n{out}")


def case_action_yml_wiring():
    """action.yml gives each step what Scripts/action.sh reads, and uses every input."""
    text = open(os.path.join(ROOT, "action.yml")).read()
    script = open(os.path.join(ROOT, "Scripts/action.sh")).read()
    try:
        import yaml
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "PyYAML"], check=True, timeout=300)
        import yaml
    action = yaml.safe_load(text)
    check(action["runs"]["using"] == "composite", "action.yml is not a composite action")
    steps = action["runs"]["steps"]
    runs = {s["run"].split()[-1]: s for s in steps if "run" in s}
    check(set(runs) == {"fetch", "start", "stop"}, f"action.yml's run steps: {sorted(runs)}")
    read = set(re.findall(r"\$\{?(SKAN_MOCK_ACTION_[A-Z_]+)", script)) - {"SKAN_MOCK_ACTION_SWIFT"}
    given = set()
    for s in steps:
        given |= set((s.get("env") or {}).keys())
    check(read <= given, f"Scripts/action.sh reads {sorted(read - given)}, which action.yml never sets")
    for name in action["inputs"]:
        check(f"inputs.{name}" in text.split("runs:", 1)[1], f"input {name} is never used")
    for s in steps:
        if "run" in s:
            check(s.get("shell") == "bash" and s["run"].startswith('bash "$GITHUB_ACTION_PATH/Scripts/action.sh"'),
                  f"step {s.get('id')}: {s['run']}")
    for s in steps:
        if s.get("id") == "stop" or "upload-artifact" in s.get("uses", ""):
            check(str(s.get("if", "")).startswith("always() &&"), f"a stop step without always(): {s}")


CASES = [
    case_action_yml_wiring,
    case_inputs_with_line_breaks,
    case_admin_token_in_args,
    case_probe_refused_is_said,
    case_archive_start_answer_stop,
    case_version_model_args,
    case_args_unmatched_quote,
    case_no_archive_without_swift,
    case_no_archive_builds_from_source,
    case_macos_runner_asks_for_the_universal_archive,
    case_checksum_mismatch,
    case_windows,
    case_port_in_use,
    case_server_exits_at_start,
    case_server_never_answers,
    case_stop_spares_other_processes,
]


def main():
    global ARCHIVE, RELEASE_URL
    if os.uname().sysname != "Linux":
        raise SystemExit("action: this test runs on Linux (it serves the Linux archive)")
    if shutil.which("curl") is None:  # Scripts/action.sh downloads with curl, as on GitHub's runners
        log("action: installing curl")
        subprocess.run(["apt-get", "update", "-qq"], check=True, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", "curl"], check=True, timeout=600,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, stdout=subprocess.DEVNULL)
    t0 = time.monotonic()
    ARCHIVE, releases = make_release()
    server, RELEASE_URL = serve(releases)
    shutil.unpack_archive(os.path.join(WORK, "dist", ARCHIVE), os.path.join(WORK, "dist"))
    log(f"action: {ARCHIVE} made by Scripts/release.sh, served at {RELEASE_URL} ({time.monotonic() - t0:.0f} s)")
    passed = failed = 0
    try:
        for case in CASES:
            name = case.__name__[len("case_"):]
            try:
                case()
                passed += 1
                log(f"ok - {name}")
            except Exception as error:  # a Failure, or a timeout or error of the case itself
                failed += 1
                log(f"FAIL - {name}: {error}")
    finally:
        server.shutdown()
        for pid in STARTED_PIDS:  # only servers this test started, by their PIDs
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(WORK, ignore_errors=True)
    log(f"action: {passed} passed, {failed} failed ({time.monotonic() - t0:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
