//! `robotscope._robotscope`: the policy core of robotscope for Python.
//!
//! Every answer comes from the `robotscope` crate's library face: a [`RobotsTxt`] is
//! parsed as the command line parses a file (the RFC 9309 reading stops at 500 KiB, as
//! Google's crawler does, RFC 9309 §2.5), a [`Matcher`] reads URLs as `robotscope check`
//! reads them, and `lint` and `fix` are the command line's. This module only converts:
//! Python values in, Python values out, and the GIL released while a batch of URLs is
//! matched. The typed Python face (`robotscope/__init__.py`, `_robotscope.pyi`) documents
//! the API.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;

use pyo3::exceptions::{PyMemoryError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyMemoryView, PyString};

use robotscope_core::agent::{is_valid_token, select, select_whole_name, suggest_token};
use robotscope_core::content::RFC9309_PARSE_LIMIT_BYTES;
use robotscope_core::fix::{apply_fix, fix_all_effect, lint_checked};
use robotscope_core::lint::Fix as CoreFix;
use robotscope_core::memory::{Work, room_for};
use robotscope_core::request::{Request, UrlMode};
use robotscope_core::usage::{Category, Usage as CoreUsage};
use robotscope_core::{
    Diagnostic as CoreDiagnostic, Matcher as CoreMatcher, Reading, Robot, RobotsTxt as CoreRobotsTxt, fix_all,
};

mod survey;

/// Reserves room for `work` on `txt` before it starts: a `MemoryError` when the process
/// cannot have it. Rust ends the process when an allocation fails, so work whose memory
/// the file decides is never started without its room (a `RLIMIT_AS` once turned a
/// 100 MB file into the interpreter's abort).
fn room(txt: &CoreRobotsTxt, work: Work) -> PyResult<()> {
    room_for(work, txt.source().len()).map_err(|error| PyMemoryError::new_err(error.to_string()))
}

/// A robots.txt, parsed. Parsing never fails: any bytes are some robots.txt.
///
/// `body` is the file as fetched: `bytes`, `bytearray` or `memoryview` (`str` is
/// encoded as UTF-8). It is read as `robotscope check FILE` reads a file: RFC 9309
/// robots stop at 500 KiB, as Google's crawler does (RFC 9309 §2.5), the 1994 and 1996
/// readings read every byte; `whole_file=True` reads every byte under RFC 9309 too.
#[pyclass(module = "robotscope", name = "RobotsTxt", frozen)]
struct RobotsTxt {
    txt: Arc<CoreRobotsTxt>,
}

#[pymethods]
impl RobotsTxt {
    #[new]
    #[pyo3(signature = (body, *, whole_file = false))]
    fn new(py: Python<'_>, body: BodyArg, whole_file: bool) -> RobotsTxt {
        // As `robotscope check FILE` reads a file: RFC 9309 robots stop at 500 KiB, the
        // classic readings read it all; `whole_file` is the command line's --whole-file.
        let limit = (!whole_file).then_some(RFC9309_PARSE_LIMIT_BYTES);
        let txt = py.detach(|| CoreRobotsTxt::parse(body.0).with_rfc9309_limit(limit));
        RobotsTxt { txt: Arc::new(txt) }
    }

