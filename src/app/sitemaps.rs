//! The sitemaps view (`m`): the site's sitemaps as a tree with their status and counts,
//! loading in the background (Esc cancels), and for the compared robots how many listed
//! URLs each may not fetch, the blocked URLs grouped by the line that blocks them.
//! Enter on a URL puts it in the tester; `R` makes the listed URLs the compare view's
//! rows.
//!
//! The walk is an effect ([`Effect::WalkSitemaps`]); its events come back in batches
//! ([`Action::SitemapEvents`]). URLs are kept (up to [`MAX_VIEW_URLS`] and
//! [`MAX_VIEW_URL_BYTES`]) so that the blocked lists can be made again when the robots or
//! the text change; past either the rest are counted, and the view says so.

use std::collections::BTreeMap;

use url::Url;

use super::job::Job;
use super::{About, Action, App, Effect, Overlay};
use crate::columns::Column;
use crate::policy::Reading;
use crate::policy::request::Request;
use crate::sitemaps::{Event, Report, SitemapId, WalkLimits, Walked, sitemaps_of, tree_order};
use crate::words::plural;

/// The listed URLs the view keeps; past it, the walk goes on but the view says it keeps
/// no more.
pub const MAX_VIEW_URLS: usize = 500_000;

/// The bytes of the listed URLs the view keeps (a URL may be 8 KiB long: forty sitemaps
/// of such would be gigabytes). The walk counts the URLs past it without sending them
/// ([`WalkLimits::max_sent_bytes`]).
pub const MAX_VIEW_URL_BYTES: usize = 32 * 1024 * 1024;

/// The URLs the compare view takes as rows from the sitemaps at most.
pub const MAX_COMPARE_ROWS: usize = 10_000;

/// One sitemap of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapNode {
    /// Where.
    pub url: Url,
    /// The index that listed it.
    pub parent: Option<SitemapId>,
    /// How far down the tree.
    pub depth: usize,
    /// How it went, once read.
    pub report: Option<Report>,
}

/// One compared robot's blocked URLs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blocked {
    /// The robot's name.
    pub label: String,
    /// Blocked URLs (indexes into [`SitemapsView::urls`]) by deciding line, with the
    /// rule's text.
    pub by_line: BTreeMap<Option<usize>, (String, Vec<usize>)>,
    /// How many.
    pub count: usize,
}

/// A row of the view: what the cursor can be on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SitemapsRow {
    /// A sitemap of the tree.
    Sitemap(SitemapId),
    /// A robot's heading: how many URLs it may not fetch.
    Robot(usize),
    /// A deciding line under a robot.
    Line(usize, Option<usize>),
    /// A URL a robot may not fetch: the robot (by column) and the URL (an index into
    /// the URLs).
    Url(usize, usize),
}

/// The view's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapsView {
    /// The walk: events of another are stale.
    pub job: Job,
    /// The sitemaps, by id.
    pub sitemaps: Vec<SitemapNode>,
    /// The listed URLs, with their sitemap.
    pub urls: Vec<(String, SitemapId)>,
    /// URLs listed beyond [`MAX_VIEW_URLS`], not kept.
    pub dropped: usize,
    /// Per compared robot, its blocked URLs.
    pub blocked: Vec<Blocked>,
    /// The walk's end, once it ended.
    pub walked: Option<Walked>,
    /// The walk's limits, which the rows name when one cut a sitemap.
    pub limits: WalkLimits,
    /// The rows, made again when what they show changes (not at every key: a view of
    /// 500,000 URLs for six robots has three million).
    rows: Vec<SitemapsRow>,
    /// What the blocked lists were counted for (text generation, robots and readings):
    /// opening the view again with nothing changed does not count them again.
    counted_for: Option<(u64, Vec<(String, Reading)>)>,
    /// The rows the view showed when last drawn (what its notices leave of its
    /// height): paging moves by as many.
    pub rows_shown: std::cell::Cell<usize>,
    /// The cursor's row and the first row shown.
    pub cursor: usize,
    /// The first row shown.
    pub scroll: usize,
}

