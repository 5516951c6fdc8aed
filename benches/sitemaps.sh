#!/usr/bin/env bash
# Whole-process sitemaps audit (issues 14 and 25, DESIGN.md §8): a site whose index lists 40
# gzipped sitemaps of 50,000 URLs each (2,000,000 URLs), served by a local HTTP server,
# audited for Googlebot by `robotscope sitemaps` and by the advertools pipeline SEO users
# run (`sitemap_to_df`, then `robotstxt_test`), in one hyperfine run; then each one's
# peak RSS. About a tenth of the URLs are blocked.
#
# Usage: benches/sitemaps.sh   (needs hyperfine and, for the peer, pip install advertools)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v hyperfine >/dev/null || { echo "needs hyperfine: cargo install hyperfine" >&2; exit 2; }
cargo build --release --quiet --bin robotscope
bin=$root/target/release/robotscope
dir=$(mktemp -d)
port=${PORT:-8731}
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT

python3 - "$dir" "$port" <<'PY'
import gzip, os, sys
root, port = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
os.makedirs(f"{root}/maps")
with open(f"{root}/robots.txt", "w") as f:
    f.write(f"User-agent: *\nDisallow: /private/\nDisallow: /*?session=\nAllow: /\n\nSitemap: {base}/maps/index.xml\n")
with open(f"{root}/maps/index.xml", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')
    for i in range(40):
        f.write(f"<sitemap><loc>{base}/maps/s{i}.xml.gz</loc></sitemap>\n")
    f.write("</sitemapindex>\n")
for i in range(40):
    rows = []
    for j in range(50000):
        path = f"/private/doc/{i}/{j}" if j % 20 == 0 else (f"/shop/item/{i}-{j}?session=1" if j % 20 == 1 else f"/blog/{i}/post-{j}.html")
        rows.append(f"<url><loc>{base}{path}</loc><lastmod>2026-11-01</lastmod></url>")
    body = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + "\n".join(rows) + "\n</urlset>\n"
    with open(f"{root}/maps/s{i}.xml.gz", "wb") as f:
        f.write(gzip.compress(body.encode(), 6))
PY
(cd "$dir" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
sleep 1

cat > "$dir/advertools_audit.py" <<PY
import advertools as adv
sitemaps = adv.sitemap_to_df("http://127.0.0.1:$port/robots.txt")
urls = sitemaps["loc"].dropna().tolist()
tests = adv.robotstxt_test("http://127.0.0.1:$port/robots.txt", user_agents=["Googlebot"], urls=urls)
print(len(urls), int((~tests["can_fetch"]).sum()))
PY

# The text of the blocked URLs, their JSON, and every URL's JSON (issue 25: JSON must
# cost what text costs, and the whole audit JSON included a tenth of advertools' time).
commands=(-n "robotscope sitemaps --blocked" "$bin sitemaps http://127.0.0.1:$port/ -a Googlebot --blocked"
    -n "robotscope sitemaps --blocked --json" "$bin sitemaps http://127.0.0.1:$port/ -a Googlebot --blocked --json"
    -n "robotscope sitemaps --json (every URL)" "$bin sitemaps http://127.0.0.1:$port/ -a Googlebot --json")
peer=0
if python3 -c "import advertools" 2>/dev/null; then
    commands+=(-n "advertools sitemap_to_df + robotstxt_test" "python3 $dir/advertools_audit.py")
    peer=1
else
    echo "(advertools is not installed: pip install advertools; robotscope alone)" >&2
fi
echo "== robotscope: $("$bin" sitemaps "http://127.0.0.1:$port/" -a Googlebot --blocked | wc -l) blocked URLs reported"
[ "$peer" = 1 ] && echo "== advertools (URLs, blocked): $(python3 "$dir/advertools_audit.py" 2>/dev/null | tail -1)"
hyperfine -i --warmup 1 --runs "${RUNS:-5}" "${commands[@]}" | grep -E "^Benchmark|Time \(mean|Range"
echo "== peak RSS"
/usr/bin/time -f "robotscope sitemaps: %M KB, %e s" "$bin" sitemaps "http://127.0.0.1:$port/" -a Googlebot --blocked >/dev/null || true
[ "$peer" = 1 ] && { /usr/bin/time -f "advertools: %M KB, %e s" python3 "$dir/advertools_audit.py" >/dev/null || true; }
