//! The robotscope binary run as a script runs it, and its `--json` lines read.

use assert_cmd::Command;
use serde_json::Value;

/// Runs robotscope with `args` and `stdin`: its standard output, standard error and exit
/// status.
pub fn run(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let output =
        Command::cargo_bin("robotscope").expect("binary").args(args).write_stdin(stdin.to_vec()).output().expect("run");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// Each line of `text` as JSON.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|line| serde_json::from_str(line).expect("a JSON line")).collect()
}

/// The records of one `"type"`.
pub fn of_type<'a>(records: &'a [Value], kind: &str) -> Vec<&'a Value> {
    records.iter().filter(|record| record["type"] == kind).collect()
}
