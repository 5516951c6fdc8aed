//! Versions into verdicts, and the flips between consecutive versions (pure).
//!
//! A [`Snapshot`] is one version's answers for the robots and paths asked: the crawl
//! verdict with its deciding line, and the usage preferences of an allowed path (RFC
//! 9309 only). [`flips`] compares two snapshots: a robot that gained or lost a path is
//! a crawl flip; a path allowed in both whose `train-ai`, `search` or `ai-input`
//! preference changed is a usage flip (issue 17: a change of preference is a change
//! too). The store and the archive know nothing of this; the command line and the
//! explorer show it.

use crate::columns::Column;
use crate::policy::request::UrlMode;
use crate::policy::usage::{Category, Preference, UsageAnswer};
use crate::policy::{Availability, Reading, Robot, RobotsTxt};

/// A robot asked about: its name in reports, who it is, and the reading.
#[derive(Debug, Clone)]
pub struct Subject {
    /// The name reports use (`-a` string, profile token).
    pub label: String,
    /// Who the policy layer evaluates for.
    pub robot: Robot,
    /// The reading.
    pub reading: Reading,
}

/// One robot's answer for one path in one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// May it fetch the path?
    pub allowed: bool,
    /// The deciding line, when a rule decided.
    pub line: Option<usize>,
    /// The deciding rule (`Disallow: /private`).
    pub rule: Option<String>,
    /// The usage preferences, by [`Category::ALL`]; `None` when not allowed or under a
    /// classic reading.
    pub usage: Option<[(Preference, Option<usize>); 3]>,
}

impl Answer {
    /// Why the answer is what it is, in a few words: the deciding line and rule, or
    /// that the version's status decides (`decided_by_rules` false), or that no rule
    /// matches.
    #[must_use]
    pub fn reason(&self, decided_by_rules: bool) -> String {
        match (self.line, &self.rule) {
            (Some(line), Some(rule)) => format!("line {line}, {rule}"),
            _ if !decided_by_rules => "its status decides".to_owned(),
            _ => "no rule matches".to_owned(),
        }
    }
}

/// A version's answers: robots x paths, row by robot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    answers: Vec<Answer>,
    paths: usize,
}

impl Snapshot {
    /// The answer of robot `robot` (index into the subjects) for path `path`.
    #[must_use]
    pub fn answer(&self, robot: usize, path: usize) -> &Answer {
        &self.answers[robot * self.paths + path]
    }
}

/// What changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The crawl verdict: the robot gained (`after.allowed`) or lost the path.
    Crawl,
    /// A usage preference, the path allowed before and after.
    Usage(Category),
}

/// A change of one robot's answer for one path between consecutive versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flip {
    /// Index into the subjects.
    pub robot: usize,
    /// Index into the paths.
    pub path: usize,
    /// What changed.
    pub change: Change,
    /// The answer before.
    pub before: Answer,
    /// The answer after.
    pub after: Answer,
}

impl Flip {
    /// For a usage flip, the preferences before and after, and the line that states
    /// the new one.
    #[must_use]
    pub fn preferences(&self) -> Option<(Preference, Preference, Option<usize>)> {
        let Change::Usage(category) = self.change else { return None };
        let (before, after) = (self.before.usage.as_ref()?, self.after.usage.as_ref()?);
        let (old, new) = (before[category.index()], after[category.index()]);
        Some((old.0, new.0, new.1))
    }
}

/// The answers of one version (its body parsed, its status's meaning) for `subjects` x
/// `paths` (paths as tested: see [`Request`](crate::policy::Request)).
#[must_use]
pub fn snapshot(txt: &RobotsTxt, availability: Availability, subjects: &[Subject], paths: &[String]) -> Snapshot {
    snapshot_as(txt, availability, subjects, paths, UrlMode::AsCrawlersSend)
}

/// [`snapshot`] for paths read as `mode` says (`--raw-url`: byte for byte).
#[must_use]
pub fn snapshot_as(
    txt: &RobotsTxt,
    availability: Availability,
    subjects: &[Subject],
    paths: &[String],
    mode: UrlMode,
) -> Snapshot {
    let columns = Column::all_as(
        txt,
        subjects.iter().map(|subject| (subject.label.clone(), subject.robot.clone(), subject.reading)),
        mode,
    );
    let mut answers = Vec::with_capacity(columns.len() * paths.len());
    for column in &columns {
        for path in paths {
            let decision = column.check(availability, path);
            let rule = column.deciding_rule(txt, decision);
            let usage = match column.usage(availability, decision, path) {
                UsageAnswer::Stated(usage) => Some(Category::ALL.map(|category| {
                    let stated = usage.get(category);
                    let line = stated.lines().first().copied().filter(|_| stated.preference() != Preference::Unknown);
                    (stated.preference(), line)
                })),
                UsageAnswer::NotRead | UsageAnswer::NotFetched => None,
            };
            answers.push(Answer {
                allowed: decision.allowed(),
                line: rule.map(crate::policy::Rule::line),
                rule: rule.map(|rule| txt.rule_text(rule)),
                usage,
            });
        }
    }
    Snapshot { answers, paths: paths.len() }
}

