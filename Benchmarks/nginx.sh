# Sourced by the benchmark scripts: `start_nginx BODY` serves BODY (JSON) for every path on a free
# 127.0.0.1 port from one nginx worker, sets NGINX_PORT and adds its pid to PIDS. Needs NGINX (the
# binary), TMP (a scratch folder) and TOOLS (Benchmarks/tools.py) set by the caller.
start_nginx() {
    local body=$1
    NGINX_PORT=$($TOOLS port)
    mkdir -p "$TMP/nginx"
    local escaped=${body//\\/\\\\}
    escaped=${escaped//\'/\\\'}
    cat >"$TMP/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
master_process off;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $TMP/nginx/body;
    proxy_temp_path $TMP/nginx/proxy;
    fastcgi_temp_path $TMP/nginx/fastcgi;
    uwsgi_temp_path $TMP/nginx/uwsgi;
    scgi_temp_path $TMP/nginx/scgi;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            default_type application/json;
            return 200 '$escaped';
        }
    }
}
EOF
    "$NGINX" -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -e "$TMP/nginx/error.log" 2>"$TMP/nginx/stderr" &
    PIDS+=("$!")
    NGINX_PID=$!
    for _ in $(seq 1 200); do
        $TOOLS get "$NGINX_PORT" /x >/dev/null 2>&1 && break
        sleep 0.02
    done
    [ "$($TOOLS get "$NGINX_PORT" /x)" = "$body" ] || {
        cat "$TMP/nginx/stderr" "$TMP/nginx/error.log" >&2
        echo "nginx did not start" >&2
        exit 1
    }
}
