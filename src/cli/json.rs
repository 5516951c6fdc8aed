//! JSON lines for the command line's `--json`: one object per line, and no character
//! that could drive a terminal.
//!
//! `serde_json` escapes the C0 controls (`\u001b`) but writes DEL, the C1 controls (U+009B
//! is a CSI to many terminals) and the bidi overrides as they are, and JSON output often
//! ends up on a terminal (`| jq` keeps them, `| less -R` shows them). [`write_line`]
//! escapes those as `\uXXXX` too; the JSON means the same. It also serialises into memory
//! first, so that a closed pipe surfaces as the `BrokenPipe` it is (serde's own error
//! would hide it) and the command can end quietly, as grep does.

use std::io::{self, Write};

use serde::Serialize;

use crate::policy::escape::is_unsafe;

/// Writes `value` as one line of JSON, every control character escaped.
pub fn write_line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    let mut line = Vec::with_capacity(256);
    let mut serializer = serde_json::Serializer::with_formatter(&mut line, TerminalSafe);
    // Into memory, so only a value serde cannot write can fail here.
    value.serialize(&mut serializer).map_err(io::Error::other)?;
    line.push(b'\n');
    out.write_all(&line)
}

/// Appends `value` as one line of JSON to `out`, every control character escaped.
pub fn write_into(out: &mut Vec<u8>, value: &impl Serialize) {
    let mut serializer = serde_json::Serializer::with_formatter(&mut *out, TerminalSafe);
    // Into memory, and the records are plain strings, numbers and booleans: serde
    // cannot fail on them.
    if value.serialize(&mut serializer).is_ok() {
        out.push(b'\n');
    }
}

/// The compact formatter, with DEL, C1 and bidi controls escaped in strings.
struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        // Nearly every fragment (a URL, a rule) is ASCII without DEL, which holds no
        // unsafe character: written as it is, without looking at each character.
        if fragment.is_ascii() && memchr::memchr(0x7f, fragment.as_bytes()).is_none() {
            return writer.write_all(fragment.as_bytes());
        }
        let mut safe_from = 0;
        for (at, c) in fragment.char_indices().filter(|&(_, c)| is_unsafe(c)) {
            writer.write_all(&fragment.as_bytes()[safe_from..at])?;
            // Every unsafe character is in the Basic Multilingual Plane: one escape each.
            write!(writer, "\\u{:04x}", u32::from(c))?;
            safe_from = at + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[safe_from..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_the_json_means_the_same() {
        let text = "a\u{1b}b\u{7f}c\u{9b}2J\u{202e}d\"é";
        let mut out = Vec::new();
        write_line(&mut out, &serde_json::json!({ "value": text })).expect("written");
        let line = String::from_utf8(out).expect("utf-8");
        assert_eq!(line, "{\"value\":\"a\\u001bb\\u007fc\\u009b2J\\u202ed\\\"é\"}\n");
        assert!(!line.chars().any(|c| is_unsafe(c) && c != '\n'));
        let back: serde_json::Value = serde_json::from_str(&line).expect("valid JSON");
        assert_eq!(back["value"], text);
    }
}
