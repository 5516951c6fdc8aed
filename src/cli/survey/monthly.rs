//! `survey --monthly FROM..TO`: each site's robots.txt month by month, from a
//! Wayback-compatible archive. The archive lists one capture a month
//! (`collapse=timestamp:6`, 404s and revisits left out, as *Consent in Crisis* lists
//! them); the captures are fetched at a polite `--rate` and kept in the store, so that
//! a rerun fetches only what it lacks; and each month takes the latest capture at or
//! before it, carried forward.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use color_eyre::eyre::{Result, WrapErr};
use url::Url;

use super::Input;
use crate::cli::SourceOptions;
use crate::fetch::{self, Limits, Source};
use crate::history::{self, ArchiveOptions, Collapse, Pacer, Provenance, Store, Version};
use crate::policy::escape::sanitize_str;
use crate::survey::Capture;
use crate::words::plural;

/// The most months a series may have: a century, past which a range is a typo.
const MAX_MONTHS: usize = 1200;

/// The months asked for: `FROM..TO`, each a date as `history --from` takes it, the
/// months from FROM's to TO's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Months {
    /// `YYYY-MM`, in order.
    each: Vec<String>,
    /// TO's last second, `YYYYMMDDhhmmss`: no capture after it is read.
    last_second: String,
    /// FROM's first second.
    first_second: String,
}

/// Parses `--monthly`'s `FROM..TO` (`2020..2024`, `2023-01..2024-06`).
pub fn parse_months(given: &str) -> Result<Months, String> {
    let (from, to) = given.split_once("..").ok_or_else(|| format!("'{given}' is no FROM..TO (2020-01..2024-12)"))?;
    let (first_second, _) = history::date_range(from.trim()).map_err(|error| error.to_string())?;
    let (_, last_second) = history::date_range(to.trim()).map_err(|error| error.to_string())?;
    if first_second > last_second {
        return Err(format!("'{given}' ends before it starts"));
    }
    let month_number = |timestamp: &str| -> Option<usize> {
        let year: usize = timestamp.get(..4)?.parse().ok()?;
        let month: usize = timestamp.get(4..6)?.parse().ok()?;
        Some(year * 12 + month - 1)
    };
    let (Some(first), Some(last)) = (month_number(&first_second), month_number(&last_second)) else {
        return Err(format!("'{given}' is no FROM..TO (2020-01..2024-12)"));
    };
    // No month after this one: its captures are yet to be made.
    let now = jiff::Timestamp::now().strftime("%Y%m%d%H%M%S").to_string();
    let this_month = month_number(&now).unwrap_or(last);
    if first > this_month {
        return Err(format!("'{given}' starts after this month"));
    }
    let (last, last_second) = if last > this_month { (this_month, now) } else { (last, last_second) };
    if last - first >= MAX_MONTHS {
        return Err(format!("'{given}' spans {} months; a series has {MAX_MONTHS} at most", last - first + 1));
    }
    let each = (first..=last).map(|number| format!("{:04}-{:02}", number / 12, number % 12 + 1)).collect();
    Ok(Months { each, last_second, first_second })
}

/// What the monthly survey needs besides the sites.
pub struct MonthlyOptions<'a> {
    pub months: &'a Months,
    /// The archive asked.
    pub archive: Url,
    /// Requests a second to the archive, at most.
    pub rate: f64,
    pub source_options: &'a SourceOptions,
    pub limits: &'a Limits,
}

/// Syncs each site's monthly captures into the store, then pushes one capture per
/// month (the latest at or before it) into `input`: the rows of a site come as soon
/// as its captures are in. Returns whether every site was done.
pub fn survey_months<W: std::io::Write>(
    input: &mut Input<'_, W>,
    sites: &[String],
    options: &MonthlyOptions<'_>,
    deadline: Instant,
) -> Result<bool> {
    let mut store = if let Ok(store) = super::super::history::open_store(options.source_options) {
        store
    } else {
        note!("robotscope: warning: the captures are kept in memory: a rerun fetches them again");
        Store::in_memory()?
    };
    let robots_urls = robots_urls(sites);
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().wrap_err("starting the runtime")?;
    let pace = Pacer::new(Duration::from_secs_f64(1.0 / options.rate));
    let mut estimate = Estimate::new(robots_urls.len());
    let mut report = Report::default();
    for url in &robots_urls {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            report.out_of_time += 1;
            continue;
        }
        let archive = ArchiveOptions {
            base: options.archive.clone(),
            from: Some(options.months.first_second.clone()),
            to: Some(options.months.last_second.clone()),
            collapse: Collapse::Month,
            pace: pace.clone(),
            max_captures: usize::MAX,
            limits: options.limits.clone(),
            max_time: left,
        };
        let synced = runtime.block_on(history::sync(&mut store, url, &archive, |event| {
            if event == history::Progress::Capture {
                estimate.capture();
            }
        }));
        match synced {
            Ok(synced) => {
                report.other_hosts += synced.other_hosts;
                let unread = synced.failed.len() + synced.left;
                if unread > 0 || synced.out_of_time {
                    // A month whose own capture was not read would carry an older one
                    // and look sound: the site gets no rows until a rerun reads it.
                    report.unread += unread;
                    report.incomplete += 1;
                    estimate.site_done();
                    continue;
                }
            }
            Err(error) => {
                report.unlisted.get_or_insert_with(|| sanitize_str(&error.to_string()).into_owned());
                report.unlisted_count += 1;
                estimate.site_done();
                continue;
            }
        }
        let site = history::site_key(url);
        let versions = monthly_versions(store.versions(&site)?, &options.months.last_second);
        if versions.is_empty() {
            report.never_captured += 1;
            report.first_never.get_or_insert_with(|| site.clone());
            estimate.site_done();
            continue;
        }
        let mut bodies: HashMap<String, Vec<u8>> = HashMap::new();
        for (month, version) in carried_forward(&options.months.each, &versions) {
            let Some(version) = version else {
                report.before_first += 1;
                continue;
            };
            if !bodies.contains_key(&version.digest) {
                let body = history::body_of(&store, version).unwrap_or_default();
                bodies.insert(version.digest.clone(), body);
            }
            input.push(month_capture(month, version, &bodies[&version.digest]))?;
        }
        estimate.site_done();
    }
    estimate.done();
    report.say(options.source_options.no_store);
    Ok(report.unlisted.is_none() && report.incomplete == 0 && report.out_of_time == 0)
}

