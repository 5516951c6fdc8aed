"""Surveys of robots.txt captures in WARC files: the rows of ``robotscope survey --json``.

>>> import robotscope
>>> for row in robotscope.survey_warc("CC-MAIN-2025-08-robotstxt.warc.gz", ["GPTBot", "CCBot"]):
...     print(row["site"], row["agent"], row["category"])  # doctest: +SKIP

The records are read with FastWARC when it is installed, else with warcio (``pip install
robotscope[survey]``); each record's HTTP answer (status, headers, chunked and gzip
bodies) is read and judged by the same Rust code as ``robotscope survey --warc``, so each
row is the command line's. A 3xx capture takes the verdicts of its target's capture in
the same input, within five hops (RFC 9309 §2.3.1.2); its rows come once the input is
read, when the target has been seen.
"""

from __future__ import annotations

import errno
import gzip
import io
import os
import shutil
import tempfile
from typing import IO, Any, Iterable, Iterator, Optional, Union

from ._robotscope import SURVEY_AGENTS, Survey

__all__ = ["SURVEY_AGENTS", "Survey", "survey_warc", "warc_records"]

#: The most bytes of a record's block read: as ``robotscope survey --warc`` reads them.
MAX_BLOCK_BYTES = 512 * 1024 + 64 * 1024

PathOrFile = Union[str, "os.PathLike[str]", IO[bytes]]


def survey_warc(
    path_or_file: PathOrFile,
    agents: Optional[Iterable[str]] = None,
    *,
    reading: str = "rfc9309",
    reader: str = "auto",
    follow_redirects: bool = True,
) -> Iterator[dict[str, Any]]:
    """Yields one row per ``/robots.txt`` capture and robot in a WARC file.

    ``path_or_file`` is a path or a binary file object, plain, gzipped per record (as
    Common Crawl writes them) or gzipped whole. ``agents`` are product tokens; by
    default :data:`SURVEY_AGENTS` (the agents *Consent in Crisis* tracks, Googlebot,
    bingbot and ``*``). ``reader`` is ``"fastwarc"``, ``"warcio"`` or ``"auto"``.

    Each row is a dict with the keys of ``robotscope survey --json``: ``url``, ``site``,
    ``agent``, ``category`` (``full``, ``partial``, ``none``, ``missing``,
    ``unreachable``, ``redirect``), ``group``, ``line``, ``status``, ``bytes``,
    ``time``, ``train_ai``, ``html``, ``error``. With ``follow_redirects=False`` a
    redirect's rows come at once, with category ``redirect`` and its ``target`` (every
    row has the key), for a caller that joins them across files (the Spark job does);
    captures of other paths than ``/robots.txt`` (pages a robots.txt may redirect to)
    then come too, with ``target_only`` true (every row has the key): targets for the
    joins, no site's rows. With redirects followed they give no rows, and are followed.

    Well-formed files give the command line's rows. On broken ones the readers part:
    the command line's reads on past a broken gzip member, a record without a
    ``Content-Length`` or one whose length runs into the next record, where FastWARC and
    warcio stop (the rest of the file is then one row per agent saying why) or read the
    next record into the broken one's body.
    """
    if reader not in ("auto", "fastwarc", "warcio"):
        raise ValueError(f"reader: 'auto', 'fastwarc' or 'warcio', not {reader!r}")
    if isinstance(agents, (str, bytes)):
        # A string is iterable: each of its characters would be surveyed as a robot.
        raise TypeError(f"agents: a list of product tokens, such as [{agents!r}], not a string")
    if isinstance(path_or_file, (list, tuple)):
        raise TypeError("path_or_file: one WARC; chain the generators of several, or use robotscope.spark for redirects across files")
    if isinstance(path_or_file, (str, os.PathLike)) and not os.path.isfile(path_or_file):
        # The command line says so and goes on to the next file; here the caller asked
        # for this one.
        raise FileNotFoundError(errno.ENOENT, "no such WARC file", os.fspath(path_or_file))
    survey = Survey(list(agents) if agents is not None else list(SURVEY_AGENTS), reading, follow_redirects=follow_redirects)
    # Checked above, at the call: the rows come from a generator.
    return _rows(survey, path_or_file, reader, follow_redirects)


def _rows(survey: Survey, path_or_file: PathOrFile, reader: str, follow_redirects: bool) -> Iterator[dict[str, Any]]:
    records = warc_records(path_or_file, reader=reader)
    while True:
        try:
            url, date, block, truncated, error = next(records)
        except StopIteration:
            break
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        # A reader that gives up on a broken file (a broken gzip member, bytes that
        # are no WARC record) costs the rest of the file, not the run: a row per agent
        # says why, and the redirects read so far are resolved. The command line's
        # reader reads on past such a record; FastWARC and warcio cannot.
        except BaseException as failure:  # noqa: BLE001 - PyO3's PanicException included
            why = f"the WARC could not be read on: {type(failure).__name__}: {failure}"
            for agent in survey.agents:
                yield dict(_UNREAD, agent=agent, error=why, **({} if follow_redirects else {"target": None, "target_only": False}))
            break
        yield from survey.judge_record(url, block, time=date, truncated=truncated, error=error)
    yield from survey.finish()


