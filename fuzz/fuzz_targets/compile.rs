//! Compile arbitrary bytes for a few robots under every reading: what compiling builds
//! stays within a small multiple of the input's size (a file of long literals after `*`
//! once made the prefilter's build take minutes), and the compiled rules answer as
//! `evaluate` does on paths taken from the input itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotscope::policy::{Matcher, Reading, Robot, RobotsTxt, evaluate};

fuzz_target!(|data: &[u8]| {
    let txt = RobotsTxt::parse(data.to_vec());
    let paths: Vec<String> = data
        .split(|&b| b == b'\n')
        .filter_map(|line| line.iter().position(|&b| b == b'/').map(|at| String::from_utf8_lossy(&line[at..]).into_owned()))
        .take(8)
        .collect();
    for agent in ["bot", "*"] {
        let robot = Robot::from_agent(agent);
        for reading in Reading::ALL {
            let compiled = Matcher::for_robot(&txt, &robot, reading);
            assert!(compiled.memory_bytes() <= 16 * data.len() + 4096, "{} for {} bytes", compiled.memory_bytes(), data.len());
            for path in &paths {
                let verdict = evaluate(&txt, &robot, path, reading);
                let decision = compiled.decide_tested(path);
                assert_eq!(decision.allowed(), verdict.allowed());
            }
        }
    }
});