/// What changed from `before` to `after` (snapshots of the same subjects and paths):
/// crawl flips, and usage flips of paths allowed in both, robot by robot, path by path.
#[must_use]
pub fn flips(before: &Snapshot, after: &Snapshot) -> Vec<Flip> {
    let mut flips = Vec::new();
    for (index, (old, new)) in before.answers.iter().zip(&after.answers).enumerate() {
        let (robot, path) = (index / before.paths.max(1), index % before.paths.max(1));
        let flip = |change| Flip { robot, path, change, before: old.clone(), after: new.clone() };
        if old.allowed != new.allowed {
            flips.push(flip(Change::Crawl));
            continue;
        }
        if let (Some(old_usage), Some(new_usage)) = (&old.usage, &new.usage) {
            for category in Category::ALL {
                if old_usage[category.index()].0 != new_usage[category.index()].0 {
                    flips.push(flip(Change::Usage(category)));
                }
            }
        }
    }
    flips
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subjects() -> Vec<Subject> {
        ["GPTBot", "Googlebot"]
            .map(|agent| Subject {
                label: agent.to_owned(),
                robot: Robot::from_agent(agent),
                reading: Reading::Rfc9309,
            })
            .into()
    }

    fn snap(text: &str, availability: Availability) -> Snapshot {
        let paths = vec!["/".to_owned(), "/news/".to_owned()];
        snapshot(&RobotsTxt::parse(text.as_bytes().to_vec()), availability, &subjects(), &paths)
    }

    #[test]
    fn a_new_group_is_a_crawl_flip_with_its_line() {
        let before = snap("User-agent: *\nDisallow: /private\n", Availability::Available);
        let after =
            snap("User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n", Availability::Available);
        let flips = flips(&before, &after);
        assert_eq!(flips.len(), 2, "{flips:?}");
        assert!(flips.iter().all(|flip| flip.robot == 0 && flip.change == Change::Crawl && !flip.after.allowed));
        assert_eq!(flips[0].after.line, Some(5));
        assert_eq!(flips[0].after.rule.as_deref(), Some("Disallow: /"));
    }

    #[test]
    fn statuses_decide_and_a_404_allows_everything() {
        let closed = snap("User-agent: *\nDisallow: /\n", Availability::Available);
        let gone = snap("<html>not found</html>", Availability::Status(404));
        let down = snap("", Availability::Status(503));
        assert_eq!(flips(&closed, &gone).len(), 4);
        assert!(flips(&closed, &gone).iter().all(|flip| flip.after.allowed && flip.after.line.is_none()));
        assert_eq!(flips(&gone, &down).len(), 4);
        assert!(flips(&down, &closed).is_empty());
    }

    #[test]
    fn a_train_ai_preference_that_changes_is_a_usage_flip() {
        let before = snap("User-agent: *\nAllow: /\nContent-Usage: train-ai=y\n", Availability::Available);
        let after = snap("User-agent: *\nAllow: /\nContent-Usage: /news/ train-ai=n\n", Availability::Available);
        let flips = flips(&before, &after);
        let usage: Vec<_> = flips.iter().filter(|flip| flip.change == Change::Usage(Category::TrainAi)).collect();
        // Both robots, both paths: / went from allowed to unknown, /news/ to disallowed.
        assert_eq!(usage.len(), 4, "{flips:?}");
        let news = usage.iter().find(|flip| flip.path == 1).and_then(|flip| flip.preferences());
        assert_eq!(news, Some((Preference::Allowed, Preference::Disallowed, Some(3))));
        // A classic reading reads no preferences: no usage flips.
        let classic = [Subject { label: "x".into(), robot: Robot::from_agent("x"), reading: Reading::Draft1996 }];
        let parse = |text: &str| RobotsTxt::parse(text.as_bytes().to_vec());
        let paths = ["/".to_owned()];
        let (a, b) = (
            snapshot(&parse("User-agent: *\nContent-Usage: train-ai=y\n"), Availability::Available, &classic, &paths),
            snapshot(&parse("User-agent: *\nContent-Usage: train-ai=n\n"), Availability::Available, &classic, &paths),
        );
        assert!(super::flips(&a, &b).is_empty());
    }
}
