//! Every `--csv` of the command line writes its records here: one writer (the csv
//! crate's: RFC 4180, a field quoted only when it holds a comma, a quote or a line
//! break) and one guard, so that no command can forget it (issue 35: the sitemaps CSV
//! wrote a remote sitemap's `=HYPERLINK(...)` as a live formula).
//!
//! A field from outside ([`Field::Text`]: a URL, a path, a User-Agent, a lastmod, a
//! rule) is escaped like every text output (a CSV often lands on a terminal), and one a
//! spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
//! first) gets a `'` in front, as OWASP advises against CSV injection. A field the tool
//! writes itself ([`Field::Value`]: a number, a verdict, a reading's name) goes as it is.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::policy::escape::sanitize_str;

/// One field of a record.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    /// Text from outside: guarded.
    Text(&'a str),
    /// A value the tool wrote: as it is.
    Value(&'a str),
}

/// `text` made safe for a spreadsheet and a terminal.
fn guarded(text: &str) -> Cow<'_, str> {
    let text = sanitize_str(text);
    // A lone `-` (an empty field in a log) is no formula.
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) && text != "-" {
        Cow::Owned(format!("'{text}"))
    } else {
        text
    }
}

/// Writes one record, ended by a line feed.
pub fn write_record<'a>(out: &mut dyn Write, fields: impl IntoIterator<Item = Field<'a>>) -> io::Result<()> {
    // The record goes out whole before the call returns, so that it keeps its place
    // among other writes to `out` (the csv writer buffers until it is flushed).
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    for field in fields {
        let field = match field {
            Field::Text(text) => guarded(text),
            Field::Value(value) => Cow::Borrowed(value),
        };
        writer.write_field(field.as_bytes()).map_err(io_error)?;
    }
    // An empty record ends the one the fields began.
    writer.write_record(std::iter::empty::<&[u8]>()).map_err(io_error)?;
    writer.flush()
}

/// The writer's error as the I/O error it is, kind and all: a reader that went away
/// (`| head`) is a broken pipe, which every command ends on quietly.
fn io_error(error: csv::Error) -> io::Error {
    match error.into_kind() {
        csv::ErrorKind::Io(error) => error,
        // Writing fields raises nothing else; should it, it is said as it is.
        kind => io::Error::other(format!("{kind:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(fields: &[Field<'_>]) -> String {
        let mut out = Vec::new();
        write_record(&mut out, fields.iter().copied()).expect("written to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn formulas_are_text_and_controls_are_escaped() {
        use Field::{Text, Value};
        assert_eq!(record(&[Text("=HYPERLINK(\"http://x\")"), Value("1")]), "\"'=HYPERLINK(\"\"http://x\"\")\",1\n");
        assert_eq!(record(&[Text("@SUM(A1)"), Text("+1"), Text("-")]), "'@SUM(A1),'+1,-\n");
        assert_eq!(record(&[Text("a,b"), Text("/path"), Value("-1")]), "\"a,b\",/path,-1\n");
        assert_eq!(record(&[Text("\u{1b}]52;c;x\u{7}")]), "^[]52;c;x^G\n");
        assert_eq!(record(&[Text(""), Value("")]), ",\n");
    }

    /// From the attack on issue 39: a record longer than the writer's buffer met a closed
    /// pipe while the buffer filled, and the error lost its kind, so `| head` ended
    /// `compare` and `survey` with an error instead of quietly.
    #[test]
    fn a_closed_pipe_stays_a_broken_pipe_mid_record() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let long = "/".repeat(100_000);
        let error = write_record(&mut Closed, [Field::Text(&long), Field::Value("x")]).expect_err("the pipe is closed");
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }

    /// What is written reads back as the same fields, through the csv crate's reader.
    #[test]
    fn a_record_reads_back_whole() {
        let fields = ["/a b", "x\"y", "line\nbreak", "", "caf\u{e9}"];
        let written = record(&fields.map(Field::Text));
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(written.as_bytes());
        let read: Vec<String> =
            reader.records().next().expect("a record").expect("valid").iter().map(str::to_owned).collect();
        // The line feed is a control character: escaped, as on every output.
        assert_eq!(read, ["/a b", "x\"y", "line^Jbreak", "", "caf\u{e9}"]);
    }
}
