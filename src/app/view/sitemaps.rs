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

use super::{Ask, Context, Reply, View, movement};
use crate::app::job::Job;
use crate::app::{About, Action, App, Effect, Overlay};
use crate::columns::Column;
use crate::policy::Reading;
use crate::policy::request::UrlMode;
use crate::sitemaps::{Audit, Event, Report, SitemapId, SitemapOrigin, WalkLimits, Walked, sitemaps_of, tree_order};
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
    /// The compared robots robots.txt keeps from fetching it (by name), with the
    /// deciding line: they never read what it lists.
    pub kept_from: Vec<(String, Option<usize>)>,
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
    /// Kept URLs on another site than the robots.txt's: its rules do not govern them,
    /// so they are neither blocked nor allowed here.
    pub other_host: usize,
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

impl SitemapsView {
    /// The view of a walk that starts now.
    fn start(job: Job, limits: WalkLimits) -> SitemapsView {
        SitemapsView {
            job,
            sitemaps: Vec::new(),
            urls: Vec::new(),
            dropped: 0,
            blocked: Vec::new(),
            other_host: 0,
            walked: None,
            limits,
            rows: Vec::new(),
            counted_for: None,
            rows_shown: std::cell::Cell::new(0),
            cursor: 0,
            scroll: 0,
        }
    }

    /// Stops the walk if it runs.
    pub(in crate::app) fn stop(&mut self) -> Vec<Effect> {
        self.job.stop().map(|id| Effect::CancelSitemaps { id }).into_iter().collect()
    }

    /// Makes the blocked lists again from every URL kept (robots, reading or text
    /// changed, or the view opened).
    fn recount_blocked(&mut self, app: &App) {
        let columns = sitemap_columns(app);
        let key = (app.text_generation, columns.iter().map(|c| (c.label.clone(), c.reading)).collect::<Vec<_>>());
        if self.counted_for.as_ref() == Some(&key) {
            return;
        }
        self.counted_for = Some(key);
        self.blocked = columns.iter().map(|c| Blocked { label: c.label.clone(), ..Blocked::default() }).collect();
        self.other_host = 0;
        let audit = sitemaps_audit(app, columns);
        for node in &mut self.sitemaps {
            node.kept_from = kept_from(&audit, &node.url, app);
        }
        let txt = &app.document.txt;
        let origins: Vec<SitemapOrigin> = self.sitemaps.iter().map(|node| SitemapOrigin::of(&node.url)).collect();
        for index in 0..self.urls.len() {
            tally_url(self, &audit, &origins, txt, index);
        }
        if !self.job.is_running() {
            self.sort_blocked();
        }
        self.rebuild_rows();
    }

    /// A batch of the walk's events.
    fn events(&mut self, id: u64, events: Vec<Event>, app: &App) {
        if !self.job.is(id) {
            return;
        }
        // The robots, reading or text may have changed while the view was closed.
        self.recount_blocked(app);
        let audit = sitemaps_audit(app, sitemap_columns(app));
        let txt = &app.document.txt;
        let mut origins: Vec<SitemapOrigin> = self.sitemaps.iter().map(|node| SitemapOrigin::of(&node.url)).collect();
        for event in events {
            match event {
                Event::Started { id, url, parent } => {
                    let depth = parent.and_then(|p| self.sitemaps.get(p)).map_or(0, |p| p.depth + 1);
                    let kept_from = kept_from(&audit, &url, app);
                    let node = SitemapNode { url, parent, depth, report: None, kept_from };
                    if self.sitemaps.len() <= id {
                        self.sitemaps.resize(id + 1, node.clone());
                        origins.resize(id + 1, SitemapOrigin::of(&node.url));
                    }
                    origins[id] = SitemapOrigin::of(&node.url);
                    self.sitemaps[id] = node;
                }
                Event::Pages { sitemap, entries, unsent } => {
                    self.dropped += unsent;
                    for entry in entries {
                        if self.urls.len() == MAX_VIEW_URLS {
                            self.dropped += 1;
                            continue;
                        }
                        self.urls.push((entry.loc, sitemap));
                        tally_url(self, &audit, &origins, txt, self.urls.len() - 1);
                    }
                }
                Event::Finished(report) => {
                    if let Some(node) = self.sitemaps.get_mut(report.id) {
                        node.report = Some(*report);
                    }
                }
            }
        }
        self.rebuild_rows();
    }

