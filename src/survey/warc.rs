//! WARC files (ISO 28500: WARC/1.0 and WARC/1.1) read as a stream, for the robots.txt
//! captures they hold: plain, gzipped per record as Common Crawl writes them, or
//! gzipped whole. Only `response` records count; each gives the capture's URL
//! (`WARC-Target-URI`), its time (`WARC-Date`) and the HTTP answer inside it, with
//! chunked transfer coding and gzip or deflate content coding undone.
//!
//! Hand-written rather than taken from the `warc` crate, whose reader buffers each
//! record whole and stops at the first malformed one: a survey reads files it did not
//! write, and must keep at most a capped part of a 1 GB record, say that a record was
//! cut off, and go on after a broken gzip member (each member is decoded on its own,
//! and a broken one is skipped to the next gzip header).

use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::time::Instant;

use flate2::bufread::GzDecoder;

use crate::words::plural;

/// The bytes of a record's block (the HTTP answer) kept: a robots.txt past RFC 9309's
/// 500 KiB is read to there, and the HTTP header comes first. The rest is skipped.
pub const MAX_BLOCK_BYTES: usize = 512 * 1024 + 64 * 1024;
/// The longest WARC header line, and the most bytes of WARC header a record may have.
const MAX_HEADER_LINE: usize = 16 * 1024;
const MAX_HEADER_BYTES: usize = 256 * 1024;
/// The HTTP header fields an answer may have.
const MAX_HTTP_HEADERS: usize = 128;

/// A robots.txt capture read from a `response` record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WarcCapture {
    /// `WARC-Target-URI`: the URL captured.
    pub url: String,
    /// `WARC-Date`, as written (RFC 3339 in UTC).
    pub date: String,
    /// The HTTP status, when the answer could be read.
    pub status: Option<u16>,
    /// The `Location` header of a redirect.
    pub location: Option<String>,
    /// `Content-Type`, `Content-Usage` and the like: the header fields, names in lower
    /// case.
    pub headers: Vec<(String, String)>,
    /// The body, content coding undone, at most `max_body` bytes.
    pub body: Vec<u8>,
    /// True when the body is not whole: the record was cut at capture
    /// (`WARC-Truncated`), or here at its caps.
    pub truncated: bool,
    /// What was wrong with the record, when something was: its answer is then as far
    /// as it could be read.
    pub error: Option<String>,
    /// True when the body's content coding could not be undone: what robots would read
    /// is unknown (a fetch that failed so is a failed fetch).
    pub unreadable: bool,
}

/// Why a WARC file could not be read on.
#[derive(Debug, thiserror::Error)]
pub enum WarcError {
    /// Reading the file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The run's time is up.
    #[error("the run's time ran out")]
    OutOfTime,
}

/// Reads every `response` record of `input` (plain or gzipped, told by its first
/// bytes) and hands each to `each`, which may stop the reading. A broken record or gzip
/// member is handed over with its error, and the reading goes on after it; `deadline`
/// ends it, between records and while a large record is skipped.
pub fn read_captures(
    input: impl Read,
    max_body: usize,
    deadline: Option<Instant>,
    mut each: impl FnMut(WarcCapture) -> ControlFlow<()>,
) -> Result<(), WarcError> {
    let mut raw = BufReader::with_capacity(256 * 1024, input);
    let gzipped = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let mut reader =
        Reader { max_body, deadline, each: &mut each, records: 0, held: None, broken: None, lengthless: false };
    if !gzipped {
        let mut plain = Replay::new(raw, false);
        return match reader.records_of(&mut plain) {
            Ok(flow) => {
                if flow.is_continue() {
                    let _ = reader.release(None);
                }
                Ok(())
            }
            // The file could not be read on: the record it broke in carries why.
            Err(WarcError::Io(error)) => {
                let _ = reader.release(Some(format!("the file could not be read on ({error})")));
                Err(WarcError::Io(error))
            }
            Err(other) => Err(other),
        };
    }
    // One gzip member at a time: Common Crawl gzips each record alone, so that a broken
    // member costs that record only.
    let mut raw = Replay::new(raw, true);
    loop {
        if raw.fill_buf()?.is_empty() {
            let _ = reader.release(None);
            return Ok(());
        }
        raw.kept.clear();
        let records_before = reader.records;
        let mut member = Replay::new(BufReader::new(GzDecoder::new(&mut raw)), false);
        match reader.records_of(&mut member) {
            Ok(ControlFlow::Break(())) => return Ok(()),
            // The member ended well: so did the record read last, which is its own.
            Ok(ControlFlow::Continue(())) => {
                if reader.release(None).is_break() {
                    return Ok(());
                }
            }
            Err(WarcError::Io(error)) => {
                drop(member);
                // A member that broke before its first record was read: what decodes of
                // it says which record it was.
                if reader.held.is_none() && reader.records == records_before {
                    match salvaged(&raw.kept) {
                        Salvaged::Response(capture) => reader.held = Some(capture),
                        // A request or metadata record: no capture is lost with it.
                        Salvaged::Other => {
                            raw.next_member()?;
                            continue;
                        }
                        Salvaged::Nothing => {}
                    }
                }
                // The record the member broke in (held, when its header was read) carries
                // the error; one whose header could not be read is a row of its own.
                let error = format!("its gzip member is broken ({error}); read on from the next member");
                if reader.release(Some(error)).is_break() {
                    return Ok(());
                }
                raw.next_member()?;
            }
            Err(other) => return Err(other),
        }
    }
}

/// What the first bytes of a broken gzip member say of its record.
enum Salvaged {
    /// A response: its URL and date.
    Response(WarcCapture),
    /// A record that is no response.
    Other,
    /// Not even a WARC header.
    Nothing,
}

/// Reads the WARC header at the start of a broken gzip `member`. It is decoded a byte
/// at a time: a decoder hands over nothing of the read in which it fails, which may
/// hold the whole header.
fn salvaged(member: &[u8]) -> Salvaged {
    /// A reader that gives one byte a read.
    struct ByteByByte<'a>(&'a [u8]);
    impl Read for ByteByByte<'_> {
        fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
            let (Some(first), Some(byte)) = (into.first_mut(), self.0.first()) else { return Ok(0) };
            *first = *byte;
            self.0 = &self.0[1..];
            Ok(1)
        }
    }
    let mut decoder = flate2::read::GzDecoder::new(ByteByByte(member));
    let (mut decoded, mut chunk) = (Vec::new(), [0u8; 512]);
    while decoded.len() < MAX_HEADER_BYTES {
        match decoder.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => decoded.extend_from_slice(&chunk[..read]),
        }
    }
    let Some(start) = memchr::memmem::find(&decoded, b"WARC/1.") else { return Salvaged::Nothing };
    let mut input = Replay::new(&decoded[start..], false);
    let mut nothing = |_| ControlFlow::Continue(());
    let mut reader = Reader {
        max_body: 0,
        deadline: None,
        each: &mut nothing,
        records: 0,
        held: None,
        broken: None,
        lengthless: false,
    };
    let _version = read_line(&mut input, &mut 0);
    let (fields, _) = reader.header_fields(&mut input);
    let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    match field("warc-type") {
        Some(kind) if kind.eq_ignore_ascii_case("response") => {
            let mut problems = Vec::new();
            Salvaged::Response(WarcCapture {
                url: target_uri(field("warc-target-uri")),
                date: capture_time(field("warc-date"), &mut problems),
                truncated: true,
                error: (!problems.is_empty()).then(|| problems.join("; ")),
                ..WarcCapture::default()
            })
        }
        Some(_) => Salvaged::Other,
        None => Salvaged::Nothing,
    }
}

