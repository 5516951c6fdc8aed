//! The `robotscope` binary: parses the arguments and hands over to the explorer or to
//! a subcommand. Exit statuses are decided here, in one place: 0 clean, 1 findings
//! (something disallowed, or a lint error), 2 trouble (bad arguments, unreadable source).

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use color_eyre::eyre::Result;
use robotscope::app::App;
use robotscope::cli::{
    self, AuditArgs, BotsArgs, CheckArgs, CompareArgs, DiffArgs, FixArgs, HistoryArgs, LintArgs, Outcome, PageArgs,
    RobotsArgs, SitemapsArgs, SourceOptions, SurveyArgs,
};
use robotscope::clipboard::ClipboardMode;
use robotscope::fetch::Source;
use robotscope::history::HistorySettings;
use robotscope::history::StoreChoice;
use robotscope::policy::sanitize_str;
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
    /// How the explorer copies (y): auto (the system clipboard, or OSC 52 over SSH,
    /// in tmux or without a display), system, or osc52.
    #[arg(long, value_name = "HOW", default_value = "auto")]
    clipboard: ClipboardMode,
    /// The longest OSC 52 sequence a copy sends to the terminal (default: 100000, and
    /// 1048576 in tmux, which drops longer ones); a longer copy is refused with a message.
    #[arg(long, value_name = "N")]
    osc52_max_bytes: Option<usize>,
    /// The Wayback-compatible archive the history view (H, then A) asks (default: the
    /// Wayback Machine, web.archive.org).
    #[arg(long, value_name = "BASE")]
    archive: Option<url::Url>,
    /// An access log to audit as the explorer opens (L audits another): each robot's
    /// requests judged against the site's stored versions, or the file for all time.
    #[arg(long, value_name = "FILE", requires = "source")]
    log: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// May these robots fetch these paths? One result per line; exit 1 if any is disallowed.
    ///
    /// Exit status: 0 every path allowed, 1 some disallowed, 2 an error, 3 the site's
    /// robots.txt could not be had (a 5xx or 429, no answer, a timeout), whatever the
    /// answers (RFC 9309 then disallows everything): an outage is not a block.
    Check(CheckArgs),
    /// What is wrong with the file, what each reading does with it, and the fixes; exit 1 on errors.
    Lint(LintArgs),
    /// Print the file with every fix applied (or, with --diff, what the fixes change).
    Fix(FixArgs),
    /// Paths x robots (or readings): the verdict and deciding line in every cell.
    ///
    /// Without -a or -r: Googlebot, bingbot, Slurp, Scooter, GPTBot and a robot no group
    /// names.
    Compare(CompareArgs),
    /// May these robots crawl, index and follow a page? robots.txt, META tags and X-Robots-Tag.
    ///
    /// Without -a or -r: Googlebot, bingbot, Slurp, Scooter, GPTBot and a robot no group
    /// names. The reading also settles contradicting terms: the most restrictive under
    /// rfc9309, the robot's choice (shown as INDEX/FOLLOW) under the classic readings.
    /// Exit status 1 when a robot may not crawl or index the page.
    Page(PageArgs),
    /// May the robots crawl the URLs the site's sitemaps list? Blocked URLs by deciding rule.
    ///
    /// Follows the robots.txt's Sitemap lines (and --sitemap URLs), indexes included;
    /// reads XML, gzip, text and feeds. Without -a or -r: the compare defaults. Exit
    /// status 1 when a listed URL is blocked for a robot asked, 2 when no sitemap
    /// could be read.
    Sitemaps(SitemapsArgs),
    /// Every version of a site's robots.txt (fetched, and the web archive's) and when each robot gained or lost a path.
    ///
    /// Versions come from the history store (every robots.txt robotscope fetches is kept)
    /// and from a Wayback-compatible archive (--archive), fetched now unless --local.
    /// Changes of usage preferences (train-ai, search, ai-input) are flips too. Without
    /// -a or -r: the compare defaults; without paths: /.
    History(HistoryArgs),
    /// Which robots fetched what the robots.txt in force at the time disallowed: access logs replayed.
    ///
    /// Each request of a robot (named by its User-Agent; browsers are not judged) meets
    /// the version of its time: --robots FILE for all time, or the site's versions (the
    /// store, and the web archive unless --local). A request within --grace of a change
    /// that the version before allowed is tolerated. Each robot's address is checked
    /// against its operator's published ranges (and, with --rdns, its reverse DNS):
    /// verified, forged or unverifiable. Exit status 1 when there are violations (a
    /// forged robot's too, listed apart), 2 when nothing could be read.
    Audit(AuditArgs),
    /// The robots' published address ranges, which audit checks requests against.
    Bots(BotsArgs),
    /// Many sites' robots.txt in one table: for each robot, how many let it in.
    ///
    /// Sites are fetched (--jobs at a time; those the store fetched within --fresh
    /// hours are not fetched again, so a rerun resumes), or read from --dir or --warc
    /// files (Common Crawl's robots.txt captures). Each capture and robot is a row: its
    /// category (full, partial, none, missing, unreachable, redirect) decided on every
    /// path as Google's matcher decides it. Text gives the share of each category per
    /// robot; --json and --csv every row; --dpi the Data Provenance Initiative's
    /// schema. Without -a, -r or -p: the AI robots Consent in Crisis tracks, Googlebot,
    /// bingbot and a robot no group names.
    Survey(SurveyArgs),
    /// The unified diff between two versions of a site's robots.txt, or between two files
    /// (OLD NEW) with every robot whose verdict changes.
    ///
    /// With a site: its last two versions (or --at, --against); exit status 1 when they
    /// differ, as diff(1). With OLD and NEW (files, `-`, sites): the diff, then every robot
    /// whose verdict changes (the registry's, those either file names, and a robot no
    /// group names) by purpose, each with a path that shows it and the deciding line
    /// before and after; exit status 1 when a verdict changes (or may: a wildcard rule
    /// changed in a way no path tried shows), 0 when none does.
    Diff(DiffArgs),
    /// Block robots by purpose or name, changing nothing for any other robot; prints the file.
    ///
    /// `robotscope block robots.txt ai-training` writes the rules that stop every robot
    /// that takes pages to train AI models, and keeps search, AI answers and every other
    /// robot's verdicts as they were: the result is checked before it is printed, and
    /// standard error says what changed. --diff prints the change, --check only asks
    /// (exit 1 when a robot asked can still fetch something).
    Block(cli::BlockArgs),
    /// Take robots out of every group, so that they read what a robot no group names reads.
    Unblock(cli::UnblockArgs),
    /// The robots robotscope knows: every field, by purpose (-p), as text or JSON.
    ///
    /// `robots update` reads the ai.robots.txt list into the data directory.
    Robots(RobotsArgs),
    /// Print the shell completion script for SHELL (bash, zsh, fish, elvish, powershell).
    ///
    /// For bash: `robotscope completions bash > ~/.local/share/bash-completion/completions/robotscope`.
    Completions {
        /// The shell.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `robotscope man > robotscope.1; man ./robotscope.1`.
    ///
    /// `robotscope man check` prints robotscope-check(1), every flag of the command.
    Man {
        /// A command whose page to print (check, lint, ...); without one, the main page.
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// How errors are told: their message and causes, nothing captured.
struct PlainErrors;

impl color_eyre::eyre::EyreHandler for PlainErrors {
    fn debug(&self, error: &(dyn std::error::Error + 'static), f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{error}")?;
        let mut cause = error.source();
        while let Some(error) = cause {
            write!(f, ": {error}")?;
            cause = error.source();
        }
        Ok(())
    }
}

fn main() -> ExitCode {
    // Installed before the terminal is touched, so that the explorer's panic hook can
    // chain to it and a panic prints a readable report on a restored screen.
    let (panic_hook, _) = color_eyre::config::HookBuilder::default().into_hooks();
    panic_hook.install();
    // An error robotscope reports (a missing file, a site that cannot be reached) is the
    // user's to fix, not a bug: it captures no backtrace, even under RUST_BACKTRACE=1
    // (which made every such exit resolve one: 125 MB and 0.1 s). Panics keep theirs.
    let _ = color_eyre::eyre::set_hook(Box::new(|_| Box::new(PlainErrors)));
    let matches = Cli::command().try_get_matches().unwrap_or_else(|error| exit_with(&error));
    let mut args = Cli::from_arg_matches(&matches).unwrap_or_else(|error| exit_with(&error));
    // Robots are answered for in the order they were named, -a and -r mixed.
    let selection = match &mut args.command {
        Some(Command::Check(check)) => Some(&mut check.robots),
        Some(Command::Compare(compare)) => Some(&mut compare.robots),
        Some(Command::Page(page)) => Some(&mut page.robots),
        Some(Command::Sitemaps(sitemaps)) => Some(&mut sitemaps.robots),
        Some(Command::History(history)) => Some(&mut history.robots),
        Some(Command::Audit(audit)) => Some(&mut audit.robots),
        Some(Command::Survey(survey)) => Some(&mut survey.robots),
        _ => None,
    };
    if let (Some(selection), Some((_, sub_matches))) = (selection, matches.subcommand()) {
        selection.note_order(sub_matches);
    }
    let db = cli::registry();
    let result = match &args.command {
        Some(Command::Check(check)) => cli::check(check, &db),
        Some(Command::Lint(lint)) => cli::lint(lint, &db),
        Some(Command::Fix(fix)) => cli::fix(fix, &db),
        Some(Command::Compare(compare)) => cli::compare(compare, &db),
        Some(Command::Page(page)) => cli::page(page, &db),
        Some(Command::Sitemaps(sitemaps)) => cli::sitemaps(sitemaps, &db),
        Some(Command::History(history)) => cli::history(history, &db),
        Some(Command::Audit(audit)) => cli::audit(audit, &db),
        Some(Command::Bots(bots)) => cli::bots(bots),
        Some(Command::Survey(survey)) => cli::survey(survey, &db),
        Some(Command::Diff(diff)) => cli::diff(diff, &db),
        Some(Command::Robots(robots)) => cli::robots(robots, &db),
        Some(Command::Block(block)) => cli::block(block, &db),
        Some(Command::Unblock(unblock)) => cli::unblock(unblock, &db),
        Some(Command::Completions { shell }) => print_completions(*shell),
        Some(Command::Man { command }) => print_manual(command.as_deref()),
        None => explore(&args, &db),
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(1),
        Ok(Outcome::Unavailable) => ExitCode::from(3),
        Ok(Outcome::EndedBy { signal }) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX)),
        Err(error) => {
            // Error chains quote file names, URLs and file text: escaped like all output.
            cli::stderr_line(format_args!("robotscope: error: {}", sanitize_str(&format!("{error:#}"))));
            ExitCode::from(2)
        }
    }
}

/// Prints clap's message (help, version, or what is wrong with the arguments) and exits
/// with its status; an argument quoted in the message is escaped like all output.
/// The completion script for `shell`, from the same clap definitions as the parser.
fn print_completions(shell: clap_complete::Shell) -> Result<Outcome> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "robotscope", &mut out);
    write_stdout(&out)
}

