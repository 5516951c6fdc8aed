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

/// `500,000`: a count with its thousands marked, for counts a person reads at a glance
/// (the explorer's).
#[cfg(feature = "tool")]
#[must_use]
pub fn grouped(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "tool")]
    #[test]
    fn grouped_examples() {
        assert_eq!([grouped(0), grouped(999), grouped(1000), grouped(500_000)], ["0", "999", "1,000", "500,000"]);
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn plural_examples() {
        assert_eq!(plural(1, "problem"), "1 problem");
        assert_eq!(plural(2, "fix"), "2 fixes");
        assert_eq!(plural(0, "diagnostic"), "0 diagnostics");
    }
}