/// Each site's robots.txt URL once, in the order given; lines that name no site are
/// said and skipped.
fn robots_urls(sites: &[String]) -> Vec<Url> {
    let (mut urls, mut seen, mut not_sites) = (Vec::new(), std::collections::HashSet::new(), 0usize);
    for site in sites {
        match Source::parse(site, |_| false) {
            Ok(Source::Site { robots_url, .. }) => {
                // The archive keys a site without its scheme: http and https are one.
                if seen.insert(history::site_key(&robots_url)) {
                    urls.push(robots_url);
                }
            }
            _ => not_sites += 1,
        }
    }
    if not_sites > 0 {
        note!("robotscope: warning: {} not surveyed: not a site", plural(not_sites, "line"));
    }
    urls
}

/// The archive's captures of a site up to `last_second`, oldest first, as a monthly
/// listing gives them (captures a `history` run kept are in the store too): 404s and
/// redirects, whose target the archive does not say, left out.
fn monthly_versions(versions: Vec<Version>, last_second: &str) -> Vec<Version> {
    versions
        .into_iter()
        .filter(|version| {
            version.provenance == Provenance::Archive
                && !matches!(version.status, Some(404 | 300..=399))
                && version.timestamp.as_str() <= last_second
        })
        .collect()
}

/// Each month with the latest version at or before its last second (`None` before the
/// first capture).
fn carried_forward<'v>(
    months: &'v [String],
    versions: &'v [Version],
) -> impl Iterator<Item = (&'v str, Option<&'v Version>)> {
    months.iter().map(move |month| {
        // The month's last second is before the next month's `YYYYMM`: a timestamp
        // compares below `YYYYMM` + "99" whatever its day and time.
        let end = format!("{}99", month.replace('-', ""));
        let at = versions.partition_point(|version| version.timestamp.as_str() <= end.as_str());
        (month.as_str(), at.checked_sub(1).map(|index| &versions[index]))
    })
}

/// A version as the capture of `month`.
fn month_capture(month: &str, version: &Version, body: &[u8]) -> Capture {
    let time = jiff::civil::DateTime::strptime("%Y%m%d%H%M%S", &version.timestamp)
        .map_or_else(|_| version.timestamp.clone(), |time| time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string());
    Capture {
        url: version.url.clone(),
        time,
        status: version.status,
        availability: version.availability,
        body: body.to_vec(),
        location: None,
        truncated: version.truncated,
        error: None,
        month: Some(month.to_owned()),
    }
}

/// What the run could not do, said at the end.
#[derive(Debug, Default)]
struct Report {
    /// Sites the archive could not list, and the first reason.
    unlisted: Option<String>,
    unlisted_count: usize,
    /// Captures listed but not read (the archive failed or was busy, the run's time
    /// ran out), and the sites they belong to, which get no rows.
    unread: usize,
    incomplete: usize,
    /// Captures of other hosts the archive listed (`www.` of a bare domain).
    other_hosts: usize,
    /// Sites the deadline left.
    out_of_time: usize,
    /// Sites the archive holds no capture of up to the last month, and the first.
    never_captured: usize,
    first_never: Option<String>,
    /// Site-months before a site's first capture: no row.
    before_first: usize,
}

