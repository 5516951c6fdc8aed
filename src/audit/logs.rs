//! Access logs: the formats web servers write, read one line at a time into the requests
//! an audit judges. Pure of the network and of robots.txt.
//!
//! The formats: the Common and Combined Log Formats (Apache's and nginx's defaults),
//! JSON lines (nginx's `escape=json` formats, Caddy's), and a format string in the style
//! of `GoAccess`'s `--log-format`. A file's format is found from its first lines
//! ([`LogFormat::detect`]).

use jiff::Timestamp;
use jiff::civil::{Date, DateTime, Time};
use jiff::tz::Offset;

/// One request a log line records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRequest {
    /// When the server took it.
    pub time: Timestamp,
    /// The client's address, as the log gives it.
    pub ip: String,
    /// The method (`GET`), empty when the log does not say.
    pub method: String,
    /// The request target (`/path?query`), as sent.
    pub target: String,
    /// The response status, when the log gives one.
    pub status: Option<u16>,
    /// The User-Agent header, empty when the log has none.
    pub user_agent: String,
}

/// Why a line is not a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line does not have the format's shape.
    #[error("not in the {0} format")]
    Shape(&'static str),
    /// The time cannot be read.
    #[error("unreadable time {0:?}")]
    Time(String),
    /// The request line has no target (`"-"`, or a probe of raw bytes).
    #[error("no request target")]
    NoTarget,
}

/// A log format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogFormat {
    /// `host ident user [time] "request" status bytes "referer" "user-agent"`.
    Combined,
    /// `host ident user [time] "request" status bytes`: no User-Agent, so no robot.
    Common,
    /// One JSON object a line.
    Json,
    /// A format string (`--log-format`).
    Custom(CustomFormat),
}

impl LogFormat {
    /// The format's name, for messages.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            LogFormat::Combined => "Combined Log",
            LogFormat::Common => "Common Log",
            LogFormat::Json => "JSON lines",
            LogFormat::Custom(_) => "--log-format",
        }
    }

    /// The format most of `lines` (a file's first lines) are in: JSON when they are
    /// objects, Combined when the Combined shape reads them, else Common.
    #[must_use]
    pub fn detect<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<LogFormat> {
        let (mut json, mut combined, mut common) = (0, 0, 0);
        for line in lines.into_iter().map(str::trim).filter(|line| !line.is_empty()) {
            if line.starts_with('{') && LogFormat::Json.parse(line).is_ok() {
                json += 1;
            } else if LogFormat::Combined.parse(line).is_ok() {
                combined += 1;
            } else if LogFormat::Common.parse(line).is_ok() {
                common += 1;
            }
        }
        let best = json.max(combined).max(common);
        if best == 0 {
            None
        } else if best == json {
            Some(LogFormat::Json)
        } else if best == combined {
            Some(LogFormat::Combined)
        } else {
            Some(LogFormat::Common)
        }
    }

    /// The request `line` records.
    ///
    /// # Errors
    ///
    /// When the line is not in this format, or its time or request cannot be read.
    pub fn parse(&self, line: &str) -> Result<LogRequest, LineError> {
        match self {
            LogFormat::Combined => parse_clf(line, true),
            LogFormat::Common => parse_clf(line, false),
            LogFormat::Json => parse_json(line),
            LogFormat::Custom(format) => format.parse(line),
        }
    }
}

/// Reads the Common (and, with `combined`, the Combined) Log Format.
fn parse_clf(line: &str, combined: bool) -> Result<LogRequest, LineError> {
    let name = if combined { "Combined Log" } else { "Common Log" };
    let shape = || LineError::Shape(name);
    let line = line.trim_end_matches(['\r', '\n']);
    let (ip, rest) = line.split_once(' ').ok_or_else(shape)?;
    let open = rest.find('[').ok_or_else(shape)?;
    let close = open + rest[open..].find(']').ok_or_else(shape)?;
    let time = clf_time(&rest[open + 1..close])?;
    let mut fields = Fields(rest[close + 1..].trim_start());
    let request = fields.quoted(false).ok_or_else(shape)?;
    let status = fields.word().ok_or_else(shape)?;
    let status = status.parse::<u16>().ok();
    fields.word().ok_or_else(shape)?;
    let user_agent = if combined {
        fields.quoted(true).ok_or_else(shape)?;
        fields.quoted(true).ok_or_else(shape)?
    } else {
        String::new()
    };
    let (method, target) = request_line(&request)?;
    Ok(LogRequest { time, ip: ip.to_owned(), method, target, status, user_agent: dash_is_empty(user_agent) })
}

