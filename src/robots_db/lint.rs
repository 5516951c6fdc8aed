//! What the registry knows about the robots a file names (issue 37): the traps of the
//! AI era that the file's text alone cannot show. A robot of today whose own group
//! drops the `*` group's rules, a search crawler blocked beside its
//! operator's AI control token (Applebot where Applebot-Extended was meant), a retired
//! name without its successor, a robot documented as ignoring robots.txt, a name one or
//! two letters from a known robot's. The diagnostics join `lint`'s. A near miss and a
//! retired name have a fix (the name the registry knows; the successor named beside
//! it), which `lint` checks with the impact machinery and shows with what it changes,
//! and `fix` applies ([`registry_fixes`]); the others say what to change, since only
//! the author knows what was meant.

use crate::policy::lint::{Diagnostic, Edit, Fix, Severity};
use crate::policy::{AgentName, Code, Reach, Reading, RobotsTxt, edit_distance, named_robot};

use super::{Obeys, Purpose, RobotProfile, RobotsDb};

/// The registry's diagnostics for the robots `txt` names under RFC 9309.
#[must_use]
pub fn registry_diagnostics(txt: &RobotsTxt, db: &RobotsDb) -> Vec<Diagnostic> {
    let interpretation = txt.interpretation(Reading::Rfc9309);
    // Every name written on a User-agent line, with its line and span.
    let mut named: Vec<(String, usize, std::ops::Range<usize>)> = Vec::new();
    for group in interpretation.groups() {
        for agent in group.agents() {
            if let AgentName::Name(_) = agent.name() {
                let written = String::from_utf8_lossy(txt.text(&agent.value())).trim().to_owned();
                named.push((written, agent.line(), agent.value()));
            }
        }
    }
    // Too many names to be a hand-written file: a list of names is not linted by name.
    if named.len() > 2_000 {
        return Vec::new();
    }
    let names = |profile: &RobotProfile| {
        named.iter().any(|(written, _, _)| profile.is_named(written) || profile.written().eq_ignore_ascii_case(written))
    };
    // Today's robots whose own group drops the `*` group's rules.
    let today = |name: &str| db.find(name).is_some_and(|profile| profile.era == super::Era::Today);
    let mut out = crate::policy::lint::star_rules_dropped(txt, &today);
    for (written, line, span) in &named {
        let Some(profile) = db.find(written) else {
            if let Some(near) = near_miss(db, written) {
                let diagnostic = Diagnostic::new(
                    Code::NearMissToken,
                    Severity::Warning,
                    *line,
                    span.clone(),
                    format!(
                        "No robot robotscope knows is called `{written}`, and robots match names exactly (RFC 9309 \
                         §2.2.1): did you mean {} ({})?",
                        near.written(),
                        near.operator
                    ),
                );
                let write = Edit::new(span.clone(), near.written());
                out.push(diagnostic.with_fix(Fix::new(format!("Write {}", near.written()), vec![write])));
            }
            continue;
        };
        if let Some(successor) = &profile.retired_for
            && !db.find(successor).is_some_and(names)
        {
            let diagnostic = Diagnostic::new(
                Code::RetiredToken,
                Severity::Warning,
                *line,
                span.clone(),
                format!(
                    "{} is retired; its operator's crawler now is {successor}, which no group names, so it reads \
                     the * group. Name {successor} here too.",
                    profile.name
                ),
            );
            out.push(diagnostic.with_fix(name_beside(txt, *line, successor)));
        }
        if profile.obeys == Obeys::No {
            out.push(Diagnostic::new(
                Code::RobotIgnoresRobotsTxt,
                Severity::Info,
                *line,
                span.clone(),
                format!(
                    "{} is documented as not obeying robots.txt: these rules will not stop it (robotscope audit \
                     shows whether it came; a firewall rule does stop it).",
                    profile.name
                ),
            ));
        }
        if profile.serves(Purpose::Search) && !profile.control_only {
            let blocked = Reach::of(txt, &named_robot(profile.written()), Reading::Rfc9309) == Reach::Nothing;
            let control = db
                .profiles()
                .iter()
                .find(|other| other.control_only && other.operator == profile.operator && names(other));
            if let (true, Some(control)) = (blocked, control) {
                let diagnostic = Diagnostic::new(
                    Code::SearchCrawlerBlocked,
                    Severity::Warning,
                    *line,
                    span.clone(),
                    format!(
                        "{} is {}'s search crawler, and this file blocks it: the site leaves their search. {} (named \
                         here too) is the switch for their AI use, and fetches nothing itself; if keeping AI out was \
                         the aim, {} need not be blocked.",
                        profile.name, profile.operator, control.name, profile.name
                    ),
                );
                out.push(match leave_out(txt, *line, &profile.name) {
                    Some(fix) => diagnostic.with_fix(fix),
                    None => diagnostic,
                });
            }
        }
    }
    out
}

/// A fix that names `token` on a User-agent line of its own after line `line` (in the
/// same group), ending as the file's lines end.
fn name_beside(txt: &RobotsTxt, line: usize, token: &str) -> Fix {
    let source = txt.source();
    let Some(at) = txt.lines().get(line - 1) else {
        return Fix::new(format!("Name {token} here too"), Vec::new());
    };
    let end = match at.line_end(source) {
        crate::policy::lex::LineEnd::CrLf => "\r\n",
        crate::policy::lex::LineEnd::Cr => "\r",
        _ => "\n",
    };
    let replacement = if at.line_end(source) == crate::policy::lex::LineEnd::None {
        format!("{end}User-agent: {token}")
    } else {
        format!("User-agent: {token}{end}")
    };
    Fix::new(format!("Name {token} here too"), vec![Edit::new(at.end()..at.end(), replacement)])
}

