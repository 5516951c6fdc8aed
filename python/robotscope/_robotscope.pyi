"""Type stubs of the extension module, with the docstrings of its classes and methods."""

from collections.abc import Iterable
from typing import Literal, Optional, Union

ReadingName = Literal["rfc9309", "draft1996", "koster1994"]
Preference = Literal["allowed", "disallowed", "unknown"]

__version__: str

RFC9309_PARSE_LIMIT_BYTES: int
"""How much of a robots.txt RFC 9309 robots read: 500 KiB, as Google's crawler (RFC 9309 §2.5)."""

SURVEY_AGENTS: tuple[str, ...]
"""The robots a survey asks about when none are named: the agents *Consent in Crisis*
tracks, then Googlebot, bingbot and ``*`` (a robot no group names)."""

SurveyRow = dict[str, Union[str, int, bool, None]]

class Survey:
    """Judges captures for a few robots (product tokens), one row per capture and robot:
    the rows of ``robotscope survey --json``. With ``follow_redirects``, a redirect's
    rows wait for its target's capture and come from :meth:`finish`; without, they come
    at once (category ``redirect``) and every row has a ``target``."""

    def __init__(
        self,
        agents: list[str],
        reading: ReadingName = "rfc9309",
        *,
        follow_redirects: bool = True,
        whole_file: bool = False,
        max_bytes: int = 512000,
    ) -> None: ...
    @property
    def agents(self) -> list[str]: ...
    @property
    def judged(self) -> int:
        """Captures judged."""
    @property
    def skipped(self) -> int:
        """Records skipped for being no ``/robots.txt`` capture."""
    def judge_record(
        self, url: str, block: Union[bytes, bytearray, memoryview], *, time: str = "", truncated: bool = False, error: Optional[str] = None
    ) -> list[SurveyRow]:
        """The rows of a WARC ``response`` record: its target URI and its block (the HTTP
        answer as captured), read as ``robotscope survey --warc`` reads it."""
    def judge(
        self,
        url: str,
        status: Optional[int],
        body: Union[bytes, bytearray, memoryview, str],
        *,
        time: str = "",
        location: Optional[str] = None,
        truncated: bool = False,
        error: Optional[str] = None,
        unreadable: bool = False,
    ) -> list[SurveyRow]:
        """The rows of a capture already read: its status (None: no answer) and body."""
    def finish(self) -> list[SurveyRow]:
        """The rows of the redirects held back, each with its target's verdicts."""

def url_key(url: str) -> str:
    """``url`` as captures are matched by (``HTTP://Example.com/robots.txt`` is
    ``http://example.com/robots.txt``)."""

def redirect_target(url: str, status: Optional[int], location: Optional[str]) -> Optional[str]:
    """Where a capture of ``url`` that answered ``status`` with ``location`` sends
    robots, as :func:`url_key` writes it; None when it is no redirect."""

def product_token(user_agent: str) -> Optional[str]:
    """The product token in a User-Agent header (``Googlebot`` in ``Mozilla/5.0
    (compatible; Googlebot/2.1; +http://www.google.com/bot.html)``); the string itself
    when it is a token (``MyBot`` in ``MyBot-1.0``); None when it holds none (a token
    is ASCII letters, ``-`` and ``_``: ``Bücherbot/1.0`` holds none)."""

class RobotsTxt:
    """A robots.txt, parsed. Parsing never fails: any bytes are some robots.txt.

    ``body`` is the file as fetched (``bytes``, ``bytearray``, ``memoryview``; ``str`` is
    encoded as UTF-8). As
    ``robotscope check`` reads a file, the RFC 9309 reading stops at 500 KiB, as Google's
    crawler does; ``whole_file=True`` reads every byte (the command line's --whole-file).
    """

    def __init__(self, body: Union[bytes, bytearray, memoryview, str], *, whole_file: bool = False) -> None: ...
    @property
    def body(self) -> bytes:
        """The bytes as given."""
    @property
    def sitemaps(self) -> list[str]:
        """The ``Sitemap:`` values, in file order, as written (relative ones and repeats
        included; ``robotscope sitemaps`` resolves and de-duplicates them)."""
    def group_lines(self, agent: str, reading: str = "rfc9309") -> list[int]:
        """The first line of each group that applies to the robot whose product token is
        ``agent`` under ``reading`` (empty when none does): robots with the same lines get
        the same rules, so one matcher can serve them all."""
    def group_lines_named(self, name: str, reading: str = "rfc9309") -> list[int]:
        """The first line of each group whose User-agent lines name ``name`` whole, letter
        case aside (empty when none does): for a name that is no product token
        (``UnicödeBöt``), as Scrapy's backends match one."""
    def matcher_named(self, name: str, reading: str = "rfc9309", *, raw_urls: bool = False) -> Optional[Matcher]:
        """The rules of the groups ``group_lines_named`` finds, compiled; None when no
        group names ``name`` whole."""
    def lint(self) -> list[Diagnostic]:
        """What is wrong with the file under each reading (``robotscope lint``), each fix
        checked under every reading for every robot the file names before it is offered."""
    def fixed(self) -> bytes:
        """The file with every fix applied (what ``robotscope fix`` writes)."""
    def fix(self) -> Fixed:
        """:meth:`fixed`, with how many fixes were applied and what they do to the verdicts."""
    def matcher(self, agent: str, reading: str = "rfc9309", *, raw_urls: bool = False) -> Matcher:
        """The rules for the robot whose product token is ``agent`` (``Googlebot``) under
        ``reading``, compiled for many questions.

        ``reading`` is ``rfc9309`` (RFC 9309, as Google reads it), ``draft1996`` (Koster's
        1996 draft, as urllib.robotparser) or ``koster1994`` (the 1994 standard); also
        ``google``, ``urllib``, ``1996``, ``1994``, in any letter case.

        Under RFC 9309 a robot obeys the groups naming its product token, else ``*``; a
        User-Agent header is not a token (a UserWarning says so, with the token it holds:
        :func:`product_token` takes it out). ``raw_urls=True`` takes URLs byte for byte,
        as Google's library does (the command line's --raw-url); by default they are read
        as crawlers send them. Raises ValueError for an unknown reading.
        """

