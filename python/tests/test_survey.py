"""``robotscope.survey_warc`` and ``python -m robotscope.spark`` give the rows of
``robotscope survey --warc --json``: generated WARC files (plain, gzipped per record
and whole; statuses, chunked and gzip bodies, a web page, a cut record, redirects
within a file and across files, a chain, a target not held), read with FastWARC and
with warcio, and on Spark in local mode, one WARC served on 127.0.0.1 and one that
does not exist."""

from __future__ import annotations

import gzip
import http.server
import io
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import robotscope
import robotscope.spark
from robotscope.survey import survey_warc

AGENTS = ["GPTBot", "Googlebot", "CCBot"]


def response(url: str, head: str, body: bytes, date: str = "2025-02-03T04:05:06Z", cut: int = 0) -> bytes:
    block = f"HTTP/1.1 {head}\r\n\r\n".encode() + body
    length = len(block) + cut
    record = (
        f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n"
        f"Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n"
    ).encode()
    return record + block + b"\r\n\r\n"


def chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


# Two files, as Common Crawl writes them: the http captures (most redirect) in one, the
# https captures in the other.
HTTP_CAPTURES = [
    response("http://a.example/robots.txt", "301 Moved\r\nLocation: https://a.example/robots.txt", b""),
    response("http://b.example/robots.txt", "302 Found\r\nLocation: /elsewhere/robots.txt", b""),
    response("http://chain.example/robots.txt", "301 Moved\r\nLocation: http://hop1.example/robots.txt", b""),
    response("http://hop1.example/robots.txt", "301 Moved\r\nLocation: http://hop2.example/robots.txt", b""),
    response("http://hop2.example/robots.txt", "301 Moved\r\nLocation: https://d.example/robots.txt", b""),
    response("http://gone.example/robots.txt", "301 Moved\r\nLocation: https://nowhere.example/robots.txt", b""),
    response("https://a.example/page.html", "200 OK", b"<html>not a robots.txt</html>"),
    # A robots.txt that redirects to a page, captured in the other file: robots read it.
    response("http://p.example/robots.txt", "301 Moved\r\nLocation: https://p.example/welcome", b""),
    # A later crawl's https capture of a.example: the redirect of February takes the
    # capture of its own time, in the other file.
    response("https://a.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /\n", date="2025-09-01T00:00:00Z"),
]
HTTPS_CAPTURES = [
    response(
        "https://a.example/robots.txt",
        "200 OK\r\nContent-Type: text/plain",
        b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\nContent-Usage: train-ai=n\n",
    ),
    response("https://c.example/robots.txt", "404 Not Found", b"<html>nothing</html>"),
    response("https://c2.example/robots.txt", "503 Unavailable", b""),
    response(
        "https://d.example/robots.txt",
        "200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip",
        chunked(gzip.compress(b"User-agent: *\nDisallow: /\nAllow: /$\n")),
    ),
    response("https://e.example/robots.txt", "200 OK\r\nContent-Type: text/html", b"<!DOCTYPE html><html>hi</html>"),
    response("https://p.example/welcome", "200 OK\r\nContent-Type: text/html", b"<html>welcome</html>"),
    # Cut off: its length runs past the end of the file, which it ends.
    response("https://f.example/robots.txt", "200 OK", b"User-agent: CCBot\nDisallow: /", cut=40),
]


def per_record_gzip(records: list[bytes]) -> bytes:
    return b"".join(gzip.compress(record) for record in records)