/// A fix that takes the User-agent line `line` (naming `name`) out of its group, when the
/// group names others, who keep it.
fn leave_out(txt: &RobotsTxt, line: usize, name: &str) -> Option<Fix> {
    let group = txt
        .interpretation(Reading::Rfc9309)
        .groups()
        .iter()
        .find(|group| group.agents().iter().any(|agent| agent.line() == line))?;
    let at = txt.lines().get(line - 1).filter(|_| group.agents().len() > 1)?;
    Some(Fix::new(format!("Leave {name} out of this group"), vec![Edit::new(at.start()..at.end(), "")]))
}

/// True for the diagnostics whose fix `lint` offers and `robotscope fix` leaves to the
/// author: whether a robot was meant to be freed from the `*` group's rules, or a search
/// crawler blocked, the file cannot show.
#[must_use]
pub fn fix_leaves_it(code: Code) -> bool {
    matches!(code, Code::GroupDropsStarRules | Code::SearchCrawlerBlocked)
}

/// The text with the registry's fixes that can be made together made, and how many
/// (for `robotscope fix`, after the file's own fixes).
#[must_use]
pub fn registry_fixes(txt: &RobotsTxt, db: &RobotsDb) -> (Vec<u8>, usize) {
    // Only the fixes whose aim the file shows: the name meant, the successor of the name
    // written. Whether a robot was meant to be freed from the `*` group's rules, or a
    // search crawler blocked, only the author knows: `lint` offers those.
    let diagnostics: Vec<Diagnostic> =
        registry_diagnostics(txt, db).into_iter().filter(|d| !fix_leaves_it(d.code())).collect();
    let fixes = crate::policy::fix::compatible_fixes(&diagnostics);
    let edits: Vec<Edit> = fixes.iter().flat_map(|fix| fix.edits().iter().cloned()).collect();
    (crate::policy::fix::apply_edits(txt.source(), &edits), fixes.len())
}

/// The registry's robot whose name `written` misses by a letter or two (by one in a
/// name of up to seven letters), when one does: `GPTBott`, `ClaudBot`.
fn near_miss<'a>(db: &'a RobotsDb, written: &str) -> Option<&'a RobotProfile> {
    let wanted = written.to_ascii_lowercase();
    let limit = if wanted.len() <= 7 { 1 } else { 2 };
    db.profiles()
        .iter()
        .filter(|profile| profile.written().len() >= 5 && profile.written().len().abs_diff(wanted.len()) <= limit)
        .map(|profile| (edit_distance(&wanted, &profile.written().to_ascii_lowercase()), profile))
        .filter(|&(distance, _)| distance > 0 && distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, profile)| profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(Code, usize)> {
        let txt = RobotsTxt::parse(text.as_bytes().to_vec());
        registry_diagnostics(&txt, &RobotsDb::embedded()).iter().map(|d| (d.code(), d.line())).collect()
    }

    /// A near miss gets the name the registry knows; a retired name its successor beside
    /// it; and the fixed file has neither diagnostic.
    #[test]
    fn near_misses_and_retired_names_are_fixed() {
        let db = RobotsDb::embedded();
        let txt = RobotsTxt::parse(b"User-agent: GPTBott\nUser-agent: anthropic-ai\r\nDisallow: /\n".to_vec());
        let (fixed, count) = registry_fixes(&txt, &db);
        assert_eq!(count, 2);
        let fixed = String::from_utf8(fixed).expect("utf-8");
        assert_eq!(fixed, "User-agent: GPTBot\nUser-agent: anthropic-ai\r\nUser-agent: ClaudeBot\r\nDisallow: /\n");
        assert!(codes(&fixed).is_empty(), "{:?}", codes(&fixed));
        let last_line = RobotsTxt::parse(b"User-agent: anthropic-ai".to_vec());
        let (fixed, _) = registry_fixes(&last_line, &db);
        assert_eq!(fixed, b"User-agent: anthropic-ai\nUser-agent: ClaudeBot");
    }

    /// The traps of issue 37, each found, and nothing said of a file without them.
    #[test]
    fn the_ai_era_traps_are_found() {
        let applebot = "User-agent: Applebot\nUser-agent: Applebot-Extended\nDisallow: /\n";
        assert_eq!(codes(applebot), [(Code::SearchCrawlerBlocked, 1)]);
        let retired = "User-agent: anthropic-ai\nDisallow: /\n";
        assert_eq!(codes(retired), [(Code::RetiredToken, 1)]);
        assert!(codes("User-agent: anthropic-ai\nUser-agent: ClaudeBot\nDisallow: /\n").is_empty());
        assert_eq!(codes("User-agent: Bytespider\nDisallow: /\n"), [(Code::RobotIgnoresRobotsTxt, 1)]);
        assert_eq!(codes("User-agent: *\nAllow: /\n\nUser-agent: GPTBott\nDisallow: /\n"), [(Code::NearMissToken, 4)]);
        let dropped = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /tmp/\n";
        assert_eq!(codes(dropped), [(Code::GroupDropsStarRules, 4)]);
        // The 1990s' "a group per robot, * for all other robots" is deliberate.
        let nineties = "User-agent: sidewinder\nDisallow: /a/\n\nUser-agent: *\nDisallow: /a/\nDisallow: /b/\n";
        assert!(codes(nineties).is_empty(), "{:?}", codes(nineties));
        let fine = "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n";
        assert!(codes(fine).is_empty(), "{:?}", codes(fine));
    }
}
