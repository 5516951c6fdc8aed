//! The peer for `benches/batch.sh`: `texting_robots` as a whole process doing what
//! `robotscope check FILE -a AGENT < paths` does: parse the file, read paths from
//! standard input, write one verdict per path, all buffered. Its in-process loop is
//! measured by `cargo bench --bench policy -- batch_check`.
//!
//! Usage: `peer_texting_robots ROBOTS_TXT AGENT < paths`

use std::io::{self, BufRead, BufWriter, Write};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, agent] = args.as_slice() else {
        eprintln!("usage: peer_texting_robots ROBOTS_TXT AGENT < paths");
        std::process::exit(2);
    };
    let bytes = std::fs::read(file)?;
    let robot = texting_robots::Robot::new(agent, &bytes).map_err(|error| io::Error::other(error.to_string()))?;
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    for line in io::stdin().lock().lines() {
        let path = line?;
        let verdict: &[u8] = if robot.allowed(&path) { b"allowed " } else { b"disallowed " };
        out.write_all(verdict)?;
        out.write_all(path.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