class Matcher:
    """One robot's rules under one reading.

    URLs are taken as a crawler has them: ``https://host/path?query``, a path starting
    with ``/``, or a relative path. They are read as ``robotscope check`` reads them (the
    path a crawler requests: dot segments resolved, non-ASCII percent-encoded as UTF-8,
    escapes upper-cased); the host is not looked at, since a robots.txt speaks for the
    site it came from (RFC 9309 §2.3).
    """

    @property
    def agent(self) -> str: ...
    @property
    def reading(self) -> ReadingName:
        """``rfc9309``, ``draft1996`` or ``koster1994``."""
    @property
    def raw_urls(self) -> bool:
        """True when URLs are taken byte for byte."""
    def allowed(self, url: str) -> bool:
        """Whether the robot may fetch ``url``. ``/robots.txt`` gets the rules' answer,
        although RFC 9309 §2.2.2 lets a crawler always fetch it."""
    def decide(self, url: str) -> Decision:
        """Whether the robot may fetch ``url``, and the rule that decided."""
    def allowed_many(self, urls: Iterable[str]) -> list[bool]:
        """:meth:`allowed` for each URL, in one call, with the GIL released while they are
        matched (on every core, for large batches). A ``str`` itself is refused
        (``TypeError``): iterating it would give its characters."""
    def usage(self, url: str) -> Optional[Usage]:
        """What the robot may do with what it fetches at ``url`` (Content-Usage and
        Content-Signal lines): None when it may not fetch it, and under the classic
        readings, which know neither field."""
    @property
    def crawl_delay(self) -> Optional[float]:
        """The group's ``Crawl-delay`` in seconds, as the file says it (put your own bound
        on it; a number past what a duration holds is the longest one, about 1.8e19).
        None when there is none, or none that reads as a finite number of seconds."""
    @property
    def request_rate(self) -> Optional[RequestRate]:
        """The group's ``Request-rate`` (``1/10s``)."""

class Decision:
    """The answer for one URL. True in a boolean context when the URL may be fetched."""

    @property
    def allowed(self) -> bool: ...
    @property
    def line(self) -> Optional[int]:
        """The 1-based line of the deciding rule; None when no rule applies."""
    @property
    def rule(self) -> Optional[str]:
        """The deciding rule as written (``Disallow: /private/``)."""
    @property
    def reading(self) -> ReadingName: ...
    @property
    def tested(self) -> str:
        """The path that was matched: the URL's path and query as a crawler requests them
        (``/caf%C3%A9?q=1`` for ``https://example.com/café?q=1#top``)."""
    def __bool__(self) -> bool: ...

class RequestRate:
    """``requests`` per ``seconds``."""

    @property
    def requests(self) -> int: ...
    @property
    def seconds(self) -> float: ...

class Usage:
    """What a robot may do with a page: each category ``allowed``, ``disallowed`` or ``unknown``."""

    @property
    def train_ai(self) -> Preference:
        """Training or fine-tuning AI models (Content-Usage ``train-ai``, Content-Signal ``ai-train``)."""
    @property
    def search(self) -> Preference:
        """Building a search index (``search``)."""
    @property
    def ai_input(self) -> Preference:
        """Input to AI answers, retrieval and grounding (Content-Signal ``ai-input``)."""
    @property
    def lines(self) -> dict[str, list[int]]:
        """The lines stating each category's preference, keyed by the names robots.txt
        uses: ``train-ai``, ``search``, ``ai-input``."""

class Diagnostic:
    """One finding of :meth:`RobotsTxt.lint`."""

    @property
    def code(self) -> str:
        """The diagnostic's code (``path-without-slash``), as in ``robotscope lint --json``."""
    @property
    def severity(self) -> Literal["error", "warning", "info"]: ...
    @property
    def line(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def fix(self) -> Optional[Fix]: ...

class Fix:
    """A diagnostic's fix, checked under every reading before it is offered."""

    @property
    def title(self) -> str: ...
    @property
    def effect(self) -> Optional[str]:
        """What the fix does to the verdicts (``changes no verdict under any reading``);
        None when a file too large to check each fix alone left it unchecked."""
    @property
    def changes_verdicts(self) -> Optional[bool]: ...
    @property
    def fixed(self) -> bytes:
        """The whole file with this fix alone applied."""

class Fixed:
    """:meth:`RobotsTxt.fix`: the fixed file and what the fixes do."""

    @property
    def text(self) -> bytes: ...
    @property
    def applied(self) -> int: ...
    @property
    def effect(self) -> str: ...
    @property
    def changes_verdicts(self) -> bool: ...
