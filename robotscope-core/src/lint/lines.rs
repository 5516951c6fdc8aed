//! Line by line: the bytes of each line, its field, the User-agent names and the rule
//! values, with the near misses of field names.

use std::fmt::Write as _;

use super::{
    Code, Edit, Field, FieldKind, Fix, Line, Linter, RFC9309_MAX_LINE_BYTES, Range, RequestRate, Separator, Severity,
    Spelling, VisitTime, crawl_delay, is_valid_token, product_token,
};

/// Robot names known to contain spaces (`assets/multi-word-robots.txt`), one per line.
pub(super) const MULTI_WORD_ROBOTS: &str = include_str!("../../../assets/multi-word-robots.txt");

/// Fields robots are told about in robots.txt that no major robot honours there.
pub(super) const UNSUPPORTED_FIELDS: &[&str] = &["noindex", "nofollow", "noarchive", "nosnippet", "index", "follow"];

impl Linter<'_> {
    pub(super) fn lines(&mut self) {
        for index in 0..self.txt.lines().len() {
            let line = self.txt.lines()[index];
            self.bytes_of_line(&line);
            let rfc = self.rfc_field[index].map(|f| &self.rfc.fields()[f]);
            let classic = self.classic_field[index].map(|f| &self.classic.fields()[f]);
            // A line only the classic readings read as a field is one Google cut short
            // (a NUL, or past its line limit): the byte checks above said so already.
            if let Some(field) = rfc {
                self.field(field, classic);
            }
        }
    }

    pub(super) fn bytes_of_line(&mut self, line: &Line) {
        let content = line.content(self.txt.source());
        if content.len() > RFC9309_MAX_LINE_BYTES {
            self.push(
                Code::LongLine,
                Severity::Warning,
                line.number(),
                line.start() + RFC9309_MAX_LINE_BYTES..line.content_end(),
                format!(
                    "Line {} is {} bytes long. Google reads the first {RFC9309_MAX_LINE_BYTES} bytes of a line and \
                     drops the rest; 1994/1996 robots read it whole.",
                    line.number(),
                    content.len()
                ),
                None,
            );
        }
        if let Some(nul) = memchr::memchr(0, content) {
            // Google keeps each line in a C string, so the NUL ends it; the fix cuts the
            // line there, which keeps Google's reading and gives the classic robots the
            // same one (for them the NUL was a character of a path no URL holds).
            let kept = String::from_utf8_lossy(&content[..nul]).into_owned();
            self.push(
                Code::NulByte,
                Severity::Warning,
                line.number(),
                line.start() + nul..line.start() + nul + 1,
                format!(
                    "A NUL byte: Google's parser ends the line there and reads `{kept}`; 1994/1996 robots keep the NUL \
                     as a character, so a path holding it matches no URL for them. Cutting the line at the NUL keeps \
                     Google's verdicts and gives 1994/1996 robots the same reading."
                ),
                Some(Fix {
                    title: "Cut the line at the NUL, as Google reads it".into(),
                    edits: vec![Edit { span: line.start() + nul..line.content_end(), replacement: String::new() }],
                }),
            );
        }
        let mut unsafe_spans = Vec::new();
        let mut invalid = None;
        let mut offset = 0;
        // Up to the NUL: what follows it is cut by the NUL's own fix.
        let before_nul = &content[..memchr::memchr(0, content).unwrap_or(content.len())];
        let mut invisible = Vec::new();
        for chunk in before_nul.utf8_chunks() {
            for (at, c) in chunk.valid().char_indices() {
                let at = line.start() + offset + at;
                // The byte order marks the file starts with have their own diagnostic.
                if crate::escape::is_invisible(c) && at >= 3 * self.leading_boms {
                    invisible.push((at, c));
                } else if crate::escape::is_unsafe(c) && !crate::escape::is_invisible(c) {
                    unsafe_spans.push((at, c));
                }
            }
            offset += chunk.valid().len();
            if !chunk.invalid().is_empty() && invalid.is_none() {
                invalid = Some(line.start() + offset..line.start() + offset + chunk.invalid().len());
            }
            offset += chunk.invalid().len();
        }
        if let Some(&(first, c)) = unsafe_spans.first() {
            self.control_characters(line, &unsafe_spans, first..first + c.len_utf8());
        }
        if !invisible.is_empty() {
            self.invisible_characters(line, &invisible);
        }
        if let Some(span) = invalid {
            self.push(
                Code::InvalidUtf8,
                Severity::Warning,
                line.number(),
                span,
                "Bytes that are not UTF-8 (Latin-1?). RFC 9309 expects UTF-8. Google percent-encodes such bytes as \
                 they are (é in Latin-1 becomes %E9, not %C3%A9), so a rule with them matches only URLs written \
                 the same way."
                    .to_owned(),
                None,
            );
        }
    }

    /// Control characters on a line: in a rule's value they are written as the `%XX`
    /// escapes URLs carry (as written, no URL holds them, so the rule matched nothing;
    /// the message says the verdicts change); anywhere else they mean nothing and go.
    pub(super) fn control_characters(&mut self, line: &Line, found: &[(usize, char)], first: Range<usize>) {
        let txt = self.txt;
        let value = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]).and_then(|field| {
            match field.kind() {
                kind if kind.is_rule() => Some(field.value().clone()),
                // A Content-Usage path is matched as a rule's is (draft-ietf-aipref-attach):
                // its control characters are kept as %XX too, not removed.
                FieldKind::ContentUsage => {
                    let value = field.value();
                    let text = txt.text(&value);
                    let start = value.start + text.iter().take_while(|b| b.is_ascii_whitespace()).count();
                    let path = &txt.source()[start..value.end];
                    let is_path = matches!(path.first(), Some(b'/' | b'*'));
                    let end = path.iter().position(|b| *b == b' ' || *b == b'\t').map_or(value.end, |at| start + at);
                    is_path.then_some(start..end)
                }
                _ => None,
            }
        });
        let in_value = |at: usize| value.as_ref().is_some_and(|v| v.contains(&at));
        let edits: Vec<Edit> = found
            .iter()
            .map(|&(at, c)| {
                let span = at..at + c.len_utf8();
                let mut bytes = [0; 4];
                let mut replacement = String::new();
                if in_value(at) {
                    for byte in c.encode_utf8(&mut bytes).bytes() {
                        let _ = write!(replacement, "%{byte:02X}");
                    }
                }
                Edit { span, replacement }
            })
            .collect();
        let in_name = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]).is_some_and(|field| {
            field.kind() == FieldKind::UserAgent && found.iter().any(|&(at, _)| field.value().contains(&at))
        });
        // What the fix does to the verdicts is checked, and said, with the fix.
        let (message, title) = if found.iter().any(|&(at, _)| in_value(at)) {
            (
                "A control character in a path (shown as ^X or <U+XXXX>). A crawler sends it as %XX, and the rule \
                 is read that way too; written as %XX the rule reads the same and shows what it holds. It is \
                 never shown raw.",
                "Write the control characters as %XX",
            )
        } else if in_name {
            (
                "A control character inside a robot's name (shown as ^X or <U+XXXX>): RFC 9309 robots read the \
                 name only up to it, 1994/1996 robots look for it, control and all, inside their own name, so the \
                 line names another robot than the one it shows. It is never shown raw.",
                "Remove the control characters",
            )
        } else {
            (
                "A control character (shown as ^X or <U+XXXX>) outside any path: it can make the line read \
                 differently from what it is, and is never shown raw.",
                "Remove the control characters",
            )
        };
        self.push(
            Code::ControlCharacter,
            Severity::Warning,
            line.number(),
            first,
            message.to_owned(),
            Some(Fix { title: title.into(), edits }),
        );
    }

    /// Invisible characters (zero width, soft hyphen) inside a robot's name or a rule's
    /// path (issue 24): `Google<U+200B>bot` shows as `Googlebot` everywhere, and names no
    /// robot. Elsewhere (a comment) they mean nothing and are only shown escaped.
    pub(super) fn invisible_characters(&mut self, line: &Line, found: &[(usize, char)]) {
        let Some(field) = self.rfc_field[line.number() - 1].map(|f| &self.rfc.fields()[f]) else { return };
        let value = field.value();
        let inside: Vec<(usize, char)> = found.iter().copied().filter(|(at, _)| value.contains(at)).collect();
        let Some(&(first, c)) = inside.first() else { return };
        let shown = String::from_utf8_lossy(self.txt.text(&value)).replace(crate::escape::is_invisible, "");
        let written = crate::escape::sanitize(self.txt.text(&value));
        let what = crate::escape::visible(c);
        let message = match field.kind() {
            FieldKind::UserAgent => {
                let token = String::from_utf8_lossy(product_token(self.txt.text(&value))).into_owned();
                format!(
                    "An invisible character ({what}) inside the robot's name `{written}`: it shows as `{shown}`, \
                     but RFC 9309 robots read the name only up to it (`{token}`), and 1994/1996 robots look for \
                     it, invisible character and all, inside their own name. The line names no robot it seems to."
                )
            }
            kind if kind.is_rule() || kind == FieldKind::ContentUsage => format!(
                "An invisible character ({what}) inside the path `{written}`: it shows as `{shown}`, but a crawler \
                 requests it percent-encoded there, so the line matches only URLs that hold it."
            ),
            _ => return,
        };
        let edits = inside.iter().map(|&(at, c)| Edit { span: at..at + c.len_utf8(), replacement: String::new() });
        self.push(
            Code::InvisibleCharacter,
            Severity::Error,
            line.number(),
            first..first + c.len_utf8(),
            message,
            Some(Fix { title: "Remove the invisible characters".into(), edits: edits.collect() }),
        );
    }

    /// A line RFC 9309 reads as a field (`classic` is the same line to the classic
    /// readings, if they read a field there).
    pub(super) fn field(&mut self, field: &Field, classic: Option<&Field>) {
        let key = self.text(&field.key());
        if field.line() == 1 && key.starts_with('\u{feff}') {
            // Byte order marks Google did not skip: the BOM diagnostic speaks for the line.
            return;
        }
        if field.separator() == Separator::Whitespace {
            self.push(
                Code::MissingColon,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "No colon after `{key}`. Google accepts a space instead on a two-word line and reads it as {}; \
                     1994/1996 robots need the colon and ignore the line.",
                    field.kind().canonical()
                ),
                Some(Fix {
                    title: "Add the colon".into(),
                    edits: vec![Edit { span: field.key().end..field.key().end, replacement: ":".to_owned() }],
                }),
            );
        } else if field.spelling() == Spelling::Tolerated && classic.is_none_or(|c| c.kind() != field.kind()) {
            self.push(
                Code::MisspeltField,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}` is not a field name. Google tolerates it and reads {}; 1994/1996 robots do not know \
                     the field and ignore the line.",
                    field.kind().canonical()
                ),
                Some(rename_key(field, field.kind())),
            );
        }
        match field.kind() {
            FieldKind::UserAgent => self.user_agent(field),
            FieldKind::Allow | FieldKind::Disallow => self.rule_value(field),
            FieldKind::Sitemap => self.sitemap(field),
            FieldKind::CrawlDelay | FieldKind::RequestRate | FieldKind::VisitTime => self.extension(field),
            FieldKind::ContentUsage | FieldKind::ContentSignal => self.usage_field(field),
            FieldKind::Host | FieldKind::CleanParam => {}
            FieldKind::Unknown => self.unknown_field(field),
        }
    }

    pub(super) fn unknown_field(&mut self, field: &Field) {
        let key = self.text(&field.key());
        let lower = key.to_ascii_lowercase();
        if UNSUPPORTED_FIELDS.contains(&lower.as_str()) {
            self.push(
                Code::UnsupportedField,
                Severity::Warning,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}:` in robots.txt is honoured by no major robot (Google stopped in 2019): every reading \
                     ignores the line. To keep pages out of the index, use a robots META tag or an X-Robots-Tag \
                     header, and let robots fetch the page so they can see it."
                ),
                None,
            );
            return;
        }
        if let Some(kind) = near_miss(&lower) {
            self.push(
                Code::MisspeltField,
                Severity::Error,
                field.line(),
                field.key().clone(),
                format!(
                    "`{key}` looks like a misspelt {}. No reading knows it, so every robot ignores the line.",
                    kind.canonical()
                ),
                Some(rename_key(field, kind)),
            );
            return;
        }
        self.push(
            Code::UnknownField,
            Severity::Info,
            field.line(),
            field.key().clone(),
            format!("`{key}` is not a field any reading knows; every robot ignores the line."),
            None,
        );
    }

    pub(super) fn user_agent(&mut self, field: &Field) {
        let value = self.text(&field.value());
        if value.is_empty() {
            self.push(
                Code::EmptyUserAgent,
                Severity::Warning,
                field.line(),
                field.key().start..field.value().end,
                "An empty User-agent. RFC 9309 robots find no robot named by it; 1994/1996 robots look for the \
                 value inside their name, and an empty value is inside every name, so this record applies to \
                 every one of them."
                    .to_owned(),
                None,
            );
            return;
        }
        let words: Vec<(usize, &str)> = split_words(&value);
        if let Some(embedded) = words.iter().skip(1).position(|(_, word)| starts_with_field(word)) {
            let split_at = words[embedded + 1].0;
            self.split_fields(field, &value, split_at);
            return;
        }
        if words.len() > 1 {
            self.several_words_in_agent(field, &value, &words);
            return;
        }
        if value == "*" {
            return;
        }
        let token = String::from_utf8_lossy(product_token(value.as_bytes())).into_owned();
        let rest = &value[token.len()..];
        if !token.is_empty() && rest.starts_with('/') && is_valid_token(&token) {
            self.push(
                Code::UserAgentVersion,
                Severity::Warning,
                field.line(),
                field.value().start + token.len()..field.value().end,
                format!(
                    "`{value}` names a version. RFC 9309 robots cut it to `{token}` and match; 1994/1996 robots \
                     look for `{}` inside their name, which they cut at its first /, so they find it in none.",
                    value.to_lowercase()
                ),
                Some(Fix {
                    title: format!("Write `{token}`").into(),
                    edits: vec![Edit {
                        span: field.value().start + token.len()..field.value().end,
                        replacement: String::new(),
                    }],
                }),
            );
        } else if !rest.is_empty() && !token.is_empty() && rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            self.push(
                Code::TokenCut,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "RFC 9309 robots read a name up to its first character that is not a letter, `_` or `-`, so \
                     they read `{value}` as `{token}`: a robot whose token is `{value}` is not matched, and one \
                     called `{token}` is. 1994/1996 robots compare the whole name."
                ),
                None,
            );
        }
    }

    /// `User-agent: Copernicus Fred` is two robots, or one robot's name with a space: a
    /// name known to hold spaces, a version, or more than two words is one name;
    /// otherwise the fix splits it, and the message says what else it could be.
    pub(super) fn several_words_in_agent(&mut self, field: &Field, value: &str, words: &[(usize, &str)]) {
        let first = words[0].1;
        let lower = value.to_lowercase();
        let rfc_reads = if first == "*" {
            "the * group".to_owned()
        } else {
            format!("the robot `{}`", String::from_utf8_lossy(product_token(first.as_bytes())))
        };
        let one_name = first != "*"
            && (words.len() > 2
                || words.iter().any(|(_, w)| w.contains(|c: char| c.is_ascii_digit()))
                || MULTI_WORD_ROBOTS.lines().any(|name| name == lower));
        if one_name {
            self.push(
                Code::AgentNameWithSpaces,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` is one robot's name with spaces. RFC 9309 robots read only {rfc_reads}, the name up \
                     to its first space; 1994/1996 robots look for `{lower}` inside their own name."
                ),
                None,
            );
            return;
        }
        let key = self.text(&field.key());
        let names: Vec<String> = words.iter().map(|(_, w)| format!("User-agent: {w}")).collect();
        let lines: Vec<String> = words.iter().skip(1).map(|(_, w)| format!("{key}: {w}")).collect();
        self.push(
            Code::SeveralAgents,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Several robots on one line (`{value}`). RFC 9309 robots read only {rfc_reads}; 1994/1996 robots \
                 look for the whole text `{lower}` inside their name and find it in none. Write one line each: {}. \
                 (If `{value}` is one robot's name, RFC 9309 robots can only match its first word.)",
                names.join(", ")
            ),
            Some(Fix {
                title: "One User-agent line per robot".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: first.to_owned() },
                    self.insert_after(field.line(), &lines),
                ],
            }),
        );
    }

    /// `User-agent: charlotte Disallow: /cgi-bin`: split before the embedded field.
    pub(super) fn split_fields(&mut self, field: &Field, value: &str, split_at: usize) {
        let first = value[..split_at].trim_end().to_owned();
        let words = split_words(value);
        let mut rest: Vec<String> = Vec::new();
        for (i, &(at, word)) in words.iter().enumerate() {
            if at < split_at {
                continue;
            }
            if starts_with_field(word) || rest.is_empty() {
                let end =
                    words[i + 1..].iter().find(|(_, w)| starts_with_field(w)).map_or(value.len(), |(next, _)| *next);
                rest.push(value[at..end].trim_end().to_owned());
            }
        }
        let key = self.text(&field.key());
        self.push(
            Code::SeveralFields,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Two fields on one line. RFC 9309 robots read `{key}: {first}` and nothing of `{}`; 1994/1996 \
                 robots take the whole rest of the line as the value, which names no robot. No reading sees the \
                 rule.",
                rest.join(" ")
            ),
            Some(Fix {
                title: "Put each field on its own line".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: first },
                    self.insert_after(field.line(), &rest),
                ],
            }),
        );
    }

    pub(super) fn rule_value(&mut self, field: &Field) {
        let value = self.text(&field.value());
        if value.is_empty() {
            return;
        }
        let words = split_words(&value);
        if value == "*" {
            self.star_path(field);
        } else if words.len() > 1 {
            self.several_words_in_rule(field, &value, &words);
        } else if !value.starts_with(['/', '*']) {
            self.path_without_slash(field, &value);
        } else {
            self.wildcards_in_rule(field, &value);
        }
    }

    pub(super) fn star_path(&mut self, field: &Field) {
        let kind = field.kind().canonical();
        let effect = if field.kind() == FieldKind::Disallow {
            "RFC 9309 robots read `*` as any path and keep out; 1994/1996 robots look for a path starting with `*`, \
             find none, and go everywhere"
        } else {
            "RFC 9309 robots read `*` as any path; 1994/1996 robots look for a path starting with `*` and find none"
        };
        self.push(
            Code::StarPath,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!("`{kind}: *`: {effect}. `/` means every path to every reading."),
            Some(Fix {
                title: format!("Write `{kind}: /`").into(),
                edits: vec![Edit { span: field.value().clone(), replacement: "/".to_owned() }],
            }),
        );
    }

    pub(super) fn several_words_in_rule(&mut self, field: &Field, value: &str, words: &[(usize, &str)]) {
        let (key, kind) = (self.text(&field.key()), field.kind().canonical());
        let all_paths = words.iter().all(|(_, w)| w.starts_with(['/', '*']) || w.starts_with("http"));
        if !all_paths && value.starts_with('/') {
            self.push(
                Code::PathWithSpace,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                "A space in a path. Crawlers request it as %20, and robotscope reads the rule so (as protego and \
                 reppy do), but Google's library compares the rule byte for byte, so for Google it matches no URL \
                 a crawler requests (--raw-url shows that reading). Write %20 and every reader agrees."
                    .to_owned(),
                // (From the bytes as written only: a lossy copy would replace invalid ones.)
                std::str::from_utf8(self.txt.text(&field.value())).is_ok().then(|| Fix {
                    title: "Write each space as %20 (a tab is left out)".into(),
                    edits: vec![Edit { span: field.value().clone(), replacement: percent_encode_spaces(value) }],
                }),
            );
            return;
        }
        let lines: Vec<String> = words.iter().skip(1).map(|(_, w)| format!("{key}: {w}")).collect();
        self.push(
            Code::SeveralPaths,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "Several paths on one line. Every reading takes `{value}` as one path (with spaces), which no URL \
                 starts with, so the line blocks nothing. Write one {kind} line per path."
            ),
            Some(Fix {
                title: "One line per path".into(),
                edits: vec![
                    Edit { span: field.value().clone(), replacement: words[0].1.to_owned() },
                    self.insert_after(field.line(), &lines),
                ],
            }),
        );
    }

    pub(super) fn path_without_slash(&mut self, field: &Field, value: &str) {
        let kind = field.kind().canonical();
        let suggestion = url::Url::parse(value)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .map_or_else(|| format!("/{value}"), |url| url[url::Position::BeforePath..].to_owned());
        self.push(
            Code::PathWithoutSlash,
            Severity::Error,
            field.line(),
            field.value().clone(),
            format!(
                "`{value}` does not start with `/`. Every URL path does, so under every reading this rule matches \
                 nothing and the robots it is for may go everywhere. Did you mean `{suggestion}`?"
            ),
            Some(Fix {
                title: format!("Write `{kind}: {suggestion}`").into(),
                edits: vec![Edit { span: field.value().clone(), replacement: suggestion }],
            }),
        );
    }

    pub(super) fn wildcards_in_rule(&mut self, field: &Field, value: &str) {
        let body = value.strip_suffix('$').unwrap_or(value);
        if body.contains('$') {
            self.push(
                Code::DollarInsidePattern,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                "A `$` inside a pattern is an ordinary character to every reading; only a final `$` anchors the \
                 end (RFC 9309 §2.2.3)."
                    .to_owned(),
                None,
            );
        }
        if value.contains('*') || value.ends_with('$') {
            self.push(
                Code::WildcardForClassicRobots,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` uses wildcards. RFC 9309 robots read `*` as any characters and a final `$` as the \
                     end of the path; 1994/1996 robots look for these characters literally, so for them the rule \
                     matches almost nothing."
                ),
                None,
            );
        }
    }

    pub(super) fn sitemap(&mut self, field: &Field) {
        let value = self.text(&field.value());
        let absolute = url::Url::parse(&value).is_ok_and(|url| matches!(url.scheme(), "http" | "https"));
        if !absolute {
            self.push(
                Code::SitemapNotAbsolute,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!(
                    "`{value}` is not an absolute http(s) URL. RFC 9309 §2.3.5 and sitemaps.org ask for the full \
                     URL (https://host/sitemap.xml); robots may ignore a relative one."
                ),
                None,
            );
        }
    }

    pub(super) fn extension(&mut self, field: &Field) {
        let value = self.text(&field.value());
        let (ok, support, form) = match field.kind() {
            FieldKind::CrawlDelay => (
                crawl_delay(&value).is_some(),
                "Bing, Yandex and many smaller robots wait that many seconds between requests; Google ignores it",
                "a number of seconds (10, 0.5)",
            ),
            FieldKind::RequestRate => (
                RequestRate::parse(&value).is_some(),
                "Seznam and some others honour it (urllib reads it); Google and Bing ignore it",
                "requests/period, such as 1/10s or 30/1m, optionally followed by a time window",
            ),
            _ => (
                VisitTime::parse(&value).is_some(),
                "only a few 1990s-era robots honour it; Google and Bing ignore it",
                "a UTC time window, such as 0100-0500",
            ),
        };
        let name = field.kind().canonical();
        if ok {
            self.push(
                Code::ExtensionSupport,
                Severity::Info,
                field.line(),
                field.key().start..field.value().end,
                format!("{name}: {support}. It is no rule: no reading changes a verdict for it."),
                None,
            );
        } else {
            self.push(
                Code::BadExtensionValue,
                Severity::Warning,
                field.line(),
                field.value().clone(),
                format!("`{value}` is not a valid {name} value ({form}); robots that honour {name} will ignore it."),
                None,
            );
        }
    }
}

