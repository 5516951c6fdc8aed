"""A robots.txt backend for Scrapy: robots.txt as Google reads it (RFC 9309).

Switch a project to it with one setting::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotscope.scrapy.RobotParser"

It implements :class:`scrapy.robotstxt.RobotParser`. The body is decoded as Scrapy's
default backend (Protego) decodes it, with ``scrapy.robotstxt.decode_robotstxt``: UTF-8,
a byte order mark dropped, bytes that are not UTF-8 left out. So a stray Latin-1 byte in
a comment costs nothing, and an empty or garbage body (binary, UTF-16) holds no rule and
allows everything (RFC 9309 §2.2: no rules, no restriction).

Scrapy hands ``allowed`` a User-Agent *header* (``ROBOTSTXT_USER_AGENT``, else the
request's ``User-Agent``). RFC 9309 robots obey the groups that name their product token,
so the token is taken from the header as ``robotscope.product_token`` takes it:
``Mozilla/5.0 (compatible; MyBot/1.0)`` is ``MyBot``, ``Scrapy/2.13 (+https://scrapy.org)``
is ``Scrapy``. A header with no token in it is matched as a whole name, letter case aside,
as Scrapy's own backends match one: ``UnicödeBöt`` (no product token: RFC 9309 tokens are
ASCII letters, ``_`` and ``-``) gets the group ``User-agent: UnicödeBöt`` names; a header
that no group names that way gets the ``*`` group. The command line keeps RFC 9309's
tokens. A matcher is compiled
once for each set of groups that applies (every robot that no group names shares the
``*`` group's): the groups of the last 1,024 headers are remembered, and the 64 matchers
used last are kept.

What is left to Scrapy: fetching robots.txt and what its status means (Scrapy hands
every backend the body whatever the status, so a 503's error page allows everything,
where RFC 9309 §2.3.1.4 would have the crawler stay away), and waiting between requests
(Scrapy does not call ``crawl_delay``; set ``DOWNLOAD_DELAY`` or AutoThrottle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
from scrapy.robotstxt import decode_robotstxt
from scrapy.utils.python import to_unicode

from . import Matcher, RobotsTxt, product_token

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

__all__ = ["RobotParser"]


class RobotParser(_ScrapyRobotParser):
    """robotscope as Scrapy's ``ROBOTSTXT_PARSER``."""

    def __init__(self, robotstxt_body: bytes, spider: Spider | None) -> None:
        self.spider = spider
        body = decode_robotstxt(robotstxt_body, spider)
        self._txt = RobotsTxt(body.encode("utf-8"))
        # Header -> (token, the lines of the groups that apply); those lines -> matcher.
        self._headers: dict[str, tuple[str, tuple[int, ...]]] = {}
        self._matchers: dict[tuple[int, ...], Matcher] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> RobotParser:
        return cls(robotstxt_body, getattr(crawler, "spider", None))

    def _matcher(self, user_agent: str | bytes | None) -> Matcher:
        header = to_unicode(user_agent or "", errors="replace")
        known = self._headers.get(header)
        if known is None:
            # A header with no token in it is matched whole, as Scrapy's backends match
            # one (`UnicödeBöt`); one that names no group either (empty, digits only) is
            # answered as a robot that no group names: the `*` group's rules.
            valid = _valid_unicode(header)
            token = product_token(valid)
            named = () if token else tuple(self._txt.group_lines_named(valid))
            if named:
                known = (_WHOLE + valid.strip(), named)
            else:
                token = token or "*"
                known = (token, tuple(self._txt.group_lines(token)))
            _remember(self._headers, header, known, _HEADERS_KEPT)
        token, groups = known
        matcher = self._matchers.pop(groups, None)
        if matcher is None and token.startswith(_WHOLE):
            matcher = self._txt.matcher_named(token[len(_WHOLE) :])
        if matcher is None:
            matcher = self._txt.matcher(token)
        # Kept as the one used last (the oldest goes first).
        _remember(self._matchers, groups, matcher, _MATCHERS_KEPT)
        return matcher

    def allowed(self, url: str | bytes, user_agent: str | bytes | None) -> bool:
        matcher = self._matcher(user_agent)
        url = to_unicode(url, errors="replace")
        try:
            return matcher.allowed(url)
        except UnicodeEncodeError:
            # A lone surrogate, which no request can carry: read as U+FFFD.
            return matcher.allowed(_valid_unicode(url))

    def crawl_delay(self, user_agent: str | bytes | None) -> float | None:
        return self._matcher(user_agent).crawl_delay

    def __repr__(self) -> str:
        return f"<robotscope.scrapy.RobotParser {self._txt!r}>"


_HEADERS_KEPT = 1024
# Marks a header matched as a whole name, in the cache of headers.
_WHOLE = "\0whole:"
_MATCHERS_KEPT = 64


def _remember(cache: dict, key: object, value: object, most: int) -> None:
    """Keeps ``value`` under ``key``, forgetting the oldest entry past ``most``."""
    if len(cache) >= most:
        del cache[next(iter(cache))]
    cache[key] = value


def _valid_unicode(text: str) -> str:
    """``text`` with lone surrogates (which UTF-8 cannot hold) replaced by U+FFFD."""
    return text.encode("utf-8", errors="replace").decode("utf-8")
