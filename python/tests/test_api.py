"""The whole Python API, as a crawler uses it."""

from __future__ import annotations

import threading
import warnings

import pytest

import robotscope
from robotscope import Decision, RobotsTxt

SITE = b"""\
Sitemap: https://example.com/sitemap.xml
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$
Disallow: /caf\xc3\xa9/
Crawl-delay: 2.5
Request-rate: 1/10s
Content-Signal: search=yes, ai-train=no

User-agent: Googlebot
Disallow: /nogoogle
sitemap: /relative.xml
"""


@pytest.fixture
def txt() -> RobotsTxt:
    return RobotsTxt(SITE)


def test_parsing_never_fails() -> None:
    for body in (b"", b"\x00\xff\xfe garbage \x80", "User-agent: *\nDisallow: /x\n", bytearray(b"Disallow: /"), b"<html>"):
        robotscope.RobotsTxt(body).matcher("bot").allowed("/")


def test_bodies_come_as_bytes_or_text() -> None:
    body = b"User-agent: *\nDisallow: /x\n"
    for given in (body, bytearray(body), memoryview(body), body.decode()):
        assert not RobotsTxt(given).matcher("bot").allowed("/x"), type(given)
    for wrong in (None, 42, [85, 115], object()):
        with pytest.raises(TypeError, match=f"a robots.txt body is bytes or str, not {type(wrong).__name__}"):
            RobotsTxt(wrong)  # type: ignore[arg-type]
    assert robotscope.__version__ == "0.1.0"


def test_a_str_body_is_read_as_utf8() -> None:
    bot = RobotsTxt("User-agent: *\nDisallow: /café/\n").matcher("bot")
    assert not bot.allowed("https://example.com/caf%C3%A9/menu")
    assert RobotsTxt("é").body == "é".encode()


def test_sitemaps_in_file_order(txt: RobotsTxt) -> None:
    assert txt.sitemaps == ["https://example.com/sitemap.xml", "/relative.xml"]
    assert txt.body == SITE


def test_allowed_reads_urls_as_crawlers_send_them(txt: RobotsTxt) -> None:
    bot = txt.matcher("ExampleBot")
    assert bot.allowed("https://example.com/")
    assert not bot.allowed("https://example.com/private/x?y=1")
    assert bot.allowed("https://example.com/private/open/file")
    assert not bot.allowed("/private/x")
    assert not bot.allowed("private/x"), "a relative path is read from /"
    assert not bot.allowed("https://example.com/public/../private/x"), "dot segments resolved"
    assert not bot.allowed("https://example.com/café/menu"), "non-ASCII percent-encoded as UTF-8"
    assert not bot.allowed("https://example.com/caf%c3%a9/menu"), "escapes upper-cased"
    assert not bot.allowed("https://example.com/a.pdf#page=2"), "the fragment is not sent"
    assert bot.allowed("https://example.com/a.pdf?download=1")
    assert not bot.allowed("https://OTHER.example/private/x"), "the host is not looked at"


def test_decide_names_the_deciding_line(txt: RobotsTxt) -> None:
    bot = txt.matcher("ExampleBot")
    decision = bot.decide("https://example.com/private/open")
    assert isinstance(decision, Decision)
    assert (decision.allowed, decision.line, decision.rule, decision.reading) == (True, 4, "Allow: /private/open", "rfc9309")
    assert bool(decision)
    blocked = bot.decide("/private/x")
    assert (blocked.allowed, blocked.line, blocked.rule) == (False, 3, "Disallow: /private/")
    assert not blocked
    assert bot.decide("https://example.com/café/../caf%c3%a9?q=1#top").tested == "/caf%C3%A9?q=1"
    assert txt.matcher("bot", raw_urls=True).decide("https://example.com/a%3cd#x").tested == "/a%3cd"
    free = bot.decide("/elsewhere")
    assert (free.allowed, free.line, free.rule) == (True, None, None)
    assert "disallowed by line 3" in repr(blocked)
    assert txt.matcher("bot", raw_urls=True).raw_urls and not bot.raw_urls