    /// The walk ended (or was cancelled).
    fn walked(&mut self, id: u64, walked: Walked, context: &mut Context) {
        if !self.job.finish(id) {
            return;
        }
        self.walked = Some(walked);
        self.sort_blocked();
        self.rebuild_rows();
        let message = format!(
            "Sitemaps: {} read, {} listed",
            plural(walked.sitemaps, "sitemap"),
            plural(self.urls.len() + self.dropped, "URL")
        );
        context.say(About::Moment, message);
    }

    /// Moves the view's cursor.
    fn move_by(&mut self, delta: isize, app: &App) {
        let rows = self.rows().len();
        let height = self.page_rows(app);
        self.cursor = self.cursor.saturating_add_signed(delta).min(rows.saturating_sub(1));
        if self.cursor < self.scroll {
            self.scroll = self.cursor;
        } else if self.cursor >= self.scroll + height {
            self.scroll = self.cursor + 1 - height;
        }
    }

    /// The rows a page holds: as drawn (before the first frame, a guess).
    fn page_rows(&self, app: &App) -> usize {
        match self.rows_shown.get() {
            0 => usize::from(app.area.height.saturating_sub(8)),
            shown => shown,
        }
        .max(1)
    }

    /// Enter: a URL row goes into the tester, with the robot it is listed under selected
    /// (so that the tester shows the verdict the list gave); a rule's row shows its line
    /// in the source.
    fn use_row(&self, context: &mut Context) -> Reply {
        match self.rows().get(self.cursor).copied() {
            Some(SitemapsRow::Url(robot, index)) => {
                let url = &self.urls[index].0;
                let label = &self.blocked[robot].label;
                let entry = context.app.robots.iter().position(|entry| entry.profile.name == *label);
                if let Some(entry) = entry {
                    context.ask(Ask::SelectRobot(entry));
                }
                context.ask(Ask::TestPath(url.clone()));
                // The robot no group names is no robot of the switcher: the tester answers
                // for the robot selected, whose group may differ; said, so that its
                // verdict is not taken for the list's.
                if entry.is_none() {
                    let selected = &context.app.robot().profile.name;
                    context.say(
                        About::Moment,
                        format!("Tested for {selected}: {label} is no robot of the switcher (a adds one by name)"),
                    );
                }
                Reply::Close(Vec::new())
            }
            Some(SitemapsRow::Line(_, Some(line))) => {
                context.ask(Ask::ShowLine(line));
                Reply::Close(Vec::new())
            }
            _ => {
                context.say(About::Moment, "Enter on a URL puts it in the tester; on a rule, shows its line");
                Reply::done()
            }
        }
    }

    /// `R`: the listed URLs become the compare view's rows.
    fn compare_urls(&self, context: &mut Context) -> Reply {
        if self.urls.is_empty() {
            context.say(About::Moment, "No URL listed yet");
            return Reply::done();
        }
        let paths: Vec<String> = self.urls.iter().take(MAX_COMPARE_ROWS).map(|(url, _)| url.clone()).collect();
        let message = if self.urls.len() > MAX_COMPARE_ROWS {
            format!("Rows: the first {MAX_COMPARE_ROWS} of {} URLs the sitemaps list", self.urls.len())
        } else {
            format!("Rows: the {} the sitemaps list", plural(paths.len(), "URL"))
        };
        // The compare view takes this one's place (which waits on the shelf).
        context.ask(Ask::CompareRows(paths));
        context.say(About::Moment, message);
        Reply::done()
    }

    /// The view's answer to an action: its walk's events, Esc, `r`, Enter, `R`, moving.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        let app = context.app;
        match action {
            Action::SitemapEvents { id, events } => self.events(id, events, app),
            Action::SitemapsWalked { id, walked } => self.walked(id, walked, context),
            // Esc stops a walk that runs, else leaves the view.
            Action::Cancel => {
                let effects = self.stop();
                if effects.is_empty() {
                    return Reply::Close(effects);
                }
                context.say(About::Moment, "Stopped reading the sitemaps; Esc leaves, r reads them again");
                return Reply::Done(effects);
            }
            // `r` reads them all again.
            Action::Reload => {
                let mut effects = self.stop();
                let Some((view, walk)) = app.start_walk() else {
                    context.say(About::Moment, "The robots.txt lists no Sitemap any more");
                    return Reply::Forget(effects);
                };
                *self = view;
                self.recount_blocked(app);
                effects.push(walk);
                return Reply::Done(effects);
            }
            Action::ShowInSource => return self.use_row(context),
            Action::CompareSitemapUrls => return self.compare_urls(context),
            action => match movement(&action, self.page_rows(app)) {
                Some(delta) => self.move_by(delta, app),
                None => return Reply::Pass(action),
            },
        }
        Reply::done()
    }
}