impl SitemapsView {
    /// The rows, in order: the tree, then each robot with its blocked URLs by line.
    #[must_use]
    pub fn rows(&self) -> &[SitemapsRow] {
        &self.rows
    }

    /// Makes the rows again.
    fn rebuild_rows(&mut self) {
        self.rows = self.make_rows();
    }

    fn make_rows(&self) -> Vec<SitemapsRow> {
        let parents: Vec<Option<SitemapId>> = self.sitemaps.iter().map(|node| node.parent).collect();
        let mut rows: Vec<SitemapsRow> =
            tree_order(&parents).into_iter().map(|(id, _)| SitemapsRow::Sitemap(id)).collect();
        for (robot, blocked) in self.blocked.iter().enumerate() {
            rows.push(SitemapsRow::Robot(robot));
            for (line, (_, urls)) in &blocked.by_line {
                rows.push(SitemapsRow::Line(robot, *line));
                rows.extend(urls.iter().map(|&url| SitemapsRow::Url(robot, url)));
            }
        }
        rows
    }

    /// Puts each line's URLs in order, so that the view reads the same whatever order
    /// the sitemaps were read in (done when the walk ends, not at every batch).
    fn sort_blocked(&mut self) {
        let urls = &self.urls;
        for blocked in &mut self.blocked {
            for (_, list) in blocked.by_line.values_mut() {
                list.sort_unstable_by(|a, b| urls[*a].0.cmp(&urls[*b].0));
            }
        }
    }

    /// The sitemaps read so far.
    #[must_use]
    pub fn read(&self) -> usize {
        self.sitemaps.iter().filter(|node| node.report.is_some()).count()
    }
}

impl App {
    /// The sitemaps view, when it is open.
    #[must_use]
    pub fn sitemaps_view(&self) -> Option<&SitemapsView> {
        self.sitemaps.as_ref().filter(|_| self.overlay == Some(Overlay::Sitemaps))
    }

    /// `m`: opens the view, starting the walk the first time (or after a new load).
    fn open_sitemaps(&mut self) -> Vec<Effect> {
        if self.sitemaps.is_some() {
            self.open(Overlay::Sitemaps);
            self.recount_blocked();
            return Vec::new();
        }
        let site = self.site_origin().and_then(|origin| Url::parse(&format!("{origin}/robots.txt")).ok());
        let (starts, _) = sitemaps_of(&self.document.txt, site.as_ref());
        if starts.is_empty() {
            self.say(About::Moment, "The robots.txt lists no Sitemap (robotscope sitemaps --sitemap URL reads one)");
            return Vec::new();
        }
        let job = Job::start(&mut self.job_ids, ());
        let id = job.id();
        let limits = WalkLimits {
            fetch: self.fetch_limits(),
            max_sent_bytes: Some(MAX_VIEW_URL_BYTES),
            ..WalkLimits::default()
        };
        self.sitemaps = Some(SitemapsView {
            job,
            sitemaps: Vec::new(),
            urls: Vec::new(),
            dropped: 0,
            blocked: Vec::new(),
            walked: None,
            limits: limits.clone(),
            rows: Vec::new(),
            counted_for: None,
            rows_shown: std::cell::Cell::new(0),
            cursor: 0,
            scroll: 0,
        });
        self.open(Overlay::Sitemaps);
        self.recount_blocked();
        vec![Effect::WalkSitemaps { id, starts, limits }]
    }

    /// The compared robots' columns, as the compare view has them.
    fn sitemap_columns(&self) -> Vec<Column> {
        let txt = &self.document.txt;
        Column::all(
            txt,
            self.compare.robots.iter().map(|robot| {
                let reading = self.reading_choice.unwrap_or_else(|| robot.reading());
                (robot.label.clone(), robot.robot(), reading)
            }),
        )
    }