def test_a_robot_gets_its_own_group(txt: RobotsTxt) -> None:
    google = txt.matcher("Googlebot")
    assert google.allowed("/private/x"), "Googlebot's group replaces *"
    assert not google.allowed("/nogoogle/a")
    assert google.agent == "Googlebot"
    assert txt.matcher("googlebot").allowed("/private/x"), "tokens match in any letter case"


def test_group_lines_name_the_groups_that_apply(txt: RobotsTxt) -> None:
    assert txt.group_lines("Googlebot") == [11]
    assert txt.group_lines("OtherBot") == txt.group_lines("ThirdBot") == [2]
    assert RobotsTxt(b"User-agent: a\nDisallow: /\n").group_lines("b") == []
    merged = RobotsTxt(b"User-agent: a\nDisallow: /x\n\nUser-agent: b\nUser-agent: a\nDisallow: /y\n")
    assert merged.group_lines("a") == [1, 4]
    assert merged.group_lines("a", "koster1994") == [1], "the first record only"


def test_the_readings_differ_where_the_standards_do() -> None:
    txt = RobotsTxt(b"User-agent: *\nDisallow: /a\nAllow: /a/b\n\nUser-agent: Lycos\nDisallow: /\n")
    assert txt.matcher("x", "rfc9309").allowed("/a/b"), "longest match wins"
    assert not txt.matcher("x", "koster1994").allowed("/a/b"), "1994 knows no Allow"
    assert not txt.matcher("x", "draft1996").allowed("/a/b"), "the draft: first match wins"
    assert txt.matcher("x", "1996").reading == "draft1996"
    assert not txt.matcher("Lycos_Spider_(T-Rex)/1.0", "koster1994").allowed("/x"), "a substring of the name"
    with pytest.raises(ValueError, match="unknown reading 'rfc2000': expected rfc9309, draft1996 or koster1994"):
        txt.matcher("x", "rfc2000")


def test_a_user_agent_header_is_not_a_token() -> None:
    txt = RobotsTxt(b"User-agent: Googlebot\nDisallow: /\n")
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    with pytest.warns(UserWarning, match="is not a product token.*did you mean 'Googlebot'") as caught:
        matcher = txt.matcher(header)
    assert caught[0].filename == __file__, "the warning points at the caller's line"
    assert matcher.allowed("/x"), "as RFC 9309 readers do, the header names no group"
    assert robotscope.product_token(header) == "Googlebot"
    assert robotscope.product_token("Scrapy/2.13 (+https://scrapy.org)") == "Scrapy"
    assert robotscope.product_token("MyBot") == "MyBot"
    assert robotscope.product_token("123") is None
    assert robotscope.product_token("MyBot-1.0") == "MyBot"
    assert robotscope.product_token("Bücherbot/1.0") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        txt.matcher("*")
        txt.matcher("Lycos/1.0", "koster1994")


def test_allowed_many_agrees_with_allowed(txt: RobotsTxt) -> None:
    bot = txt.matcher("ExampleBot")
    urls = ["/", "/private/x", "https://example.com/private/open", "/x.pdf", "/café/", "relative"]
    expected = [bot.allowed(url) for url in urls]
    assert bot.allowed_many(urls) == expected == [True, False, True, False, False, True]
    assert bot.allowed_many(tuple(urls)) == expected
    assert bot.allowed_many(url for url in urls) == expected
    assert bot.allowed_many([]) == []
    # Large enough to be matched on every core.
    many = [f"https://example.com/{'private' if i % 3 == 0 else 'public'}/{i}.{'pdf' if i % 5 == 0 else 'html'}" for i in range(50_000)]
    assert bot.allowed_many(many) == [bot.allowed(url) for url in many]