/// The gzip header every member starts with (RFC 1952: ID1, ID2, deflate).
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];
/// The bytes of a member kept while it is decoded, to go back into after it breaks.
const MAX_KEPT_MEMBER: usize = 8 << 20;

/// The raw file, keeping the bytes of the member being decoded: a broken member's
/// decoder may have read on into the next members, which are found again in them.
struct Replay<R> {
    inner: R,
    /// Bytes to read again before `inner`'s, from `at`.
    pending: Vec<u8>,
    at: usize,
    /// Whether consumed bytes are kept, and those consumed since the member began (up
    /// to [`MAX_KEPT_MEMBER`]).
    keep: bool,
    kept: Vec<u8>,
}

impl<R: BufRead> Replay<R> {
    fn new(inner: R, keep: bool) -> Self {
        Replay { inner, pending: Vec::new(), at: 0, keep, kept: Vec::new() }
    }

    /// Gives `bytes` back, to be read again first: what a record read that was the
    /// next one's.
    fn unread(&mut self, bytes: &[u8]) {
        let mut again = bytes.to_vec();
        again.extend_from_slice(&self.pending[self.at..]);
        (self.pending, self.at) = (again, 0);
    }

    /// Goes to the next gzip header after the broken member's first byte: in the bytes
    /// kept when they are whole, else further on in the file.
    fn next_member(&mut self) -> io::Result<()> {
        // Every byte after the broken member's first, kept or not yet read, is searched:
        // its decoder may have taken the first bytes of the next header already.
        let mut again = if self.kept.len() < MAX_KEPT_MEMBER { std::mem::take(&mut self.kept) } else { Vec::new() };
        if !again.is_empty() {
            again.remove(0);
        }
        again.extend_from_slice(&self.pending[self.at..]);
        (self.pending, self.at) = (Vec::new(), 0);
        self.kept.clear();
        loop {
            if let Some(at) = memchr::memmem::find(&again, &GZIP_MAGIC) {
                again.drain(..at);
                self.pending = again;
                return Ok(());
            }
            // Keep the last two bytes: a header may straddle what was read and what
            // comes next.
            again.drain(..again.len().saturating_sub(2));
            let buffer = self.inner.fill_buf()?;
            if buffer.is_empty() {
                return Ok(());
            }
            let read = buffer.len();
            again.extend_from_slice(buffer);
            self.inner.consume(read);
        }
    }
}