/// The compared robots' columns, as the compare view has them.
fn sitemap_columns(app: &App) -> Vec<Column> {
    Column::all(
        &app.document.txt,
        app.compared_robots().iter().map(|robot| {
            let reading = app.reading_choice.unwrap_or_else(|| robot.reading());
            (robot.label.clone(), robot.robot(), reading)
        }),
    )
}

impl App {
    /// The sitemaps view, when it is open.
    #[must_use]
    pub fn sitemaps_view(&self) -> Option<&SitemapsView> {
        match &self.view {
            Some(View::Sitemaps(view)) => Some(view),
            _ => None,
        }
    }

    /// `m`: opens the view, starting the walk the first time (or after a new load).
    pub(in crate::app) fn open_sitemaps(&mut self) -> Vec<Effect> {
        let (mut view, walk) = if let Some(View::Sitemaps(view)) = self.shelf.take(Overlay::Sitemaps) {
            (view, None)
        } else {
            let Some((view, walk)) = self.start_walk() else {
                let message = "The robots.txt lists no Sitemap (robotscope sitemaps --sitemap URL reads one)";
                self.say(About::Moment, message);
                return Vec::new();
            };
            (Box::new(view), Some(walk))
        };
        view.recount_blocked(self);
        let mut effects = self.show(View::Sitemaps(view));
        effects.extend(walk);
        effects
    }

    /// A new view and the walk that fills it, from the `Sitemap:` lines of the file on
    /// screen; `None` when it lists none.
    fn start_walk(&self) -> Option<(SitemapsView, Effect)> {
        let site = self.site_origin().and_then(|origin| Url::parse(&format!("{origin}/robots.txt")).ok());
        let (starts, _) = sitemaps_of(&self.document.txt, site.as_ref());
        if starts.is_empty() {
            return None;
        }
        let job = Job::start(&self.job_ids, ());
        let id = job.id();
        let limits = WalkLimits {
            fetch: self.fetch_limits(),
            max_sent_bytes: Some(MAX_VIEW_URL_BYTES),
            ..WalkLimits::default()
        };
        Some((SitemapsView::start(job, limits.clone()), Effect::WalkSitemaps { id, starts, limits }))
    }
}

/// The compared robots over the file on screen, for the site it came from: what the
/// command line's `sitemaps` checks with.
fn sitemaps_audit(app: &App, columns: Vec<Column>) -> Audit {
    let site = app.site_origin().and_then(|origin| Url::parse(&format!("{origin}/robots.txt")).ok());
    Audit::new(columns, app.document.availability, UrlMode::AsCrawlersSend, site.as_ref())
}

/// The compared robots robots.txt keeps from the sitemap at `url`, as the command line
/// says it.
fn kept_from(audit: &Audit, url: &Url, app: &App) -> Vec<(String, Option<usize>)> {
    let site = app.site_origin().and_then(|origin| Url::parse(&format!("{origin}/robots.txt")).ok());
    audit
        .blocked_sitemap(url, site.as_ref())
        .into_iter()
        .map(|(column, decision)| (audit.columns[column].label.clone(), decision.rule().map(|at| at.line())))
        .collect()
}

/// Checks one kept URL for each robot and files it under its deciding line; a URL on
/// another site is counted apart (its own robots.txt decides).
fn tally_url(
    view: &mut SitemapsView,
    audit: &Audit,
    origins: &[SitemapOrigin],
    txt: &crate::policy::RobotsTxt,
    index: usize,
) {
    let (url, sitemap) = &view.urls[index];
    let Some(origin) = origins.get(*sitemap) else { return };
    let check = audit.check(url, origin);
    if check.other_host {
        view.other_host += 1;
        return;
    }
    for ((column, finding), blocked) in audit.columns.iter().zip(&check.findings).zip(&mut view.blocked) {
        let decision = finding.decision;
        if decision.allowed() {
            continue;
        }
        blocked.count += 1;
        let line = decision.rule().map(|at| at.line());
        let entry = blocked.by_line.entry(line).or_insert_with(|| {
            let rule = decision.rule().map(|at| txt.rule_text(at.rule_in(txt, column.reading)));
            (rule.unwrap_or_default(), Vec::new())
        });
        entry.1.push(index);
    }
}
