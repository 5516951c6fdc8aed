//! The whole file: what it is (HTML, binary, UTF-16), its byte order marks, and what
//! RFC 9309's 500 KiB leaves unread.

use super::{
    ByteOrderMark, Code, Content, Edit, Fix, Line, Linter, PARSE_LIMIT_BYTES, Reading, RobotsTxt, Severity, content,
    lex,
};

impl Linter<'_> {
    pub(super) fn file(&mut self) {
        let source = self.txt.source();
        let whole = 0..source.len().min(1024);
        match content::sniff(source) {
            Content::Utf16 => {
                self.file_is_not_robots_txt = true;
                let odd = source.len() % 2 == 1;
                let fix = utf16_to_utf8(source).map(|text| Fix {
                    title: if odd {
                        "Convert the file to UTF-8 (its last byte, half a character, becomes \u{FFFD})".into()
                    } else {
                        "Convert the file to UTF-8".into()
                    },
                    edits: vec![Edit { span: 0..source.len(), replacement: text }],
                });
                self.push(
                    Code::Utf16File,
                    Severity::Error,
                    1,
                    0..2,
                    "The file is UTF-16. RFC 9309 asks for UTF-8 and no robot decodes UTF-16: every robot reads \
                     a NUL byte between the characters, so Google finds no rules at all and the 1994/1996 robots \
                     see no field names they know."
                        .to_owned(),
                    fix,
                );
                return;
            }
            Content::Html => {
                self.file_is_not_robots_txt = true;
                // Robots read a page line by line like any robots.txt: say what they find.
                let rules: usize =
                    self.txt.interpretation(Reading::Rfc9309).groups().iter().map(|g| g.rules().len()).sum();
                let what_robots_read = if rules == 0 {
                    "No reading finds rules in it, so every robot may fetch everything.".to_owned()
                } else {
                    format!(
                        "Robots read it line by line all the same and find {} in lines that look like robots.txt \
                         lines; no other line counts.",
                        if rules == 1 { "1 rule".to_owned() } else { format!("{rules} rules") }
                    )
                };
                self.push(
                    Code::HtmlFile,
                    Severity::Error,
                    1,
                    whole,
                    format!(
                        "The file is an HTML page, not a robots.txt (a server answering every URL with a page?). \
                         {what_robots_read}"
                    ),
                    None,
                );
                return;
            }
            Content::Binary => {
                self.file_is_not_robots_txt = true;
                self.push(
                    Code::BinaryFile,
                    Severity::Error,
                    1,
                    whole,
                    "The file is not text (an image or other binary data?). No reading finds rules in it, so every \
                     robot may fetch everything."
                        .to_owned(),
                    None,
                );
                return;
            }
            Content::Text => {}
        }
        if lex::byte_order_mark(source) == Some(ByteOrderMark::Utf8) {
            self.byte_order_marks();
        }
        if source.len() > PARSE_LIMIT_BYTES {
            self.content_past_500_kib();
        }
    }

    /// A file longer than RFC 9309 readers read: an error when what they leave unread
    /// changes a verdict, which is named (the whole file against its first 500 KiB, for
    /// every robot the file names).
    pub(super) fn content_past_500_kib(&mut self) {
        let source = self.txt.source();
        let line = self.txt.lines().iter().find(|l| l.end() > PARSE_LIMIT_BYTES).map_or(1, Line::number);
        let cut = RobotsTxt::parse(source.to_vec()).with_rfc9309_limit(Some(PARSE_LIMIT_BYTES));
        let effect = crate::impact::impact(self.txt, &cut);
        let (severity, what) = if effect.is_none() {
            (Severity::Warning, "which changes no verdict".to_owned())
        } else {
            (Severity::Error, format!("and reading only that much {effect}"))
        };
        self.push(
            Code::ContentPast500Kib,
            severity,
            line,
            PARSE_LIMIT_BYTES..source.len(),
            format!(
                "The file is {} bytes. RFC 9309 §2.5 lets robots stop at 500 KiB and Google does: they ignore \
                 line {line} on, {what}. 1994/1996 robots read every byte.",
                source.len()
            ),
            None,
        );
    }

    /// One or more UTF-8 byte order marks at the start of the file.
    pub(super) fn byte_order_marks(&mut self) {
        let marks = self.leading_boms;
        let first_is_field = self.classic_field.first().copied().flatten().is_some();
        let (severity, message) = match (marks, first_is_field) {
            (1, true) => (
                Severity::Warning,
                "The file starts with a UTF-8 byte order mark. Google skips it; 1994/1996 robots read it as \
                 part of the first field's name and ignore line 1."
                    .to_owned(),
            ),
            (1, false) => (
                Severity::Info,
                "The file starts with a UTF-8 byte order mark. Google skips it; line 1 holds no field, so no \
                 robot loses anything."
                    .to_owned(),
            ),
            (marks, _) => (
                Severity::Error,
                format!(
                    "The file starts with {marks} UTF-8 byte order marks. Google skips one and reads the \
                     others as part of the first field's name, and 1994/1996 robots skip none: no robot \
                     reads line 1."
                ),
            ),
        };
        let span = 0..3 * marks;
        let title = if marks == 1 { "Remove the byte order mark" } else { "Remove the byte order marks" };
        self.push(
            Code::Utf8Bom,
            severity,
            1,
            span.clone(),
            message,
            Some(Fix { title: title.into(), edits: vec![Edit { span, replacement: String::new() }] }),
        );
    }
}

/// The text of a UTF-16 file with a BOM, as UTF-8 without one.
pub(super) fn utf16_to_utf8(source: &[u8]) -> Option<String> {
    let little = source.starts_with(b"\xFF\xFE");
    let pairs = source[2..].chunks_exact(2);
    // An odd byte at the end is half a character: it is kept as U+FFFD, visibly, rather
    // than dropped in silence.
    let odd_byte = !pairs.remainder().is_empty();
    let units: Vec<u16> = pairs
        .map(
            |pair| if little { u16::from_le_bytes([pair[0], pair[1]]) } else { u16::from_be_bytes([pair[0], pair[1]]) },
        )
        .collect();
    let mut text = String::from_utf16(&units).ok()?;
    if odd_byte {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Some(text)
}