    /// The file's bytes, as given.
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.txt.source())
    }

    /// The `Sitemap:` values, in file order, as written (relative ones and repeats
    /// included; `robotscope sitemaps` resolves and de-duplicates them).
    #[getter]
    fn sitemaps(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        room(&self.txt, Work::Read)?;
        // The first question of the RFC 9309 reading builds it: without the GIL.
        Ok(py.detach(|| self.txt.sitemaps().map(Cow::into_owned).collect()))
    }

    /// The first line of each group that applies to the robot whose product token is
    /// `agent` under `reading` (empty when none does): two robots with the same lines get
    /// the same rules, so a matcher can be shared between them.
    #[pyo3(signature = (agent, reading = "rfc9309"))]
    fn group_lines(&self, py: Python<'_>, agent: &str, reading: &str) -> PyResult<Vec<usize>> {
        let reading = reading_named(reading)?;
        let robot = Robot::from_agent(agent);
        room(&self.txt, Work::Read)?;
        Ok(py.detach(|| {
            let interpretation = self.txt.interpretation(reading);
            let selection = select(interpretation, &robot, reading);
            selection.groups().iter().map(|&group| interpretation.groups()[group].first_line()).collect()
        }))
    }

    /// The first line of each group whose User-agent lines name `name` whole, letter case
    /// aside, under `reading` (empty when none does). For a name that is no product token
    /// (`UnicödeBöt`), which RFC 9309 matches to no group: Scrapy's backends match such a
    /// name whole, and `robotscope.scrapy` does too.
    #[pyo3(signature = (name, reading = "rfc9309"))]
    fn group_lines_named(&self, py: Python<'_>, name: &str, reading: &str) -> PyResult<Vec<usize>> {
        let reading = reading_named(reading)?;
        room(&self.txt, Work::Read)?;
        Ok(py.detach(|| {
            let interpretation = self.txt.interpretation(reading);
            select_whole_name(&self.txt, name, reading)
                .map(|selection| selection.groups().iter().map(|&g| interpretation.groups()[g].first_line()).collect())
                .unwrap_or_default()
        }))
    }

    /// The rules of the groups whose User-agent lines name `name` whole (see
    /// `group_lines_named`), compiled; `None` when no group names it.
    #[pyo3(signature = (name, reading = "rfc9309", *, raw_urls = false))]
    fn matcher_named(&self, py: Python<'_>, name: &str, reading: &str, raw_urls: bool) -> PyResult<Option<Matcher>> {
        let reading = reading_named(reading)?;
        let mode = if raw_urls { UrlMode::Raw } else { UrlMode::AsCrawlersSend };
        room(&self.txt, Work::Match)?;
        let matcher = py.detach(|| {
            select_whole_name(&self.txt, name, reading)
                .map(|selection| CoreMatcher::for_selection(&self.txt, selection, reading, mode))
        });
        Ok(matcher.map(|matcher| Matcher {
            compiled: Arc::new(matcher),
            txt: Arc::clone(&self.txt),
            agent: name.to_owned(),
        }))
    }

    /// What is wrong with the file under each reading, each fix checked under every
    /// reading for every robot the file names (what `robotscope lint` prints).
    fn lint(&self, py: Python<'_>) -> PyResult<Vec<Diagnostic>> {
        // Slow work (each fix checked under every reading) without the GIL, as all of this
        // class's slow work: other threads run meanwhile.
        room(&self.txt, Work::Lint)?;
        let diagnostics = py.detach(|| lint_checked(&self.txt));
        diagnostics.iter().map(|diagnostic| Diagnostic::of(py, &self.txt, diagnostic)).collect()
    }

    /// Every fix applied, round after round (what `robotscope fix` writes), and what
    /// the fixes do to the verdicts.
    fn fix(&self, py: Python<'_>) -> PyResult<Fixed> {
        room(&self.txt, Work::Fix)?;
        let (report, effect) = py.detach(|| {
            let report = fix_all(self.txt.source());
            let effect = fix_all_effect(&self.txt, &report);
            (report, effect)
        });
        Ok(Fixed {
            changes_verdicts: !effect.is_none(),
            effect: effect.to_string(),
            applied: report.applied(),
            text: PyBytes::new(py, report.text()).unbind(),
        })
    }

    /// The file with every fix applied: what `robotscope fix` writes.
    fn fixed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        room(&self.txt, Work::Fix)?;
        let report = py.detach(|| fix_all(self.txt.source()));
        Ok(PyBytes::new(py, report.text()))
    }

    /// The rules for the robot whose product token is `agent` (`Googlebot`) under
    /// `reading` (`rfc9309`, `draft1996` or `koster1994`; also `google`, `urllib`,
    /// `1996`, `1994`, in any letter case), compiled for many questions.
    ///
    /// Under RFC 9309 a robot obeys the groups naming its product token, else `*`: a
    /// User-Agent header names none (a `UserWarning` says so, with the token it holds;
    /// `product_token()` takes it out). `raw_urls=True` takes URLs byte for byte, as
    /// Google's library does (`--raw-url`). Raises `ValueError` for an unknown reading.
    #[pyo3(signature = (agent, reading = "rfc9309", *, raw_urls = false))]
    fn matcher(&self, py: Python<'_>, agent: &str, reading: &str, raw_urls: bool) -> PyResult<Matcher> {
        let reading = reading_named(reading)?;
        if reading == Reading::Rfc9309 && agent != "*" && !is_valid_token(agent) {
            // The command line's own warning for `-a`: an RFC 9309 robot obeys the
            // groups that name its product token, and this names none.
            let hint = suggest_token(agent).map(|token| format!("; did you mean '{token}'?")).unwrap_or_default();
            let message = format!(
                "{agent:?} is not a product token, so RFC 9309 readers match it to no named group{hint} \
                 (robotscope.product_token() takes it from a User-Agent header)"
            );
            let message = std::ffi::CString::new(message.replace('\0', "\\0"))?;
            // Level 1: the Python code that called this method (it has no frame of its own).
            PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
        }
        let robot = Robot::from_agent(agent);
        let mode = if raw_urls { UrlMode::Raw } else { UrlMode::AsCrawlersSend };
        room(&self.txt, Work::Match)?;
        let matcher = py.detach(|| CoreMatcher::for_robot_as(&self.txt, &robot, reading, mode));
        Ok(Matcher { compiled: Arc::new(matcher), txt: Arc::clone(&self.txt), agent: agent.to_owned() })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        room(&self.txt, Work::Read)?;
        let sitemaps = py.detach(|| self.txt.sitemaps().count());
        Ok(format!("<RobotsTxt: {} bytes, {sitemaps} sitemaps>", self.txt.source().len()))
    }
}

