//! Lex, parse and evaluate arbitrary bytes under every reading, through both the
//! explaining path and the batch path, which must agree.
//!
//! The input is split at the first NUL-NUL pair into the robots.txt and a question:
//! the question's first line is the agent, the rest the path or URL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotscope::policy::sanitize;
use robotscope::policy::{Matcher, Reading, Robot, RobotsTxt, evaluate};

fuzz_target!(|data: &[u8]| {
    let split = data.windows(2).position(|w| w == [0, 0]).unwrap_or(data.len());
    let (robots, question) = data.split_at(split);
    let question = String::from_utf8_lossy(question.get(2..).unwrap_or_default());
    let (agent, path) = question.split_once('\n').unwrap_or((&question, "/"));
    let txt = RobotsTxt::parse(robots.to_vec());
    let robot = Robot::from_agent(agent);
    for reading in Reading::ALL {
        let verdict = evaluate(&txt, &robot, path, reading);
        let decision = Matcher::for_robot(&txt, &robot, reading).decide_tested(path);
        assert_eq!(verdict.allowed(), decision.allowed());
        assert_eq!(verdict.decided_by.map(|m| m.line), decision.rule.map(|r| r.line));
        let _ = sanitize(verdict.explanation.as_bytes());
    }
});
