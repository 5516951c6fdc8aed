//! Robots (or readings) side by side: the columns of a comparison, compiled once, so
//! that any cell of a paths x robots matrix costs one fast check; and the per-robot
//! summary (which group, how many rules, crawl delay, whether `/` is closed).
//!
//! The explorer's compare view and `robotscope compare` both stand on this; neither
//! evaluates a cell before it is shown or printed.

use crate::policy::agent::{Choice, Robot, Selection};
use crate::policy::availability::{Access, Availability};
use crate::policy::parse::{FieldKind, RobotsTxt, Rule};
use crate::policy::reading::Reading;
use crate::policy::request::UrlMode;
use crate::policy::usage::{Category, Preference, UsageAnswer, read_content_usage};
use crate::policy::verdict::describe_selection;
use crate::policy::{Decision, Matcher};

/// One column: a robot under a reading, compiled.
#[derive(Debug, Clone)]
pub struct Column {
    /// The header: the robot's name (and the reading, when columns are readings).
    pub label: String,
    /// Who.
    pub robot: Robot,
    /// Under which reading.
    pub reading: Reading,
    matcher: Matcher,
}

impl Column {
    /// Compiles a column.
    #[must_use]
    pub fn new(txt: &RobotsTxt, label: String, robot: Robot, reading: Reading) -> Column {
        let matcher = Matcher::for_robot(txt, &robot, reading);
        Column { label, robot, reading, matcher }
    }

    /// Compiles the columns `(label, robot, reading)`, each distinct set of rules once
    /// (see [`Matcher::for_robots`]).
    #[must_use]
    pub fn all(txt: &RobotsTxt, columns: impl IntoIterator<Item = (String, Robot, Reading)>) -> Vec<Column> {
        Column::all_as(txt, columns, UrlMode::AsCrawlersSend)
    }

    /// [`Column::all`] for paths read as `mode` says (`--raw-url`: byte for byte).
    #[must_use]
    pub fn all_as(
        txt: &RobotsTxt,
        columns: impl IntoIterator<Item = (String, Robot, Reading)>,
        mode: UrlMode,
    ) -> Vec<Column> {
        let (labels, robots): (Vec<String>, Vec<(Robot, Reading)>) =
            columns.into_iter().map(|(label, robot, reading)| (label, (robot, reading))).unzip();
        let matchers = Matcher::for_robots(txt, &robots, mode);
        labels
            .into_iter()
            .zip(robots)
            .zip(matchers)
            .map(|((label, (robot, reading)), matcher)| Column { label, robot, reading, matcher })
            .collect()
    }

    /// The verdict and deciding rule for one path, as tested (see [`super::request`]).
    #[must_use]
    pub fn check(&self, availability: Availability, path: &str) -> Decision {
        match availability.access(self.reading) {
            Access::Rules => self.matcher.decide_tested(path),
            access => Decision::without_rule(access == Access::AllowAll),
        }
    }

    /// The usage preferences for a path, given the column's `decision` on it (from
    /// [`Column::check`]).
    #[must_use]
    pub fn usage(&self, availability: Availability, decision: Decision, tested: &str) -> UsageAnswer {
        self.matcher
            .usage_rules()
            .map_or(UsageAnswer::NotRead, |rules| rules.answer_for(availability, decision.allowed(), tested))
    }

    /// What a cell of this column shows for a path: the crawl verdict, or with a usage
    /// category, that category's preference (see [`Cell`]).
    #[must_use]
    pub fn cell(&self, availability: Availability, tested: &str, usage: Option<Category>) -> Cell {
        let decision = self.check(availability, tested);
        let Some(category) = usage else { return Cell::Verdict(decision) };
        match self.usage(availability, decision, tested) {
            UsageAnswer::NotRead => Cell::NotRead,
            UsageAnswer::NotFetched => Cell::NotFetched(decision),
            UsageAnswer::Stated(usage) => {
                let stated = usage.get(category);
                let preference = stated.preference();
                // An unknown preference names no line: the line that left it unknown
                // says nothing about the category.
                let line = stated.lines().first().copied().filter(|_| preference != Preference::Unknown);
                Cell::Preference { preference, line }
            }
        }
    }

