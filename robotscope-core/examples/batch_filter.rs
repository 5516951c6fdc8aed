//! A batch filter: of the URLs or paths on standard input, print those a robot may
//! fetch (or, with `--disallowed`, those it may not), like `grep`.
//!
//! ```sh
//! cargo run --release -p robotscope-core --example batch_filter -- robots.txt ExampleBot < urls.txt
//! cargo run --release -p robotscope-core --example batch_filter -- robots.txt ExampleBot --disallowed < urls.txt
//! ```
//!
//! The policy core only: one parse, one [`Matcher`] for the robot, one answer per line.
//! Lines are printed trimmed (invalid UTF-8 replaced), so the output can feed the next
//! tool. A line that holds a control character is no URL a crawler sends, and would
//! reach the terminal raw: it is left out, and standard error says how many were. The
//! host of a URL is not checked: give the URLs of the site whose robots.txt this is.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use robotscope_core::{Matcher, Reading, RobotsTxt};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (flags, positional): (Vec<&String>, Vec<&String>) = args.iter().partition(|arg| arg.starts_with("--"));
    let want_disallowed = flags.iter().any(|flag| *flag == "--disallowed");
    // A misspelt flag would invert the output in silence: refused like a missing file.
    let known_flags = flags.iter().all(|flag| *flag == "--disallowed");
    let ([file, token], true) = (positional.as_slice(), known_flags) else {
        eprintln!("usage: batch_filter ROBOTS_TXT PRODUCT_TOKEN [--disallowed] < URLS");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("batch_filter: {file}: {error}");
            return ExitCode::from(2);
        }
    };
    let matcher = Matcher::new(&RobotsTxt::parse(bytes), token, Reading::Rfc9309);
    match filter(&matcher, want_disallowed, io::stdin().lock(), &mut BufWriter::new(io::stdout().lock())) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(left_out) => {
            eprintln!("batch_filter: {left_out} lines with control characters left out");
            ExitCode::SUCCESS
        }
        // `| head` closed the pipe: the reader has what it wanted.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("batch_filter: {error}");
            ExitCode::from(2)
        }
    }
}

/// Copies the lines whose verdict is the one wanted; blank lines are skipped. Returns
/// how many lines were left out for holding a control character.
fn filter(matcher: &Matcher, want_disallowed: bool, input: impl BufRead, out: &mut impl Write) -> io::Result<usize> {
    let mut left_out = 0;
    for line in input.split(b'\n') {
        let line = line?;
        let text = String::from_utf8_lossy(&line);
        let url = text.trim();
        if url.chars().any(char::is_control) {
            left_out += 1;
        } else if !url.is_empty() && matcher.allowed(url) != want_disallowed {
            out.write_all(url.as_bytes())?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    Ok(left_out)
}
