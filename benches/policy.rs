//! Speed of the policy layer, measured with criterion (`cargo bench --bench policy`).
//!
//! * `batch_check/<file>/robotscope` and `.../texting_robots`: parse once, then check a
//!   fixed set of paths (each rule of the file turned into paths that hit it, plus
//!   random paths, all from a fixed seed). Criterion reports paths per second; the
//!   README turns that into ns per path. Before timing, every robotscope verdict is
//!   checked against `evaluate` (which the conformance tests hold to Google's), and the
//!   number of paths where `texting_robots` disagrees is printed.
//! * `parse/rfc9309/<file>` and `parse/all_readings/<file>`: lexing and building the
//!   default reading, or all three, of a large file. The 3.7 MB
//!   `www.xuexi.cn.txt` may not be copied into this repository (its source states no
//!   licence); it is read from `$ROBOTSCOPE_CORPUS` or the workspace's
//!   `../shared/corpus/real` when present, and otherwise replaced by a generated file of
//!   the same shape (47,063 Allow lines and one Disallow).
//! * `lint/corpus/<n>x`: parsing and linting every real file of `tests/data/corpus`
//!   joined into one, once, twice and four times over, and `lint/<large file>`. Lint
//!   takes linear time when the throughput is the same at every size.
//! * `usage_wildcards/content_usage` and `.../disallow`: 10,000 wildcard paths with no
//!   literal start (`/*N*x*y*`) as `Content-Usage` preferences and as `Disallow` rules,
//!   each asked of the same 10,000 paths. Both go through the same piece automaton, so
//!   the first costs about what the second does (issue 25: 83 s for 100,000 paths
//!   before, one rule tried after another).

#[path = "support/large_file.rs"]
mod support;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use robotscope::policy::{Matcher, Reading, Robot, RobotsTxt, evaluate};
use support::large_file;

/// A small deterministic generator (xorshift64*), so every run checks the same paths.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn word(&mut self, alphabet: &[u8], len: usize) -> String {
        (0..len).map(|_| char::from(alphabet[(self.next() % alphabet.len() as u64) as usize])).collect()
    }
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus")
}

/// Paths that exercise a file: for every rule, the pattern with its wildcards filled in
/// and a few continuations, and as many random paths again.
fn paths_for(txt: &RobotsTxt, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    let interpretation = txt.interpretation(Reading::Rfc9309);
    let mut paths = Vec::new();
    for group in interpretation.groups() {
        for rule in group.rules() {
            let pattern = String::from_utf8_lossy(txt.text(&rule.value())).replace('*', "x");
            let pattern = pattern.trim_end_matches('$');
            if !pattern.starts_with('/') {
                continue;
            }
            paths.push(pattern.to_owned());
            paths.push(format!("{pattern}{}", rng.word(b"abcdef/", 6)));
            paths.push(format!("{pattern}?id={}", rng.word(b"0123456789", 4)));
        }
    }
    let random_count = paths.len().max(200);
    for _ in 0..random_count {
        let depth = 1 + rng.next() % 4;
        let mut path = String::new();
        for _ in 0..depth {
            let len = 1 + (rng.next() % 10) as usize;
            let _ = write!(path, "/{}", rng.word(b"abcdefghijklmnopqrstuvwxyz-_", len));
        }
        paths.push(path);
    }
    paths
}

fn batch_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("batch_check");
    for file in ["en.wikipedia.org.txt", "www.google.com.txt", "github.com.txt"] {
        let bytes = std::fs::read(corpus_dir().join(file)).expect("corpus file");
        let txt = RobotsTxt::parse(bytes.clone());
        let paths = paths_for(&txt, 0x5EED_0000 + bytes.len() as u64);
        let robot = Robot::from_agent("Googlebot");
        let ours = Matcher::for_robot(&txt, &robot, Reading::Rfc9309);
        let theirs = texting_robots::Robot::new("Googlebot", &bytes).expect("texting_robots parses the file");
        let mut disagreements = 0;
        for path in &paths {
            let reference = evaluate(&txt, &robot, path, Reading::Rfc9309);
            assert_eq!(ours.decide_tested(path).allowed(), reference.allowed(), "{file} {path}");
            disagreements += usize::from(theirs.allowed(path) != reference.allowed());
        }
        println!("{file}: {} paths; texting_robots differs from Google's verdict on {disagreements}", paths.len());
        group.throughput(Throughput::Elements(paths.len() as u64));
        group.bench_function(BenchmarkId::new(file, "robotscope"), |b| {
            b.iter(|| paths.iter().filter(|path| ours.decide_tested(black_box(path)).allowed()).count());
        });
        group.bench_function(BenchmarkId::new(file, "texting_robots"), |b| {
            b.iter(|| paths.iter().filter(|path| theirs.allowed(black_box(path))).count());
        });
    }
    group.finish();
}

