//! Requests against the robots.txt in force when they came: which were allowed, which
//! broke the rules, which a crawler's cache excuses. Pure: the versions are given.

use std::collections::HashMap;
use std::sync::Arc;

use jiff::{SignedDuration, Timestamp};

use crate::policy::availability::Access;
use crate::policy::request::{self, Request, UrlMode};
use crate::policy::{Availability, Matcher, Reading, Robot, RobotsTxt};

/// One robots.txt version and when it came into force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InForce {
    /// From when (`None`: for all time, as `--robots FILE` is taken).
    pub since: Option<Timestamp>,
    /// Its rules.
    pub txt: Arc<RobotsTxt>,
    /// How it was obtained: a 404 allows everything, a 5xx nothing (RFC 9309 §2.3.1).
    pub availability: Availability,
}

/// The versions of a site's robots.txt, oldest first.
#[derive(Debug, Clone, Default)]
pub struct Timeline {
    versions: Vec<InForce>,
}

impl Timeline {
    /// The versions, in any order.
    #[must_use]
    pub fn new(mut versions: Vec<InForce>) -> Timeline {
        versions.sort_by_key(|version| version.since);
        Timeline { versions }
    }

    /// The versions, oldest first.
    #[must_use]
    pub fn versions(&self) -> &[InForce] {
        &self.versions
    }

    /// The version in force at `time`: the newest that came before it.
    #[must_use]
    pub fn in_force(&self, time: Timestamp) -> Option<usize> {
        let after = self.versions.partition_point(|version| version.since.is_none_or(|since| since <= time));
        after.checked_sub(1)
    }
}

/// What a request was, against the rules in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The rules allowed it.
    Allowed,
    /// The rules in force disallowed it.
    Violation,
    /// The rules in force disallowed it, but it came within the grace period after a
    /// change, and the version before allowed it: RFC 9309 §2.4 lets a crawler use a
    /// cached robots.txt for up to 24 hours.
    Tolerated,
    /// No version is known from before it.
    Unjudged,
}

impl Verdict {
    /// The word the outputs use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Violation => "violation",
            Verdict::Tolerated => "tolerated",
            Verdict::Unjudged => "unjudged",
        }
    }
}

/// A request's verdict, and what decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// The version in force (an index into the timeline).
    pub version: Option<usize>,
    /// The deciding line of that version, when a rule decided.
    pub line: Option<usize>,
    /// The deciding rule as written, or why no rule could decide (the file's status).
    pub rule: Option<String>,
}

/// Judges requests against a timeline, with a matcher per version and robot built once.
#[derive(Debug)]
pub struct Judge<'a> {
    timeline: &'a Timeline,
    grace: SignedDuration,
    matchers: HashMap<(usize, usize), Matcher>,
    matchers_bytes: usize,
}

/// The most memory the compiled rules kept may take.
const MATCHERS_BYTES: usize = 64 << 20;

/// A robot to judge requests for: its key in the caller's list, who it is, and the
/// reading it follows.
#[derive(Debug, Clone, Copy)]
pub struct Judged<'a> {
    /// A number that names the robot (its place in the caller's list).
    pub key: usize,
    /// The robot.
    pub robot: &'a Robot,
    /// The reading its rules are read under.
    pub reading: Reading,
}

