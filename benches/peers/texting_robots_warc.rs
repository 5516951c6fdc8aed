//! The peer for `benches/survey.sh`: `texting_robots` answering only "may it fetch `/`"
//! for each robots.txt capture of a WARC file and each robot, on every core (rayon), as
//! a hand-written survey would. The records are read with robotscope's own WARC reader,
//! so that both sides pay the same for reading; a 4xx or 5xx capture is counted without
//! being parsed, which is less than a survey does.
//!
//! Usage: `peer_texting_robots_warc FILE.warc.gz AGENT...`

use std::io;
use std::ops::ControlFlow;

use rayon::prelude::*;
use robotscope::survey::warc::read_captures;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, agents @ ..] = args.as_slice() else {
        eprintln!("usage: peer_texting_robots_warc FILE.warc.gz AGENT...");
        std::process::exit(2);
    };
    let mut batch = Vec::with_capacity(512);
    let mut blocked = [0u64; 2];
    let mut judge = |batch: &mut Vec<Vec<u8>>| {
        let counts: Vec<[u64; 2]> = batch
            .par_iter()
            .map(|body| {
                let mut counts = [0u64; 2];
                for agent in agents {
                    let allowed = texting_robots::Robot::new(agent, body).map_or(true, |robot| robot.allowed("/"));
                    counts[usize::from(allowed)] += 1;
                }
                counts
            })
            .collect();
        for [no, yes] in counts {
            blocked[0] += no;
            blocked[1] += yes;
        }
        batch.clear();
    };
    read_captures(std::fs::File::open(file)?, 500 * 1024, None, |capture| {
        if capture.status.is_some_and(|status| (200..300).contains(&status)) {
            batch.push(capture.body);
            if batch.len() == 512 {
                judge(&mut batch);
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|error| io::Error::other(error.to_string()))?;
    judge(&mut batch);
    println!("{} blocked from /, {} allowed", blocked[0], blocked[1]);
    Ok(())
}
