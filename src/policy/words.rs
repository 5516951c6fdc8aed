//! Small helpers for the words robotscope writes: counts with the right plural.

/// "1 error", "2 errors", "0 fixes": a count and its noun, plural unless the count is 1.
#[must_use]
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        return format!("1 {noun}");
    }
    let suffix = if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") { "es" } else { "s" };
    format!("{count} {noun}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_examples() {
        assert_eq!(plural(1, "problem"), "1 problem");
        assert_eq!(plural(2, "fix"), "2 fixes");
        assert_eq!(plural(0, "diagnostic"), "0 diagnostics");
    }
}