impl<R: BufRead> Read for Replay<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        let buffer = self.fill_buf()?;
        let n = buffer.len().min(into.len());
        into[..n].copy_from_slice(&buffer[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Replay<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at < self.pending.len() {
            return Ok(&self.pending[self.at..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        let room = if self.keep { MAX_KEPT_MEMBER.saturating_sub(self.kept.len()) } else { 0 };
        if self.at < self.pending.len() {
            let end = (self.at + amount).min(self.pending.len());
            self.kept.extend_from_slice(&self.pending[self.at..end][..room.min(end - self.at)]);
            self.at = end;
            if self.at == self.pending.len() {
                (self.pending, self.at) = (Vec::new(), 0);
            }
            return;
        }
        // The buffer `fill_buf` gave is still there: no reading happens.
        if let Ok(buffer) = self.inner.fill_buf() {
            let taken = amount.min(buffer.len());
            self.kept.extend_from_slice(&buffer[..taken.min(room)]);
        }
        self.inner.consume(amount);
    }
}

/// What the next record is to a survey.
enum Next {
    /// The input has no more.
    End,
    /// A record that is no response (a request, metadata, warcinfo).
    Other,
    /// A response, or what could be read of a broken record.
    Capture(WarcCapture),
}

/// What reads records: the caps, the deadline and where they go.
struct Reader<'e> {
    max_body: usize,
    deadline: Option<Instant>,
    each: &'e mut dyn FnMut(WarcCapture) -> ControlFlow<()>,
    records: u64,
    /// The last capture read, handed over once the next record begins well or its
    /// input ends well: a read error after it may be its own.
    held: Option<WarcCapture>,
    /// The read error that cut the last record's block short.
    broken: Option<io::Error>,
    /// The last record had no `Content-Length`: the bytes after it, to the next version
    /// line, are its block, not another's fault.
    lengthless: bool,
}

impl Reader<'_> {
    /// Every record of `input` to its end.
    fn records_of<R: BufRead>(&mut self, input: &mut Replay<R>) -> Result<ControlFlow<()>, WarcError> {
        loop {
            if self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                let _ = self.release(None);
                return Err(WarcError::OutOfTime);
            }
            match self.record(input)? {
                Next::End => return Ok(ControlFlow::Continue(())),
                Next::Other => {
                    self.records += 1;
                    // The capture held ended before this record began: what goes wrong
                    // from here is not its own.
                    if self.release(None).is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                    // A request or metadata record whose block a read error cut: the
                    // input breaks here too (Common Crawl writes a request before each
                    // response, each in its own gzip member).
                    if let Some(error) = self.broken.take() {
                        return Err(WarcError::Io(error));
                    }
                }
                Next::Capture(capture) => {
                    self.records += 1;
                    if self.release(None).is_break() {
                        return Ok(ControlFlow::Break(()));
                    }
                    self.held = Some(capture);
                    // Its block was cut by a read error: the input breaks here, and the
                    // capture held carries why.
                    if let Some(error) = self.broken.take() {
                        return Err(WarcError::Io(error));
                    }
                }
            }
        }
    }

    /// Hands the held capture over, with `error` when the reading after it failed; a
    /// capture of its own for the error when none is held.
    fn release(&mut self, error: Option<String>) -> ControlFlow<()> {
        match (self.held.take(), error) {
            (Some(mut capture), Some(error)) => {
                capture.truncated = true;
                capture.error = Some(capture.error.map_or(error.clone(), |before| format!("{before}; {error}")));
                (self.each)(capture)
            }
            (Some(capture), None) => (self.each)(capture),
            (None, Some(error)) => (self.each)(WarcCapture { error: Some(error), ..WarcCapture::default() }),
            (None, None) => ControlFlow::Continue(()),
        }
    }

    /// The WARC header's fields after the version line, names in lower case, to the
    /// blank line that ends it (or [`MAX_HEADER_BYTES`]); and whether it ended so. A
    /// header cut off ends where the file does, where a read fails (kept in `broken`),
    /// or where the next record's version line begins, which is read again.
    fn header_fields<R: BufRead>(&mut self, input: &mut Replay<R>) -> (Vec<(String, String)>, bool) {
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut header_bytes = 0;
        let mut ignored = 0;
        loop {
            let mut line = match read_line(input, &mut ignored) {
                Ok(Some(line)) => line,
                Ok(None) => return (fields, false),
                // A read error inside the header (a broken gzip member): the fields
                // read name the record, which carries the error as a cut block does.
                Err(error) => {
                    self.broken = Some(error);
                    return (fields, false);
                }
            };
            // The next record's version line: alone, or after a field it cut when a
            // header's first field follows it (a value may end in `WARC/1.0`).
            let mut glued = |at: usize| at == 0 || input.fill_buf().is_ok_and(starts_a_header);
            if let Some(at) = version_line_at(&line).filter(|&at| glued(at)) {
                input.unread(&line[at..]);
                line.truncate(at);
                if let Some((name, value)) = String::from_utf8_lossy(&line).split_once(':') {
                    fields.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
                }
                return (fields, false);
            }
            header_bytes += line.len();
            let line = String::from_utf8_lossy(&line).trim_end_matches(['\r', '\n']).to_owned();
            if line.is_empty() || header_bytes > MAX_HEADER_BYTES {
                return (fields, true);
            }
            match (line.starts_with([' ', '\t']), fields.last_mut()) {
                (true, Some((_, value))) => value.push_str(line.trim()),
                _ => {
                    if let Some((name, value)) = line.split_once(':') {
                        fields.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
                    }
                }
            }
        }
    }

    /// The next record.
    fn record<R: BufRead>(&mut self, input: &mut Replay<R>) -> Result<Next, WarcError> {
        // A read error left by a record that failed before it was handed back is not
        // this one's.
        self.broken = None;
        // The version line, past the blank lines that end the record before; anything
        // else before it is said, and skipped.
        let (found, skipped) = to_version_line(input)?;
        if !found {
            if skipped > 0 {
                let error = format!("{} at the end that are no WARC record", plural(skipped, "byte"));
                return Ok(Next::Capture(WarcCapture { error: Some(error), ..WarcCapture::default() }));
            }
            return Ok(Next::End);
        }
        // Bytes between the record before and this one: the record before's Content-Length
        // fell short of its end, when it is the one held; else they are this one's.
        let mut problems = Vec::new();
        let lengthless_before = std::mem::take(&mut self.lengthless);
        if skipped > 0 && !lengthless_before {
            match &mut self.held {
                Some(before) => {
                    let problem = format!("its Content-Length ends {} before the record does", plural(skipped, "byte"));
                    before.error =
                        Some(before.error.take().map_or(problem.clone(), |error| format!("{error}; {problem}")));
                    before.truncated = true;
                }
                None => problems.push(format!("{skipped} bytes before it that are no WARC record were skipped")),
            }
        }
        let (fields, ended) = self.header_fields(input);
        let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let is_response = field("warc-type").is_some_and(|kind| kind.eq_ignore_ascii_case("response"));
        if !ended {
            if !is_response {
                return Ok(Next::Other);
            }
            // A read error is said when the capture is handed over; the end of the file
            // or the next record's start, here.
            if self.broken.is_none() {
                problems.push("its WARC header is cut off".to_owned());
            }
            return Ok(Next::Capture(WarcCapture {
                url: target_uri(field("warc-target-uri")),
                date: capture_time(field("warc-date"), &mut problems),
                truncated: true,
                error: (!problems.is_empty()).then(|| problems.join("; ")),
                ..WarcCapture::default()
            }));
        }
        let length = field("content-length").and_then(|v| v.parse::<u64>().ok());
        let Some(length) = length else {
            // Without its length the record's end is unknown: what follows is skipped
            // to the next version line.
            self.lengthless = true;
            if !is_response {
                return Ok(Next::Other);
            }
            problems.push("a record without a Content-Length: its block is skipped to the next record".to_owned());
            return Ok(Next::Capture(WarcCapture {
                url: target_uri(field("warc-target-uri")),
                date: capture_time(field("warc-date"), &mut problems),
                error: Some(problems.join("; ")),
                ..WarcCapture::default()
            }));
        };
        let (mut block, read) = self.read_block(input, length)?;
        // A Content-Length that runs into the next record: the block ends where that
        // record begins, and the record is read again (when the block was kept whole).
        // A block a read error cut short is all there is: nothing follows it to look at.
        let overrun = if read <= MAX_BLOCK_BYTES as u64 && self.broken.is_none() {
            overrun_of(&block, input.fill_buf()?)
        } else {
            None
        };
        if let Some(at) = overrun {
            input.unread(&block[at..]);
            block.truncate(at);
            // The record separator, or what of it the file has, is no part of the block.
            let kept = block.strip_suffix(b"\r\n\r\n").or_else(|| block.strip_suffix(b"\r\n")).map(<[u8]>::len);
            block.truncate(kept.unwrap_or(block.len()));
        }
        if !is_response {
            return Ok(Next::Other);
        }
        if field("warc-date").is_none() {
            problems.push("it has no WARC-Date".to_owned());
        }
        let mut capture = WarcCapture {
            url: target_uri(field("warc-target-uri")),
            date: capture_time(field("warc-date"), &mut problems),
            truncated: field("warc-truncated").is_some() || read > MAX_BLOCK_BYTES as u64,
            ..WarcCapture::default()
        };
        if overrun.is_some() {
            problems.push("its Content-Length runs into the next record".to_owned());
            capture.truncated = true;
        } else if read < length {
            problems.push(format!("the record is cut off: {read} of its {length} bytes"));
            capture.truncated = true;
        }
        if let Err(problem) = read_http(&block, self.max_body, &mut capture) {
            problems.push(problem);
        }
        if !problems.is_empty() {
            capture.error = Some(problems.join("; "));
        }
        Ok(Next::Capture(capture))
    }

    /// The record's block: its first [`MAX_BLOCK_BYTES`], the rest read past, and how
    /// many bytes there were (fewer than `length` when the file ends first).
    /// A read that fails (a broken gzip member) ends the block where it failed, and is
    /// kept in `broken`: the record is cut there, and says so.
    fn read_block(&mut self, input: &mut impl BufRead, length: u64) -> Result<(Vec<u8>, u64), WarcError> {
        let mut limited = input.take(length);
        let mut block = Vec::with_capacity(length.min(MAX_BLOCK_BYTES as u64) as usize);
        if let Err(error) = (&mut limited).take(MAX_BLOCK_BYTES as u64).read_to_end(&mut block) {
            self.broken = Some(error);
            let read = block.len() as u64;
            return Ok((block, read));
        }
        let mut read = block.len() as u64;
        let mut sink = vec![0u8; 64 * 1024];
        loop {
            let n = match limited.read(&mut sink) {
                Ok(0) => break,
                Ok(n) => n,
                Err(error) => {
                    self.broken = Some(error);
                    break;
                }
            };
            read += n as u64;
            // A 1 GB record is skipped, not waited for past the run's end.
            if read % (16 << 20) < n as u64 && self.deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                return Err(WarcError::OutOfTime);
            }
        }
        Ok((block, read))
    }
}