/// The manual page, from the same clap definitions as the parser.
fn print_manual(command: Option<&str>) -> Result<Outcome> {
    let mut out = Vec::new();
    let mut cli = Cli::command();
    cli.build();
    let page = match command {
        None => cli,
        // `robotscope-check(1)`, which the main page names: every flag of the command.
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                let names: Vec<&str> = cli.get_subcommands().map(clap::Command::get_name).collect();
                color_eyre::eyre::bail!("no command is called '{}' (one of {})", sanitize_str(name), names.join(", "));
            };
            sub.clone().name(format!("robotscope-{name}"))
        }
    };
    clap_mangen::Man::new(page).render(&mut out)?;
    write_stdout(&out)
}

/// Writes `bytes` to standard output; a closed pipe (`| head`) ends it quietly.
fn write_stdout(bytes: &[u8]) -> Result<Outcome> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(Outcome::Clean),
    }
}

fn exit_with(error: &clap::Error) -> ! {
    let text = error.render().to_string();
    let text = robotscope::policy::sanitize_lines(text.as_bytes());
    // A closed pipe (`--help | head -1`) is no reason to panic.
    let _ = if error.use_stderr() {
        std::io::stderr().write_all(text.as_bytes())
    } else {
        std::io::stdout().write_all(text.as_bytes())
    };
    std::process::exit(error.exit_code())
}

