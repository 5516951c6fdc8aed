//! `robotscope bots update`, and the address lists `audit` checks robots against: those
//! shipped inside robotscope, the newer ones `bots update` keeps in the user's data
//! directory, and those given with `--bot-ips`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};
use color_eyre::eyre::{Result, WrapErr, bail};
use url::Url;

use super::{Outcome, stderr_line};
use crate::audit::identity::{EMBEDDED, FAMILIES, RangeList, Verifier};
use crate::policy::escape::sanitize_str;

/// The bytes of a published list read at most (Google's largest is under 100 KB).
const MAX_LIST_BYTES: usize = 4 << 20;

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

/// Where `bots update` keeps the lists: `$XDG_DATA_HOME/robotscope/bot-ips`.
fn lists_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "robotscope").map(|dirs| dirs.data_dir().join("bot-ips"))
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
            match runtime.block_on(fetch_list(&url, &limits)) {
                Ok((list, bytes)) => {
                    let path = dir.join(published.name);
                    write_atomically(&path, &bytes).wrap_err_with(|| format!("writing {}", path.display()))?;
                    updated += 1;
                    println!(
                        "{}: {} ranges{} ({})",
                        published.name,
                        list.ranges.len(),
                        list.created.map(|created| format!(", made {}", sanitize_str(&created))).unwrap_or_default(),
                        family.operator
                    );
                }
                Err(why) => {
                    failed += 1;
                    stderr_line(format_args!(
                        "robotscope: warning: {}: {} (the copy held before stays)",
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
    Ok((list, fetched.body))
}

/// Writes `bytes` to `path` by way of a file beside it, so that a reader never sees half
/// a list.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = path.with_extension("json.partial");
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

/// The lists `audit` checks addresses against: each known list from the data directory
/// when `bots update` fetched it, else as shipped; then each `--bot-ips` (`FILE`, named
/// as an operator's list, or `TOKEN=FILE` for any robot). Gives the warnings to print.
///
/// # Errors
///
/// When a `--bot-ips` list cannot be read.
pub fn verifier(bot_ips: &[String]) -> Result<(Verifier, Vec<String>)> {
    let mut verifier = Verifier::default();
    let mut warnings = Vec::new();
    let dir = lists_dir();
    for family in FAMILIES {
        for published in family.lists {
            let index = Verifier::family_of_list(published.name).unwrap_or_default();
            let kept = dir.as_ref().map(|dir| dir.join(published.name)).filter(|path| path.is_file());
            if let Some(path) = kept {
                match read_list(&path) {
                    Ok(list) => {
                        verifier.add(index, published.name, list, path.display().to_string());
                        continue;
                    }
                    Err(why) => warnings.push(format!("{why}; the list shipped with robotscope is used")),
                }
            }
            if let Some((_, json)) = EMBEDDED.iter().find(|(name, _)| *name == published.name) {
                let list = RangeList::parse(json).wrap_err("the embedded lists")?;
                verifier.add(index, published.name, list, "shipped".to_owned());
            }
        }
    }
    for given in bot_ips {
        let (token, path) = match given.split_once('=') {
            Some((token, path)) if !Path::new(given).exists() => (Some(token), Path::new(path)),
            _ => (None, Path::new(given.as_str())),
        };
        let list = read_list(path).map_err(|why| color_eyre::eyre::eyre!("--bot-ips: {why}"))?;
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        match (token, Verifier::family_of_list(&name)) {
            (Some(token), _) => verifier.add_for_robot(token, &name, list, path.display().to_string()),
            (None, Some(family)) => verifier.add(family, &name, list, path.display().to_string()),
            (None, None) => bail!(
                "--bot-ips {}: not a list robotscope knows by name (googlebot.json, bingbot.json, gptbot.json, ...); \
                 write TOKEN={0} to say whose it is",
                sanitize_str(given)
            ),
        }
    }
    Ok((verifier, warnings))
}

/// A list file, read to `MAX_LIST_BYTES` and checked.
fn read_list(path: &Path) -> std::result::Result<RangeList, String> {
    let shown = sanitize_str(&path.display().to_string()).into_owned();
    let (bytes, cut) =
        crate::fetch::read_file_capped(path, MAX_LIST_BYTES).map_err(|error| format!("{shown}: {error}"))?;
    if cut {
        return Err(format!("{shown}: longer than {}", crate::fetch::size_label(MAX_LIST_BYTES)));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8"))?;
    RangeList::parse(&text).map_err(|error| format!("{shown}: {error}"))
}