    /// The rule behind a decision of this column (from [`Column::check`]), if a rule
    /// decided.
    #[must_use]
    pub fn deciding_rule<'t>(&self, txt: &'t RobotsTxt, decision: Decision) -> Option<&'t Rule> {
        decision.rule().map(|at| at.rule_in(txt, self.reading))
    }

    /// The groups that apply and why.
    #[must_use]
    pub fn selection(&self) -> &Selection {
        self.matcher.selection()
    }

    /// The group a robot gets, in a few characters, for the summary row: `line 31`,
    /// `* line 37`, `2 merged`, `none`.
    #[must_use]
    pub fn summary_group_short(&self, txt: &RobotsTxt) -> String {
        let interpretation = txt.interpretation(self.reading);
        let selection = self.matcher.selection();
        match (selection.groups(), selection.choice()) {
            ([], _) => "none".to_owned(),
            ([one], Choice::Star) => format!("* line {}", interpretation.groups()[*one].first_line()),
            ([one], Choice::Fallback(token)) => format!("{token} {}", interpretation.groups()[*one].first_line()),
            ([one], _) => format!("line {}", interpretation.groups()[*one].first_line()),
            (many, _) => format!("{} merged", many.len()),
        }
    }

    /// What the robot gets from the file, for the summary.
    #[must_use]
    pub fn summary(&self, txt: &RobotsTxt, availability: Availability) -> Summary {
        let interpretation = txt.interpretation(self.reading);
        let selection = self.matcher.selection();
        let groups: Vec<_> = selection.groups().iter().map(|&g| &interpretation.groups()[g]).collect();
        let extension = |kind: FieldKind| {
            groups
                .iter()
                .flat_map(|g| g.extensions())
                .map(|&f| &interpretation.fields()[f])
                .find(|f| f.kind() == kind)
                .map(|f| String::from_utf8_lossy(txt.text(&f.value())).into_owned())
        };
        Summary {
            group: describe_selection(interpretation, selection, &self.robot, self.reading),
            rules: groups.iter().map(|g| g.rules().len()).sum(),
            crawl_delay: extension(FieldKind::CrawlDelay),
            request_rate: extension(FieldKind::RequestRate),
            shut_out: !self.check(availability, "/").allowed(),
        }
    }
}

/// A cell of a comparison: the crawl verdict, or one usage category's preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// The crawl verdict and its deciding rule (no usage category asked).
    Verdict(Decision),
    /// A usage category was asked, and the robot may not fetch the path: it has no
    /// preferences. The decision says which rule shuts it out.
    NotFetched(Decision),
    /// The category's preference and the first line that states it.
    Preference {
        /// Allowed, disallowed or unknown.
        preference: Preference,
        /// The line that states it (none for an unknown preference).
        line: Option<usize>,
    },
    /// A usage category was asked under a classic reading, which reads no preferences.
    NotRead,
}

impl Cell {
    /// The answer in a word: `allowed`, `disallowed`, `unknown`, `not fetched`, `not
    /// read`. Rows whose cells' words differ are rows where the robots disagree.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            Cell::Verdict(decision) if decision.allowed() => "allowed",
            Cell::Verdict(_) => "disallowed",
            Cell::NotFetched(_) => "not fetched",
            Cell::Preference { preference, .. } => preference.name(),
            Cell::NotRead => "not read",
        }
    }

    /// Whether a row's cells disagree: their words differ (their lines may), a robot
    /// under a reading that reads no preferences left out.
    #[must_use]
    pub fn disagree(cells: &[Cell]) -> bool {
        let mut words = cells.iter().filter(|cell| **cell != Cell::NotRead).map(Cell::word);
        let first = words.next();
        words.any(|word| Some(word) != first)
    }

    /// The line the word comes from: the deciding rule's, or the line stating the
    /// preference.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            Cell::Verdict(decision) => decision.rule().map(|rule| rule.line()),
            Cell::Preference { line, .. } => *line,
            Cell::NotFetched(_) | Cell::NotRead => None,
        }
    }
}

impl std::fmt::Display for Cell {
    /// The word and the line: `disallowed 5`, `not fetched`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line() {
            Some(line) => f.pad(&format!("{} {line}", self.word())),
            None => f.pad(self.word()),
        }
    }
}

/// What one robot gets from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The group(s) it gets, in words.
    pub group: String,
    /// How many rules those groups hold.
    pub rules: usize,
    /// Its Crawl-delay, if the group has one.
    pub crawl_delay: Option<String>,
    /// Its Request-rate, if the group has one.
    pub request_rate: Option<String>,
    /// True when it may not fetch `/`.
    pub shut_out: bool,
}