/// The fields after the time: quoted strings (with `\"` and `\\` escapes, as Apache
/// writes them) and bare words.
struct Fields<'a>(&'a str);

impl Fields<'_> {
    /// The next quoted field. With `decode`, the escapes servers write for the octets
    /// they will not print are undone too: nginx's `\x09` and Apache's `\t` (a
    /// User-Agent with a tab in it is the one the robot sent). A request line keeps them:
    /// its target's octets are read by `unescape_octets`.
    fn quoted(&mut self, decode: bool) -> Option<String> {
        let rest = self.0.trim_start().strip_prefix('"')?;
        let bytes = rest.as_bytes();
        let mut value = Vec::new();
        // The quote that ends the field, past escapes; the text between escapes is
        // copied in runs (this is most of what reading a log costs).
        let (mut run, mut at) = (0, 0);
        loop {
            let found = at + memchr::memchr2(b'"', b'\\', &bytes[at..])?;
            if bytes[found] == b'"' {
                value.extend_from_slice(&bytes[run..found]);
                self.0 = &rest[found + 1..];
                return Some(
                    String::from_utf8(value).unwrap_or_else(|bad| String::from_utf8_lossy(bad.as_bytes()).into_owned()),
                );
            }
            let escaped = match bytes.get(found + 1)? {
                &byte @ (b'"' | b'\\') => Some((byte, 2)),
                b'x' if decode => rest
                    .get(found + 2..found + 4)
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                    .map(|byte| (byte, 4)),
                b't' if decode => Some((b'\t', 2)),
                b'n' if decode => Some((b'\n', 2)),
                b'r' if decode => Some((b'\r', 2)),
                b'v' if decode => Some((0x0b, 2)),
                b'b' if decode => Some((0x08, 2)),
                _ => None,
            };
            match escaped {
                Some((byte, length)) => {
                    value.extend_from_slice(&bytes[run..found]);
                    value.push(byte);
                    (run, at) = (found + length, found + length);
                }
                None => at = found + 1,
            }
        }
    }

    fn word(&mut self) -> Option<&str> {
        let rest = self.0.trim_start();
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(' ').unwrap_or(rest.len());
        self.0 = &rest[end..];
        Some(&rest[..end])
    }
}

/// `GET /path HTTP/1.1` as its method and target; a bare target is taken as a GET
/// (HTTP/0.9).
fn request_line(request: &str) -> Result<(String, String), LineError> {
    let mut parts = request.split(' ').filter(|part| !part.is_empty());
    let (method, target) = match (parts.next(), parts.next()) {
        (Some(method), Some(target)) => (method, target),
        (Some(target), None) if target.starts_with('/') => ("GET", target),
        _ => return Err(LineError::NoTarget),
    };
    if !is_target(target) {
        return Err(LineError::NoTarget);
    }
    Ok((method.to_owned(), unescape_octets(target)))
}

/// True for what a request can ask for: a path (origin form) or an absolute http(s) URL
/// (RFC 9110 §7.1). Anything else (`*`, `example.com:443`, a word) names no path robots.txt
/// speaks of.
fn is_target(target: &str) -> bool {
    target.starts_with('/') || target.starts_with("http://") || target.starts_with("https://")
}

