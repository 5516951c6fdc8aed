"""The Python API and ``robotscope check`` give one answer for one URL: the same
verdict, line and rule, URLs read the same way, for the benchmark's files and for URLs
written as people and crawlers write them."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest

from robotscope import RobotsTxt

FILES = ["en.wikipedia.org.txt", "www.google.com.txt", "github.com.txt"]
ODD = [
    "/", "", "private/x", "/a/./b/../c", "/café/menu", "/caf%c3%a9", "/a%2fb", "/a b", "/a\\b",
    "//double/slash", "/?q=1", "/x#frag", "https://Example.COM:443/A?B#C", "http://example.com",
    "http://example.com?x", "ftp://example.com/x", "mailto:someone", "https://exa mple.com/x",
    "/%7Euser", "/~user", "/path;params?q", "https://example.com/ä/ö?ü=1", "*.pdf", "/a*b$",
]


def urls_for(body: bytes, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    text = body.decode("utf-8", "replace")
    rules = [m.group(1).rstrip("$").replace("*", "x") for m in re.finditer(r"(?im)^\s*(?:allow|disallow)\s*:\s*(/\S*)", text)]
    rules = rules or ["/"]
    urls = []
    for i in range(count):
        path = rng.choice(rules) + rng.choice(["", "a/b", f"?id={i}", "x.html", "/../up", "%c3%a9"])
        urls.append(("https://example.com" + path) if i % 2 else path)
    return urls + ODD


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("agent,reading", [("Googlebot", "rfc9309"), ("bingbot", "rfc9309"), ("Scooter", "koster1994")])
def test_same_answers_as_robotscope_check(data: Path, robotscope_bin: Path, name: str, agent: str, reading: str) -> None:
    path = data / "corpus" / name
    body = path.read_bytes()
    urls = urls_for(body, 3000, seed=len(name))
    result = subprocess.run(
        [str(robotscope_bin), "check", str(path), "-a", agent, "--semantics", reading, "--json"],
        input="\n".join(urls) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    # check skips blank lines, as a list of paths has them.
    asked = [url for url in urls if url.strip()]
    assert len(records) == len(asked)
    bot = RobotsTxt(body).matcher(agent, reading)
    verdicts = bot.allowed_many(asked)
    for url, record, verdict in zip(asked, records, verdicts):
        decision = bot.decide(url)
        assert (verdict, decision.allowed, decision.line, decision.rule) == (
            record["allowed"], record["allowed"], record["line"], record["rule"],
        ), url