    /// Makes the blocked lists again from every URL kept (robots, reading or text
    /// changed, or the view opened).
    fn recount_blocked(&mut self) {
        let columns = self.sitemap_columns();
        let key = (self.text_generation, columns.iter().map(|c| (c.label.clone(), c.reading)).collect::<Vec<_>>());
        let Some(view) = &mut self.sitemaps else { return };
        if view.counted_for.as_ref() == Some(&key) {
            return;
        }
        view.counted_for = Some(key);
        view.blocked = columns.iter().map(|c| Blocked { label: c.label.clone(), ..Blocked::default() }).collect();
        let txt = &self.document.txt;
        let availability = self.document.availability;
        for index in 0..view.urls.len() {
            tally_url(view, &columns, txt, availability, index);
        }
        if !view.job.is_running() {
            view.sort_blocked();
        }
        view.rebuild_rows();
    }

    /// A batch of the walk's events.
    fn sitemap_events(&mut self, id: u64, events: Vec<Event>) {
        // The robots, reading or text may have changed while the view was closed.
        if self.sitemaps.as_ref().is_some_and(|view| view.job.is(id)) {
            self.recount_blocked();
        }
        let columns = self.sitemap_columns();
        let Some(view) = self.sitemaps.as_mut().filter(|view| view.job.is(id)) else { return };
        let (txt, availability) = (&self.document.txt, self.document.availability);
        for event in events {
            match event {
                Event::Started { id, url, parent } => {
                    let depth = parent.and_then(|p| view.sitemaps.get(p)).map_or(0, |p| p.depth + 1);
                    if view.sitemaps.len() <= id {
                        let filler = SitemapNode { url: url.clone(), parent, depth, report: None };
                        view.sitemaps.resize(id + 1, filler);
                    }
                    view.sitemaps[id] = SitemapNode { url, parent, depth, report: None };
                }
                Event::Pages { sitemap, entries, unsent } => {
                    view.dropped += unsent;
                    for entry in entries {
                        if view.urls.len() == MAX_VIEW_URLS {
                            view.dropped += 1;
                            continue;
                        }
                        view.urls.push((entry.loc, sitemap));
                        tally_url(view, &columns, txt, availability, view.urls.len() - 1);
                    }
                }
                Event::Finished(report) => {
                    if let Some(node) = view.sitemaps.get_mut(report.id) {
                        node.report = Some(*report);
                    }
                }
            }
        }
        view.rebuild_rows();
    }

    /// The walk ended (or was cancelled).
    fn sitemaps_walked(&mut self, id: u64, walked: Walked) {
        let Some(view) = self.sitemaps.as_mut() else { return };
        if !view.job.finish(id) {
            return;
        }
        view.walked = Some(walked);
        view.sort_blocked();
        view.rebuild_rows();
        let message = format!(
            "Sitemaps: {} read, {} listed",
            plural(walked.sitemaps, "sitemap"),
            plural(view.urls.len() + view.dropped, "URL")
        );
        self.say(About::Moment, message);
    }

    /// Moves the view's cursor.
    pub(super) fn move_sitemaps(&mut self, delta: isize) {
        let Some(view) = &mut self.sitemaps else { return };
        // As drawn (before the first frame, a guess).
        let height = match view.rows_shown.get() {
            0 => usize::from(self.area.height.saturating_sub(8)),
            shown => shown,
        }
        .max(1);
        let rows = view.rows().len();
        view.cursor = view.cursor.saturating_add_signed(delta).min(rows.saturating_sub(1));
        if view.cursor < view.scroll {
            view.scroll = view.cursor;
        } else if view.cursor >= view.scroll + height {
            view.scroll = view.cursor + 1 - height;
        }
    }

    /// Enter: a URL row goes into the tester, with the robot it is listed under selected
    /// (so that the tester shows the verdict the list gave); a rule's row shows its line
    /// in the source.
    fn use_sitemap_url(&mut self) {
        let Some(view) = &self.sitemaps else { return };
        match view.rows().get(view.cursor).copied() {
            Some(SitemapsRow::Url(robot, index)) => {
                let url = view.urls[index].0.clone();
                let label = view.blocked[robot].label.clone();
                if let Some(entry) = self.robots.iter().position(|entry| entry.profile.name == label) {
                    self.select_robot(entry);
                }
                self.path.set_text(&url);
                self.path.commit_to_history();
                self.compare.follow_tested_path(&url);
                self.close(Overlay::Sitemaps);
                self.reevaluate();
            }
            Some(SitemapsRow::Line(_, Some(line))) => {
                self.close(Overlay::Sitemaps);
                self.show_line(line);
            }
            _ => self.say(About::Moment, "Enter on a URL puts it in the tester; on a rule, shows its line"),
        }
    }