/// A target as sent: nginx (and Apache, for what it will not print) writes an octet it
/// received raw as `\xHH`. The octet is what the robot asked for: written `%HH`, as a
/// URL parser would encode it, which is how RFC 9309 §2.2.2 matches it.
fn unescape_octets(target: &str) -> String {
    if !target.contains("\\x") {
        return target.to_owned();
    }
    let mut unescaped = String::with_capacity(target.len());
    let mut rest = target;
    while let Some(at) = rest.find("\\x") {
        unescaped.push_str(&rest[..at]);
        let hex = rest.get(at + 2..at + 4).filter(|hex| hex.bytes().all(|byte| byte.is_ascii_hexdigit()));
        if let Some(hex) = hex {
            unescaped.push('%');
            unescaped.push_str(&hex.to_ascii_uppercase());
            rest = &rest[at + 4..];
        } else {
            unescaped.push_str("\\x");
            rest = &rest[at + 2..];
        }
    }
    unescaped.push_str(rest);
    unescaped
}

fn dash_is_empty(value: String) -> String {
    if value == "-" { String::new() } else { value }
}

/// The months as the Common Log Format writes them.
const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// `10/Oct/2000:13:55:36 -0700`, the time of the Common Log Format.
fn clf_time(text: &str) -> Result<Timestamp, LineError> {
    let bad = || LineError::Time(text.to_owned());
    let bytes = text.as_bytes();
    if bytes.len() != 26 || bytes[2] != b'/' || bytes[6] != b'/' || bytes[11] != b':' || bytes[20] != b' ' {
        return Err(bad());
    }
    // Digits only: `-999` would read as a year and `+-130` as an offset.
    let number = |range: std::ops::Range<usize>| {
        text.get(range).filter(|digits| digits.bytes().all(|b| b.is_ascii_digit())).and_then(|d| d.parse::<i16>().ok())
    };
    let month = MONTHS.iter().position(|&name| name == &text[3..6]).ok_or_else(bad)?;
    let (day, year) = (number(0..2).ok_or_else(bad)?, number(7..11).ok_or_else(bad)?);
    if year < EARLIEST_LOG_YEAR {
        return Err(bad());
    }
    let (hour, minute, second) =
        (number(12..14).ok_or_else(bad)?, number(15..17).ok_or_else(bad)?, number(18..20).ok_or_else(bad)?);
    let sign = match bytes[21] {
        b'+' => 1,
        b'-' => -1,
        _ => return Err(bad()),
    };
    let (offset_hours, offset_minutes) = (number(22..24).ok_or_else(bad)?, number(24..26).ok_or_else(bad)?);
    // The Earth's offsets run from -12:00 to +14:00, in whole minutes of an hour.
    if offset_hours > 14 || offset_minutes > 59 {
        return Err(bad());
    }
    let date = Date::new(year, i8::try_from(month + 1).map_err(|_| bad())?, i8::try_from(day).map_err(|_| bad())?)
        .map_err(|_| bad())?;
    let clock = |n: i16| i8::try_from(n).map_err(|_| bad());
    let time = Time::new(clock(hour)?, clock(minute)?, clock(second)?, 0).map_err(|_| bad())?;
    let offset = Offset::from_seconds(sign * (i32::from(offset_hours) * 3600 + i32::from(offset_minutes) * 60))
        .map_err(|_| bad())?;
    offset.to_timestamp(DateTime::from_parts(date, time)).map_err(|_| bad())
}

