//! Untrusted text written so that it shows what it is.
//!
//! A robots.txt comes from a stranger's server. Written raw to a terminal, an ESC byte
//! can move the cursor, retitle the window or, through OSC 52, write the user's
//! clipboard; a bidi override or a zero width space can make text read differently from
//! what it is (`Google<U+200B>bot` printed as `Googlebot`). The diagnostics quote a
//! file's text, so the core writes it safely itself: C0 controls but tab become caret
//! notation (`^[`), DEL becomes `^?`, C1 controls, bidi controls and invisible
//! characters (zero width, soft hyphen) become `<U+XXXX>`, and bytes that are not UTF-8
//! become `\xNN`. A program that shows a file's own text uses the same rules
//! ([`pieces`] to colour the escapes, [`sanitize`] for plain text).

use std::borrow::Cow;

/// A run of text, either safe as it is or the visible stand-in for unsafe bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text that may be written as it is.
    Text(Cow<'a, str>),
    /// The visible form of a control character or an invalid byte; the UI shows it in a
    /// warning colour.
    Escaped(String),
}

/// True for characters that must not reach a terminal raw: C0 controls but tab, DEL,
/// C1 controls, the bidi embedding, override and isolate controls, and the invisible
/// characters (`is_invisible`), which would make `Google<U+200B>bot` print as
/// `Googlebot`.
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    matches!(c, '\0'..='\x08' | '\x0A'..='\x1F' | '\x7F' | '\u{80}'..='\u{9F}')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        // The line and paragraph separators: a line break to some terminals.
        || matches!(c, '\u{2028}' | '\u{2029}')
        || is_invisible(c)
}

/// True for the characters that take no room and change no glyph, but are characters
/// all the same: Unicode's default-ignorable code points (zero width space, non-joiner
/// and joiner, word joiner, zero width no-break space (a byte order mark anywhere but
/// the start), the soft hyphen, variation selectors, fillers, tags, ...), the bidi
/// controls aside ([`is_unsafe`] lists them). Inside a robot's name or a path they make
/// it mean something other than what it shows.
#[must_use]
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206A}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// The visible stand-in for an unsafe character.
#[must_use]
pub fn visible(c: char) -> String {
    match c {
        '\0'..='\x1F' => format!("^{}", char::from(c as u8 + 0x40)),
        '\x7F' => "^?".to_owned(),
        _ => format!("<U+{:04X}>", u32::from(c)),
    }
}

/// Splits untrusted bytes into safe text and escapes.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::escape::{pieces, Piece};
/// let parts = pieces(b"a\x1b]52;c;b3duZWQ=\x07b\xff");
/// assert_eq!(parts[0], Piece::Text("a".into()));
/// assert_eq!(parts[1], Piece::Escaped("^[".into()));
/// assert!(parts.iter().all(|p| !matches!(p, Piece::Text(t) if t.contains('\x1b'))));
/// assert_eq!(parts.last(), Some(&Piece::Escaped("\\xFF".into())));
/// # }
/// ```
#[must_use]
pub fn pieces(bytes: &[u8]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        let mut safe_from = 0;
        for (at, c) in valid.char_indices() {
            if is_unsafe(c) {
                if safe_from < at {
                    out.push(Piece::Text(Cow::Borrowed(&valid[safe_from..at])));
                }
                out.push(Piece::Escaped(visible(c)));
                safe_from = at + c.len_utf8();
            }
        }
        if safe_from < valid.len() {
            out.push(Piece::Text(Cow::Borrowed(&valid[safe_from..])));
        }
        for &byte in chunk.invalid() {
            out.push(Piece::Escaped(format!("\\x{byte:02X}")));
        }
    }
    out
}

/// Untrusted bytes as one safe string, escapes inline (for plain output such as the
/// command line's).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use robotscope_core::escape::sanitize;
/// assert_eq!(sanitize(b"/a\x1b[2J"), "/a^[[2J");
/// assert_eq!(sanitize("caf\u{e9}".as_bytes()), "caf\u{e9}");
/// # }
/// ```
#[must_use]
pub fn sanitize(bytes: &[u8]) -> Cow<'_, str> {
    // Printable ASCII and tabs, the common case, checked a byte at a time (millions of
    // lint messages go through here).
    if bytes.iter().all(|&b| (b' '..0x7F).contains(&b) || b == b'\t') {
        return Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or_default());
    }
    if let Ok(text) = std::str::from_utf8(bytes)
        && !text.chars().any(is_unsafe)
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        pieces(bytes)
            .into_iter()
            .map(|piece| match piece {
                Piece::Text(text) => text.into_owned(),
                Piece::Escaped(escape) => escape,
            })
            .collect(),
    )
}

/// [`sanitize`] for text that is already a `str`.
#[must_use]
pub fn sanitize_str(text: &str) -> Cow<'_, str> {
    // Text is UTF-8 already: printable ASCII and tabs need no second look.
    if text.bytes().all(|b| (b' '..0x7F).contains(&b) || b == b'\t') {
        return Cow::Borrowed(text);
    }
    sanitize(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From the attack on issue 26: tag characters, variation selectors, fillers and
    /// the line separators reached the terminal as they were.
    #[test]
    fn every_default_ignorable_character_and_the_separators_are_escaped() {
        for c in ['\u{E0041}', '\u{FE0F}', '\u{2064}', '\u{180E}', '\u{034F}', '\u{3164}', '\u{1D173}', '\u{2028}'] {
            let text = format!("/x{c}y");
            assert_eq!(sanitize_str(&text), format!("/x<U+{:04X}>y", u32::from(c)), "{c:?}");
        }
        // Bidi controls stay what they were: unsafe, not invisible.
        assert!(is_unsafe('\u{2066}') && !is_invisible('\u{2066}'));
        assert_eq!(sanitize_str("/日本"), "/日本");
    }

    #[test]
    fn every_control_is_escaped() {
        for byte in (0u8..0x20).filter(|&b| b != b'\t').chain([0x7F]) {
            let input = [b'a', byte, b'b'];
            let out = sanitize(&input);
            assert!(!out.bytes().any(|b| b < 0x20 && b != b'\t' || b == 0x7F), "{byte:#x} -> {out:?}");
        }
        assert_eq!(sanitize("\u{202E}evil".as_bytes()), "<U+202E>evil");
        assert_eq!(sanitize("\u{9B}31m".as_bytes()), "<U+009B>31m");
        assert_eq!(sanitize(b"tab\there"), "tab\there");
    }
}
