//! `robotscope._robotscope.Survey`: the rows of `robotscope survey` for captures that
//! Python reads (with `FastWARC` or `warcio`, in `robotscope.survey_warc` and the Spark
//! job). Each capture is judged by the crate's `survey::judge_within`, as the command
//! line judges it; a redirect waits for its target's capture, as the command line's
//! do, unless the caller resolves redirects itself (Spark joins them across files).

use pyo3::prelude::*;
use pyo3::types::PyDict;

use robotscope::survey::warc::{MAX_BLOCK_BYTES, is_robots_txt, response_capture};
use robotscope::survey::{self, Capture, Redirects, Row, SurveyRobot};
use robotscope_core::Robot;
use robotscope_core::content::RFC9309_PARSE_LIMIT_BYTES;

use super::{BodyArg, reading_named};

/// The URLs whose rows are kept for the redirects that lead to them: the command
/// line's bound.
const REMEMBERED_URLS: usize = 2_000_000;

/// Judges captures for a few robots, one row per capture and robot.
///
/// `agents` are product tokens (`GPTBot`), each read as Google's library reads a token
/// under `reading`. With `follow_redirects`, a 3xx capture's rows wait for its target's
/// capture and come from `finish()`; without, they come at once with category
/// `redirect`.
#[pyclass(module = "robotscope", name = "Survey")]
pub struct Survey {
    robots: Vec<SurveyRobot>,
    limit: Option<usize>,
    /// The bytes of a body read at most (`robotscope survey --max-bytes`' default).
    max_body: usize,
    redirects: Option<Redirects>,
    /// Records judged, and records skipped for being no robots.txt capture.
    #[pyo3(get)]
    judged: u64,
    #[pyo3(get)]
    skipped: u64,
}

#[pymethods]
impl Survey {
    #[new]
    #[pyo3(signature = (agents, reading = "rfc9309", *, follow_redirects = true, whole_file = false, max_bytes = 512_000))]
    fn new(
        agents: Vec<String>,
        reading: &str,
        follow_redirects: bool,
        whole_file: bool,
        max_bytes: usize,
    ) -> PyResult<Survey> {
        let reading = reading_named(reading)?;
        if agents.is_empty() {
            return Err(pyo3::exceptions::PyValueError::new_err("agents: name at least one robot (GPTBot)"));
        }
        let robots = agents
            .into_iter()
            .map(|agent| SurveyRobot { robot: Robot::from_agent(&agent), label: agent, reading })
            .collect();
        Ok(Survey {
            robots,
            limit: (!whole_file).then_some(RFC9309_PARSE_LIMIT_BYTES),
            max_body: max_bytes,
            redirects: follow_redirects.then(|| Redirects::with_capacity(REMEMBERED_URLS)),
            judged: 0,
            skipped: 0,
        })
    }