/// One JSON object: the keys nginx's usual `escape=json` formats and Caddy's access log
/// use. The time is an RFC 3339 string, a Common Log time, or seconds since the epoch.
fn parse_json(line: &str) -> Result<LogRequest, LineError> {
    let shape = || LineError::Shape("JSON lines");
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| shape())?;
    let object = value.as_object().ok_or_else(shape)?;
    // Caddy keeps the request's own fields in `request`.
    let request = object.get("request").and_then(serde_json::Value::as_object);
    let find = |keys: &[&str]| {
        keys.iter().find_map(|key| object.get(*key).or_else(|| request.and_then(|request| request.get(*key))))
    };
    let text = |keys: &[&str]| find(keys).and_then(serde_json::Value::as_str).map(str::to_owned);
    let time = match find(&["time_iso8601", "time", "timestamp", "@timestamp", "ts", "time_local", "msec"]) {
        Some(serde_json::Value::Number(seconds)) => {
            let seconds = seconds.as_f64().ok_or_else(shape)?;
            epoch_time(seconds).ok_or_else(|| LineError::Time(seconds.to_string()))?
        }
        Some(serde_json::Value::String(text)) => json_time(text)?,
        _ => return Err(shape()),
    };
    let (method, target) = match (text(&["method", "request_method"]), text(&["request_uri", "uri", "path"])) {
        // A target as the Combined reader takes one: a path, or an absolute http(s) URL.
        (method, Some(target)) if is_target(&target) => {
            (method.unwrap_or_else(|| "GET".to_owned()), unescape_octets(&target))
        }
        (_, Some(_)) => return Err(LineError::NoTarget),
        (_, None) => request_line(&text(&["request"]).ok_or_else(shape)?)?,
    };
    let status = find(&["status"]).and_then(|status| match status {
        serde_json::Value::Number(number) => number.as_u64().and_then(|n| u16::try_from(n).ok()),
        serde_json::Value::String(text) => text.parse().ok(),
        _ => None,
    });
    let user_agent = text(&["http_user_agent", "user_agent", "ua"])
        .or_else(|| {
            // Caddy: `headers: {"User-Agent": ["..."]}`.
            let headers = request.and_then(|request| request.get("headers"))?.as_object()?;
            let (_, values) = headers.iter().find(|(name, _)| name.eq_ignore_ascii_case("user-agent"))?;
            values.as_array()?.first()?.as_str().map(str::to_owned)
        })
        .unwrap_or_default();
    let ip = text(&["remote_addr", "client_ip", "remote_ip", "ip", "host"]).unwrap_or_default();
    Ok(LogRequest { time, ip, method, target, status, user_agent: dash_is_empty(user_agent) })
}

fn json_time(text: &str) -> Result<Timestamp, LineError> {
    if let Ok(time) = text.parse::<Timestamp>() {
        return Ok(time);
    }
    if let Ok(seconds) = text.parse::<f64>() {
        return epoch_time(seconds).ok_or_else(|| LineError::Time(text.to_owned()));
    }
    clf_time(text)
}

/// The first year a web server's log can speak of: 1990, before the first web server.
const EARLIEST_LOG_YEAR: i16 = 1990;

/// 1990-01-01 in seconds since the epoch.
const EARLIEST_LOG_SECONDS: f64 = 631_152_000.0;

/// Seconds since the epoch as a time: a number that is one (not `NaN`, not infinite)
/// and no earlier than 1990. `NaN`, `nan` and `1e-400` read as numbers and once became
/// 1970-01-01 (issue 35): a line saying that is unreadable, not a request of 1970.
fn epoch_time(seconds: f64) -> Option<Timestamp> {
    if !seconds.is_finite() || seconds < EARLIEST_LOG_SECONDS {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, reason = "finite, and checked by Timestamp's own range below")]
    let whole = seconds.floor() as i64;
    Timestamp::from_second(whole).ok()
}

/// A format string in the style of `GoAccess`'s `--log-format`: `%h` the client, `%d` the
/// date and `%t` the time (read with `date_format` and `time_format`, strftime-style),
/// `%x` both at once (read with `date_format`), `%r` the request line, `%m` the method,
/// `%U` the target, `%s` the status, `%u` the User-Agent, `%^` and every other field
/// skipped (`%b`, `%R`, `%v`, `%T`, ...). A field runs to the character that follows it in
/// the format; any other character must be there as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomFormat {
    pieces: Vec<Piece>,
    date_format: String,
    time_format: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Literal(char),
    Field(char),
}

