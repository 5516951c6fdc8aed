//! `robotscope bots update`: each operator's published address ranges fetched into the
//! user's data directory, where `audit` reads them ([`crate::audit::lists`]).

use std::path::Path;
use std::time::Duration;

use clap::{Args, Subcommand};
use color_eyre::eyre::{Result, WrapErr, bail};
use url::Url;

use super::{Outcome, stderr_line};
use crate::audit::identity::{FAMILIES, RangeList};
use crate::audit::lists::{MAX_LIST_BYTES, lists_dir};
use crate::policy::escape::sanitize_str;

/// `robotscope bots`: the robots' published address ranges.
#[derive(Debug, Clone, Args)]
pub struct BotsArgs {
    #[command(subcommand)]
    pub command: BotsCommand,
}

/// What `bots` does.
#[derive(Debug, Clone, Subcommand)]
pub enum BotsCommand {
    /// Fetch each operator's published address ranges into the data directory, where
    /// `audit` reads them in place of the lists robotscope ships with.
    ///
    /// Exit status 1 when some list could not be fetched, 2 when none could.
    Update(UpdateArgs),
}

/// `robotscope bots update`.
#[derive(Debug, Clone, Args)]
pub struct UpdateArgs {
    /// Fetch every list from this mirror (BASE/googlebot.json, ...) instead of the
    /// operators' own addresses.
    #[arg(long, value_name = "BASE")]
    pub from: Option<Url>,
    /// Seconds each list's fetch may take (1 or more).
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = super::positive_seconds)]
    pub timeout: u64,
}

/// `robotscope bots`.
///
/// # Errors
///
/// When the data directory cannot be found or written, or no list could be fetched.
pub fn bots(args: &BotsArgs) -> Result<Outcome> {
    match &args.command {
        BotsCommand::Update(update) => self::update(update),
    }
}

fn update(args: &UpdateArgs) -> Result<Outcome> {
    let Some(dir) = lists_dir() else { bail!("no data directory: set XDG_DATA_HOME or HOME") };
    std::fs::create_dir_all(&dir).wrap_err_with(|| format!("creating {}", dir.display()))?;
    let limits = crate::fetch::Limits {
        timeout: Duration::from_secs(args.timeout),
        max_bytes: MAX_LIST_BYTES,
        ..Default::default()
    };
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
    let (mut updated, mut failed) = (0, 0);
    for family in FAMILIES {
        for published in family.lists {
            let url = match &args.from {
                Some(base) => base.join(published.name).wrap_err("--from")?,
                None => Url::parse(published.url).wrap_err("a list's address")?,
            };
            let path = dir.join(published.name);
            let held = match crate::audit::lists::read_list(&path) {
                Ok(list) => Some(list),
                Err(_) => crate::audit::lists::shipped(published.name).map_err(|why| color_eyre::eyre::eyre!(why))?,
            };
            let index = crate::audit::identity::Verifier::family_of_list(published.name);
            let fetched = runtime.block_on(fetch_list(&url, &limits)).and_then(|(list, bytes)| {
                crate::audit::lists::foreign(&list, index)?;
                Ok((list, bytes))
            });
            let fetched = fetched.and_then(|(list, bytes)| match &held {
                Some(held) if crate::audit::lists::is_older(&list, held) => Err(format!(
                    "made {}, before the copy held ({})",
                    list.created.as_deref().unwrap_or("?"),
                    held.created.as_deref().unwrap_or("?")
                )),
                _ => Ok((list, bytes)),
            });
            match fetched {
                Ok((list, bytes)) => match write_atomically(&path, &bytes) {
                    Ok(()) => {
                        updated += 1;
                        println!(
                            "{}: {}{} ({})",
                            published.name,
                            crate::words::plural(list.ranges.len(), "range"),
                            list.created
                                .map(|created| format!(", made {}", sanitize_str(&created)))
                                .unwrap_or_default(),
                            family.operator
                        );
                    }
                    Err(error) => {
                        failed += 1;
                        stderr_line(format_args!(
                            "robotscope: warning: writing {}: {error} (not kept)",
                            sanitize_str(&path.display().to_string())
                        ));
                    }
                },
                Err(why) => {
                    failed += 1;
                    let kept = if path.is_file() {
                        "the copy held stays"
                    } else if held.is_some() {
                        "the list shipped with robotscope is used"
                    } else {
                        "no copy is held"
                    };
                    stderr_line(format_args!(
                        "robotscope: warning: {}: {} ({kept})",
                        sanitize_str(url.as_str()),
                        sanitize_str(&why)
                    ));
                }
            }
        }
    }
    if updated == 0 {
        bail!("no list could be fetched");
    }
    println!("Kept in {}", sanitize_str(&dir.display().to_string()));
    Ok(if failed > 0 { Outcome::Findings } else { Outcome::Clean })
}

/// A list fetched and read: only a list of the published shape is kept.
async fn fetch_list(url: &Url, limits: &crate::fetch::Limits) -> Result<(RangeList, Vec<u8>), String> {
    let fetched = crate::fetch::fetch(url, limits).await.map_err(|error| error.to_string())?;
    if !fetched.status.is_success() {
        return Err(format!("HTTP {}", fetched.status.0));
    }
    if fetched.truncated {
        return Err(format!("longer than {}", crate::fetch::size_label(MAX_LIST_BYTES)));
    }
    let text = std::str::from_utf8(&fetched.body).map_err(|_| "not UTF-8".to_owned())?;
    let list = RangeList::parse(text).map_err(|error| error.to_string())?;
    crate::audit::lists::check(&list)?;
    Ok((list, fetched.body))
}

/// Writes `bytes` to `path` by way of a new file beside it, so that a reader never sees
/// half a list. Whatever was at the partial file's name goes first (a link is removed,
/// not followed), and the new one is created, never opened: nothing outside the
/// directory is written. The rename replaces `path` itself, a link there included.
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let partial = path.with_extension("json.partial");
    match std::fs::remove_file(&partial) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&partial)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    std::fs::rename(&partial, path)
}
