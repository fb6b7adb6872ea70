# Sourced by the benchmark scripts: `start_nginx BODY [NAME [log]]` serves BODY (JSON) for every path
# on a free 127.0.0.1 port from one nginx worker (its files in $TMP/NAME, default nginx), sets
# NGINX_PORT and NGINX_PID and adds its pid to PIDS. With `log`, each request is logged to
# $TMP/NAME/access.log as its connection's serial number (an upstream's count of connections);
# otherwise `access_log off`, as for the ceiling. Needs NGINX (the binary), TMP (a scratch folder)
# and TOOLS (Benchmarks/tools.py) set by the caller.
start_nginx() {
    local body=$1 name=${2:-nginx} access="access_log off;"
    [ "${3:-}" = log ] && access="log_format connection '\$connection'; access_log $TMP/$name/access.log connection;"
    NGINX_PORT=$($TOOLS port)
    mkdir -p "$TMP/$name"
    local escaped=${body//\\/\\\\}
    escaped=${escaped//\'/\\\'}
    cat >"$TMP/$name/nginx.conf" <<EOF
worker_processes 1;
daemon off;
master_process off;
pid $TMP/$name/nginx.pid;
error_log $TMP/$name/error.log warn;
events { worker_connections 4096; }
http {
    $access
    client_body_temp_path $TMP/$name/body;
    proxy_temp_path $TMP/$name/proxy;
    fastcgi_temp_path $TMP/$name/fastcgi;
    uwsgi_temp_path $TMP/$name/uwsgi;
    scgi_temp_path $TMP/$name/scgi;
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
    "$NGINX" -p "$TMP/$name" -c "$TMP/$name/nginx.conf" -e "$TMP/$name/error.log" 2>"$TMP/$name/stderr" &
    PIDS+=("$!")
    NGINX_PID=$!
    for _ in $(seq 1 200); do
        $TOOLS get "$NGINX_PORT" /x >/dev/null 2>&1 && break
        sleep 0.02
    done
    [ "$($TOOLS get "$NGINX_PORT" /x)" = "$body" ] || {
        cat "$TMP/$name/stderr" "$TMP/$name/error.log" >&2
        echo "nginx did not start" >&2
        exit 1
    }
}