impl CustomFormat {
    /// The format `format`, its dates read with `date_format` and times with
    /// `time_format` (`GoAccess`'s `--date-format` and `--time-format`).
    ///
    /// # Errors
    ///
    /// When the format names no time or no request target.
    pub fn new(format: &str, date_format: &str, time_format: &str) -> Result<CustomFormat, String> {
        let mut pieces = Vec::new();
        let mut chars = format.chars();
        while let Some(c) = chars.next() {
            match c {
                '%' => match chars.next() {
                    Some('%') => pieces.push(Piece::Literal('%')),
                    Some(field) => pieces.push(Piece::Field(field)),
                    None => return Err("the format ends with a lone %".to_owned()),
                },
                c => pieces.push(Piece::Literal(c)),
            }
        }
        // A zone name cannot be read: robotscope carries no time zone database, and a name
        // read and then ignored put every request in UTC (issue 35).
        for zone in ["%Q", "%:Q", "%Z"] {
            if date_format.contains(zone) || time_format.contains(zone) {
                return Err(format!(
                    "{zone} (a time zone's name) cannot be read; write the offset with %z, or leave it out for UTC"
                ));
            }
        }
        let has = |fields: &[char]| pieces.iter().any(|piece| matches!(piece, Piece::Field(f) if fields.contains(f)));
        if !has(&['d', 'x']) {
            return Err("the format has no date (%d or %x)".to_owned());
        }
        if !has(&['r', 'U']) {
            return Err("the format has no request (%r or %U)".to_owned());
        }
        Ok(CustomFormat { pieces, date_format: date_format.to_owned(), time_format: time_format.to_owned() })
    }

