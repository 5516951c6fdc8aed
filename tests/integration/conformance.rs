//! The conformance vectors: the seeds under all three readings, Google's reference
//! matcher's verdicts (`rfc9309.json`), and Google's verdicts on real files.
//!
//! Every vector is checked through both the explaining path (`evaluate`) and the batch
//! path (`Matcher`), which must agree on the verdict and the deciding line. The
//! vectors' URLs are taken byte for byte, as Google's library takes them
//! ([`Request::raw`], the CLI's `--raw-url`); `cli_raw_url_gives_googles_verdicts` puts
//! them through the binary that way too.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use robotscope::policy::{Availability, Matcher, Reading, Robot, RobotsTxt, evaluate_fetched_as};
use robotscope::policy::{Request, UrlMode};
use serde::Deserialize;

#[derive(Deserialize)]
struct SeedCase {
    id: String,
    robots_txt: String,
    user_agent: String,
    url: String,
    expect: BTreeMap<String, bool>,
}

#[derive(Deserialize)]
struct GoogleCase {
    id: String,
    robots_txt: String,
    user_agent: String,
    url: String,
    allowed: bool,
}

fn data(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks one question both ways; returns a failure message if either disagrees.
fn check(id: &str, txt: &RobotsTxt, agent: &str, url: &str, reading: Reading, expected: bool) -> Option<String> {
    let robot = Robot::from_agent(agent);
    check_with(id, txt, &Matcher::for_robot_as(txt, &robot, reading, UrlMode::Raw), &robot, url, expected)
}

/// [`check`] with the batch matcher already compiled for `robot`.
fn check_with(
    id: &str,
    txt: &RobotsTxt,
    compiled: &Matcher,
    robot: &Robot,
    url: &str,
    expected: bool,
) -> Option<String> {
    let (agent, reading) = (&robot.token(), compiled.reading());
    let tested = Request::raw(url).tested().to_owned();
    let verdict = evaluate_fetched_as(txt, Availability::Available, robot, &tested, reading, UrlMode::Raw);
    let decision = compiled.decide_tested(&tested);
    if verdict.allowed() != expected {
        return Some(format!(
            "{id} [{reading}] {agent} {url}: expected {expected}, got {} ({})",
            verdict.allowed(),
            verdict.explanation()
        ));
    }
    if decision.allowed() != expected || decision.rule() != verdict.decided_by() {
        return Some(format!(
            "{id} [{reading}] {agent} {url}: the batch matcher disagrees: {decision:?} vs {:?}",
            verdict.decided_by()
        ));
    }
    None
}

fn assert_no_failures(failures: &[String], total: usize) {
    assert!(failures.is_empty(), "{} of {total} cases failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn seeds_under_all_three_readings() {
    let cases: Vec<SeedCase> = serde_json::from_str(&data("conformance/seeds.json")).expect("seeds.json parses");
    let mut failures = Vec::new();
    let mut total = 0;
    for case in &cases {
        let txt = RobotsTxt::parse(case.robots_txt.as_bytes().to_vec());
        for reading in Reading::ALL {
            let expected = case.expect[reading.name()];
            total += 1;
            failures.extend(check(&case.id, &txt, &case.user_agent, &case.url, reading, expected));
        }
    }
    assert_eq!(total, 165, "every seed has a verdict for each reading");
    assert_no_failures(&failures, total);
}

#[test]
fn rfc9309_vectors_match_googles_reference() {
    let cases: Vec<GoogleCase> = serde_json::from_str(&data("conformance/rfc9309.json")).expect("rfc9309.json parses");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let txt = RobotsTxt::parse(case.robots_txt.as_bytes().to_vec());
            check(&case.id, &txt, &case.user_agent, &case.url, Reading::Rfc9309, case.allowed)
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

/// Google's vectors through the binary, `check --raw-url --json`, one run per distinct
/// robots.txt and robot: the command line gives Google's verdicts too.
#[test]
fn cli_raw_url_gives_googles_verdicts() {
    let cases: Vec<GoogleCase> = serde_json::from_str(&data("conformance/rfc9309.json")).expect("rfc9309.json parses");
    let mut runs: BTreeMap<(&str, &str), Vec<&GoogleCase>> = BTreeMap::new();
    for case in &cases {
        runs.entry((&case.robots_txt, &case.user_agent)).or_default().push(case);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for (index, ((robots_txt, agent), cases)) in runs.iter().enumerate() {
        let file = dir.path().join(format!("{index}.txt"));
        fs::write(&file, robots_txt).expect("write");
        let urls: Vec<&str> = cases.iter().map(|case| case.url.as_str()).collect();
        let output = assert_cmd::Command::cargo_bin("robotscope")
            .expect("binary")
            .args(["check", "--raw-url", "--json", "-a", agent])
            .arg(&file)
            .arg("--")
            .args(&urls)
            .output()
            .expect("runs");
        let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        assert_eq!(lines.len(), cases.len(), "one result per URL: {}", String::from_utf8_lossy(&output.stderr));
        for (case, line) in cases.iter().zip(&lines) {
            if line["allowed"] != case.allowed {
                failures
                    .push(format!("{} {agent} {}: expected {}, the CLI said {line}", case.id, case.url, case.allowed));
            }
        }
    }
    assert_no_failures(&failures, cases.len());
}

/// Checks every `HOST__AGENT.tsv` in `verdicts` against `corpus/HOST.txt`; returns the
/// number of questions and the failures.
fn check_real_files(corpus: &Path, verdicts: &Path) -> (usize, Vec<String>) {
    let mut entries: Vec<_> =
        fs::read_dir(verdicts).expect("verdict directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    let mut total = 0;
    let mut failures = Vec::new();
    for tsv in entries {
        let name = tsv.file_stem().and_then(|s| s.to_str()).expect("utf-8 file name").to_owned();
        let Some((host, agent)) = name.split_once("__") else { continue };
        let bytes = fs::read(corpus.join(format!("{host}.txt"))).unwrap_or_else(|e| panic!("{host}.txt: {e}"));
        let txt = RobotsTxt::parse(bytes);
        let robot = Robot::from_agent(agent);
        let compiled = Matcher::for_robot_as(&txt, &robot, Reading::Rfc9309, UrlMode::Raw);
        for row in fs::read_to_string(&tsv).expect("tsv").lines() {
            let (path, allowed) = row.rsplit_once('\t').expect("path<TAB>verdict");
            // The verdicts were taken for URLs on the file's own host; a path such as
            // `//x` is a path there, while on its own it would name the host `x`.
            let url = format!("https://{}{path}", host.split("--").next().unwrap_or(host));
            total += 1;
            failures.extend(check_with(&name, &txt, &compiled, &robot, &url, allowed == "1"));
        }
    }
    (total, failures)
}

#[test]
fn real_files_agree_with_google() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (total, failures) = check_real_files(&base.join("corpus"), &base.join("real-google"));
    assert_eq!(total, 72 * 5 * 100, "72 files x 5 robots x 100 paths");
    assert_no_failures(&failures, total);
}
