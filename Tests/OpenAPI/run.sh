#!/usr/bin/env bash
# Checks the running server against openapi/skan-mock-admin.yaml with schemathesis: every operation,
# positive and negative inputs, no 5xx, responses conform to the document (schema, status code,
# content type). Installs schemathesis with pip when missing, builds skan-mock and starts it on a
# free port with some traffic in its journal. Bounded: a few examples per operation, about a minute.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v schemathesis >/dev/null 2>&1; then
    echo "openapi: installing schemathesis with pip"
    python3 -m pip install --quiet 'schemathesis>=4,<5'
fi

swift build --product skan-mock
bin="$(swift build --show-bin-path)/skan-mock"
work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin" --port 0 --no-watch-model >"$work/out" 2>"$work/err" &
server_pid=$!
for _ in $(seq 1 100); do
    grep -q 'listening on' "$work/out" 2>/dev/null && break
    sleep 0.1
done
url=$(grep -oE 'http://[^ ]+' "$work/out" | head -n 1)
[ -n "$url" ] || { echo "openapi: skan-mock did not start" >&2; cat "$work/err" >&2; exit 1; }

# Something in the journal, so the answers checked against the document have entries, findings and windows.
now=$(date +%s)
curl -sf "$url/api/v2/conversion_value?a=k&v=17.4&i=com.x&p=iOS&idfv=OPENAPI-1&n=__SESSION__&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=$now" >/dev/null
curl -sf "$url/api/v2/conversion_value?a=k&v=17.4&i=com.x&p=iOS&idfv=OPENAPI-1&n=buy&skan_current_conversion_value=1&p0_coarse=9&skan_first_call_to_skadnetwork_timestamp=$now" >/dev/null
curl -sf "$url/api/v1/conversion_value?a=&i=com.x&p=iOS&idfv=OPENAPI-2&n=open&conversion_value=0" >/dev/null
curl -s "$url/api/v3/nothing" >/dev/null

started=$(date +%s)
status=0
schemathesis --config-file Tests/OpenAPI/schemathesis.toml run openapi/skan-mock-admin.yaml \
    --url "$url" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --phases examples,coverage,fuzzing \
    --max-examples 40 \
    --seed 20261123 \
    --workers 1 \
    --request-timeout 10 \
    --suppress-health-check all \
    --no-color || status=$?
echo "openapi: schemathesis finished in $(( $(date +%s) - started )) s with status $status"
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "openapi: skan-mock died during the run" >&2
    cat "$work/err" >&2
    exit 1
fi
exit "$status"