/// The body of a robots.txt: bytes as fetched (`bytes`, `bytearray`, `memoryview`), or
/// text (encoded as UTF-8).
struct BodyArg(Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for BodyArg {
    type Error = PyErr;

    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = object.cast::<PyString>() {
            return Ok(BodyArg(text.to_cow()?.into_owned().into_bytes()));
        }
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(BodyArg(bytes.as_bytes().to_vec()));
        }
        if let Ok(bytes) = object.cast::<PyByteArray>() {
            return Ok(BodyArg(bytes.to_vec()));
        }
        if object.cast::<PyMemoryView>().is_ok() {
            let bytes = object.call_method0("tobytes")?;
            return Ok(BodyArg(bytes.cast::<PyBytes>()?.as_bytes().to_vec()));
        }
        Err(PyTypeError::new_err(format!("a robots.txt body is bytes or str, not {}", type_name(&object))))
    }
}

/// One robot's rules under one reading.
#[pyclass(module = "robotscope", name = "Matcher", frozen)]
struct Matcher {
    compiled: Arc<CoreMatcher>,
    txt: Arc<CoreRobotsTxt>,
    agent: String,
}

/// Batches of at least this many URLs are matched on every core: below it, starting
/// threads costs more than it saves.
const PARALLEL_BATCH: usize = 20_000;

/// URLs read out of Python at a time, for the other cores to match while the next are
/// read.
const CHUNK: usize = 4096;

/// The verdicts for a large batch, on every core: this thread reads the URLs out of
/// Python a chunk at a time (which needs the GIL, and is a third of the work), the
/// others match each chunk as it comes, and once every URL is read this thread releases
/// the GIL and matches with them.
fn read_and_match(list: &Bound<'_, PyList>, matcher: &CoreMatcher, threads: usize) -> PyResult<Vec<bool>> {
    let count = list.len();
    let chunks = count.div_ceil(CHUNK);
    let (to_match, read) = mpsc::channel::<(usize, Batch)>();
    let read = Mutex::new(read);
    let verdicts = Mutex::new(vec![Vec::new(); chunks]);
    // Matches chunks until every chunk is read and taken.
    let work = || {
        loop {
            let next = read.lock().unwrap_or_else(PoisonError::into_inner).recv();
            let Ok((index, batch)) = next else { break };
            let chunk_verdicts = batch.verdicts(matcher);
            verdicts.lock().unwrap_or_else(PoisonError::into_inner)[index] = chunk_verdicts;
        }
    };
    let reading = thread::scope(|scope| {
        let workers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let reading = (0..chunks).try_for_each(|index| {
            let batch = Batch::read(list, index * CHUNK..((index + 1) * CHUNK).min(count))?;
            // The workers outlive the sending, so the send cannot fail.
            let _ = to_match.send((index, batch));
            Ok::<(), PyErr>(())
        });
        drop(to_match);
        list.py().detach(|| {
            work();
            for worker in workers {
                // A worker that panicked leaves its chunk empty, which the caller reports.
                let _ = worker.join();
            }
        });
        reading
    });
    reading?;
    Ok(verdicts.into_inner().unwrap_or_else(PoisonError::into_inner).concat())
}

#[pymethods]
impl Matcher {
    /// Whether the robot may fetch `url` (a URL as a crawler has it, a path, or a
    /// relative path), read as `robotscope check` reads it. `/robots.txt` gets the
    /// rules' answer, although RFC 9309 §2.2.2 lets a crawler always fetch it.
    fn allowed(&self, url: PyBackedStr) -> bool {
        self.compiled.allowed(&url)
    }

