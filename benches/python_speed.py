"""The Python packages' speed on the batch benchmark's files (benches/python.sh runs it).

For each of the wikipedia, google and github files: 200,000 URLs made as
benches/batch.sh makes its paths (the file's own rule paths with continuations, and
random paths; seed 13) on the file's own host. Each package parses the file once and
answers every URL for Googlebot, one call per URL, as a crawler calls it; robotscope
also in one `allowed_many` call whose answers the caller then reads one by one, as a
crawler uses them (issue 39: the call alone hid the cost of reading its list). Per
URL: the median of the runs, and their spread.

robotscope's verdicts are checked against `robotscope check` on the same URLs (must be
identical); the other packages' agreement with it is printed for information.
"""

from __future__ import annotations

import json
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.robotparser
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
FILES = [("en.wikipedia.org.txt", "en.wikipedia.org"), ("www.google.com.txt", "www.google.com"), ("github.com.txt", "github.com")]
AGENT = "Googlebot"
COUNT = 200_000
RUNS = 5


def batch_paths(robots: Path, count: int) -> list[str]:
    """benches/batch.sh's generator, line for line."""
    random.seed(13)
    rules = []
    for line in open(robots, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*(allow|disallow)\s*:\s*(/\S*)", line, re.I)
        if m:
            rules.append(m.group(2).rstrip("$").replace("*", "x"))
    words = "abcdefghijklmnopqrstuvwxyz-_"
    out = []
    for i in range(count):
        if rules and i % 2 == 0:
            path = random.choice(rules) + random.choice(["", "a/b", "?id=%d" % random.randrange(10000), "x.html"])
        else:
            path = "".join("/" + "".join(random.choice(words) for _ in range(random.randint(1, 10))) for _ in range(random.randint(1, 4)))
        out.append(path)
    return out


def per_url(run, items: list, runs: int = RUNS) -> tuple[float, float]:
    """Median and standard deviation of ns per item over `runs` runs of `run(items)`."""
    times = []
    run(items[: min(len(items), 2000)])  # warm up
    for _ in range(runs):
        start = time.perf_counter_ns()
        run(items)
        times.append((time.perf_counter_ns() - start) / len(items))
    return statistics.median(times), (statistics.stdev(times) if len(times) > 1 else 0.0)


def one_call_then_each_answer(allowed_many):
    """One call for every item, then each answer read, as a caller uses them."""
    def run(items):
        for verdict in allowed_many(items):
            if verdict:
                pass
    return run


def one_call_each(allowed):
    def run(items):
        for item in items:
            allowed(item)
    return run


def check_answers(robots: Path, urls: list[str]) -> list[bool]:
    binary = ROOT / "target" / "release" / "robotscope"
    result = subprocess.run(
        [str(binary), "check", str(robots), "-a", AGENT, "--json"],
        input="\n".join(urls) + "\n", capture_output=True, text=True, check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    return [json.loads(line)["allowed"] for line in result.stdout.splitlines()]


def main() -> int:
    import robotscope
    from fastrobots import Robots as FastRobots
    from protego import Protego
    from robotstxt import RobotsMatcher  # fast-robotstxt: Google's C++ library
    from texting_robots import Robot as TextingRobot

    failed = False
    for name, host in FILES:
        robots = ROOT / "tests" / "data" / "corpus" / name
        body = robots.read_bytes()
        text = body.decode("utf-8", errors="replace")
        urls = [f"https://{host}{path}" for path in batch_paths(robots, COUNT)]
        # fastrobots takes paths, not URLs: it is handed each URL's path and query,
        # split off before the clock starts.
        paths = [(lambda s: (s.path or "/") + (f"?{s.query}" if s.query else ""))(urlsplit(u)) for u in urls]

        matcher = robotscope.RobotsTxt(body).matcher(AGENT)
        fast = FastRobots.parse(text)
        texting = TextingRobot(AGENT, body)
        protego = Protego.parse(text)
        stdlib = urllib.robotparser.RobotFileParser()
        stdlib.parse(text.splitlines())
        google = RobotsMatcher()
        few = urls[:2000]  # re-parses the file on every call: a sample is enough

        rows = {
            "robotscope allowed(url)": per_url(one_call_each(matcher.allowed), urls),
            "robotscope allowed_many(urls) + reading each": per_url(one_call_then_each_answer(matcher.allowed_many), urls),
            "fastrobots 0.3 allowed(path, agent)": per_url(one_call_each(lambda p: fast.allowed(p, AGENT)), paths),
            "texting-robots-py allowed(url)": per_url(one_call_each(texting.allowed), urls),
            "urllib can_fetch(agent, url)": per_url(one_call_each(lambda u: stdlib.can_fetch(AGENT, u)), urls, runs=3),
            "protego 0.7 can_fetch(url, agent)": per_url(one_call_each(lambda u: protego.can_fetch(u, AGENT)), urls, runs=3),
            "fast-robotstxt is_allowed(body, agent, url)": per_url(
                one_call_each(lambda u: google.is_allowed(text, AGENT, u)), few, runs=3
            ),
        }
        reference = rows["fastrobots 0.3 allowed(path, agent)"][0]

        expected = check_answers(robots, urls)
        ours = [matcher.allowed(u) for u in urls]
        identical = ours == expected and matcher.allowed_many(urls) == expected
        agreement = {
            "fastrobots 0.3 allowed(path, agent)": [fast.allowed(p, AGENT) for p in paths],
            "texting-robots-py allowed(url)": [texting.allowed(u) for u in urls],
            "urllib can_fetch(agent, url)": [stdlib.can_fetch(AGENT, u) for u in urls],
            "protego 0.7 can_fetch(url, agent)": [protego.can_fetch(u, AGENT) for u in urls],
            "fast-robotstxt is_allowed(body, agent, url)": [google.is_allowed(text, AGENT, u) for u in few],
        }

        print(f"== {name}: {COUNT:,} URLs, {AGENT}")
        print(f"   {'package':46} {'ns/URL':>9} {'± sd':>7} {'x fastrobots':>13} {'agrees with check':>18}")
        for label, (median, sd) in rows.items():
            answers = agreement.get(label)
            agrees = (
                "100% (identical)" if label.startswith("robotscope") and identical
                else "DIFFERS" if label.startswith("robotscope")
                else f"{100 * sum(a == e for a, e in zip(answers, expected)) / len(answers):.2f}%"
            )
            print(f"   {label:46} {median:9.0f} {sd:7.0f} {median / reference:13.2f} {agrees:>18}")
        single, batch = rows["robotscope allowed(url)"][0], rows["robotscope allowed_many(urls) + reading each"][0]
        targets = [(single / reference <= 0.8, "allowed(url) at most 0.8x fastrobots"), (batch / reference <= 0.25, "allowed_many at most 0.25x fastrobots")]
        for met, target in targets:
            print(f"   {'met' if met else 'MISSED'}: {target}")
        failed |= not identical or not all(met for met, _ in targets)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