impl Report {
    fn say(&self, no_store: bool) {
        let resume = if no_store { "" } else { "; run again to go on (what was read is in the store)" };
        if let Some(reason) = &self.unlisted {
            note!(
                "robotscope: warning: the archive could not list {} ({reason}){resume}",
                plural(self.unlisted_count, "site")
            );
        }
        if self.incomplete > 0 {
            note!(
                "robotscope: warning: {} not read ({} listed: the archive failed or was busy, or --max-time ran out): no rows for {}{resume}",
                plural(self.unread, "capture"),
                plural(self.incomplete, "site"),
                if self.incomplete == 1 { "it" } else { "them" }
            );
        }
        if self.other_hosts > 0 {
            // RFC 9309 §2.3: a robots.txt speaks for its own host alone.
            note!(
                "robotscope: warning: the archive listed {} of other hosts (www. of a bare domain): left out; survey those hosts by their names",
                plural(self.other_hosts, "capture")
            );
        }
        if self.out_of_time > 0 {
            note!(
                "robotscope: warning: the run's time (--max-time) ran out: {} not done{resume}",
                plural(self.out_of_time, "site")
            );
        }
        if self.never_captured > 0 {
            note!(
                "robotscope: warning: the archive holds no capture of {} in the months asked ({}{}): no rows",
                plural(self.never_captured, "site"),
                sanitize_str(self.first_never.as_deref().unwrap_or_default()),
                if self.never_captured > 1 { ", ..." } else { "" }
            );
        }
        if self.before_first > 0 {
            note!(
                "robotscope: warning: {} before the site's first capture: no rows",
                plural(self.before_first, "site-month")
            );
        }
    }
}

/// Sites done, captures fetched and the time left, on standard error: a bar on a
/// terminal, a line a minute otherwise (a week-long run is watched in a log).
struct Estimate {
    bar: Option<indicatif::ProgressBar>,
    sites: usize,
    done: usize,
    captures: u64,
    started: Instant,
    last_line: Instant,
}

impl Estimate {
    fn new(sites: usize) -> Estimate {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(sites as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} sites, {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_message("0 captures fetched");
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        let now = Instant::now();
        Estimate { bar, sites, done: 0, captures: 0, started: now, last_line: now }
    }

    fn capture(&mut self) {
        self.captures += 1;
        if let Some(bar) = &self.bar {
            bar.set_message(self.said());
        }
    }

    /// The captures fetched and, once a site is done, the time left at this pace.
    fn said(&self) -> String {
        let fetched = plural(usize::try_from(self.captures).unwrap_or(usize::MAX), "capture");
        if self.done == 0 {
            return format!("{fetched} fetched");
        }
        let per_site = self.started.elapsed() / u32::try_from(self.done).unwrap_or(u32::MAX);
        let left = per_site * u32::try_from(self.sites.saturating_sub(self.done)).unwrap_or(u32::MAX);
        format!("{fetched} fetched, about {} left", fetch::duration_words(left))
    }

    fn site_done(&mut self) {
        self.done += 1;
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(self.said());
            }
            None if self.last_line.elapsed() >= Duration::from_secs(60) => {
                self.last_line = Instant::now();
                note!("robotscope: {} of {} sites, {}", self.done, self.sites, self.said());
            }
            None => {}
        }
    }

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_run_from_the_first_to_the_last() {
        let months = parse_months("2023-11..2024-02").expect("months");
        assert_eq!(months.each, ["2023-11", "2023-12", "2024-01", "2024-02"]);
        assert_eq!((months.first_second.as_str(), months.last_second.as_str()), ("20231101000000", "20240229235959"));
        assert_eq!(parse_months("2020..2021").expect("years").each.len(), 24);
        // A range into the future ends at this month.
        let now = jiff::Timestamp::now().strftime("%Y-%m").to_string();
        assert_eq!(parse_months("2020..9999").expect("to the future").each.last(), Some(&now));
        for bad in ["2020", "2024..2020", "x..2020", "0001..9999", "2020-13..2021", "9000..9099"] {
            assert!(parse_months(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn each_month_carries_the_latest_capture_at_or_before_it() {
        let version = |timestamp: &str| Version {
            provenance: Provenance::Archive,
            timestamp: timestamp.to_owned(),
            last_seen: timestamp.to_owned(),
            seen: 1,
            url: "https://example.com/robots.txt".to_owned(),
            status: Some(200),
            availability: crate::policy::Availability::Available,
            digest: timestamp.to_owned(),
            bytes: 0,
            truncated: false,
            headers: Vec::new(),
        };
        let versions = [version("20231215000000"), version("20240131235959"), version("20240301000000")];
        let months = parse_months("2023-11..2024-03").expect("months").each;
        let carried: Vec<(&str, Option<&str>)> = carried_forward(&months, &versions)
            .map(|(month, version)| (month, version.map(|version| version.timestamp.as_str())))
            .collect();
        assert_eq!(
            carried,
            [
                ("2023-11", None),
                ("2023-12", Some("20231215000000")),
                ("2024-01", Some("20240131235959")),
                ("2024-02", Some("20240131235959")),
                ("2024-03", Some("20240301000000")),
            ]
        );
    }
}