    /// Whether the robot may fetch `url`, and the line that decided.
    fn decide(&self, url: PyBackedStr) -> Decision {
        let tested = Request::tested_path(&url, self.compiled.url_mode());
        let decision = self.compiled.decide_tested(&tested);
        let reading = self.compiled.reading();
        let rule = decision.rule().map(|at| self.txt.rule_text(at.rule_in(&self.txt, reading)));
        Decision {
            allowed: decision.allowed(),
            line: decision.line(),
            rule,
            reading: reading.name(),
            tested: tested.into_owned(),
        }
    }

    /// `allowed` for every URL of `urls` (any iterable of `str`, but a `str` itself),
    /// in one call: the GIL is released while they are matched, on every core for
    /// batches of 20,000 or more.
    fn allowed_many<'py>(&self, py: Python<'py>, urls: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        if urls.is_instance_of::<PyString>() {
            // Iterating a str gives its characters: never what was meant.
            return Err(PyTypeError::new_err("allowed_many takes an iterable of URLs, not one str"));
        }
        // A list itself is read by index; anything else (a subclass of list too, which
        // may iterate otherwise) as it iterates.
        let list = match urls.cast_exact::<PyList>() {
            Ok(list) => list.clone(),
            Err(_) => PyList::new(py, urls.try_iter()?.collect::<PyResult<Vec<_>>>()?)?,
        };
        // Read while this thread holds the GIL, which no Python code runs to let go of:
        // nothing changes the list meanwhile. (Once it is let go, another thread may.)
        let count = list.len();
        let matcher: &CoreMatcher = &self.compiled;
        let threads = thread::available_parallelism().map_or(1, usize::from);
        let verdicts = if count < PARALLEL_BATCH || threads == 1 {
            let batch = Batch::read(&list, 0..count)?;
            py.detach(|| batch.verdicts(matcher))
        } else {
            read_and_match(&list, matcher, threads)?
        };
        if verdicts.len() != count {
            // A matcher thread panicked (a bug): say so rather than answer for fewer URLs.
            return Err(pyo3::exceptions::PyRuntimeError::new_err("robotscope: matching a batch of URLs failed"));
        }
        PyList::new(py, verdicts)
    }

    /// What the robot may do with what it fetches at `url`: `None` when it may not
    /// fetch it, and under the classic readings.
    fn usage(&self, url: PyBackedStr) -> Option<Usage> {
        self.compiled.usage(&url).map(|usage| Usage::of(&usage))
    }

    /// The group's Crawl-delay in seconds.
    #[getter]
    fn crawl_delay(&self) -> Option<f64> {
        self.compiled.crawl_delay().map(|delay| delay.as_secs_f64())
    }

    /// The group's Request-rate.
    #[getter]
    fn request_rate(&self) -> Option<RequestRate> {
        self.compiled
            .request_rate()
            .map(|rate| RequestRate { requests: rate.requests(), seconds: rate.period().as_secs_f64() })
    }

    /// The robot's product token, as given.
    #[getter]
    fn agent(&self) -> &str {
        &self.agent
    }

    /// The reading's name: `rfc9309`, `draft1996` or `koster1994`.
    #[getter]
    fn reading(&self) -> &'static str {
        self.compiled.reading().name()
    }

    /// True when URLs are taken byte for byte (`raw_urls=True`).
    #[getter]
    fn raw_urls(&self) -> bool {
        self.compiled.url_mode() == UrlMode::Raw
    }

    fn __repr__(&self) -> String {
        let raw = if self.raw_urls() { ", URLs taken byte for byte" } else { "" };
        format!("<Matcher for {:?} under {}{raw}>", self.agent, self.compiled.reading().name())
    }
}

/// A list of URLs read out of Python, to be matched without the GIL: their UTF-8 in one
/// buffer, where a `Vec` of strings would allocate one each (Python's stable ABI before
/// 3.10 lends no string's UTF-8, so each is copied; reading is most of a batch's time
/// under the GIL).
struct Batch {
    text: String,
    ends: Vec<usize>,
}

