#!/usr/bin/env bash
# Whole-process access-log audit (issue 27, DESIGN.md §8): a generated Combined log of
# LINES lines (default 1,000,000, about 200 MB: browsers, Googlebot, bingbot, GPTBot,
# a tenth of the paths under /private/), audited against one robots.txt by `robotscope
# audit` and read by GoAccess (Debian's `goaccess`, the peer the target names) in one
# hyperfine run; then each one's peak RSS, and robotscope's at ten times the lines.
#
# Usage: benches/audit.sh [LINES]   (needs hyperfine and goaccess: apt-get install goaccess)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lines=${1:-1000000}
command -v hyperfine >/dev/null || { echo "needs hyperfine: cargo install hyperfine" >&2; exit 2; }
command -v goaccess >/dev/null || { echo "needs goaccess: apt-get install goaccess" >&2; exit 2; }
cargo build --release --quiet --bin robotscope
bin=$root/target/release/robotscope
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" "$lines" <<'PY'
import datetime, random, sys
root, count = sys.argv[1], int(sys.argv[2])
random.seed(1)
open(f"{root}/robots.txt", "w").write(
    "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: GPTBot\nDisallow: /\n")
agents = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
]
time = datetime.datetime(2025, 10, 1, tzinfo=datetime.timezone.utc)
with open(f"{root}/access.log", "w") as log:
    for i in range(count):
        time += datetime.timedelta(milliseconds=random.randint(100, 900))
        path = random.choice(["/", f"/blog/{i % 5000}", f"/private/{i % 300}", f"/shop/item?id={i % 9000}&ref=home", f"/static/app.{i % 50}.js"])
        agent = random.choice(agents)
        # Most Googlebot and GPTBot requests come from their operators' published ranges
        # (66.249.64.0/20 is most of googlebot.json; 20.171.206.0/24 is in gptbot.json),
        # the rest from anywhere: forged.
        if "Googlebot" in agent and random.random() < 0.9:
            ip = f"66.249.{random.randint(64, 66)}.{random.randint(1, 30)}"
        elif "GPTBot" in agent and random.random() < 0.9:
            ip = f"20.171.206.{random.randint(1, 254)}"
        else:
            ip = ".".join(str(random.randint(1, 254)) for _ in range(4))
        status = random.choice([200, 200, 200, 304, 404])
        log.write(f'{ip} - - [{time.strftime("%d/%b/%Y:%H:%M:%S +0000")}] "GET {path} HTTP/1.1" {status} '
                  f'{random.randint(200, 90000)} "https://example.com/" "{agent}"\n')
PY
ls -la "$dir/access.log" | awk '{ printf "log: %d lines, %.0f MB\n", '"$lines"', $5 / 1e6 }'
hyperfine --warmup 1 --runs 3 --ignore-failure \
    -n robotscope "$bin audit $dir/access.log --robots $dir/robots.txt" \
    -n goaccess "goaccess $dir/access.log --log-format=COMBINED -o $dir/report.json --no-progress"
for name in robotscope goaccess; do
    case $name in
        robotscope) run=("$bin" audit "$dir/access.log" --robots "$dir/robots.txt") ;;
        goaccess) run=(goaccess "$dir/access.log" --log-format=COMBINED -o "$dir/report.json" --no-progress) ;;
    esac
    /usr/bin/time -f "$name: %e s, peak RSS %M KB" "${run[@]}" > /dev/null 2> "$dir/time" || true
    tail -1 "$dir/time"
done
# Linear in the log's length, in flat memory: the same log ten times, through a pipe.
/usr/bin/time -f "robotscope, 10x the lines on standard input: %e s, peak RSS %M KB" \
    sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do cat '$dir/access.log'; done | '$bin' audit - --robots '$dir/robots.txt' > /dev/null" 2>&1 | tail -1 || true