pub(super) fn rename_key(field: &Field, kind: FieldKind) -> Fix {
    Fix {
        title: format!("Write `{}`", kind.canonical()).into(),
        edits: vec![Edit { span: field.key().clone(), replacement: kind.canonical().to_owned() }],
    }
}

/// Whitespace-separated words with their byte offsets.
pub(super) fn split_words(text: &str) -> Vec<(usize, &str)> {
    // ASCII white space only: a no-break space is no separator an author types between
    // two paths (taking it for one turned `Disallow: <U+00A0>/p`, fixed twice, into
    // `Disallow: /`).
    let is_separator = |c: char| c.is_ascii_whitespace() || c == '\u{b}';
    let mut words = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices() {
        match (is_separator(c), start) {
            (true, Some(s)) => {
                words.push((s, &text[s..at]));
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, &text[s..]));
    }
    words
}

/// `value` as a crawler requests it, for the characters [`split_words`] splits at: a
/// space as `%20`, a vertical tab as `%0B`, and a tab left out (URL parsers drop it,
/// so the rule then matches what the crawler requests and its verdicts stay).
pub(super) fn percent_encode_spaces(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\t' => {}
            ' ' | '\u{b}' | '\u{c}' => {
                let _ = write!(out, "%{:02X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// True for a word that starts a field: `Disallow:`, `allow:`, `User-agent:`, `Sitemap:`.
pub(super) fn starts_with_field(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    ["user-agent:", "disallow:", "allow:", "sitemap:", "crawl-delay:"].iter().any(|field| lower.starts_with(field))
}

/// A known field name within two edits of `key`, if any.
pub(super) fn near_miss(key: &str) -> Option<FieldKind> {
    const NAMES: &[(&str, FieldKind)] = &[
        ("user-agent", FieldKind::UserAgent),
        ("disallow", FieldKind::Disallow),
        ("allow", FieldKind::Allow),
        ("sitemap", FieldKind::Sitemap),
        ("crawl-delay", FieldKind::CrawlDelay),
    ];
    let limit = |name: &str| if name.len() <= 5 { 1 } else { 2 };
    NAMES.iter().find(|(name, _)| edit_distance(key, name) <= limit(name)).map(|&(_, kind)| kind)
}

/// Levenshtein distance, for short names (fields, robots).
#[must_use]
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            current.push((previous[j] + usize::from(ca != cb)).min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}