impl Batch {
    /// The URLs of `list` at `range`. Raises `TypeError` for an item that is not a
    /// `str`, `UnicodeEncodeError` for one that is not valid Unicode (a lone surrogate).
    fn read(list: &Bound<'_, PyList>, range: Range<usize>) -> PyResult<Batch> {
        let mut batch = Batch { text: String::new(), ends: Vec::with_capacity(range.len()) };
        for index in range {
            let url = list.get_item(index)?;
            let url = url
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err(format!("allowed_many takes str URLs, not {}", type_name(&url))))?;
            batch.text.push_str(&url.to_cow()?);
            batch.ends.push(batch.text.len());
        }
        Ok(batch)
    }

    /// `allowed` for each URL, in order.
    fn verdicts(&self, matcher: &CoreMatcher) -> Vec<bool> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let verdict = matcher.allowed(&self.text[start..end]);
                start = end;
                verdict
            })
            .collect()
    }
}

/// The answer for one URL; true in a boolean context when the robot may fetch it.
#[pyclass(module = "robotscope", name = "Decision", frozen, get_all, eq, hash)]
#[derive(PartialEq, Hash)]
struct Decision {
    /// Whether the robot may fetch the URL.
    allowed: bool,
    /// The 1-based line of the deciding rule; None when no rule applies.
    line: Option<usize>,
    /// The deciding rule as written (`Disallow: /private/`); None when no rule applies.
    rule: Option<String>,
    /// The reading it was decided under.
    reading: &'static str,
    /// The path that was matched: the URL's path and query as a crawler requests them.
    tested: String,
}

#[pymethods]
impl Decision {
    fn __bool__(&self) -> bool {
        self.allowed
    }

    fn __repr__(&self) -> String {
        let verdict = if self.allowed { "allowed" } else { "disallowed" };
        match (&self.line, &self.rule) {
            (Some(line), Some(rule)) => {
                format!("<Decision {verdict} by line {line} ({rule:?}) under {}>", self.reading)
            }
            _ => format!("<Decision {verdict}: no rule applies, under {}>", self.reading),
        }
    }
}

/// A Request-rate: `requests` per `seconds`.
#[pyclass(module = "robotscope", name = "RequestRate", frozen, get_all, eq)]
#[derive(PartialEq)]
struct RequestRate {
    /// How many requests ...
    requests: u32,
    /// ... per this many seconds.
    seconds: f64,
}

#[pymethods]
impl RequestRate {
    fn __repr__(&self) -> String {
        format!("RequestRate(requests={}, seconds={:?})", self.requests, self.seconds)
    }
}

/// The usage preferences for one URL: `allowed`, `disallowed` or `unknown` per category.
#[pyclass(module = "robotscope", name = "Usage", frozen, get_all, eq, hash)]
#[derive(PartialEq, Hash)]
struct Usage {
    /// Training or fine-tuning AI models (Content-Usage `train-ai`, Content-Signal `ai-train`).
    train_ai: &'static str,
    /// Building a search index (`search`).
    search: &'static str,
    /// Input to AI answers: retrieval, grounding (Content-Signal `ai-input`).
    ai_input: &'static str,
    /// The lines that state each category's preference, by category name.
    lines: std::collections::BTreeMap<&'static str, Vec<usize>>,
}

impl Usage {
    fn of(usage: &CoreUsage) -> Usage {
        let name = |category| usage.get(category).preference().name();
        Usage {
            train_ai: name(Category::TrainAi),
            search: name(Category::Search),
            ai_input: name(Category::AiInput),
            lines: usage.iter().map(|(category, stated)| (category.name(), stated.lines().to_vec())).collect(),
        }
    }
}

#[pymethods]
impl Usage {
    fn __repr__(&self) -> String {
        format!("Usage(train_ai='{}', search='{}', ai_input='{}')", self.train_ai, self.search, self.ai_input)
    }
}

/// One finding of `RobotsTxt.lint()`.
#[pyclass(module = "robotscope", name = "Diagnostic", frozen, get_all)]
struct Diagnostic {
    /// The diagnostic's code (`path-without-slash`), as `robotscope lint --json` gives it.
    code: &'static str,
    /// `error`, `warning` or `info`.
    severity: &'static str,
    /// The 1-based line it is about.
    line: usize,
    /// What is wrong, in a sentence.
    message: String,
    /// The fix, when there is one.
    fix: Option<Py<Fix>>,
}

