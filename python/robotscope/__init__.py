"""robots.txt as robots read it: which robot may fetch which URL, and which line decides.

The policy core of robotscope for Python. Every answer
comes from the same Rust library as the ``robotscope`` command line, so a URL gets the
verdict here that ``robotscope check`` gives it.

>>> import robotscope
>>> txt = robotscope.RobotsTxt(b"User-agent: *\\nDisallow: /private/\\nAllow: /private/open\\n")
>>> bot = txt.matcher("ExampleBot")
>>> bot.allowed("https://example.com/private/x")
False
>>> bot.decide("https://example.com/private/open/file")
<Decision allowed by line 3 ("Allow: /private/open") under rfc9309>
>>> bot.allowed_many(["https://example.com/", "/private/y"])
[True, False]

* :class:`RobotsTxt` parses a body (never fails) and gives its sitemaps, its
  diagnostics (:meth:`RobotsTxt.lint`), its fixed text (:meth:`RobotsTxt.fixed`) and a
  :class:`Matcher` per robot and reading.
* :class:`Matcher` answers URLs: :meth:`~Matcher.allowed`, :meth:`~Matcher.decide`,
  :meth:`~Matcher.allowed_many` (the GIL released while it runs), :meth:`~Matcher.usage`,
  and the group's :attr:`~Matcher.crawl_delay` and :attr:`~Matcher.request_rate`.
* :func:`product_token` takes the product token out of a User-Agent header.

The reference of each class and method is in its docstring (``help(robotscope.Matcher)``)
and in the type stubs, ``robotscope/_robotscope.pyi``.
* :mod:`robotscope.scrapy` is a backend for Scrapy's ``ROBOTSTXT_PARSER``.
* :func:`survey_warc` yields the rows of ``robotscope survey`` for a WARC file's
  robots.txt captures (:mod:`robotscope.survey`); ``python -m robotscope.spark`` writes
  them as Parquet on Spark (:mod:`robotscope.spark`).
"""

from ._robotscope import (
    RFC9309_PARSE_LIMIT_BYTES,
    __version__,
    Decision,
    Diagnostic,
    Fix,
    Fixed,
    Matcher,
    RequestRate,
    RobotsTxt,
    Usage,
    product_token,
)
from .survey import SURVEY_AGENTS, Survey, survey_warc

READINGS: tuple[str, ...] = ("rfc9309", "draft1996", "koster1994")
"""The three readings of the standard, newest first: RFC 9309 (2022, as Google reads it),
Koster's 1996 draft (as Python's urllib.robotparser implements it), the 1994 standard."""

__all__ = [
    "__version__",
    "READINGS",
    "RFC9309_PARSE_LIMIT_BYTES",
    "Decision",
    "Diagnostic",
    "Fix",
    "Fixed",
    "Matcher",
    "RequestRate",
    "RobotsTxt",
    "Usage",
    "product_token",
    "SURVEY_AGENTS",
    "Survey",
    "survey_warc",
]
