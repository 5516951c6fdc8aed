//! Two versions of a file as a unified diff: the fixes shown before they are applied,
//! the edits asked about before they are dropped, a site's robots.txt between two
//! fetches.

/// A unified diff of two versions of a file (`--- a/NAME`, `+++ b/NAME`), three lines
/// of context; empty when they are equal.
#[must_use]
pub fn unified_diff(old: &[u8], new: &[u8], name: &str) -> String {
    unified_diff_between(old, new, &format!("a/{name}"), &format!("b/{name}"))
}

/// A unified diff under the headers `--- OLD_LABEL`, `+++ NEW_LABEL`, three lines of
/// context; empty when the texts are equal.
#[must_use]
pub fn unified_diff_between(old: &[u8], new: &[u8], old_label: &str, new_label: &str) -> String {
    if old == new {
        return String::new();
    }
    let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
    similar::TextDiff::from_lines(old.as_ref(), new.as_ref())
        .unified_diff()
        .context_radius(3)
        .header(old_label, new_label)
        .to_string()
}