    /// `R`: the listed URLs become the compare view's rows.
    fn compare_sitemap_urls(&mut self) {
        let Some(view) = &self.sitemaps else { return };
        if view.urls.is_empty() {
            self.say(About::Moment, "No URL listed yet");
            return;
        }
        let paths: Vec<String> = view.urls.iter().take(MAX_COMPARE_ROWS).map(|(url, _)| url.clone()).collect();
        let message = if view.urls.len() > MAX_COMPARE_ROWS {
            format!("Rows: the first {MAX_COMPARE_ROWS} of {} URLs the sitemaps list", view.urls.len())
        } else {
            format!("Rows: the {} the sitemaps list", plural(paths.len(), "URL"))
        };
        self.close(Overlay::Sitemaps);
        self.compare.set_paths(paths);
        self.compare.cursor.0 = 0;
        self.compare.offset.0 = 0;
        self.open(Overlay::Compare);
        self.say(About::Moment, message);
    }

    /// Handles the sitemaps view's actions; gives the others back.
    pub(super) fn update_sitemaps(&mut self, action: Action) -> Result<Vec<Effect>, Action> {
        let open = self.overlay == Some(Overlay::Sitemaps);
        Ok(match action {
            Action::Toggle(Overlay::Sitemaps) if open => self.close(Overlay::Sitemaps),
            Action::Toggle(Overlay::Sitemaps) => self.open_sitemaps(),
            Action::SitemapEvents { id, events } => {
                self.sitemap_events(id, events);
                Vec::new()
            }
            Action::SitemapsWalked { id, walked } => {
                self.sitemaps_walked(id, walked);
                Vec::new()
            }
            // Esc stops a walk that runs, else leaves the view.
            Action::Cancel if open => match self.sitemaps.as_mut().and_then(|view| view.job.stop()) {
                Some(id) => {
                    self.say(About::Moment, "Stopped reading the sitemaps; Esc leaves, r reads them again");
                    vec![Effect::CancelSitemaps { id }]
                }
                None => self.close(Overlay::Sitemaps),
            },
            // `r` reads them all again.
            Action::Reload if open => {
                let mut effects = self.stop_sitemaps();
                self.sitemaps = None;
                effects.extend(self.open_sitemaps());
                effects
            }
            Action::ShowInSource if open => {
                self.use_sitemap_url();
                Vec::new()
            }
            Action::CompareSitemapUrls if open => {
                self.compare_sitemap_urls();
                Vec::new()
            }
            other => return Err(other),
        })
    }

    /// Cancels a walk that runs.
    pub(super) fn stop_sitemaps(&mut self) -> Vec<Effect> {
        match &self.sitemaps {
            Some(view) if view.job.is_running() => vec![Effect::CancelSitemaps { id: view.job.id() }],
            _ => Vec::new(),
        }
    }
}

/// Checks one kept URL for each robot and files it under its deciding line.
fn tally_url(
    view: &mut SitemapsView,
    columns: &[Column],
    txt: &crate::policy::RobotsTxt,
    availability: crate::policy::Availability,
    index: usize,
) {
    let tested = Request::read(&view.urls[index].0).tested.into_owned();
    for (column, blocked) in columns.iter().zip(&mut view.blocked) {
        let decision = column.check(availability, &tested);
        if decision.allowed {
            continue;
        }
        blocked.count += 1;
        let line = decision.rule.map(|at| at.line);
        let entry = blocked.by_line.entry(line).or_insert_with(|| {
            let rule = decision.rule.map(|at| {
                let rule = &txt.interpretation(column.reading).groups()[at.group].rules()[at.rule];
                txt.rule_text(rule)
            });
            (rule.unwrap_or_default(), Vec::new())
        });
        entry.1.push(index);
    }
}
