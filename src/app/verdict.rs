//! The verdict on screen: the selected robot, reading and path evaluated under every
//! reading, with the usage preferences and what the bytes past 500 KiB would change.

use super::{
    Access, App, Areas, Availability, Document, Origin, Pane, Reading, RecordRow, Request, RobotsTxt, Source,
    UsageAnswer, UsageRules, Verdict, evaluate_fetched,
};

/// The verdict for the selected robot, reading and path, and how the other readings
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The path or URL as typed.
    pub given: String,
    /// How it was read, when that is worth saying (a relative path, an encoded one).
    pub note: Option<String>,
    /// The origin of a URL on another site than the loaded one, if the path was one.
    pub other_site: Option<String>,
    /// The verdict under the current reading (its `path` is the path as tested).
    pub verdict: Verdict,
    /// Whether the path is allowed under each reading, indexed by [`Reading::index`].
    pub allowed_by_reading: [bool; 3],
    /// The AI usage preferences for the path, when the robot's groups state any (RFC
    /// 9309 only; `None` when there is nothing to say).
    pub usage: Option<UsageAnswer>,
    /// What the whole file says, when the RFC 9309 reading stops at 500 KiB and the
    /// bytes past it would change the answer (its verdict or its deciding line).
    pub past_the_cut: Option<Verdict>,
}

impl Evaluation {
    /// True when the readings do not all agree.
    #[must_use]
    pub fn readings_disagree(&self) -> bool {
        self.allowed_by_reading.iter().any(|&a| a != self.allowed_by_reading[0])
    }
}

impl App {
    /// The origin (`https://host:port`) whose robots.txt is loaded, if it came from a
    /// site.
    pub(super) fn site_origin(&self) -> Option<String> {
        let url = match &self.document.origin {
            Origin::Site { url, .. } | Origin::Pending(Source::Site { robots_url: url, .. }) => url,
            Origin::Local(Source::Site { robots_url, .. }) => robots_url,
            _ => return None,
        };
        Some(url.origin().ascii_serialization())
    }

    /// Recomputes the verdict for the selected robot, reading and path, and scrolls it
    /// into view.
    pub(super) fn reevaluate(&mut self) {
        self.evaluate_in_place();
        self.reveal_verdict();
    }

    /// Recomputes the verdict and leaves the panes where they are: after an edit, the
    /// user's place in the file is where they work, not the verdict's line.
    pub(super) fn evaluate_in_place(&mut self) {
        let robot = self.robot().profile.robot();
        let reading = self.reading();
        let given = self.path().text().to_owned();
        let request = Request::read(&given);
        let other_site = self
            .site_origin()
            .filter(|site| request.is_on_another_site(site))
            .and_then(|_| request.origin().map(str::to_owned));
        let txt = &self.document.txt;
        let availability = self.document.availability;
        let verdict = evaluate_fetched(txt, availability, &robot, request.tested(), reading);
        let allowed_by_reading = Reading::ALL.map(|other| {
            if other == reading {
                verdict.allowed()
            } else {
                evaluate_fetched(txt, availability, &robot, request.tested(), other).allowed()
            }
        });
        let note = request.note();
        let usage = usage_of(txt, availability, &verdict, reading);
        let past_the_cut = (reading == Reading::Rfc9309 && txt.rfc9309_cut().is_some())
            .then(|| evaluate_fetched(&self.document.whole(), availability, &robot, request.tested(), reading))
            .filter(|whole| {
                whole.allowed() != verdict.allowed()
                    || whole.decided_by().map(|m| m.line()) != verdict.decided_by().map(|m| m.line())
            });
        self.evaluation = Evaluation { given, note, other_site, verdict, allowed_by_reading, usage, past_the_cut };
        self.tester_scroll = 0;
    }

    /// The line of the verdict: the deciding line, or else its group's first line.
    pub(super) fn verdict_line(&self) -> Option<usize> {
        verdict_line(&self.document, self.shown_verdict())
    }

    /// Scrolls the deciding line (or else the first group that applied) into view in the
    /// source, and its group into view in the records.
    pub(super) fn reveal_verdict(&mut self) {
        let verdict = self.shown_verdict().clone();
        self.reveal(&verdict, self.areas());
    }

    /// Scrolls `verdict`'s line into view in the source and its group in the records,
    /// the panes laid out as `areas` (the compare view shows the source too).
    pub(super) fn reveal(&mut self, verdict: &Verdict, areas: Areas) {
        let (group, line) = (verdict_group(verdict), verdict_line(&self.document, verdict));
        let txt = &self.document.txt;
        if let Some(line) = line {
            self.source_view.bring_into_view(line - 1, txt.lines().len(), areas.inner_height(Pane::Source));
        }
        if let Some(group) = group {
            // The deciding rule's row, or else the group's heading.
            let decider = verdict.decided_by().map(|m| RecordRow::Rule { group, rule: m.rule() });
            let rows = self.document.rows(verdict.reading());
            let row = decider
                .and_then(|target| rows.iter().position(|&row| row == target))
                .or_else(|| rows.iter().position(|row| row.group() == Some(group)));
            if let Some(row) = row {
                self.records_view.bring_into_view(row, rows.len(), areas.inner_height(Pane::Records));
            }
        }
    }
}

/// The group of a verdict: the deciding rule's, or else the first that applied.
fn verdict_group(verdict: &Verdict) -> Option<usize> {
    verdict.decided_by().map(|m| m.group()).or_else(|| verdict.selection().groups().first().copied())
}

/// The line of a verdict: the deciding line, or else its group's first line.
fn verdict_line(document: &Document, verdict: &Verdict) -> Option<usize> {
    let interpretation = document.txt.interpretation(verdict.reading());
    verdict
        .decided_by()
        .map(|m| m.line())
        .or_else(|| verdict_group(verdict).map(|g| interpretation.groups()[g].first_line()))
}

/// The usage preferences the tester shows for a verdict: under RFC 9309, when the groups
/// that apply state any (see [`crate::policy::usage`]).
pub(super) fn usage_of(
    txt: &RobotsTxt,
    availability: Availability,
    verdict: &Verdict,
    reading: Reading,
) -> Option<UsageAnswer> {
    if reading != Reading::Rfc9309 || availability.access(reading) != Access::Rules {
        return None;
    }
    let rules = UsageRules::of(txt, verdict.selection());
    if rules.is_empty() {
        return None;
    }
    Some(rules.answer_for(availability, verdict.allowed(), verdict.path()))
}
