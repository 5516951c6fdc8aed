//! CSV cells for every `--csv` of the command line: one guard, so that no writer can
//! forget it (issue 35: the sitemaps CSV wrote a remote sitemap's `=HYPERLINK(...)` as a
//! live formula).
//!
//! Every cell from outside (a URL, a path, a User-Agent, a lastmod, a rule) is escaped
//! like every text output (a CSV often lands on a terminal), and one a spreadsheet would
//! take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a `'`
//! in front, as OWASP advises against CSV injection.

use std::borrow::Cow;

use crate::policy::escape::sanitize_str;

/// `text` made safe for a spreadsheet and a terminal, not quoted.
fn guarded(text: &str) -> Cow<'_, str> {
    let text = sanitize_str(text);
    // A lone `-` (an empty field in a log) is no formula.
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) && text != "-" {
        Cow::Owned(format!("'{text}"))
    } else {
        text
    }
}

/// A cell always in quotes (quotes inside doubled).
#[must_use]
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", guarded(text).replace('"', "\"\""))
}

/// A cell in quotes only when it needs them (a comma, a quote or a line break in it).
#[must_use]
pub fn plain(text: &str) -> String {
    let text = guarded(text);
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_text_and_controls_are_escaped() {
        assert_eq!(quoted("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(plain("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(plain("+1"), "'+1");
        assert_eq!(plain("-"), "-");
        assert_eq!(plain("a,b"), "\"a,b\"");
        assert_eq!(plain("/path"), "/path");
        assert_eq!(quoted("\u{1b}]52;c;x\u{7}"), "\"^[]52;c;x^G\"");
    }
}