/// Parsing as a caller pays for it: lexing plus the RFC 9309 reading (what a check
/// under the default reading needs), and lexing plus all three readings (what lint
/// and the explorer's reading comparison need).
fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(30);
    let github = std::fs::read(corpus_dir().join("github.com.txt")).expect("corpus file");
    for (name, bytes) in [large_file(), ("github.com.txt".to_owned(), github)] {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::new("rfc9309", &name), |b| {
            b.iter(|| {
                let txt = RobotsTxt::parse(black_box(bytes.clone()));
                txt.interpretation(Reading::Rfc9309).groups().len()
            });
        });
        group.bench_function(BenchmarkId::new("all_readings", &name), |b| {
            b.iter(|| {
                let txt = RobotsTxt::parse(black_box(bytes.clone()));
                Reading::ALL.map(|reading| txt.interpretation(reading).groups().len())
            });
        });
    }
    group.finish();
}

/// Lint over inputs of growing size: the repository's real files joined into one file
/// (3.6 MB), repeated 1, 2 and 4 times, then the large file. Repeating names every
/// robot in several groups and every rule several times, which is what a quadratic
/// check would choke on.
fn lint(c: &mut Criterion) {
    let mut group = c.benchmark_group("lint");
    group.sample_size(10);
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    let joined: Vec<u8> = files
        .iter()
        .flat_map(|path| {
            let mut bytes = std::fs::read(path).expect("corpus file");
            bytes.push(b'\n');
            bytes
        })
        .collect();
    let inputs = [1, 2, 4].map(|copies| (format!("corpus/{copies}x"), joined.repeat(copies)));
    for (name, bytes) in inputs.into_iter().chain([large_file()]) {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(&name), |b| {
            b.iter(|| robotscope::policy::lint(&RobotsTxt::parse(black_box(bytes.clone()))).len());
        });
    }
    group.finish();
}

fn usage_wildcards(c: &mut Criterion) {
    let mut group = c.benchmark_group("usage_wildcards");
    let patterns: Vec<String> = (0..10_000).map(|n| format!("/*{n}*x*y*")).collect();
    let usage: String = patterns.iter().fold(String::from("User-agent: *\n"), |mut text, pattern| {
        let _ = writeln!(text, "Content-Usage: {pattern} train-ai=n");
        text
    });
    let disallow: String = patterns.iter().fold(String::from("User-agent: *\n"), |mut text, pattern| {
        let _ = writeln!(text, "Disallow: {pattern}");
        text
    });
    let mut rng = Rng(0x5EED_0025);
    let paths: Vec<String> = (0..10_000).map(|i| format!("/p/{}/x/y/z{i}", rng.next() % 100_000)).collect();
    let robot = Robot::from_agent("bot");
    let usage_txt = RobotsTxt::parse(usage.into_bytes());
    let usage_matcher = Matcher::for_robot(&usage_txt, &robot, Reading::Rfc9309);
    let rules = robotscope::policy::UsageRules::of(&usage_txt, usage_matcher.selection());
    let disallow_txt = RobotsTxt::parse(disallow.into_bytes());
    let disallow_matcher = Matcher::for_robot(&disallow_txt, &robot, Reading::Rfc9309);
    group.throughput(Throughput::Elements(paths.len() as u64));
    group.bench_function("content_usage", |b| {
        b.iter(|| paths.iter().for_each(|path| drop(black_box(rules.answer(black_box(path))))));
    });
    group.bench_function("disallow", |b| {
        b.iter(|| paths.iter().filter(|path| disallow_matcher.decide_tested(black_box(path)).allowed()).count());
    });
    group.finish();
}

criterion_group!(benches, batch_check, parse, lint, usage_wildcards);
criterion_main!(benches);