/// Reads past the next record's version line: whether there is one, and how many
/// bytes before it are no record (blank lines, which end the record before, aside).
fn to_version_line<R: BufRead>(input: &mut Replay<R>) -> io::Result<(bool, usize)> {
    let mut skipped = 0usize;
    loop {
        let Some(line) = read_line(input, &mut skipped)? else { return Ok((false, skipped)) };
        if line.starts_with(b"WARC/") {
            return Ok((true, skipped));
        }
        // Bytes that are no record, then a record's start on the same line.
        if let Some(at) = memchr::memmem::find(&line, b"WARC/1.") {
            skipped += at;
            input.unread(&line[at..]);
            continue;
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            skipped += line.len();
        }
    }
}

/// Where a block that runs into the next record should have ended. A block that the
/// record separator and the next record's version line follow (or the end, or what a
/// read shows of them) ended well: nothing is looked for in it, so that a robots.txt
/// holding the line `WARC/1.0` is read whole. Else the first version line in it
/// (`WARC/1.0` or `WARC/1.1` and the line's end, glued to what was cut or not) that a
/// header's first field follows, read on into the bytes that follow the block in the
/// input (`next`) when the block ends inside one.
fn overrun_of(block: &[u8], next: &[u8]) -> Option<usize> {
    const START: &[u8] = b"WARC/1.";
    let after = &next[next.iter().position(|byte| !matches!(byte, b'\r' | b'\n')).unwrap_or(next.len())..];
    if after.starts_with(START) || START.starts_with(after) {
        return None;
    }
    let mut joined = block.to_vec();
    joined.extend_from_slice(&next[..next.len().min(32)]);
    memchr::memmem::find_iter(&joined, START).filter(|&at| at < block.len()).find(|&at| {
        let rest = &joined[at + START.len()..];
        let line_end = match rest {
            [b'0' | b'1', b'\r', b'\n', ..] => 3,
            [b'0' | b'1', b'\n', ..] => 2,
            _ => return false,
        };
        starts_a_header(&rest[line_end..])
    })
}

/// True when `bytes` begin as a record's header does after its version line: with
/// `WARC-Type` or `WARC-Record-ID`, which every record has and writers put first.
fn starts_a_header(bytes: &[u8]) -> bool {
    [&b"WARC-Type:"[..], b"WARC-Record-ID:"]
        .iter()
        .any(|name| bytes.get(..name.len()).is_some_and(|start| start.eq_ignore_ascii_case(name)))
}

/// Where a record's version line (`WARC/1.0` or `WARC/1.1`, then the line's end) begins
/// in `line`, which it ends.
fn version_line_at(line: &[u8]) -> Option<usize> {
    let at = memchr::memmem::rfind(line, b"WARC/1.")?;
    matches!(&line[at + 7..], [b'0' | b'1', b'\r', b'\n'] | [b'0' | b'1', b'\n']).then_some(at)
}

/// The next line (with its line break), at most [`MAX_HEADER_LINE`] bytes of it; the
/// rest of a longer line is read past, and counted in `skipped`. `None` at the end.
fn read_line(input: &mut impl BufRead, skipped: &mut usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let n = input.take(MAX_HEADER_LINE as u64).read_until(b'\n', &mut line)?;
    if n == 0 {
        return Ok(None);
    }
    if !line.ends_with(b"\n") {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let more = input.take(MAX_HEADER_LINE as u64).read_until(b'\n', &mut rest)?;
            *skipped += more;
            if more == 0 || rest.ends_with(b"\n") {
                break;
            }
        }
    }
    Ok(Some(line))
}

/// A `response` record's capture from its parts, as another WARC reader (`FastWARC`,
/// `warcio`) hands them: the target URI, the date, and the record's block (the HTTP
/// answer), read as [`read_captures`] reads it, the body cut at `max_body`; `problem`
/// is what the reader found wrong with the record (cut off), said first.
#[must_use]
pub fn response_capture(
    url: &str,
    date: &str,
    block: &[u8],
    max_body: usize,
    truncated: bool,
    problem: Option<String>,
) -> WarcCapture {
    let mut problems: Vec<String> = problem.into_iter().collect();
    let date = capture_time(Some(date), &mut problems);
    let mut capture = WarcCapture { url: target_uri(Some(url)), date, truncated, ..WarcCapture::default() };
    problems.extend(read_http(block, max_body, &mut capture).err());
    if !problems.is_empty() {
        capture.error = Some(problems.join("; "));
    }
    capture
}

/// True for a capture of a robots.txt (`/robots.txt` at a site's root): a general
/// crawl's pages are no robots.txt, and a survey skips them.
#[must_use]
pub fn is_robots_txt(url: &str) -> bool {
    // With a query it is another resource (`/robots.txt?utm=1`): a page, which may be a
    // redirect's target but is no site's robots.txt.
    url::Url::parse(url).is_ok_and(|url| url.path() == "/robots.txt" && url.query().is_none())
}

/// `WARC-Target-URI` without the angle brackets WARC/1.0 files sometimes put round it.
fn target_uri(value: Option<&str>) -> String {
    value.unwrap_or_default().trim().trim_start_matches('<').trim_end_matches('>').to_owned()
}

/// `WARC-Date` as every capture's time is written, `2024-05-01T12:00:00Z`: in UTC, to
/// the second. WARC/1.1 allows fractions of a second and the W3C profile of ISO 8601
/// allows an offset; as written they would compare wrongly as text, and a redirect
/// takes its target's capture nearest in time by that comparison (in Spark too), and
/// the summary each site's last. Dates some writers put there are read too: an HTTP
/// date (RFC 2822), the Wayback Machine's 14 digits, a day, a time with no zone (taken
/// as UTC). Anything else is no date: said, and the time left empty, so that it sorts
/// before every capture with a date rather than after.
fn utc_seconds(date: &str) -> Result<String, String> {
    let date = date.trim();
    let utc = jiff::tz::Offset::UTC;
    let time = date
        .parse::<jiff::Timestamp>()
        .ok()
        .or_else(|| jiff::fmt::rfc2822::DateTimeParser::new().parse_timestamp(date).ok())
        .or_else(|| {
            let civil = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", date)
                .ok()
                .or_else(|| date.parse::<jiff::civil::DateTime>().ok())
                .or_else(|| {
                    date.parse::<jiff::civil::Date>().ok().map(|day| day.to_datetime(jiff::civil::Time::midnight()))
                })?;
            utc.to_timestamp(civil).ok()
        });
    match time {
        Some(time) => Ok(time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()),
        None => Err(format!("its WARC-Date `{}` is no date", date.chars().take(64).collect::<String>())),
    }
}

