//! What only the classic readings (1994, 1996) see: an empty Disallow that ends a
//! record's rules.

use super::{Code, Fix, Linter, RuleKind, Severity};

impl Linter<'_> {
    /// What only the classic readings see: an empty Disallow that ends the rules of a
    /// record for 1996 robots.
    pub(super) fn classic_records(&mut self) {
        for record in self.classic.groups() {
            let Some(empty) =
                record.rules().iter().position(|r| r.kind() == RuleKind::Disallow && r.value().is_empty())
            else {
                continue;
            };
            if empty + 1 < record.rules().len() {
                let rule = &record.rules()[empty];
                self.push(
                    Code::ShadowedRule,
                    Severity::Warning,
                    rule.line(),
                    self.line(rule.line()).span(),
                    "An empty Disallow allows everything to 1996 robots, which stop at the first matching line, \
                     so they never reach the rules after it; RFC 9309 and 1994 robots read it as no rule at all."
                        .to_owned(),
                    Some(Fix { title: "Remove the empty Disallow".into(), edits: vec![self.delete_line(rule.line())] }),
                );
            }
        }
    }
}
