#!/usr/bin/env bash
# The live survey's target (issue 38, DESIGN.md §8): SITES loopback sites (default 1,000),
# each a host of its own in 127.0.0.0/8 (127.0.0.1, 127.0.0.2, ...) served by one
# threaded HTTP server on one port, each robots.txt a real file of tests/data/corpus,
# surveyed with `--jobs 64` for 7 robots, each site fetched (`--fresh 0`, a store of its
# own); the wall time and peak RSS, three runs. Target: under 10 s.
#
# Usage: benches/survey_live.sh [SITES] [BINARY]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sites=${1:-1000}
bin=${2:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet --bin robotscope
    bin=$root/target/release/robotscope
fi
dir=$(mktemp -d)
python3 - "$root/tests/data/corpus" "$dir/port" <<'PY' &
import http.server, os, socketserver, sys
corpus, port_file = sys.argv[1], sys.argv[2]
files = sorted(f for f in os.listdir(corpus) if f.endswith(".txt"))
bodies = [open(os.path.join(corpus, f), "rb").read() for f in files]
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        # The host's last two octets pick its file.
        host = self.headers.get("Host", "127.0.0.1").split(":")[0].split(".")
        body = bodies[(int(host[2]) * 256 + int(host[3])) % len(bodies)]
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 1024
server = Server(("0.0.0.0", 0), Handler)
open(port_file, "w").write(str(server.server_address[1]))
server.serve_forever()
PY
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
while [ ! -s "$dir/port" ]; do sleep 0.1; done
port=$(cat "$dir/port")
for ((i = 1; i <= sites; i++)); do
    echo "http://127.0.$((i / 250)).$((i % 250 + 1)):$port"
done > "$dir/sites.txt"
flags=(-a GPTBot -a ClaudeBot -a CCBot -a Google-Extended -a Googlebot -a bingbot -a PerplexityBot)
for run in 1 2 3; do
    rm -f "$dir/store.sqlite3"
    /usr/bin/time -f "run $run: $sites sites, --jobs 64: %e s, peak RSS %M KB" \
        "$bin" survey --sites "$dir/sites.txt" "${flags[@]}" --jobs 64 --fresh 0 \
        --store "$dir/store.sqlite3" --json > "$dir/rows.jsonl"
    echo "  $(wc -l < "$dir/rows.jsonl") rows, $(grep -c '"unreachable"' "$dir/rows.jsonl" || true) unreachable"
done