def test_bad_urls_raise_python_errors(txt: RobotsTxt) -> None:
    bot = txt.matcher("bot")
    with pytest.raises(TypeError):
        bot.allowed(b"/bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bot.allowed_many(["/ok", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        bot.allowed_many(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="an iterable of URLs, not one str"):
        bot.allowed_many("/private/")
    with pytest.raises(UnicodeEncodeError):
        bot.allowed("/\ud800")
    # Text no URL parser takes is still a path a robot could be asked about.
    for odd in ("", " ", "http://", "http://[::1", "::::", "\x00", "/" * 100_000, "%", "https://exa mple.com/private/x"):
        bot.allowed(odd)
    assert not bot.allowed("https://exa mple.com/private/x")


def test_a_bad_url_deep_in_a_large_batch_raises(txt: RobotsTxt) -> None:
    bot = txt.matcher("bot")
    urls = [f"/private/{i}" for i in range(100_000)]
    with pytest.raises(TypeError, match="allowed_many takes str URLs, not int"):
        bot.allowed_many([*urls, 7])
    with pytest.raises(UnicodeEncodeError):
        bot.allowed_many([*urls[:60_000], "/\udc80", *urls[60_000:]])
    # The matcher is still whole, and so is a large batch from a generator.
    assert bot.allowed_many(url for url in urls) == [False] * len(urls)


def test_allowed_many_releases_the_gil() -> None:
    bot = RobotsTxt(b"User-agent: *\nDisallow: /*a*b*c*d$\n").matcher("bot")
    urls = [f"/a/{i}/b/c/{i}d" for i in range(1_000_000)]
    progress = [0]
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            progress[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = progress[0]
        verdicts = bot.allowed_many(urls)
        during = progress[0] - before
    finally:
        stop.set()
        counter.join()
    assert verdicts.count(False) == len(urls)
    assert during > 0, "another thread ran while the batch was matched"


def test_crawl_delay_and_request_rate(txt: RobotsTxt) -> None:
    bot = txt.matcher("bot")
    assert bot.crawl_delay == 2.5
    rate = bot.request_rate
    assert rate is not None and (rate.requests, rate.seconds) == (1, 10.0)
    assert rate == bot.request_rate
    google = txt.matcher("Googlebot")
    assert google.crawl_delay is None and google.request_rate is None


def test_usage(txt: RobotsTxt) -> None:
    bot = txt.matcher("bot")
    usage = bot.usage("https://example.com/page")
    assert usage is not None
    assert (usage.train_ai, usage.search, usage.ai_input) == ("disallowed", "allowed", "unknown")
    assert usage.lines["train-ai"] == [9]
    assert bot.usage("/private/x") is None, "a page the robot may not fetch has no preferences"
    assert txt.matcher("bot", "koster1994").usage("/page") is None


def test_lint_and_fix() -> None:
    txt = RobotsTxt(b"User-agent: *\nDisallow: ~\nDisallow: /a\nDisallow: /a\n")
    diagnostics = txt.lint()
    assert [(d.code, d.line) for d in diagnostics][:1] == [("path-without-slash", 2)]
    first = diagnostics[0]
    assert first.severity in ("error", "warning", "info") and first.message
    assert first.fix is not None
    assert first.fix.changes_verdicts is True
    assert first.fix.effect.startswith("changes verdicts: RFC 9309")
    assert first.fix.fixed == b"User-agent: *\nDisallow: /~\nDisallow: /a\nDisallow: /a\n"
    duplicate = [d for d in diagnostics if d.line == 4][0]
    assert duplicate.fix is not None and duplicate.fix.changes_verdicts is False
    assert duplicate.fix.effect == "changes no verdict under any reading"
    fixed = txt.fix()
    assert fixed.text == txt.fixed() == b"User-agent: *\nDisallow: /~\nDisallow: /a\n"
    assert fixed.applied == 2 and fixed.changes_verdicts
    assert RobotsTxt(fixed.text).fixed() == fixed.text, "fixing twice changes nothing"
    assert RobotsTxt(b"User-agent: *\nDisallow: /\n").lint() == []


def test_rfc9309_reads_500_kib_as_google_does() -> None:
    body = b"User-agent: *\n" + b"# filler\n" * 60_000 + b"Disallow: /late/\n"
    assert len(body) > robotscope.RFC9309_PARSE_LIMIT_BYTES
    assert RobotsTxt(body).matcher("bot").allowed("/late/x"), "the rule past 500 KiB is not read"
    assert not RobotsTxt(body, whole_file=True).matcher("bot").allowed("/late/x")
    assert not RobotsTxt(body).matcher("bot", "draft1996").allowed("/late/x"), "the old readings read it all"
    assert any(d.code == "content-past-500kib" for d in RobotsTxt(body).lint())


def test_raw_urls_are_taken_byte_for_byte() -> None:
    txt = RobotsTxt(b"User-agent: *\nDisallow: /a<d\n")
    assert not txt.matcher("bot").allowed("/a%3Cd")
    assert txt.matcher("bot", raw_urls=True).allowed("/a%3Cd")
    assert not txt.matcher("bot", raw_urls=True).allowed("/a<d")


def test_the_types_are_documented() -> None:
    for name in robotscope.__all__:
        getattr(robotscope, name)
    assert robotscope.RobotsTxt.matcher.__doc__
    assert robotscope.Matcher.allowed_many.__doc__
    assert repr(RobotsTxt(b"Sitemap: /s.xml\n")) == "<RobotsTxt: 16 bytes, 1 sitemaps>"


def test_decisions_and_usage_are_values() -> None:
    bot = RobotsTxt(SITE).matcher("bot")
    assert bot.decide("/private/x") == bot.decide("https://example.com/private/x")
    assert len({bot.decide("/private/x"), bot.decide("https://e.com/private/x#f"), bot.decide("/a")}) == 2
    assert hash(bot.usage("/a")) == hash(bot.usage("/b"))


def test_a_list_subclass_is_read_as_it_iterates() -> None:
    class Reversed(list):
        def __iter__(self):
            return iter(list(reversed(list(list.__iter__(self)))))

    bot = RobotsTxt(SITE).matcher("bot")
    assert bot.allowed_many(Reversed(["/private/x", "/a"])) == [True, False]


def test_lint_holds_no_copy_of_the_file_per_diagnostic(tmp_path) -> None:
    # 16,000 duplicate rules in 200 KB: a fixed copy of the file per diagnostic would be
    # 3 GB, past this process's 1 GiB of address space.
    script = tmp_path / "lint.py"
    script.write_text(
        "import resource, robotscope\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "body = b'User-agent: *\\nDisallow: /\\n' + b'Disallow: /a\\n' * 16000\n"
        "found = robotscope.RobotsTxt(body).lint()\n"
        "print(len(found), len(found[-1].fix.fixed))\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    count, size = map(int, done.stdout.split())
    assert count >= 15_999 and size == 26 + 13 * 15_999


def test_no_room_is_a_memory_error_not_an_abort(tmp_path) -> None:
    # Issue 35: with the address space 300 MB past what the interpreter holds, a 104 MB
    # robots.txt compiled for a robot aborted the interpreter ("memory allocation
    # failed", exit 134). Each call whose memory the file decides raises MemoryError,
    # and the interpreter goes on: a small file still works after.
    script = tmp_path / "room.py"
    script.write_text(
        "import resource, robotscope\n"
        "body = b'User-agent: *\\n' + b''.join(b'Disallow: /p%d/x\\n' % i for i in range(5_000_000))\n"
        "size = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + (300 << 20), size + (300 << 20)))\n"
        "txt = robotscope.RobotsTxt(body, whole_file=True)\n"
        "for name, call in [('matcher', lambda: txt.matcher('G')), ('lint', txt.lint), ('fix', txt.fix),\n"
        "                   ('fixed', txt.fixed), ('sitemaps', lambda: txt.sitemaps)]:\n"
        "    try:\n"
        "        call()\n"
        "        print(name, 'ran')\n"
        "    except MemoryError as error:\n"
        "        print(name, 'MemoryError', error)\n"
        "print(robotscope.RobotsTxt(b'User-agent: *\\nDisallow: /x\\n').matcher('G').allowed('/y'))\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert len(body_mb := [line for line in lines if "MemoryError" in line]) == 5, done.stdout
    assert "not enough memory to compile the rules of a robots.txt of 104 MiB" in body_mb[0], done.stdout
    assert lines[-1] == "True"
