"""The repository's conformance vectors, through the Python API: the seeds under all
three readings, Google's reference matcher's verdicts, and Google's verdicts on real
files. The URLs are taken byte for byte, as Google's library takes them (``raw_urls``,
the command line's --raw-url), as the Rust tests take them (tests/integration/conformance.rs)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from robotscope import RobotsTxt


def matcher(body: str | bytes, agent: str, reading: str = "rfc9309"):
    # Google's verdicts come from its library, which reads every byte it is given (the
    # 500 KiB limit of RFC 9309 §2.5 is its crawler's, when fetching): the whole file.
    txt = RobotsTxt(body.encode() if isinstance(body, str) else body, whole_file=True)
    with warnings.catch_warnings():
        # Some vectors ask for agents that are not product tokens on purpose.
        warnings.simplefilter("ignore", UserWarning)
        return txt.matcher(agent, reading, raw_urls=True)


def test_seeds_under_every_reading(data: Path) -> None:
    cases = json.loads((data / "conformance" / "seeds.json").read_text())
    failures = []
    checked = 0
    for case in cases:
        for reading, expected in case["expect"].items():
            got = matcher(case["robots_txt"], case["user_agent"], reading).allowed(case["url"])
            checked += 1
            if got != expected:
                failures.append(f"{case['id']} [{reading}]: expected {expected}, got {got}")
    assert checked >= 150
    assert not failures, "\n".join(failures)


def test_googles_verdicts(data: Path) -> None:
    cases = json.loads((data / "conformance" / "rfc9309.json").read_text())
    failures = [
        f"{case['id']}: expected {case['allowed']}"
        for case in cases
        if matcher(case["robots_txt"], case["user_agent"]).allowed(case["url"]) != case["allowed"]
    ]
    assert len(cases) == 185
    assert not failures, "\n".join(failures)


def test_real_files_agree_with_google(data: Path) -> None:
    total = 0
    failures = []
    for tsv in sorted((data / "real-google").glob("*.tsv")):
        host, agent = tsv.stem.split("__")
        bot = matcher((data / "corpus" / f"{host}.txt").read_bytes(), agent)
        rows = [line.rsplit("\t", 1) for line in tsv.read_text().splitlines()]
        # The verdicts were taken for URLs on the file's own host.
        urls = [f"https://{host.split('--')[0]}{path}" for path, _ in rows]
        expected = [verdict == "1" for _, verdict in rows]
        got = bot.allowed_many(urls)
        assert got == [bot.allowed(url) for url in urls], f"{tsv.name}: allowed_many and allowed disagree"
        failures += [f"{tsv.name} {url}: expected {e}" for url, e, g in zip(urls, expected, got) if e != g]
        total += len(rows)
    assert total == 72 * 5 * 100
    assert not failures, "\n".join(failures[:50])
