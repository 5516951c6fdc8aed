//! What the tester says under the verdict: how the path was read and tested (when that
//! is not what was typed), whose rules answer, the explanation, the group, the rules
//! that matched and lost. The
//! verdict and the readings line stay on screen; these lines scroll under them, so the
//! app words them and wraps them to the pane's width here, where scrolling is decided,
//! and the UI only colours them.

use super::{App, Pane};
use crate::policy::escape::char_columns;
use crate::policy::usage::UsageAnswer;
use crate::policy::verdict::describe_selection;

/// What a line of the tester's details says, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetailKind {
    /// How the text was read and the path exactly as tested.
    Tested,
    /// A warning: a URL on another site.
    OtherSite,
    /// The group that applied.
    Group,
    /// The verdict in words.
    Explanation,
    /// The rules that matched and lost.
    AlsoMatched,
    /// What the robot may do with what it fetches (AI usage preferences).
    Usage,
    /// A warning: the bytes past the RFC 9309 limit would change the answer, or the
    /// file was read only in part.
    PastTheCut,
}

/// One line of the tester's details, wrapped to the pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailLine {
    /// What it says.
    pub kind: DetailKind,
    /// The label, on the first line of a detail only ("Tested", "Group").
    pub label: &'static str,
    /// The text (untrusted: the UI escapes it).
    pub text: String,
}

/// Columns the labels take, so that wrapped text lines up under the first line's.
pub const LABEL_COLUMNS: usize = 9;

impl App {
    /// The tester's details, each wrapped to `width` columns (the pane's inner width).
    #[must_use]
    pub fn tester_details(&self, width: usize) -> Vec<DetailLine> {
        let evaluation = &self.evaluation;
        let verdict = &evaluation.verdict;
        let txt = &self.document.txt;
        let reading = self.reading();
        let interpretation = txt.interpretation(reading);
        let mut details: Vec<(DetailKind, &'static str, String)> = Vec::new();
        // The path exactly as tested, when it is not what the field shows.
        if let Some(note) = &evaluation.note {
            details.push((DetailKind::Tested, "Tested", format!("{} ({note})", verdict.path())));
        }
        if let Some(other) = &evaluation.other_site {
            let site = self.site_origin().unwrap_or_default();
            details.push((
                DetailKind::OtherSite,
                "Note",
                format!(
                    "a URL on {other}, answered here by the robots.txt of {site}; robots ask {other}/robots.txt \
                     (o opens it)"
                ),
            ));
        }
        if let (Some(whole), Some(cut)) = (&evaluation.past_the_cut, txt.rfc9309_cut()) {
            let word = if whole.allowed() { "allowed" } else { "disallowed" };
            let line =
                whole.decided_by().map_or_else(|| "no rule matches".to_owned(), |m| format!("line {}", m.line()));
            details.push((
                DetailKind::PastTheCut,
                "500 KiB",
                format!(
                    "only the first {cut} bytes count, as Google reads a robots.txt (RFC 9309 §2.5); the whole file \
                     says {word} ({line}). robotscope --whole-file reads every byte."
                ),
            ));
        }
        if let Some(warning) = &self.document.read_in_part {
            details.push((DetailKind::PastTheCut, "Cut", upper_first(warning)));
        }
        let robot = self.robot().profile.robot();
        let group = describe_selection(interpretation, verdict.selection(), &robot, reading);
        if let Some(usage) = &evaluation.usage {
            details.push((DetailKind::Usage, "Usage", usage_text(usage)));
        }
        details.push((DetailKind::Explanation, "Why", verdict.explanation().to_owned()));
        details.push((DetailKind::Group, "Group", upper_first(&group)));
        if !verdict.losers().is_empty() {
            let lost: Vec<String> = verdict
                .losers()
                .iter()
                .map(|m| {
                    let rule = &interpretation.groups()[m.group()].rules()[m.rule()];
                    format!("line {} {}", m.line(), txt.rule_text(rule))
                })
                .collect();
            details.push((DetailKind::AlsoMatched, "Also", format!("matched and lost: {}", lost.join(" · "))));
        }
        let text_width = width.saturating_sub(LABEL_COLUMNS + 1).max(8);
        details
            .into_iter()
            .flat_map(|(kind, label, text)| {
                wrap(&text, text_width).into_iter().enumerate().map(move |(index, text)| DetailLine {
                    kind,
                    label: if index == 0 { label } else { "" },
                    text,
                })
            })
            .collect()
    }

    /// How many detail lines the tester shows under its fixed lines (the path, the
    /// verdict, the readings).
    #[must_use]
    pub fn tester_detail_rows(&self) -> usize {
        self.areas().inner_height(Pane::Tester).saturating_sub(3)
    }

    /// The first detail line shown, kept so that the last line can reach the bottom and
    /// no further.
    #[must_use]
    pub fn tester_first_detail(&self) -> usize {
        let width = usize::from(self.areas().tester.width.saturating_sub(2));
        let count = self.tester_details(width).len();
        self.tester_scroll.min(count.saturating_sub(self.tester_detail_rows()))
    }
}

/// The usage preferences in words: `train-ai disallowed (line 2) · search allowed (line
/// 2) · ai-input unknown`, or why there are none.
#[must_use]
pub fn usage_text(usage: &UsageAnswer) -> String {
    match usage {
        UsageAnswer::Stated(usage) => usage.to_string(),
        UsageAnswer::NotFetched => "none: a path the robot may not fetch has no preferences".to_owned(),
        UsageAnswer::NotRead => "the 1994 and 1996 readings know no usage preferences".to_owned(),
    }
}

/// Greedy word wrap to `width` columns; a word longer than a line is cut.
#[must_use]
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in text.split(' ') {
        let word_columns: usize = word.chars().map(char_columns).sum();
        let space = usize::from(!line.is_empty());
        if used + space + word_columns <= width {
            if space == 1 {
                line.push(' ');
            }
            line.push_str(word);
            used += space + word_columns;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        for c in word.chars() {
            let c_columns = char_columns(c);
            if used + c_columns > width && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            line.push(c);
            used += c_columns;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` with its first letter in upper case: a sentence made of a lower-case message.
pub(super) fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_and_cuts_long_ones() {
        assert_eq!(wrap("a bb ccc", 4), ["a bb", "ccc"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("a\u{1b}b", 3), ["a\u{1b}", "b"], "an escape is drawn as two columns");
    }
}