impl std::fmt::Display for Summary {
    /// `group 2 (line 9), 3 rules, Crawl-delay 10; shut out of /`: the same words in
    /// the explorer and on the command line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let noun = if self.rules == 1 { "rule" } else { "rules" };
        write!(f, "{}, {} {noun}", self.group, self.rules)?;
        if let Some(delay) = &self.crawl_delay {
            write!(f, ", Crawl-delay {delay}")?;
        }
        if let Some(rate) = &self.request_rate {
            write!(f, ", Request-rate {rate}")?;
        }
        f.write_str(if self.shut_out { "; shut out of /" } else { "; may fetch /" })
    }
}

/// How many rows the paths a file names give by default: a file of two million rules
/// names two million paths, a table nobody reads that costs seconds to build.
pub const DEFAULT_ROWS: usize = 500;

/// The paths a file's own rules (and Content-Usage lines) name, made into paths a robot
/// could ask for: `*` filled with `x` and a final `$` dropped (`/*.pdf$` gives
/// `/x.pdf`), duplicates and values that are not paths left out, in file order, at most
/// `limit` of them. A good default set of rows: each rule gets at least one path that
/// it matches. The flag says whether paths were left out at the limit.
#[must_use]
pub fn paths_named_in(txt: &RobotsTxt, limit: usize) -> (Vec<String>, bool) {
    let mut paths: Vec<String> = Vec::new();
    let mut seen = foldhash::HashSet::default();
    let interpretation = txt.interpretation(Reading::Rfc9309);
    for group in interpretation.groups() {
        let rules = group.rules().iter().map(|rule| (rule.line(), txt.text(&rule.value())));
        let usage_paths = group.extensions().iter().map(|&f| &interpretation.fields()[f]).filter_map(|field| {
            let path =
                (field.kind() == FieldKind::ContentUsage).then(|| read_content_usage(txt.text(&field.value())).path);
            path.flatten().map(|path| (field.line(), path))
        });
        let mut named: Vec<(usize, &[u8])> = rules.chain(usage_paths).collect();
        named.sort_by_key(|&(line, _)| line);
        for (_, value) in named {
            let value = String::from_utf8_lossy(value);
            let value = value.strip_suffix('$').unwrap_or(&value).replace('*', "x");
            if value.starts_with('/') && !seen.contains(&value) {
                if paths.len() == limit {
                    return (paths, true);
                }
                seen.insert(value.clone());
                paths.push(value);
            }
        }
    }
    (paths, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_answers_cells_and_sums_up() {
        let txt = RobotsTxt::parse(
            b"User-agent: slurp\nDisallow: /\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /tmp\n".to_vec(),
        );
        let slurp = Column::new(&txt, "Slurp".into(), Robot::from_agent("Slurp"), Reading::Rfc9309);
        assert!(!slurp.check(Availability::Available, "/a").allowed());
        let summary = slurp.summary(&txt, Availability::Available);
        assert_eq!((summary.rules, summary.crawl_delay.as_deref(), summary.shut_out), (1, Some("5"), true));
        let other = Column::new(&txt, "*".into(), Robot::from_agent("*"), Reading::Rfc9309);
        assert!(!other.summary(&txt, Availability::Available).shut_out);
        assert!(!other.check(Availability::Status(503), "/a").allowed());
    }

    #[test]
    fn paths_named_in_examples() {
        let txt =
            RobotsTxt::parse(b"User-agent: *\nDisallow: /a/\nDisallow: /*.pdf$\nDisallow: /a/\nAllow: ~\n".to_vec());
        assert_eq!(paths_named_in(&txt, 10), (vec!["/a/".to_owned(), "/x.pdf".to_owned()], false));
        assert_eq!(paths_named_in(&txt, 1), (vec!["/a/".to_owned()], true));
        assert!(!paths_named_in(&txt, 2).1, "nothing left out at exactly the limit");
        let txt = RobotsTxt::parse(
            b"User-agent: *\nContent-Usage: /blog/ train-ai=n\nContent-Usage: search=y\nDisallow: /a\n".to_vec(),
        );
        assert_eq!(paths_named_in(&txt, 10).0, ["/blog/", "/a"], "Content-Usage paths are rows too, in file order");
    }
}
