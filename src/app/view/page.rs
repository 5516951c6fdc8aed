//! The page policy overlay (`p`): the tested URL's page, fetched, and what it says to
//! robots (robots META tags, X-Robots-Tag headers) joined with the robots.txt on screen,
//! for the selected robot and the compared ones.
//!
//! The fetch runs in the background like a load; its result is kept, and every answer is
//! worked out when asked for, so switching robots or the reading updates the overlay, and
//! `p` after an edit of the robots.txt answers again, without fetching the page again
//! (`r` does).

use url::Url;

use super::compare::CompareRobot;
use super::{Context, Reply, View, movement};
use crate::app::job::{Job, JobIds};
use crate::app::{About, Action, App, Effect, Overlay, PromptKind};
use std::sync::Arc;

use crate::fetch::{FetchError, Limits, Obey, PageFetch};
use crate::policy::Reading;
use crate::policy::page::PagePolicy;
use crate::policy::page::{CrawlVerdict, PageAnswer};
use crate::policy::request::{Request, UrlMode};
use crate::policy::usage::Usage;

/// The fetched page, or how far its fetch got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageState {
    /// The fetch is running.
    Fetching,
    /// The page answered.
    Fetched {
        /// The response, what it says to robots, and the robots.txt of the other sites
        /// its redirects led to.
        fetched: Box<PageFetch>,
        /// What the user should know about the fetch (redirects, the size cap).
        notes: Vec<String>,
    },
    /// The page could not be fetched.
    Failed(FetchError),
}

/// The page policy overlay's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageView {
    /// The page's URL.
    pub url: Url,
    /// Its fetch: results of another are stale.
    pub job: Job,
    /// What the fetch brought so far.
    pub state: PageState,
    /// The first line shown.
    pub scroll: usize,
    /// The last first line there is, as last drawn (the rows depend on the width the
    /// lines wrap to): scrolling stops there, so that `k` after `G` moves at once.
    pub last_scroll: std::cell::Cell<usize>,
}

/// One robot's answers for the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRow {
    /// The robot's name.
    pub label: String,
    /// The reading its robots.txt verdict was decided under.
    pub reading: Reading,
    /// True for the robot selected in the switcher.
    pub selected: bool,
    /// What robots.txt says about fetching the page, redirects included.
    pub crawl: CrawlVerdict,
    /// Crawl, index and follow, with their reasons.
    pub policy: PagePolicy,
    /// What it may do with the page: robots.txt's usage preferences and the page's
    /// `Content-Usage` header, combined.
    pub usage: Option<Usage>,
}

impl PageView {
    /// The view of `url`, its fetch starting.
    fn start(url: Url, job_ids: &JobIds) -> PageView {
        PageView {
            url,
            job: Job::start(job_ids, ()),
            state: PageState::Fetching,
            scroll: 0,
            last_scroll: std::cell::Cell::new(usize::MAX / 2),
        }
    }

    /// Stops the fetch if it still runs.
    fn stop(&mut self) -> Vec<Effect> {
        self.job.stop().map(|id| Effect::CancelPageFetch { id }).into_iter().collect()
    }

    fn fetched(&mut self, id: u64, result: Result<PageFetch, FetchError>, limits: &Limits) {
        if !(self.job.is_running() && self.job.finish(id)) {
            return;
        }
        self.state = match result {
            Ok(fetched) => {
                let notes = fetched.notes(limits);
                PageState::Fetched { fetched: Box::new(fetched), notes }
            }
            Err(error) => PageState::Failed(error),
        };
    }

    /// The view's answer to an action: its fetch's answer, `r`, scrolling. It only reads
    /// the app.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        let app = context.app;
        match action {
            Action::PageFetched { id, result } => {
                self.fetched(id, *result, &app.limits);
                Reply::done()
            }
            // `r` fetches the page again, and anyway, where robots.txt keeps them out.
            Action::Reload => {
                let mut effects = self.stop();
                *self = PageView::start(self.url.clone(), &app.job_ids);
                effects.push(app.page_fetch(self, false));
                Reply::Done(effects)
            }
            action => match movement(&action, usize::from(app.area.height.saturating_sub(8))) {
                Some(delta) => {
                    // No further than the last first line there is, as last drawn.
                    let last = self.last_scroll.get();
                    self.scroll = self.scroll.min(last).saturating_add_signed(delta).min(last);
                    Reply::done()
                }
                None => Reply::Pass(action),
            },
        }
    }

    /// What closing the view takes: a fetch still running is dropped, with the view; a
    /// fetched page is kept, so that `p` on the same URL answers again at once (after
    /// an edit, say).
    pub(super) fn closing(&mut self) -> (Vec<Effect>, bool) {
        let effects = self.stop();
        let keep = effects.is_empty();
        (effects, keep)
    }
}

