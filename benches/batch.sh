#!/usr/bin/env bash
# Whole-process batch speed (issue 13): `robotscope check` on 1,000,000 paths from
# standard input against texting_robots doing the same as a process
# (benches/peers/texting_robots_check.rs), in one hyperfine run per file, for the
# wikipedia, google and github files. Prints ns per path for each.
#
# Usage: benches/batch.sh     (needs hyperfine: cargo install hyperfine --version 1.20.0)
# (-i: check exits 1 when some path is disallowed, which is not a failure here.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v hyperfine >/dev/null || { echo "needs hyperfine: cargo install hyperfine" >&2; exit 2; }
cargo build --release --quiet --bin robotscope --example peer_texting_robots
bin=target/release/robotscope
peer=target/release/examples/peer_texting_robots
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
paths=1000000

for file in en.wikipedia.org.txt www.google.com.txt github.com.txt; do
    robots=tests/data/corpus/$file
    # The file's own rule paths (wildcards filled in) with continuations, and random
    # paths, 1,000,000 lines in all, the same on every run (fixed seed).
    python3 - "$robots" "$paths" > "$dir/paths" <<'PY'
import random, re, sys
random.seed(13)
rules = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"\s*(allow|disallow)\s*:\s*(/\S*)", line, re.I)
    if m:
        rules.append(m.group(2).rstrip("$").replace("*", "x"))
words = "abcdefghijklmnopqrstuvwxyz-_"
out = []
for i in range(int(sys.argv[2])):
    if rules and i % 2 == 0:
        path = random.choice(rules) + random.choice(["", "a/b", "?id=%d" % random.randrange(10000), "x.html"])
    else:
        path = "".join("/" + "".join(random.choice(words) for _ in range(random.randint(1, 10))) for _ in range(random.randint(1, 4)))
    out.append(path)
sys.stdout.write("\n".join(out) + "\n")
PY
    echo "== $file ($paths paths)"
    hyperfine -i --warmup 1 --runs 5 --export-json "$dir/$file.json" --input "$dir/paths" --output null \
        -n "robotscope check" "$bin check $robots -a Googlebot" \
        -n "robotscope check --disallowed" "$bin check $robots -a Googlebot --disallowed" \
        -n "robotscope check --json" "$bin check $robots -a Googlebot --json" \
        -n "texting_robots (process)" "$peer $robots Googlebot" \
        | grep -E "^Benchmark|Time \(mean"
    python3 - "$dir/$file.json" "$paths" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
n = int(sys.argv[2])
peer = next(r["mean"] for r in results if r["command"].startswith("texting"))
for r in results:
    print(f'   {r["command"]:32} {r["mean"] * 1e9 / n:6.0f} ns/path ± {r["stddev"] * 1e9 / n:4.0f}   {r["mean"] / peer:5.2f} of texting_robots')
PY
done