    fn parse(&self, line: &str) -> Result<LogRequest, LineError> {
        let shape = || LineError::Shape("--log-format");
        let mut rest = line.trim_end_matches(['\r', '\n']);
        let (mut date, mut time, mut request) = (None, None, None);
        let mut found = LogRequest {
            time: Timestamp::UNIX_EPOCH,
            ip: String::new(),
            method: String::new(),
            target: String::new(),
            status: None,
            user_agent: String::new(),
        };
        let mut pieces = self.pieces.iter().peekable();
        while let Some(piece) = pieces.next() {
            match *piece {
                Piece::Literal(c) => rest = rest.strip_prefix(c).ok_or_else(shape)?,
                Piece::Field(field) => {
                    let end = match pieces.peek() {
                        Some(Piece::Literal(stop)) => rest.find(*stop).ok_or_else(shape)?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    rest = &rest[end..];
                    match field {
                        'h' => value.clone_into(&mut found.ip),
                        'd' | 'x' => date = Some(value),
                        't' => time = Some(value),
                        'r' => request = Some(value),
                        'm' => value.clone_into(&mut found.method),
                        'U' => value.clone_into(&mut found.target),
                        's' => found.status = value.parse().ok(),
                        'u' => found.user_agent = dash_is_empty(value.replace("\\\"", "\"")),
                        _ => {}
                    }
                }
            }
        }
        if let Some(request) = request {
            (found.method, found.target) = request_line(&request.replace("\\\"", "\""))?;
        } else if found.target.is_empty() {
            return Err(LineError::NoTarget);
        }
        if found.method.is_empty() {
            "GET".clone_into(&mut found.method);
        }
        let date = date.ok_or_else(shape)?;
        found.time = match time {
            Some(time) => custom_time(&format!("{date} {time}"), &format!("{} {}", self.date_format, self.time_format)),
            None => custom_time(date, &self.date_format),
        }?;
        Ok(found)
    }
}

/// A date and time in a strftime format; without a `%z` in it, the time is UTC.
fn custom_time(text: &str, format: &str) -> Result<Timestamp, LineError> {
    let bad = || LineError::Time(text.to_owned());
    if format == "%s" {
        let seconds = text.parse::<i64>().ok().filter(|&seconds| seconds >= EARLIEST_LOG_SECONDS as i64);
        return seconds.and_then(|seconds| Timestamp::from_second(seconds).ok()).ok_or_else(bad);
    }
    let parsed = jiff::fmt::strtime::parse(format, text).map_err(|_| bad())?;
    let time = match parsed.to_timestamp() {
        Ok(time) => time,
        Err(_) => Offset::UTC.to_timestamp(parsed.to_datetime().map_err(|_| bad())?).map_err(|_| bad())?,
    };
    if time.as_second() < EARLIEST_LOG_SECONDS as i64 {
        return Err(bad());
    }
    Ok(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMBINED: &str = r#"66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET /private/a?b=1 HTTP/1.1" 200 2326 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)""#;

    fn at(text: &str) -> Timestamp {
        text.parse().expect("a time")
    }

    #[test]
    fn reads_the_combined_log_format() {
        let request = LogFormat::Combined.parse(COMBINED).expect("reads");
        assert_eq!(request.time, at("2025-10-10T20:55:36Z"), "the offset is honoured");
        assert_eq!(request.ip, "66.249.66.1");
        assert_eq!((request.method.as_str(), request.target.as_str()), ("GET", "/private/a?b=1"));
        assert_eq!(request.status, Some(200));
        assert!(request.user_agent.contains("Googlebot/2.1"));
        // Apache escapes a quote inside a field.
        let escaped = r#"1.2.3.4 - - [01/Jan/2025:00:00:00 +0000] "GET /a HTTP/1.1" 404 0 "-" "Bot \"quoted\"/1.0""#;
        assert_eq!(LogFormat::Combined.parse(escaped).expect("reads").user_agent, r#"Bot "quoted"/1.0"#);
    }

    #[test]
    fn common_lines_have_no_user_agent_and_bad_lines_say_why() {
        let common = r#"1.2.3.4 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326"#;
        assert_eq!(LogFormat::Common.parse(common).expect("reads").user_agent, "");
        assert!(LogFormat::Combined.parse(common).is_err());
        assert_eq!(LogFormat::detect([common, common]), Some(LogFormat::Common));
        assert_eq!(LogFormat::detect([COMBINED, common]), Some(LogFormat::Combined));
        let garbled = r#"1.2.3.4 - - [10/Foo/2000:13:55:36 -0700] "GET / HTTP/1.0" 200 1 "-" "x""#;
        assert!(matches!(LogFormat::Combined.parse(garbled), Err(LineError::Time(_))));
        let probe = r#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "\x16\x03\x01" 400 0 "-" "-""#;
        assert_eq!(LogFormat::Combined.parse(probe), Err(LineError::NoTarget));
        assert_eq!(LogFormat::detect(["not a log", ""]), None);
    }

    #[test]
    fn raw_octets_nginx_escapes_are_percent_encoded() {
        let line = r#"1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET /caf\xC3\xA9?q=\x22a\x2 HTTP/1.1" 200 1 "-" "Googlebot/2.1""#;
        let request = LogFormat::Combined.parse(line).expect("reads");
        assert_eq!(request.target, "/caf%C3%A9?q=%22a\\x2");
    }

    /// The User-Agent the robot sent, whichever escapes its server wrote (issue 35: a tab
    /// nginx wrote `\x09` kept `Claude\x09Code` from naming Claude Code).
    #[test]
    fn user_agent_escapes_are_undone() {
        let line =
            |agent: &str| format!(r#"1.2.3.4 - - [10/Oct/2025:13:55:36 +0000] "GET /a HTTP/1.1" 200 1 "-" "{agent}""#);
        for (written, sent) in [
            (r"Claude\x09Code/1.0", "Claude\tCode/1.0"),
            (r"Claude\tCode/1.0", "Claude\tCode/1.0"),
            (r"Bot\x22q\x22 caf\xC3\xA9", "Bot\"q\" caf\u{e9}"),
            (r"a\\x09", "a\\x09"),
            (r"bad\xZZ \xFF", "bad\\xZZ \u{fffd}"),
        ] {
            assert_eq!(LogFormat::Combined.parse(&line(written)).expect("reads").user_agent, sent, "{written}");
        }
    }

    #[test]
    fn reads_nginx_and_caddy_json() {
        let nginx = r#"{"time_iso8601":"2025-10-10T13:55:36+02:00","remote_addr":"66.249.66.1","request":"GET /x HTTP/1.1","status":"200","http_user_agent":"Googlebot/2.1"}"#;
        let request = LogFormat::Json.parse(nginx).expect("reads");
        assert_eq!(request.time, at("2025-10-10T11:55:36Z"));
        assert_eq!((request.target.as_str(), request.status), ("/x", Some(200)));
        let caddy = r#"{"level":"info","ts":1760097336.5,"request":{"remote_ip":"40.77.167.1","method":"GET","uri":"/y?z","headers":{"User-Agent":["Mozilla/5.0 (compatible; bingbot/2.0)"]}},"status":404}"#;
        let request = LogFormat::Json.parse(caddy).expect("reads");
        assert_eq!(request.time, Timestamp::from_second(1_760_097_336).expect("time"));
        assert_eq!((request.ip.as_str(), request.target.as_str()), ("40.77.167.1", "/y?z"));
        assert!(request.user_agent.contains("bingbot"));
        assert_eq!(LogFormat::detect([caddy, nginx]), Some(LogFormat::Json));
    }

    #[test]
    fn reads_a_goaccess_style_format_string() {
        let format =
            CustomFormat::new(r#"%h %^[%d:%t %^] "%r" %s %b "%R" "%u""#, "%d/%b/%Y", "%H:%M:%S").expect("format");
        let request = LogFormat::Custom(format).parse(COMBINED).expect("reads");
        // No %z in the format: the time is read as UTC.
        assert_eq!(request.time, at("2025-10-10T13:55:36Z"));
        assert_eq!(request.target, "/private/a?b=1");
        assert!(request.user_agent.contains("Googlebot"));
        let tabs = CustomFormat::new("%x\t%h\t%m\t%U\t%s\t%u", "%Y-%m-%dT%H:%M:%S%z", "").expect("format");
        let line = "2025-10-10T13:55:36+0000\t1.2.3.4\tHEAD\t/a\t200\tcurl/8";
        let request = LogFormat::Custom(tabs).parse(line).expect("reads");
        assert_eq!((request.method.as_str(), request.target.as_str()), ("HEAD", "/a"));
        assert!(CustomFormat::new("%h %u", "%d", "%t").is_err(), "no date, no request");
    }

    /// Issue 35: a time that is not one is an unreadable line, never a request of 1970 or
    /// of the year -999, and a zone name is refused rather than ignored.
    #[test]
    fn times_that_are_no_times_are_unreadable() {
        let json = |time: &str| format!(r#"{{"time":{time},"request":"GET /x HTTP/1.1","http_user_agent":"GPTBot"}}"#);
        for time in [r#""NaN""#, r#""nan""#, r#""1e-400""#, r#""inf""#, "1e-400", "0", r#""-5""#] {
            assert!(matches!(LogFormat::Json.parse(&json(time)), Err(LineError::Time(_))), "{time}");
        }
        assert!(LogFormat::Json.parse(&json("1760097336")).is_ok());
        let clf = |time: &str| format!(r#"1.2.3.4 - - [{time}] "GET / HTTP/1.1" 200 1 "-" "GPTBot""#);
        for time in ["10/Oct/-999:13:55:36 +0000", "10/Oct/2025:13:55:36 +-130", "10/Oct/2025:13:55:36 +2559"] {
            assert!(matches!(LogFormat::Combined.parse(&clf(time)), Err(LineError::Time(_))), "{time}");
        }
        assert!(LogFormat::Combined.parse(&clf("10/Oct/2025:13:55:36 +1400")).is_ok());
        let zone = CustomFormat::new("%d %r", "%Y-%m-%dT%H:%M:%S %Q", "");
        assert!(zone.is_err_and(|why| why.contains("%Q (a time zone's name) cannot be read")));
    }

    /// Issue 35: a JSON log's target is read as the Combined reader reads one: a path or
    /// an absolute http(s) URL, else the line is unreadable.
    #[test]
    fn a_json_target_is_a_path_or_a_url() {
        let json = |uri: &str| format!(r#"{{"ts":1760097336,"uri":"{uri}","http_user_agent":"GPTBot"}}"#);
        assert_eq!(LogFormat::Json.parse(&json("secret")), Err(LineError::NoTarget));
        assert_eq!(LogFormat::Json.parse(&json("*")), Err(LineError::NoTarget));
        assert_eq!(LogFormat::Json.parse(&json("/secret")).map(|r| r.target), Ok("/secret".to_owned()));
        assert!(LogFormat::Json.parse(&json("https://e.com/x")).is_ok());
    }
}