/// Opens the explorer on a source, or on the embedded example. A site is fetched in
/// the background, so the explorer opens at once and shows the fetch's progress.
fn explore(args: &Cli, db: &RobotsDb) -> Result<Outcome> {
    let options = &args.source_options;
    let mut app = match args.source.as_deref().map(Source::resolve).transpose()? {
        None => App::example_within(options.limits(None)),
        Some(source @ Source::Site { .. }) => App::loading(source, options.limits(None), options.as_robot, db),
        // A FIFO or a device may never end: read in the background, as a site is, so
        // that the explorer opens at once and q quits while it waits (issue 35).
        Some(Source::File(path)) if std::fs::metadata(&path).is_ok_and(|meta| !meta.is_file()) => {
            App::loading(Source::File(path), options.limits(None), options.as_robot, db)
        }
        Some(source) => {
            // A file or standard input: read before the explorer opens (its warnings the
            // explorer words itself).
            let limits = options.limits(None);
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
            let loaded = runtime.block_on(robotscope::load::load(source, &limits, &StoreChoice::Off))?;
            App::from_retrieved(loaded.retrieved, limits, db)
        }
    };
    let defaults = HistorySettings::default();
    app.set_history_settings(HistorySettings {
        store: options.store_choice(),
        archive: args.archive.clone().unwrap_or(defaults.archive),
        ..defaults
    });
    // Recovery copies: where they go for a text from no file, and those a session that
    // ended with unsaved edits left for this one.
    if let Some(log) = &args.log {
        app.audit_at_start(log.clone());
    }
    app.set_recovery_directory(robotscope::save::recovery_directory());
    // Copies of this input's edits; else any in the data directory, where the copies of
    // texts from no file wait (a site's, standard input's) whatever is opened now.
    let own = robotscope::save::recovery_copies(&app.recovery_path());
    if own.is_empty() {
        let others = robotscope::save::recovery_copies_in(&robotscope::save::recovery_directory());
        app.note_recovery_copies(&others, false);
    } else {
        app.note_recovery_copies(&own, true);
    }
    let ended_by = robotscope::tui::run(app, args.clipboard, args.osc52_max_bytes)?;
    Ok(ended_by.map_or(Outcome::Clean, |signal| Outcome::EndedBy { signal }))
}