    /// The rows of a WARC `response` record, given as another reader hands it: its
    /// `WARC-Target-URI`, `WARC-Date` and block (the HTTP answer, headers and body,
    /// as captured: `robotscope survey --warc` reads it, chunks and gzip undone). A
    /// record that is no `/robots.txt` capture (counted in `skipped`) is kept as a
    /// redirect's possible target only: it gives no rows when redirects are followed,
    /// and rows with `target_only` true when not, for the caller's joins; a redirect's
    /// rows are held back when redirects are followed. `error` is what the reader found
    /// wrong with the record (cut off), said first in the rows.
    #[pyo3(signature = (url, block, *, time = String::new(), truncated = false, error = None))]
    fn judge_record<'py>(
        &mut self,
        py: Python<'py>,
        url: &str,
        block: BodyArg,
        time: String,
        truncated: bool,
        error: Option<String>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let robots_txt = is_robots_txt(url.trim().trim_start_matches('<').trim_end_matches('>'));
        // As `--warc` reads a record: a block past its cap is cut, and says so.
        let cut = block.0.len() > MAX_BLOCK_BYTES;
        let block = &block.0[..block.0.len().min(MAX_BLOCK_BYTES)];
        let capture = py.detach(|| response_capture(url, &time, block, self.max_body, truncated || cut, error));
        if robots_txt {
            self.rows_of(py, &Capture::from(capture), false)
        } else {
            self.skipped += 1;
            self.rows_of(py, &Capture::from(capture), true)
        }
    }

    /// The rows of one capture: `url` its robots.txt URL, `status` the HTTP status
    /// (None when no answer could be read), `body` the body with its content coding
    /// undone (`unreadable=True` when it could not be), `location` a 3xx's Location.
    /// A redirect's rows are held back (an empty list) when redirects are followed.
    #[pyo3(signature = (url, status, body, *, time = String::new(), location = None, truncated = false, error = None, unreadable = false))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, each optional.
    fn judge<'py>(
        &mut self,
        py: Python<'py>,
        url: String,
        status: Option<u16>,
        body: BodyArg,
        time: String,
        location: Option<String>,
        truncated: bool,
        error: Option<String>,
        unreadable: bool,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let capture = Capture {
            url,
            time,
            status,
            availability: survey::availability_of(status, unreadable),
            body: body.0,
            location,
            truncated,
            error,
            month: None,
        };
        self.rows_of(py, &capture, false)
    }

    /// The rows of the redirects held back: each with its target's verdicts when a
    /// capture of it was judged, within five hops; `redirect` with why otherwise.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut rows = Vec::new();
        // The redirects noted so far are resolved; later captures start afresh.
        let noted = self
            .redirects
            .as_mut()
            .map(|redirects| std::mem::replace(redirects, Redirects::with_capacity(REMEMBERED_URLS)));
        if let Some(redirects) = noted {
            redirects.resolve(|resolved| {
                rows.extend(resolved);
                Ok(())
            })?;
        }
        rows.iter().map(|row| row_dict(py, row)).collect()
    }

    /// The agents, in the order each capture's rows give them.
    #[getter]
    fn agents(&self) -> Vec<String> {
        self.robots.iter().map(|robot| robot.label.clone()).collect()
    }
}

impl Survey {
    /// A capture's rows, as dictionaries; `target_only` for a capture of another path
    /// than `/robots.txt`, a redirect's possible target only. Without following
    /// redirects, each row has a `target` too (where a redirect sends robots, as
    /// `url_key` writes it, else None) and `target_only`.
    fn rows_of<'py>(
        &mut self,
        py: Python<'py>,
        capture: &Capture,
        target_only: bool,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.judged += u64::from(!target_only);
        let (robots, limit) = (&self.robots, self.limit);
        let rows = py.detach(|| survey::judge_within(capture, robots, limit));
        if let Some(redirects) = &mut self.redirects {
            if target_only {
                redirects.note_target(capture, &rows)?;
                return Ok(Vec::new());
            }
            return redirects.note(capture, rows)?.unwrap_or_default().iter().map(|row| row_dict(py, row)).collect();
        }
        let target = survey::redirect_target(capture);
        rows.iter()
            .map(|row| {
                let dict = row_dict(py, row)?;
                dict.set_item("target", target.as_deref())?;
                dict.set_item("target_only", target_only)?;
                Ok(dict)
            })
            .collect()
    }
}

/// The URL a capture of `url` that answered `status` with `location` sends robots to,
/// as `url_key` writes URLs; None when it is no redirect.
#[pyfunction]
#[pyo3(signature = (url, status, location))]
pub fn redirect_target(url: String, status: Option<u16>, location: Option<String>) -> Option<String> {
    survey::redirect_target(&Capture { url, status, location, ..Capture::default() })
}

/// `url` as captures are matched by (`HTTP://Example.com/robots.txt` is
/// `http://example.com/robots.txt`): the key a redirect's target is joined on.
#[pyfunction]
pub fn url_key(url: &str) -> String {
    survey::url_key(url)
}

/// A row as the command line's `--json` writes it.
fn row_dict<'py>(py: Python<'py>, row: &Row) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("url", &row.url)?;
    dict.set_item("site", &row.site)?;
    dict.set_item("agent", &row.agent)?;
    dict.set_item("category", row.category.name())?;
    dict.set_item("group", row.group.name())?;
    dict.set_item("line", row.line)?;
    dict.set_item("status", row.status)?;
    dict.set_item("bytes", row.bytes)?;
    dict.set_item("time", &row.time)?;
    dict.set_item("train_ai", row.train_ai.map(robotscope_core::usage::Preference::name))?;
    dict.set_item("html", row.html)?;
    dict.set_item("error", row.error.as_deref())?;
    Ok(dict)
}
