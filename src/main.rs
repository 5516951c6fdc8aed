//! The `robotscope` binary: parses the arguments and hands over to the explorer or to
//! a subcommand. Exit statuses are decided here, in one place: 0 clean, 1 findings
//! (something disallowed, or a lint error), 2 trouble (bad arguments, unreadable source).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use robotscope::cli::{self, CheckArgs, Outcome, SourceOptions};
use robotscope::robots_db::RobotsDb;

/// A terminal explorer for a site's robots.txt: which robot may fetch which path, under
/// which reading of the standard, and which line decides.
#[derive(Debug, Parser)]
#[command(name = "robotscope", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The robots.txt to explore: a file, `-` for standard input, or a site
    /// (`example.com`, `https://example.com/some/page`). Without one, an embedded example.
    #[arg(value_name = "SOURCE")]
    source: Option<String>,
    #[command(flatten)]
    source_options: SourceOptions,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// May these robots fetch these paths? One result per line; exit 1 if any is disallowed.
    Check(CheckArgs),
    /// List the known robot profiles.
    Robots,
}

fn main() -> ExitCode {
    let args = Cli::parse();
    let db = RobotsDb::embedded();
    let result = match &args.command {
        Some(Command::Check(check)) => cli::check(check, &db),
        Some(Command::Robots) => cli::robots(&db),
        None => {
            eprintln!("robotscope: the explorer is not built yet; try `robotscope check --help`");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(1),
        Err(error) => {
            eprintln!("robotscope: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