impl App {
    /// The page policy overlay, while it is open.
    #[must_use]
    pub fn page_view(&self) -> Option<&PageView> {
        match &self.view {
            Some(View::Page(view)) => Some(view),
            _ => None,
        }
    }

    /// Each robot's answers for the fetched page: the selected robot first, then the
    /// compared robots. Empty until the page has answered.
    #[must_use]
    pub fn page_rows(&self) -> Vec<PageRow> {
        let Some(PageView { state: PageState::Fetched { fetched, .. }, .. }) = self.page_view() else {
            return Vec::new();
        };
        self.page_robots()
            .into_iter()
            .enumerate()
            .map(|(index, robot)| {
                let reading = self.reading_choice.unwrap_or_else(|| robot.reading());
                let PageAnswer { crawl, policy, usage } = fetched.answer(
                    &self.document.txt,
                    self.document.availability,
                    &robot.robot(),
                    reading,
                    UrlMode::AsCrawlersSend,
                );
                PageRow { label: robot.label, reading, selected: index == 0, crawl, policy, usage }
            })
            .collect()
    }

    /// The URL of the tested page: the tester's text when it is a URL, else the tested
    /// path (exactly what the tester matched) on the site the robots.txt came from.
    fn tested_page_url(&self) -> Option<Url> {
        let request = Request::read(self.path().text());
        if request.origin().is_some() {
            return Url::parse(request.given()).ok().filter(|url| matches!(url.scheme(), "http" | "https"));
        }
        let origin = self.site_origin()?;
        Url::parse(&format!("{origin}{}", request.tested())).ok()
    }

    /// `p`: fetches the tested page and opens the overlay.
    pub(in crate::app) fn open_page(&mut self) -> Vec<Effect> {
        let Some(url) = self.tested_page_url() else {
            self.say(
                About::Moment,
                "p fetches the tested page from a site: type a full URL in the tester (https://example.com/a), \
                 or open a site with o",
            );
            return Vec::new();
        };
        // Ctrl-P while typing the path: the path is kept, as Enter would.
        if self.prompt.as_ref().is_some_and(|prompt| prompt.kind == PromptKind::TestPath) {
            self.submit_prompt();
        }
        // A page robots.txt kept robotscope out of was never read: after an edit that lets
        // a robot in, it is fetched now.
        let fetched_already = matches!(self.shelf.get(Overlay::Page), Some(View::Page(view)) if view.url == url
            && matches!(&view.state, PageState::Fetched { fetched, .. } if fetched.page.is_some()));
        if fetched_already && let Some(view) = self.shelf.take(Overlay::Page) {
            // The page is the same; the robots.txt may have changed: answer again, and
            // leave fetching anew to `r`.
            return self.show(view);
        }
        let mut effects = match self.discard_view(Overlay::Page) {
            Some(View::Page(mut old)) => old.stop(),
            _ => Vec::new(),
        };
        let view = PageView::start(url, &self.job_ids);
        effects.push(self.page_fetch(&view, true));
        effects.extend(self.show(View::Page(Box::new(view))));
        effects
    }

    /// The fetch of the view's page for the robots shown (the selected and the compared
    /// ones), obeying their robots.txt unless `obey` is false (`r`: fetch anyway).
    fn page_fetch(&self, view: &PageView, obey: bool) -> Effect {
        let obey = obey.then(|| {
            let robots = self
                .page_robots()
                .into_iter()
                .map(|robot| {
                    let reading = self.reading_choice.unwrap_or_else(|| robot.reading());
                    (robot.robot(), reading)
                })
                .collect();
            Box::new(Obey { txt: Arc::clone(&self.document.txt), availability: self.document.availability, robots })
        });
        Effect::FetchPage { id: view.job.id(), url: view.url.clone(), limits: self.fetch_limits(), obey }
    }

    /// The robots the overlay answers for: the selected robot, then the compared ones.
    fn page_robots(&self) -> Vec<CompareRobot> {
        let selected = CompareRobot::from_entry(self.robot());
        let others = self.compared_robots().iter().filter(|r| r.label != selected.label).cloned().collect::<Vec<_>>();
        std::iter::once(selected).chain(others).collect()
    }
}
