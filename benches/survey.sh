#!/usr/bin/env bash
# Whole-process survey of a WARC (issue 38, DESIGN.md §8): the real robots.txt files of
# tests/data/corpus repeated to RECORDS response records (default 32,400), gzipped per
# record as Common Crawl writes them, surveyed for 7 robots by `robotscope survey --warc`
# and by texting_robots answering only "may it fetch /" on every core (the peer in
# benches/peers/texting_robots_warc.rs), in one hyperfine run; then robotscope's peak
# RSS at RECORDS and at four times as many, which should be flat.
#
# Usage: benches/survey.sh [RECORDS]   (needs hyperfine: cargo install hyperfine)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
records=${1:-32400}
command -v hyperfine >/dev/null || { echo "needs hyperfine: cargo install hyperfine" >&2; exit 2; }
cargo build --release --quiet --bin robotscope --example peer_texting_robots_warc
bin=$root/target/release/robotscope
peer=$root/target/release/examples/peer_texting_robots_warc
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

write_warc() { # COUNT OUT
    python3 - "$root/tests/data/corpus" "$1" "$2" <<'PY'
import gzip, os, sys
corpus, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
files = sorted(f for f in os.listdir(corpus) if f.endswith(".txt"))
bodies = [open(os.path.join(corpus, f), "rb").read() for f in files]
with open(out, "wb") as warc:
    for i in range(count):
        body = bodies[i % len(bodies)]
        host = f"site{i}.example"
        block = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + body
        head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://{host}/robots.txt\r\n"
                f"WARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"
                f"Content-Length: {len(block)}\r\n\r\n").encode()
        warc.write(gzip.compress(head + block + b"\r\n\r\n", compresslevel=1))
PY
}
write_warc "$records" "$dir/crawl.warc.gz"
write_warc $((records * 4)) "$dir/crawl4.warc.gz"
agents=(GPTBot ClaudeBot CCBot Google-Extended Googlebot bingbot PerplexityBot)
flags=()
for agent in "${agents[@]}"; do flags+=(-a "$agent"); done

hyperfine --warmup 1 --runs 5 \
    -n robotscope "$bin survey --warc $dir/crawl.warc.gz ${flags[*]} --json > /dev/null" \
    -n texting_robots "$peer $dir/crawl.warc.gz ${agents[*]} > /dev/null"
for file in crawl crawl4; do
    /usr/bin/time -f "robotscope survey, $file: %e s, peak RSS %M KB" \
        "$bin" survey --warc "$dir/$file.warc.gz" "${flags[@]}" --json > /dev/null
done