def cli_rows(robotscope_bin: Path, *warcs: Path) -> list[dict[str, Any]]:
    args = [str(robotscope_bin), "survey", "--json"]
    for agent in AGENTS:
        args += ["-a", agent]
    args += ["--warc", *map(str, warcs)]
    done = subprocess.run(args, capture_output=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def key(row: dict[str, Any]) -> tuple[str, ...]:
    return tuple(str(row[column]) for column in robotscope.spark.COLUMNS)


@pytest.fixture()
def warcs(tmp_path: Path) -> tuple[Path, Path]:
    http = tmp_path / "http.warc.gz"
    http.write_bytes(per_record_gzip(HTTP_CAPTURES))
    https = tmp_path / "https.warc"
    https.write_bytes(b"".join(HTTPS_CAPTURES))
    return http, https


@pytest.mark.parametrize("reader", ["fastwarc", "warcio"])
@pytest.mark.parametrize("packing", ["plain", "per-record", "whole"])
def test_survey_warc_gives_the_command_lines_rows(tmp_path: Path, robotscope_bin: Path, reader: str, packing: str) -> None:
    pytest.importorskip(reader)
    records = HTTP_CAPTURES + HTTPS_CAPTURES
    body = {"plain": b"".join(records), "per-record": per_record_gzip(records), "whole": gzip.compress(b"".join(records))}
    path = tmp_path / "crawl.warc"
    path.write_bytes(body[packing])
    rows = list(survey_warc(str(path), AGENTS, reader=reader))
    expected = cli_rows(robotscope_bin, path)
    assert sorted(map(key, rows)) == sorted(map(key, expected))
    # What the rows say, spot-checked: redirects followed within the file, a chain of
    # three, a target the input does not hold, the cut record said.
    by = {(row["url"], row["agent"]): row for row in rows}
    assert by[("http://a.example/robots.txt", "GPTBot")]["category"] == "full"
    assert by[("http://a.example/robots.txt", "Googlebot")]["train_ai"] == "disallowed"
    assert by[("http://chain.example/robots.txt", "CCBot")]["category"] == "partial"
    gone = by[("http://gone.example/robots.txt", "GPTBot")]
    assert (gone["category"], gone["error"]) == (
        "redirect",
        "redirects to https://nowhere.example/robots.txt, which the input does not hold",
    )
    assert by[("https://c2.example/robots.txt", "GPTBot")]["category"] == "unreachable"
    assert by[("https://e.example/robots.txt", "GPTBot")]["html"] is True
    assert "cut off" in by[("https://f.example/robots.txt", "CCBot")]["error"]
    assert not any(row["url"].endswith("page.html") for row in rows), "only /robots.txt captures count"


class _Pipe(io.RawIOBase):
    """A stream that cannot seek, as an HTTP answer or a pipe."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


@pytest.mark.parametrize("reader", ["auto", "fastwarc", "warcio"])
def test_a_stream_that_cannot_seek_and_the_default_agents(warcs: tuple[Path, Path], reader: str) -> None:
    pytest.importorskip("warcio" if reader == "warcio" else "fastwarc")
    rows = list(survey_warc(_Pipe(warcs[0].read_bytes() + gzip.compress(warcs[1].read_bytes())), reader=reader))
    assert {row["agent"] for row in rows} == set(robotscope.SURVEY_AGENTS)
    # Every /robots.txt capture of both files (the two pages are no robots.txt).
    assert len(rows) == (len(HTTP_CAPTURES) - 1 + len(HTTPS_CAPTURES) - 1) * len(robotscope.SURVEY_AGENTS)
    # The redirect to a page reads the page: no rule, everything allowed.
    assert {row["category"] for row in rows if row["url"] == "http://p.example/robots.txt"} == {"none"}


def test_a_warc_written_with_lf_alone_gives_the_command_lines_rows(tmp_path: Path, robotscope_bin: Path) -> None:
    # FastWARC reads CRLF line ends only; the default reader then falls back to warcio.
    pytest.importorskip("warcio")
    record = response("https://lf.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /\n")
    head, block = record.split(b"\r\n\r\n", 1)
    head = head.replace(b"\r\n", b"\n")
    block = block.replace(b"HTTP/1.1 200 OK\r\n\r\n", b"HTTP/1.1 200 OK\n\n")[: -len(b"\r\n\r\n")]
    head = head.replace(b"Content-Length: %d" % (len(block) + 2), b"Content-Length: %d" % len(block))
    path = tmp_path / "lf.warc"
    path.write_bytes(head + b"\n\n" + block + b"\n\n")
    rows = list(survey_warc(path, list(AGENTS)))
    assert sorted(map(key, rows)) == sorted(map(key, cli_rows(robotscope_bin, path)))
    assert {row["category"] for row in rows} == {"full"}


def test_s3_paths_are_read_with_boto3(warcs: tuple[Path, Path], robotscope_bin: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An S3-compatible server on 127.0.0.1 (moto's), reached by boto3 itself through
    # AWS_ENDPOINT_URL, as a bucket on AWS would be.
    boto3 = pytest.importorskip("boto3")
    moto_server = pytest.importorskip("moto.server")
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        for name, value in [
            ("AWS_ENDPOINT_URL", f"http://{host}:{port}"),
            ("AWS_ACCESS_KEY_ID", "testing"),
            ("AWS_SECRET_ACCESS_KEY", "testing"),
            ("AWS_DEFAULT_REGION", "us-east-1"),
        ]:
            monkeypatch.setenv(name, value)
        s3 = boto3.client("s3")
        s3.create_bucket(Bucket="crawl")
        s3.put_object(Bucket="crawl", Key="robotstxt/https.warc", Body=warcs[1].read_bytes())
        rows = list(robotscope.spark.warc_rows("s3://crawl/robotstxt/https.warc", AGENTS, "rfc9309", "auto", ""))
        columns = len(robotscope.spark.COLUMNS)
        # The page's rows are targets for the joins only (the last field says so).
        got = sorted(tuple(str(value) for value in row[:columns]) for row in rows if not row[-1])
        assert got == sorted(map(key, cli_rows(robotscope_bin, warcs[1])))
        # A key the bucket does not hold: a row per agent saying why, not the job's end.
        missing = list(robotscope.spark.warc_rows("s3://crawl/robotstxt/none.warc", AGENTS, "rfc9309", "auto", ""))
        assert [row[3] for row in missing] == ["unreachable"] * len(AGENTS)
        assert "NoSuchKey" in missing[0][11]
    finally:
        server.stop()


def test_agents_must_be_a_list_not_a_string(warcs: tuple[Path, Path]) -> None:
    with pytest.raises(TypeError, match="a list of product tokens"):
        list(survey_warc(str(warcs[1]), "GPTBot"))


def test_a_missing_file_or_a_list_of_files_is_refused_at_the_call(tmp_path: Path, warcs: tuple[Path, Path]) -> None:
    # Not rows of an empty site that a Counter would count: the caller's mistake, said.
    with pytest.raises(FileNotFoundError, match="no such WARC file"):
        survey_warc(tmp_path / "missing.warc.gz", ["GPTBot"])
    with pytest.raises(TypeError, match="one WARC"):
        survey_warc([str(warcs[0]), str(warcs[1])], ["GPTBot"])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def test_the_spark_job_writes_the_command_lines_rows_as_parquet(
    tmp_path: Path, robotscope_bin: Path, warcs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    # Spark's Python workers run this Python, where robotscope is installed (on a
    # cluster, the one PYSPARK_PYTHON names on every node).
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    plain, secure = warcs
    # The https captures served on 127.0.0.1, as a list names data.commoncrawl.org's.
    handler = lambda *args, **kwargs: _Quiet(*args, directory=str(tmp_path), **kwargs)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        listing = tmp_path / "robotstxt.paths"
        served = f"http://127.0.0.1:{server.server_address[1]}/{secure.name}"
        missing = str(tmp_path / "missing.warc.gz")
        listing.write_text(f"# a crawl's robots.txt WARCs\n{plain}\n\n{served}\n{missing}\n")
        out = tmp_path / "rows.parquet"
        argv = ["--warcs", str(listing), "--agents", ",".join(AGENTS), "--out", str(out)]
        assert robotscope.spark.main(argv) == 0
        spark = SparkSession.builder.getOrCreate()
        written = [row.asDict() for row in spark.read.parquet(str(out)).collect()]
    finally:
        server.shutdown()
    errors = [row for row in written if row["url"] == ""]
    assert sorted(row["agent"] for row in errors) == sorted(AGENTS)
    assert all(row["error"].startswith(f"{missing}: FileNotFoundError") for row in errors), errors
    rows = [row for row in written if row["url"] != ""]
    assert all(row["warc"] == missing for row in errors)
    assert list(spark.read.parquet(str(out)).columns) == list(robotscope.spark.OUTPUT)
    assert {row["warc"] for row in rows} == {str(plain), served}
    # Run again: the rows are there, and it says so before any work.
    assert robotscope.spark.main(argv) == 2
    # Redirects resolved across the two files, as the command line resolves them.
    assert sorted(map(key, rows)) == sorted(map(key, cli_rows(robotscope_bin, plain, secure)))
    chain = [row for row in rows if row["url"] == "http://chain.example/robots.txt" and row["agent"] == "GPTBot"]
    assert chain[0]["category"] == "partial" and chain[0]["status"] == 200