/// A capture's time from its `WARC-Date` (see [`utc_seconds`]), and what is wrong with
/// it; none read (a header cut before it) is an empty time, said by the cut.
fn capture_time(date: Option<&str>, problems: &mut Vec<String>) -> String {
    match date.map(utc_seconds) {
        Some(Ok(time)) => time,
        Some(Err(problem)) => {
            problems.push(problem);
            String::new()
        }
        None => String::new(),
    }
}

/// Reads the HTTP answer of a response record into `capture`: status, headers, body
/// with its codings undone. What could not be read is said; what could be is kept.
fn read_http(block: &[u8], max_body: usize, capture: &mut WarcCapture) -> Result<(), String> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HTTP_HEADERS];
    let mut response = httparse::Response::new(&mut fields);
    // Archives write an HTTP/2 answer's status line as `HTTP/2 200`, which httparse
    // (HTTP/1 only) refuses: read as HTTP/1.1, it means the same.
    let rewritten;
    let block = match block.strip_prefix(b"HTTP/2 ") {
        Some(rest) => {
            rewritten = [&b"HTTP/1.1 "[..], rest].concat();
            &rewritten[..]
        }
        None => block,
    };
    let header_end = match response.parse(block) {
        Ok(httparse::Status::Complete(end)) => end,
        Ok(httparse::Status::Partial) => return Err("the HTTP answer's header is cut off".to_owned()),
        Err(error) => return Err(format!("no HTTP answer in the record ({error})")),
    };
    capture.status = response.code;
    capture.headers = response
        .headers
        .iter()
        .map(|field| (field.name.to_ascii_lowercase(), String::from_utf8_lossy(field.value).into_owned()))
        .collect();
    let header = |name: &str| capture.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_ascii_lowercase());
    capture.location = capture.headers.iter().find(|(n, _)| n == "location").map(|(_, v)| v.clone());
    let mut body = block[header_end..].to_vec();
    let mut problems = Vec::new();
    if header("transfer-encoding").is_some_and(|coding| coding.contains("chunked")) {
        match unchunk(&body) {
            Chunks::Whole(whole) => body = whole,
            Chunks::Cut(part) => {
                problems.push("the chunked body is cut off".to_owned());
                capture.truncated = true;
                body = part;
            }
            // Archives that store the body as it was decoded keep the header that
            // said it was chunked: read as it is, as warcio reads it.
            Chunks::None => {
                problems.push("the body is not chunked, though its header says so: read as it is".to_owned());
            }
            // What follows a bad chunk size cannot be told apart: robots could not
            // read the rules, as if the server had failed.
            Chunks::Broken => {
                problems.push("the chunked body's framing is broken".to_owned());
                capture.unreadable = true;
                body.clear();
            }
        }
    }
    match header("content-encoding").as_deref().map(str::trim) {
        None | Some("" | "identity") => {}
        Some(coding @ ("gzip" | "x-gzip" | "deflate")) => {
            let decoded = if coding == "deflate" {
                read_capped(flate2::read::ZlibDecoder::new(body.as_slice()), max_body)
            } else {
                read_capped(flate2::read::MultiGzDecoder::new(body.as_slice()), max_body)
            };
            match decoded {
                Ok((decoded, cut)) => {
                    body = decoded;
                    capture.truncated |= cut;
                }
                Err(error) => {
                    problems.push(format!("the {coding} body could not be decoded ({error})"));
                    capture.unreadable = true;
                }
            }
        }
        Some(other) => {
            problems.push(format!("the body's content coding {other} is not undone"));
            capture.unreadable = true;
        }
    }
    if body.len() > max_body {
        body.truncate(max_body);
        capture.truncated = true;
    }
    capture.body = body;
    if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) }
}

/// At most `max` bytes of `reader`, and whether there were more.
fn read_capped(reader: impl Read, max: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    reader.take(max as u64 + 1).read_to_end(&mut bytes)?;
    let cut = bytes.len() > max;
    bytes.truncate(max);
    Ok((bytes, cut))
}

/// What a body said to be chunked holds.
enum Chunks {
    /// Its chunks, to the last (RFC 9112 §7.1).
    Whole(Vec<u8>),
    /// The chunks read before it was cut off.
    Cut(Vec<u8>),
    /// No chunk size at its start: it is no chunked body.
    None,
    /// A chunk size that is none after the first chunks.
    Broken,
}