#: A row for what could not be read: the command line's row for a record it could not
#: read at all.
_UNREAD: dict[str, Any] = {
    "url": "", "site": "", "agent": "", "category": "unreachable", "group": "none", "line": None, "status": None,
    "bytes": 0, "time": "", "train_ai": None, "html": False, "error": None,
}


Record = tuple[str, str, bytes, bool, Optional[str]]


def warc_records(path_or_file: PathOrFile, *, reader: str = "auto") -> Iterator[Record]:
    """Yields each ``response`` record as ``(target URI, WARC-Date, block, truncated,
    error)``: the block is the HTTP answer as captured, at most :data:`MAX_BLOCK_BYTES`
    (a longer one is read to there and said truncated, the rest skipped); ``error``
    says that the file ended inside the record."""
    if reader not in ("auto", "fastwarc", "warcio"):
        raise ValueError(f"reader: 'auto', 'fastwarc' or 'warcio', not {reader!r}")
    opened = isinstance(path_or_file, (str, os.PathLike))
    stream: IO[bytes] = open(path_or_file, "rb") if opened else path_or_file  # type: ignore[arg-type]
    try:
        # FastWARC seeks in its input: a stream that cannot (an HTTP answer, a pipe) is
        # spooled to a temporary file for it.
        seekable = getattr(stream, "seekable", lambda: False)()
        # FastWARC when installed: on a broken gzip member it raises, where warcio
        # reading a stream may end without a word (the rows before it then come, and
        # a row saying why).
        auto = reader == "auto"
        if auto:
            reader = "fastwarc" if _installed("fastwarc") else "warcio"
        if reader == "fastwarc" and not seekable:
            with tempfile.TemporaryFile() as spooled:
                shutil.copyfileobj(stream, spooled)
                spooled.seek(0)
                yield from _fastwarc_else_warcio(spooled, auto)
        elif reader == "fastwarc":
            yield from _fastwarc_else_warcio(stream, auto)
        else:
            yield from _warcio_records(stream)
    finally:
        if opened:
            stream.close()


def _fastwarc_else_warcio(stream: Any, auto: bool) -> Iterator[Record]:
    """FastWARC's records; when it finds none and the reader was the default, warcio's:
    FastWARC reads only CRLF line ends, and a file written with LF alone (which the
    command line and warcio read) would give no row at all."""
    found = False
    for record in _fastwarc_records(stream):
        found = True
        yield record
    if auto and not found and _installed("warcio"):
        stream.seek(0)
        yield from _warcio_records(stream)


def _installed(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _read_block(stream: Any, length: Optional[str], truncated: bool) -> tuple[bytes, bool, Optional[str]]:
    """A record's block, capped, and whether the file ended inside it (as the
    command line says it)."""
    block = stream.read(MAX_BLOCK_BYTES + 1)
    if len(block) > MAX_BLOCK_BYTES:
        return block[:MAX_BLOCK_BYTES], True, None
    declared = int(length) if length and length.strip().isdigit() else None
    if declared is not None and len(block) < declared:
        return block, True, f"the record is cut off: {len(block)} of its {declared} bytes"
    return block, truncated, None


def _fastwarc_records(stream: IO[bytes]) -> Iterator[Record]:
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
    except ImportError as error:  # pragma: no cover - said to the user
        raise ImportError("reader='fastwarc' needs FastWARC: pip install fastwarc") from error
    # FastWARC tells plain from gzip (per record or whole) itself; parse_http=False
    # keeps the block as captured, its HTTP answer read by robotscope.
    records = ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=False)
    for record in records:
        url = record.headers.get("WARC-Target-URI") or ""
        date = record.headers.get("WARC-Date") or ""
        length = record.headers.get("Content-Length")
        yield (url, date, *_read_block(record.reader, length, "WARC-Truncated" in record.headers))


def _warcio_records(stream: IO[bytes]) -> Iterator[Record]:
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError as error:  # pragma: no cover - said to the user
        raise ImportError("reader='warcio' needs warcio: pip install warcio") from error
    # warcio reads a gzip member per record only: a file gzipped whole is undone here
    # (Python's gzip reads every member of either kind).
    source: Any = _PeekedStream(stream)
    if source.peek(2) == b"\x1f\x8b":
        source = gzip.GzipFile(fileobj=source)
    # no_record_parse: the block as captured, its HTTP answer read by robotscope.
    for record in ArchiveIterator(source, no_record_parse=True):
        if record.rec_type != "response":
            continue
        headers = record.rec_headers
        url = headers.get_header("WARC-Target-URI") or ""
        date = headers.get_header("WARC-Date") or ""
        length = headers.get_header("Content-Length")
        yield (url, date, *_read_block(record.raw_stream, length, headers.get_header("WARC-Truncated") is not None))


class _PeekedStream(io.RawIOBase):
    """A binary stream whose first bytes can be looked at before it is read."""

    def __init__(self, inner: IO[bytes]) -> None:
        super().__init__()
        self._inner = inner
        self._head = b""

    def peek(self, count: int) -> bytes:
        while len(self._head) < count:
            more = self._inner.read(count - len(self._head))
            if not more:
                break
            self._head += more
        return self._head[:count]

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._head:
            head = self._head if size < 0 else self._head[:size]
            self._head = self._head[len(head) :]
            if size < 0:
                return head + self._inner.read()
            return head
        return self._inner.read(size)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
