"""The hostile web of issue 25, on 127.0.0.1, for benches/adversarial.sh: gzipped
sitemaps of 6,000 URLs of 8 KB (/long/N.xml.gz: forty are 3.2 MB on the wire and 1.9 GB
of URLs), sitemaps that send a byte a second (/slow/N.xml), an index chain 2,000 deep
(/chain/0.xml), and a 14 MB CDX listing of 200,000 captures plus impossible timestamps
(/cdx/search/cdx); robots.txt allows everything. The robots.txt files that list the
sitemaps are the script's. Prints its port, then serves."""

import gzip
import json
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LONG = "x" * 8000
LONG_SITEMAP = gzip.compress(
    ("<urlset>" + "".join(f"<url><loc>http://127.0.0.1/a/{i}-{LONG}</loc></url>" for i in range(6000)) + "</urlset>").encode(),
    1,
)
ROWS = [["timestamp", "original", "statuscode", "digest"]]
for i in range(200000):
    stamp = f"{2000 + i % 25}{(i // 25) % 12 + 1:02}{(i // 300) % 28 + 1:02}{i % 24:02}{i % 60:02}{i % 59:02}"
    ROWS.append([stamp, "http://127.0.0.1/robots.txt", "404", f"D{i}"])
ROWS += [["99999999999999", "http://127.0.0.1/robots.txt", "200", "X"], ["20201301000000", "http://127.0.0.1/robots.txt", "200", "Y"]]
CDX = json.dumps(ROWS).encode()
CHAIN_DEPTH = 2000


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, body, kind="application/xml"):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_port}"
        path = self.path
        if path.startswith("/long/"):
            self.send(LONG_SITEMAP, "application/gzip")
        elif path.startswith("/slow/"):
            body = b"<urlset><url><loc>http://127.0.0.1/x</loc></url></urlset>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for byte in body:
                try:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(1)
                except OSError:
                    return
        elif path.startswith("/chain/"):
            n = int(path.rsplit("/", 1)[-1].split(".")[0])
            if n < CHAIN_DEPTH:
                self.send(f"<sitemapindex><sitemap><loc>{base}/chain/{n + 1}.xml</loc></sitemap></sitemapindex>".encode())
            else:
                self.send(b"<urlset/>")
        elif path.startswith("/cdx/search/cdx"):
            self.send(CDX, "application/json")
        else:
            self.send(b"User-agent: *\nAllow: /\n", "text/plain")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_port, flush=True)
server.serve_forever()