/// A chunked body's data (RFC 9112 §7.1).
fn unchunk(mut body: &[u8]) -> Chunks {
    let mut data = Vec::with_capacity(body.len());
    let mut first = true;
    loop {
        // A size line begins with a hex digit: httparse reads an empty one, or one of an
        // extension alone, as the last chunk's.
        let size_line = body.first().is_none_or(u8::is_ascii_hexdigit);
        let (start, size) = match httparse::parse_chunk_size(body) {
            _ if body.is_empty() => return Chunks::Cut(data),
            Ok(httparse::Status::Complete(found)) if size_line => found,
            Ok(httparse::Status::Partial) if size_line => return Chunks::Cut(data),
            _ if first => return Chunks::None,
            _ => return Chunks::Broken,
        };
        first = false;
        if size == 0 {
            return Chunks::Whole(data);
        }
        let end = usize::try_from(size).ok().and_then(|size| start.checked_add(size));
        let Some(chunk) = end.and_then(|end| body.get(start..end)) else {
            data.extend_from_slice(&body[start.min(body.len())..]);
            return Chunks::Cut(data);
        };
        data.extend_from_slice(chunk);
        body = &body[start + chunk.len()..];
        // Each chunk's data ends its line: anything else is no chunked body.
        match body.strip_prefix(b"\r\n").or_else(|| body.strip_prefix(b"\n")) {
            Some(rest) => body = rest,
            None if body.is_empty() || body == b"\r" => return Chunks::Cut(data),
            None => return Chunks::Broken,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// Bytes gzip cannot shrink (a linear congruential sequence of letters).
    fn noise(length: usize) -> Vec<u8> {
        let mut state = 1u32;
        (0..length)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                b'a' + (state >> 16) as u8 % 26
            })
            .collect()
    }

    /// A WARC record of `kind` for `url` whose block is `block`.
    fn record(kind: &str, url: &str, block: &[u8]) -> Vec<u8> {
        dated_record(kind, url, "2026-11-01T00:00:00Z", block)
    }

    fn dated_record(kind: &str, url: &str, date: &str, block: &[u8]) -> Vec<u8> {
        let mut bytes = format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        bytes.extend_from_slice(block);
        bytes.extend_from_slice(b"\r\n\r\n");
        bytes
    }

    fn response(url: &str, head: &str, body: &[u8]) -> Vec<u8> {
        let mut block = format!("HTTP/1.1 {head}\r\n\r\n").into_bytes();
        block.extend_from_slice(body);
        record("response", url, &block)
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(bytes).expect("gzip in memory");
        encoder.finish().expect("gzip in memory")
    }

    fn captures(file: &[u8]) -> Vec<WarcCapture> {
        let mut found = Vec::new();
        read_captures(file, 500 * 1024, None, |capture| {
            found.push(capture);
            ControlFlow::Continue(())
        })
        .expect("read");
        found
    }

    fn records() -> Vec<Vec<u8>> {
        let chunked = b"7\r\nUser-ag\r\n12\r\nent: *\nDisallow: /\r\n0\r\n\r\n";
        vec![
            record("warcinfo", "", b"software: test\r\n"),
            record("request", "https://a.example/robots.txt", b"GET /robots.txt HTTP/1.1\r\n\r\n"),
            response(
                "https://a.example/robots.txt",
                "200 OK\r\nContent-Type: text/plain",
                b"User-agent: *\nDisallow: /x\n",
            ),
            response("http://b.example/robots.txt", "301 Moved\r\nLocation: https://b.example/robots.txt", b""),
            response("https://c.example/robots.txt", "200 OK\r\nTransfer-Encoding: chunked", chunked),
            response(
                "https://d.example/robots.txt",
                "200 OK\r\nContent-Encoding: gzip",
                &gzip(b"User-agent: *\nAllow: /\n"),
            ),
            response("https://e.example/robots.txt", "404 Not Found", b"<html>no</html>"),
        ]
    }

    fn check_records(found: &[WarcCapture]) {
        let summary: Vec<(&str, Option<u16>, &[u8])> =
            found.iter().map(|c| (c.url.as_str(), c.status, c.body.as_slice())).collect();
        assert_eq!(
            summary,
            [
                ("https://a.example/robots.txt", Some(200), &b"User-agent: *\nDisallow: /x\n"[..]),
                ("http://b.example/robots.txt", Some(301), &b""[..]),
                ("https://c.example/robots.txt", Some(200), &b"User-agent: *\nDisallow: /"[..]),
                ("https://d.example/robots.txt", Some(200), &b"User-agent: *\nAllow: /\n"[..]),
                ("https://e.example/robots.txt", Some(404), &b"<html>no</html>"[..]),
            ]
        );
        assert_eq!(found[1].location.as_deref(), Some("https://b.example/robots.txt"));
        assert_eq!(found[0].date, "2026-11-01T00:00:00Z");
        assert!(found.iter().all(|c| c.error.is_none() && !c.truncated), "{found:?}");
    }

    #[test]
    fn plain_and_gzipped_files_give_the_same_captures() {
        let plain: Vec<u8> = records().concat();
        check_records(&captures(&plain));
        let per_record: Vec<u8> = records().iter().map(|r| gzip(r)).collect::<Vec<_>>().concat();
        check_records(&captures(&per_record));
        check_records(&captures(&gzip(&plain)));
    }

    #[test]
    fn a_broken_member_costs_its_record_only() {
        let mut members: Vec<Vec<u8>> = records().iter().map(|r| gzip(r)).collect();
        let broken = &mut members[3];
        let middle = broken.len() / 2;
        broken[middle..].fill(0x55);
        let found = captures(&members.concat());
        // The broken member's record is lost (what its decoder gave before the break
        // comes with an error); the members after it are read.
        let whole: Vec<&str> = found.iter().filter(|c| c.error.is_none()).map(|c| c.url.as_str()).collect();
        assert_eq!(
            whole,
            [
                "https://a.example/robots.txt",
                "https://c.example/robots.txt",
                "https://d.example/robots.txt",
                "https://e.example/robots.txt"
            ]
        );
        assert!(
            found.iter().any(|c| c.error.as_deref().is_some_and(|e| e.contains("gzip member is broken"))),
            "{found:?}"
        );
    }

    /// A member cut short (the file's bytes lost mid-member) costs its own record: the
    /// record before it, in a member that ended well, is whole, and so is the next.
    #[test]
    fn a_member_cut_short_does_not_blame_the_record_before() {
        let body = b"User-agent: *\nDisallow: /private\n";
        // Bytes gzip cannot shrink (a linear congruential sequence): the cut falls
        // inside the body, and the decoder reads on into the next member.
        let mut cut = gzip(&response("https://cut.example/robots.txt", "200 OK", &noise(40_000)));
        cut.truncate(cut.len() / 2);
        let file = [
            gzip(&response("https://a.example/robots.txt", "200 OK", body)),
            cut,
            gzip(&response("https://tail.example/robots.txt", "200 OK", body)),
        ]
        .concat();
        let found = captures(&file);
        let errors: Vec<(&str, bool)> =
            found.iter().map(|capture| (capture.url.as_str(), capture.error.is_some())).collect();
        assert_eq!(errors.first(), Some(&("https://a.example/robots.txt", false)), "{found:?}");
        assert_eq!(errors.last(), Some(&("https://tail.example/robots.txt", false)), "{found:?}");
        // The cut record keeps its URL and carries the error.
        assert_eq!(
            errors.iter().filter(|(_, error)| *error).collect::<Vec<_>>(),
            [&("https://cut.example/robots.txt", true)]
        );
    }

    /// A member that is a gzip header alone: its decoder takes the first bytes of the
    /// next member's header as its data; the next record is found all the same.
    #[test]
    fn a_member_that_is_a_header_alone_costs_no_other_record() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let file = [
            gzip(&response("https://a.example/robots.txt", "200 OK", body)),
            gzip(b"anything")[..10].to_vec(),
            gzip(&response("https://b.example/robots.txt", "200 OK", body)),
        ]
        .concat();
        let whole: Vec<String> =
            captures(&file).into_iter().filter(|capture| capture.error.is_none()).map(|capture| capture.url).collect();
        assert_eq!(whole, ["https://a.example/robots.txt", "https://b.example/robots.txt"]);
    }

    /// A request record's member cut short, as Common Crawl writes a request before
    /// each response: the response after it is read whole.
    #[test]
    fn a_cut_request_record_costs_no_response() {
        let body = b"User-agent: *\nDisallow: /private\n";
        // Cut in the middle of its block, which gzip cannot shrink.
        let mut request = gzip(&record("request", "https://b.example/robots.txt", &noise(4_000)));
        request.truncate(request.len() / 2);
        let file = [
            gzip(&response("https://a.example/robots.txt", "200 OK", body)),
            request,
            gzip(&response("https://b.example/robots.txt", "200 OK", body)),
        ]
        .concat();
        let whole: Vec<String> =
            captures(&file).into_iter().filter(|capture| capture.error.is_none()).map(|capture| capture.url).collect();
        assert_eq!(whole, ["https://a.example/robots.txt", "https://b.example/robots.txt"]);
    }

    /// A record cut inside its WARC header keeps the URL and the date read, and carries
    /// the error; the record before it is whole, gzipped per record or whole.
    #[test]
    fn a_record_cut_in_its_header_keeps_its_url() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let whole = response("https://a.example/robots.txt", "200 OK", body);
        // A long field after the URL and the date (gzip cannot shrink it) and the cut
        // in it, before the Content-Length.
        let padding = String::from_utf8(noise(12_000)).expect("letters");
        let long = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://cut.example/robots.txt\r\n\
             WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Padding: {padding}\r\nContent-Length: 2\r\n\r\nHT\r\n\r\n"
        );
        let mut per_record = gzip(long.as_bytes());
        per_record.truncate(per_record.len() / 2);
        let mut as_one = gzip(&[whole.clone(), long.into_bytes()].concat());
        as_one.truncate(as_one.len() - 6_000);
        for file in [[gzip(&whole), per_record].concat(), as_one] {
            let found = captures(&file);
            let summary: Vec<(&str, &str, bool)> =
                found.iter().map(|c| (c.url.as_str(), c.date.as_str(), c.error.is_some())).collect();
            assert_eq!(
                summary,
                [
                    ("https://a.example/robots.txt", "2026-11-01T00:00:00Z", false),
                    ("https://cut.example/robots.txt", "2024-05-01T12:00:00Z", true)
                ],
                "{found:?}"
            );
            assert!(found[1].truncated && found[1].status.is_none(), "{found:?}");
        }
    }

    /// Text that looks like a record's start inside a record that is whole (a robots.txt
    /// comment line `WARC/1.0`, a field value ending in it) cuts nothing; a record whose
    /// body was cut mid-line, its length running into the next record, is cut where
    /// that record begins, and the next one is read.
    #[test]
    fn only_a_real_next_record_cuts_a_record_short() {
        let body = b"User-agent: *\nWARC/1.0\nDisallow: /\n";
        let whole = response("https://a.example/robots.txt", "200 OK", body);
        let odd_field = dated_record(
            "response",
            "https://b.example/robots.txt?v=WARC/1.0",
            "2024-05-01T00:00:00Z",
            b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /\n",
        );
        for file in [[whole.clone(), odd_field.clone()].concat(), [gzip(&whole), gzip(&odd_field)].concat()] {
            let found = captures(&file);
            let summary: Vec<(&str, &[u8], bool)> =
                found.iter().map(|c| (c.url.as_str(), c.body.as_slice(), c.error.is_some())).collect();
            assert_eq!(
                summary,
                [
                    ("https://a.example/robots.txt", &body[..], false),
                    ("https://b.example/robots.txt?v=WARC/1.0", &b"User-agent: *\nDisallow: /\n"[..], false)
                ]
            );
        }
        // The first record's body lost its last 9 bytes, mid-line.
        let mut cut = whole.clone();
        let end = cut.len() - 4;
        cut.drain(end - 9..end);
        let next = response("https://c.example/robots.txt", "200 OK", b"User-agent: *\nAllow: /\n");
        let found = captures(&[cut, next].concat());
        let summary: Vec<(&str, Option<&str>)> = found.iter().map(|c| (c.url.as_str(), c.error.as_deref())).collect();
        assert_eq!(
            summary,
            [
                ("https://a.example/robots.txt", Some("its Content-Length runs into the next record")),
                ("https://c.example/robots.txt", None)
            ]
        );
    }

    /// A record without a Content-Length keeps its URL and date and says so; the bytes
    /// after it are its own, not the next record's fault; one that is no response costs
    /// no row.
    #[test]
    fn a_record_without_a_length_is_said_and_the_next_is_read() {
        let lengthless = |kind: &str, url: &str| {
            format!("WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-05-01T00:00:00Z\r\n\r\nGET / HTTP/1.1\r\n\r\n")
                .into_bytes()
        };
        let next = response("https://c.example/robots.txt", "200 OK", b"User-agent: *\nAllow: /\n");
        let file = [
            lengthless("request", "https://a.example/robots.txt"),
            lengthless("response", "https://b.example/robots.txt"),
            next,
        ]
        .concat();
        let found = captures(&file);
        let summary: Vec<(&str, &str, Option<&str>)> =
            found.iter().map(|c| (c.url.as_str(), c.date.as_str(), c.error.as_deref())).collect();
        assert_eq!(
            summary,
            [
                (
                    "https://b.example/robots.txt",
                    "2024-05-01T00:00:00Z",
                    Some("a record without a Content-Length: its block is skipped to the next record")
                ),
                ("https://c.example/robots.txt", "2026-11-01T00:00:00Z", None)
            ]
        );
    }

    /// A plain file that cannot be read on (a disk's error): the record it broke in
    /// carries the error, and the reading says it failed.
    #[test]
    fn a_plain_file_that_fails_blames_the_record_it_broke_in() {
        struct FailingAfter(io::Cursor<Vec<u8>>);
        impl Read for FailingAfter {
            fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
                match self.0.read(into)? {
                    0 => Err(io::Error::other("the disk failed")),
                    n => Ok(n),
                }
            }
        }
        let body = b"User-agent: *\nDisallow: /private\n";
        let second = response("https://b.example/robots.txt", "200 OK", body);
        let file = [response("https://a.example/robots.txt", "200 OK", body), second[..120].to_vec()].concat();
        let mut found = Vec::new();
        let result = read_captures(FailingAfter(io::Cursor::new(file)), 500 * 1024, None, |capture| {
            found.push(capture);
            ControlFlow::Continue(())
        });
        assert!(matches!(result, Err(WarcError::Io(_))), "{result:?}");
        let summary: Vec<(&str, Option<&str>)> = found.iter().map(|c| (c.url.as_str(), c.error.as_deref())).collect();
        assert_eq!(
            summary,
            [
                ("https://a.example/robots.txt", None),
                ("https://b.example/robots.txt", Some("the file could not be read on (the disk failed)"))
            ]
        );
    }

    /// A body said to be chunked that is not (an archive that stored it decoded) is
    /// read as it is; one whose framing breaks after its first chunks is unreadable, as
    /// if the server had failed, never an empty file that allows everything.
    #[test]
    fn chunked_bodies_whole_cut_unchunked_and_broken() {
        let judged = |body: &[u8]| {
            let block = [&b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"[..], body].concat();
            let mut capture = WarcCapture::default();
            let error = read_http(&block, 500 * 1024, &mut capture).err();
            (String::from_utf8_lossy(&capture.body).into_owned(), capture.unreadable, error)
        };
        assert_eq!(judged(b"5\r\nAllow\r\n0\r\n\r\n"), ("Allow".into(), false, None));
        assert_eq!(judged(b"5\r\nAll"), ("All".into(), false, Some("the chunked body is cut off".into())));
        let plain = "User-agent: *\nDisallow: /\n";
        assert_eq!(
            judged(plain.as_bytes()),
            (plain.into(), false, Some("the body is not chunked, though its header says so: read as it is".into()))
        );
        for broken in [
            &b"5\r\nAllow\r\nzz\r\nDisallow: /\r\n"[..],
            b"5\r\nUser-\r\n\r\nagent: *\n",
            b"5\r\nUser-\r\n;x\r\n",
            b"5\r\nUser-agent",
        ] {
            assert_eq!(
                judged(broken),
                (String::new(), true, Some("the chunked body's framing is broken".into())),
                "{}",
                String::from_utf8_lossy(broken)
            );
        }
    }

    #[test]
    fn only_a_sites_robots_txt_is_one() {
        assert!(is_robots_txt("https://a.example/robots.txt"));
        assert!(is_robots_txt("HTTP://A.example:8080/robots.txt#top"));
        assert!(!is_robots_txt("https://a.example/robots.txt?utm=1"), "another resource: a page");
        assert!(!is_robots_txt("https://a.example/a/robots.txt"));
        assert!(!is_robots_txt("https://a.example/ROBOTS.TXT"));
    }

    #[test]
    fn cut_records_and_large_ones_say_so() {
        let whole = response("https://a.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /private\n");
        let cut = &whole[..whole.len() - 12];
        let found = captures(cut);
        assert_eq!(found.len(), 1);
        assert!(found[0].truncated);
        assert!(found[0].error.as_deref().is_some_and(|e| e.starts_with("the record is cut off")), "{:?}", found[0]);
        // Past the caps: the body is cut at max_body, the rest of the record skipped,
        // and the next record read.
        let mut big = b"User-agent: *\nDisallow: /\n".to_vec();
        big.resize(3 << 20, b'#');
        let mut file = response("https://big.example/robots.txt", "200 OK", &big);
        file.extend(response("https://next.example/robots.txt", "200 OK", b""));
        let found = captures(&file);
        assert_eq!(found.len(), 2);
        assert!(found[0].truncated && found[0].body.len() == 500 * 1024 && found[0].body.starts_with(b"User-agent"));
        assert_eq!(found[1].url, "https://next.example/robots.txt");
        // Garbage between records is said and skipped.
        let mut garbage = b"not a warc\r\n".to_vec();
        garbage.extend(response("https://a.example/robots.txt", "200 OK", b""));
        let found = captures(&garbage);
        assert_eq!(found.len(), 1);
        assert!(found[0].error.as_deref().is_some_and(|e| e.contains("no WARC record")), "{:?}", found[0]);
        // A Content-Length that runs into the next record: both are read (issue 38).
        let first = response("https://a.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /\n");
        let text = String::from_utf8(first).expect("text");
        let (length, _) = text.split_once("\r\n\r\nHTTP").expect("a header");
        let declared: usize = length.rsplit(' ').next().expect("a length").parse().expect("a number");
        let lying =
            text.replacen(&format!("Content-Length: {declared}"), &format!("Content-Length: {}", declared + 6), 1);
        let mut file = lying.into_bytes();
        file.extend(response("https://next.example/robots.txt", "200 OK", b""));
        let found = captures(&file);
        assert_eq!(
            found.iter().map(|c| c.url.as_str()).collect::<Vec<_>>(),
            ["https://a.example/robots.txt", "https://next.example/robots.txt"]
        );
        assert_eq!(found[0].body, b"User-agent: *\nDisallow: /\n");
        assert!(found[0].error.as_deref().is_some_and(|e| e.contains("runs into the next record")), "{:?}", found[0]);
        // Bytes with no line break before a record: the record is read.
        let mut junk = vec![0u8; 5000];
        junk.extend(response("https://a.example/robots.txt", "200 OK", b""));
        let found = captures(&junk);
        assert_eq!(found.len(), 1);
        assert!(found[0].error.as_deref().is_some_and(|e| e.starts_with("5000 bytes")), "{:?}", found[0]);
        // A gzip member cut short: its record says so, the next is read.
        let mut member = gzip(&response("https://g1.example/robots.txt", "200 OK", b"User-agent: *\nDisallow: /\n"));
        member.truncate(member.len() - 15);
        member.extend(gzip(&response("https://g2.example/robots.txt", "200 OK", b"")));
        let found = captures(&member);
        let g1 = found.iter().find(|c| c.url == "https://g1.example/robots.txt");
        assert!(g1.is_none_or(|c| c.error.is_some()), "{found:?}");
        assert!(found.iter().any(|c| c.url == "https://g2.example/robots.txt" && c.error.is_none()), "{found:?}");
        // No HTTP answer in a response record.
        let found = captures(&record("response", "https://x.example/robots.txt", b"\x00\x01binary"));
        assert_eq!(found[0].status, None);
        assert!(found[0].error.as_deref().is_some_and(|e| e.starts_with("no HTTP answer")), "{:?}", found[0]);
    }

    #[test]
    fn dates_are_read_in_utc_so_that_a_redirect_takes_the_capture_nearest_in_time() {
        use crate::policy::{Reading, Robot};
        use crate::survey::{Capture, Redirects, SurveyRobot, judge};

        let utc = |date| utc_seconds(date).unwrap_or_else(|problem| problem);
        assert_eq!(utc("2024-05-01T13:30:00.75+02:00"), "2024-05-01T11:30:00Z");
        assert_eq!(utc(" 2024-05-01T11:30:00Z"), "2024-05-01T11:30:00Z");
        assert_eq!(utc("Wed, 01 May 2024 11:30:00 GMT"), "2024-05-01T11:30:00Z");
        assert_eq!(utc("20240501113000"), "2024-05-01T11:30:00Z");
        assert_eq!(utc("2024-05-01"), "2024-05-01T00:00:00Z");
        assert_eq!(utc("2024-05-01T11:30:00"), "2024-05-01T11:30:00Z");
        assert_eq!(utc("yesterday"), "its WARC-Date `yesterday` is no date");
        assert_eq!(utc("2024-02-30"), "its WARC-Date `2024-02-30` is no date");
        // The redirect is of 12:00 UTC. Its target was captured at 11:00 and at 11:30
        // UTC; the 11:30 one, written with an offset, reads as 13:30 as text.
        let redirect = |date| {
            let block = b"HTTP/1.1 301 Moved\r\nLocation: https://a.example/robots.txt\r\n\r\n";
            dated_record("response", "http://a.example/robots.txt", date, block)
        };
        let target = |date, body: &str| {
            let block = format!("HTTP/1.1 200 OK\r\n\r\n{body}");
            dated_record("response", "https://a.example/robots.txt", date, block.as_bytes())
        };
        let file = [
            redirect("2024-05-01T12:00:00.000Z"),
            target("2024-05-01T11:00:00Z", "User-agent: *\nAllow: /\n"),
            target("2024-05-01T13:30:00+02:00", "User-agent: *\nDisallow: /\n"),
        ]
        .concat();
        let robots =
            [SurveyRobot { label: "GPTBot".into(), robot: Robot::from_agent("GPTBot"), reading: Reading::Rfc9309 }];
        let mut redirects = Redirects::with_capacity(10);
        for capture in captures(&file) {
            let capture = Capture::from(capture);
            redirects.note(&capture, judge(&capture, &robots)).expect("memory");
        }
        let resolved = redirects.resolved_rows();
        let redirect_row = resolved.iter().find(|row| row.url.starts_with("http:")).expect("the redirect's row");
        assert_eq!((redirect_row.time.as_str(), redirect_row.category.name()), ("2024-05-01T12:00:00Z", "full"));
    }
}