impl Diagnostic {
    fn of(py: Python<'_>, txt: &Arc<CoreRobotsTxt>, diagnostic: &CoreDiagnostic) -> PyResult<Diagnostic> {
        let fix = diagnostic.fix().map(|fix| {
            let fix = Fix {
                title: fix.title().to_owned(),
                effect: diagnostic.fix_effect().map(ToString::to_string),
                changes_verdicts: diagnostic.fix_effect().map(|effect| !effect.changes_nothing()),
                edits: fix.clone(),
                txt: Arc::clone(txt),
            };
            Py::new(py, fix)
        });
        Ok(Diagnostic {
            code: diagnostic.code().name(),
            severity: diagnostic.severity().name(),
            line: diagnostic.line(),
            message: diagnostic.message().to_owned(),
            fix: fix.transpose()?,
        })
    }
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!("<Diagnostic {} {} at line {}: {}>", self.severity, self.code, self.line, self.message)
    }
}

/// A diagnostic's fix, checked under every reading before it is offered.
#[pyclass(module = "robotscope", name = "Fix", frozen)]
struct Fix {
    /// What the fix does to the text.
    #[pyo3(get)]
    title: String,
    /// What the fix does to the verdicts ("changes no verdict under any reading"); None
    /// when a file too large to check each fix alone left it unchecked.
    #[pyo3(get)]
    effect: Option<String>,
    /// Whether it changes a verdict; None when unchecked.
    #[pyo3(get)]
    changes_verdicts: Option<bool>,
    /// The edits, applied to the file only when asked for: a file of thousands of
    /// diagnostics would otherwise hold thousands of copies of itself.
    edits: CoreFix,
    txt: Arc<CoreRobotsTxt>,
}

#[pymethods]
impl Fix {
    /// The whole file with this fix alone applied.
    #[getter]
    fn fixed<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &apply_fix(self.txt.source(), &self.edits))
    }

    fn __repr__(&self) -> String {
        format!("<Fix {:?}: {}>", self.title, self.effect.as_deref().unwrap_or("not checked"))
    }
}

/// `RobotsTxt.fix()`: the fixed file and what the fixes do.
#[pyclass(module = "robotscope", name = "Fixed", frozen, get_all)]
struct Fixed {
    /// The fixed file.
    text: Py<PyBytes>,
    /// How many fixes were applied.
    applied: usize,
    /// What they do to the verdicts, under every reading for every robot the file names.
    effect: String,
    /// Whether they change a verdict.
    changes_verdicts: bool,
}

#[pymethods]
impl Fixed {
    fn __repr__(&self) -> String {
        let fixes = if self.applied == 1 { "1 fix" } else { &format!("{} fixes", self.applied) };
        format!("<Fixed: {fixes} applied, which {}>", self.effect)
    }
}

/// The reading a name names (`rfc9309`, `1996`, `urllib`), or `ValueError` with the
/// core's message.
fn reading_named(name: &str) -> PyResult<Reading> {
    name.parse().map_err(|error| PyValueError::new_err(format!("{error}")))
}

/// The name of an object's type, for an error message.
fn type_name(object: &Bound<'_, PyAny>) -> String {
    object.get_type().name().map_or_else(|_| "this type".to_owned(), |name| name.to_string())
}

/// The product token in a User-Agent header (`Googlebot` in `Mozilla/5.0 (compatible;
/// Googlebot/2.1; ...)`, `MyBot` in `MyBot-1.0`), as the command line suggests it; the
/// token itself when given one; None when the header holds none (`Bücherbot/1.0`: a
/// token is ASCII letters, `-` and `_`).
#[pyfunction]
fn product_token(user_agent: &Bound<'_, PyString>) -> PyResult<Option<String>> {
    let user_agent = user_agent.to_cow()?;
    Ok(if is_valid_token(&user_agent) { Some(user_agent.into_owned()) } else { suggest_token(&user_agent) })
}

#[pymodule]
fn _robotscope(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<RobotsTxt>()?;
    module.add_class::<Matcher>()?;
    module.add_class::<Decision>()?;
    module.add_class::<RequestRate>()?;
    module.add_class::<Usage>()?;
    module.add_class::<Diagnostic>()?;
    module.add_class::<Fix>()?;
    module.add_class::<Fixed>()?;
    module.add_class::<survey::Survey>()?;
    module.add_function(wrap_pyfunction!(survey::redirect_target, module)?)?;
    module.add_function(wrap_pyfunction!(survey::url_key, module)?)?;
    module.add_function(wrap_pyfunction!(product_token, module)?)?;
    module.add("RFC9309_PARSE_LIMIT_BYTES", RFC9309_PARSE_LIMIT_BYTES)?;
    let agents: Vec<&str> = robotscope::survey::CONSENT_IN_CRISIS.iter().map(|(agent, _)| *agent).collect();
    module.add("SURVEY_AGENTS", pyo3::types::PyTuple::new(module.py(), agents)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