impl<'a> Judge<'a> {
    /// A judge over `timeline` that tolerates requests up to `grace` after a change.
    #[must_use]
    pub fn new(timeline: &'a Timeline, grace: SignedDuration) -> Judge<'a> {
        Judge { timeline, grace, matchers: HashMap::new(), matchers_bytes: 0 }
    }

    /// The verdict on `robot` fetching `target` at `time`.
    pub fn judge(&mut self, robot: Judged<'_>, target: &str, time: Timestamp) -> Judgement {
        let Some(version) = self.timeline.in_force(time) else {
            return Judgement { verdict: Verdict::Unjudged, version: None, line: None, rule: None };
        };
        // RFC 9309 §2.2.2: the robots.txt itself is always fetched.
        if is_robots_txt(target) {
            return Judgement { verdict: Verdict::Allowed, version: Some(version), line: None, rule: None };
        }
        let (allowed, line, rule) = self.decide(version, robot, target);
        let verdict = if allowed {
            Verdict::Allowed
        } else if self.excused(version, robot, target, time) {
            Verdict::Tolerated
        } else {
            Verdict::Violation
        };
        Judgement { verdict, version: Some(version), line, rule }
    }

    /// True when `time` is within the grace period after `version` came into force and
    /// the version before allowed `target`.
    fn excused(&mut self, version: usize, robot: Judged<'_>, target: &str, time: Timestamp) -> bool {
        let Some(since) = self.timeline.versions[version].since else { return false };
        version > 0 && time.duration_since(since) < self.grace && self.decide(version - 1, robot, target).0
    }

    /// The rules of `version` for `robot`, compiled once, while the compiled rules kept
    /// stay under `MATCHERS_BYTES` (a log of many robots against a large robots.txt
    /// starts over rather than grow).
    pub fn matcher(&mut self, version: usize, robot: Judged<'_>) -> &Matcher {
        if !self.matchers.contains_key(&(version, robot.key)) {
            let txt = &self.timeline.versions[version].txt;
            let matcher = Matcher::for_robot(txt, robot.robot, robot.reading);
            let bytes = matcher.memory_bytes();
            if self.matchers_bytes + bytes > MATCHERS_BYTES {
                self.matchers.clear();
                self.matchers_bytes = 0;
            }
            self.matchers_bytes += bytes;
            self.matchers.insert((version, robot.key), matcher);
        }
        &self.matchers[&(version, robot.key)]
    }

    /// Whether `version` lets `robot` fetch `target`, with the deciding line and rule.
    fn decide(&mut self, version: usize, robot: Judged<'_>, target: &str) -> (bool, Option<usize>, Option<String>) {
        let in_force = &self.timeline.versions[version];
        match in_force.availability.access(robot.reading) {
            Access::AllowAll => return (true, None, None),
            Access::DisallowAll => return (false, None, Some(in_force.availability.reason(robot.reading))),
            Access::Rules => {}
        }
        let decision = self.matcher(version, robot).decide(target);
        let line = decision.line();
        let rule = line.and_then(|line| in_force.txt.lines().get(line - 1)).map(|found| {
            let text = String::from_utf8_lossy(found.content(in_force.txt.source()));
            text.trim().to_owned()
        });
        (decision.allowed(), line, rule)
    }
}

/// True when `target` (a path or a URL, as a log gives it) is the robots.txt.
#[must_use]
pub fn is_robots_txt(target: &str) -> bool {
    request::is_robots_txt(Request::new(target, UrlMode::AsCrawlersSend).tested())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(since: &str, text: &str) -> InForce {
        InForce {
            since: Some(since.parse().expect("time")),
            txt: Arc::new(RobotsTxt::parse(text.as_bytes().to_vec())),
            availability: Availability::Available,
        }
    }

    fn at(text: &str) -> Timestamp {
        text.parse().expect("time")
    }

    #[test]
    fn each_request_meets_the_version_of_its_time() {
        let timeline = Timeline::new(vec![
            version("2025-03-01T00:00:00Z", "User-agent: *\nDisallow: /b\n"),
            version("2025-01-01T00:00:00Z", "User-agent: *\nDisallow: /a\n"),
        ]);
        let robot = Robot::from_agent("bot");
        let judged = Judged { key: 0, robot: &robot, reading: Reading::Rfc9309 };
        let mut judge = Judge::new(&timeline, SignedDuration::from_hours(24));
        let verdict = |judge: &mut Judge, path, time| judge.judge(judged, path, at(time)).verdict;
        assert_eq!(verdict(&mut judge, "/a", "2024-12-31T23:59:59Z"), Verdict::Unjudged, "before any version");
        assert_eq!(verdict(&mut judge, "/a", "2025-02-01T00:00:00Z"), Verdict::Violation);
        assert_eq!(verdict(&mut judge, "/b", "2025-02-01T00:00:00Z"), Verdict::Allowed);
        // A day after the change, /b was allowed the day before: tolerated, then not.
        assert_eq!(verdict(&mut judge, "/b", "2025-03-01T12:00:00Z"), Verdict::Tolerated);
        assert_eq!(verdict(&mut judge, "/b", "2025-03-02T00:00:01Z"), Verdict::Violation);
        // The robots.txt itself is always allowed.
        assert_eq!(verdict(&mut judge, "/robots.txt?x", "2025-02-01T00:00:00Z"), Verdict::Allowed);
        let judgement = judge.judge(judged, "/b/c", at("2025-04-01T00:00:00Z"));
        assert_eq!(
            (judgement.line, judgement.rule.as_deref(), judgement.version),
            (Some(2), Some("Disallow: /b"), Some(1))
        );
    }

    #[test]
    fn a_status_version_applies_as_rfc_9309_says() {
        let mut gone = version("2025-02-01T00:00:00Z", "");
        gone.availability = Availability::Status(404);
        let mut failing = version("2025-03-01T00:00:00Z", "");
        failing.availability = Availability::Status(503);
        let timeline =
            Timeline::new(vec![version("2025-01-01T00:00:00Z", "User-agent: *\nDisallow: /\n"), gone, failing]);
        let robot = Robot::from_agent("bot");
        let judged = Judged { key: 0, robot: &robot, reading: Reading::Rfc9309 };
        let mut judge = Judge::new(&timeline, SignedDuration::ZERO);
        assert_eq!(judge.judge(judged, "/x", at("2025-02-10T00:00:00Z")).verdict, Verdict::Allowed, "404: no rules");
        let failed = judge.judge(judged, "/x", at("2025-03-10T00:00:00Z"));
        assert_eq!(failed.verdict, Verdict::Violation, "5xx: complete disallow");
        assert!(failed.rule.is_some_and(|why| why.contains("503")));
        assert!(is_robots_txt("https://example.com/robots.txt") && !is_robots_txt("/robots.txt.bak"));
    }
}
