"""The Scrapy backend: Scrapy's RobotParser interface, and a real ``scrapy crawl`` of a
site on 127.0.0.1 that fetches what robots.txt allows and nothing it forbids."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest

scrapy = pytest.importorskip("scrapy")

from scrapy.robotstxt import RobotParser as ScrapyRobotParser  # noqa: E402

from robotscope.scrapy import RobotParser  # noqa: E402

ROBOTS = """\
User-agent: LoopBot
Disallow: /not-for-loopbot
Crawl-delay: 0.01

# LoopBot obeys this group as well: RFC 9309 §2.2.1 combines the groups naming it.
User-agent: *
User-agent: LoopBot
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$
Disallow: /café/
"""

# Every page links to every other: a crawler that ignored robots.txt would fetch them all.
PAGES = [
    "/",
    "/a",
    "/private/x",
    "/private/open",
    "/doc.pdf",
    "/doc.pdf?download=1",
    "/caf%C3%A9/menu",
    "/not-for-loopbot",
    "/b?q=1",
]


class Site(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the http.server name)
        Site.seen.append(self.path)
        if self.path == "/robots.txt":
            body, kind = ROBOTS.encode(), "text/plain; charset=utf-8"
        elif self.path.split("?")[0] in {p.split("?")[0] for p in PAGES}:
            links = "".join(f'<a href="{p}">{p}</a>' for p in PAGES)
            body, kind = f"<html><body>{links}</body></html>".encode(), "text/html"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site():
    Site.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


SPIDER = """
import scrapy

class Loop(scrapy.Spider):
    name = "loop"

    def __init__(self, site, **kwargs):
        super().__init__(**kwargs)
        self.site = site

    # Scrapy 2.13 and later start a spider from this coroutine.
    async def start(self):
        yield scrapy.Request(self.site)

    def parse(self, response):
        yield {"url": response.url}
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href)
"""


def crawl(tmp_path: Path, start: str, user_agent: str) -> list[str]:
    spider = tmp_path / "loop.py"
    spider.write_text(textwrap.dedent(SPIDER))
    out = tmp_path / "items.jsonl"
    settings = {
        "ROBOTSTXT_OBEY": "True",
        "ROBOTSTXT_PARSER": "robotscope.scrapy.RobotParser",
        "USER_AGENT": user_agent,
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": "False",
        "CLOSESPIDER_TIMEOUT": "60",
        "DOWNLOAD_DELAY": "0",
    }
    args = [sys.executable, "-m", "scrapy", "runspider", str(spider), "-a", f"site={start}/", "-o", f"{out}:jsonl"]
    for key, value in settings.items():
        args += ["-s", f"{key}={value}"]
    result = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr and "] ERROR:" not in result.stderr, result.stderr[-3000:]
    return [json.loads(line)["url"] for line in out.read_text().splitlines()]


def test_a_scrapy_crawl_fetches_what_robots_txt_allows(site: str, tmp_path: Path) -> None:
    crawl(tmp_path, site, "Mozilla/5.0 (compatible; LoopBot/1.0; +https://example.com/bot)")
    fetched = set(Site.seen) - {"/robots.txt"}
    assert "/robots.txt" in Site.seen
    assert fetched == {"/", "/a", "/private/open", "/doc.pdf?download=1", "/b?q=1"}, Site.seen
    # Forbidden for every robot, for LoopBot's own group, or by a non-ASCII rule that
    # Scrapy's request (percent-encoded) must meet.
    for forbidden in ("/private/x", "/doc.pdf", "/caf%C3%A9/menu", "/not-for-loopbot"):
        assert forbidden not in Site.seen


def test_another_robot_gets_the_star_group(site: str, tmp_path: Path) -> None:
    crawl(tmp_path, site, "Scrapy/2.13 (+https://scrapy.org)")
    assert "/not-for-loopbot" in Site.seen, "only LoopBot's group forbids it"
    assert "/private/x" not in Site.seen


def parser(body: bytes) -> RobotParser:
    crawler = SimpleNamespace(spider=None)
    return RobotParser.from_crawler(crawler, body)


def test_it_implements_scrapys_interface() -> None:
    rp = parser(ROBOTS.encode())
    assert isinstance(rp, ScrapyRobotParser)
    assert rp.allowed("https://example.com/a", "LoopBot")
    assert not rp.allowed("https://example.com/private/x", b"LoopBot/1.0")
    assert not rp.allowed(b"https://example.com/not-for-loopbot", "Mozilla/5.0 (compatible; LoopBot/1.0)")
    assert rp.allowed("https://example.com/not-for-loopbot", "OtherBot")
    assert rp.crawl_delay("LoopBot") == 0.01
    assert rp.crawl_delay("OtherBot") is None


def test_non_ascii_urls_and_user_agents() -> None:
    rp = parser(ROBOTS.encode())
    assert not rp.allowed("https://example.com/café/menu", "LoopBot")
    assert not rp.allowed("https://example.com/caf%C3%A9/menu", "LoopBot")
    assert rp.allowed("https://example.com/ünïcode", "Roböt/1.0")
    assert rp.allowed("https://example.com/a", "Ünïcöde")
    assert rp.allowed("https://example.com/a", b"\xff\xfe bytes that are not UTF-8")
    assert rp.allowed("https://example.com/a", "")
    assert rp.allowed("https://example.com/a", None)


def test_a_stray_byte_that_is_not_utf8_costs_nothing() -> None:
    # As Scrapy's default backend (Protego) reads it: the byte is left out.
    rp = parser(b"# Caf\xe9 Paris\nUser-agent: *\nDisallow: /\n")
    assert not rp.allowed("https://example.com/x", "LoopBot")
    assert not parser(b"\xef\xbb\xbfUser-agent: *\nDisallow: /\n").allowed("https://example.com/x", "Bot"), "a BOM"


def test_empty_or_garbage_bodies_allow_everything() -> None:
    utf16 = "User-agent: *\nDisallow: /\n".encode("utf-16")
    for body in (b"", utf16, b"\x80\x81\x82 not utf-8", b"\x00" * 100, bytes(range(256)) * 4):
        rp = parser(body)
        assert rp.allowed("https://example.com/private/x", "LoopBot"), body
        assert rp.crawl_delay("LoopBot") is None


def test_a_matcher_is_compiled_once_per_set_of_groups() -> None:
    rp = parser(ROBOTS.encode())
    for version in range(300):
        assert not rp.allowed("https://example.com/not-for-loopbot", f"LoopBot/1.{version}")
    for robot in range(300):
        assert rp.allowed("https://example.com/not-for-loopbot", f"Bot{chr(65 + robot % 26)}{robot}x/1.0")
    # One matcher for LoopBot's groups and one for `*`'s, shared by the 300 other robots.
    assert len(rp._matchers) == 2
    assert len(rp._headers) <= 1024


def test_lone_surrogates_are_read_as_replacement_characters() -> None:
    rp = parser(ROBOTS.encode())
    assert not rp.allowed("https://example.com/private/\udc80", "LoopBot")
    assert rp.allowed("https://example.com/\udc80", "Loop\udc80Bot")
