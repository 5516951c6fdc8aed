//! The policy view (`b`): the registry's robots by purpose, how the text treats each one
//! under RFC 9309 (allowed, partly, blocked), and blocking some of them. Space marks a
//! robot, or every robot of a purpose, and the preview beside the list shows at once
//! the block as `robotscope block` makes it: the diff and what changes for whom, proved
//! by the impact machinery before it is offered ([`crate::policy::block_proved`]).
//! Enter applies it as one undo step; `y` copies the file as the preview makes it.
//!
//! The treatment of each robot is worked out when the view opens and when the text
//! changes, not at every frame: robots that read the same groups are asked once.

use std::collections::BTreeSet;

use super::{Ask, Context, Reply, movement};
use crate::app::effect::CopyWhat;
use crate::app::layout::{self, POLICY_OVERLAY};
use crate::app::status::About;
use crate::app::{Action, App, Effect, RobotOrigin};
use crate::policy::{
    BlockRefusal, BlockRequest, RFC9309_PARSE_LIMIT_BYTES, Reach, Reading, RobotsTxt, as_robots_read, block_proved,
    unified_diff,
};
use crate::robots_db::{Purpose, RobotProfile, block_caveats, robots_except};
use crate::words::plural;

/// One row of the list: a purpose, or one of its robots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyRow {
    /// A purpose's heading: Space marks all its robots.
    Purpose(Purpose),
    /// A robot (its index in [`PolicyView::profiles`]) under one of its purposes.
    Robot(usize),
}

/// What blocking the marked robots would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preview {
    /// Nothing is marked.
    Nothing,
    /// The block, proved: the text it makes, and the lines that say what changes.
    Proved {
        /// The text with the block made.
        text: Vec<u8>,
        /// What changes, robot by robot, then under the older readings, then what to
        /// know of some robots.
        said: Vec<String>,
        /// The unified diff, line by line.
        diff: Vec<String>,
    },
    /// No block can be offered, and why.
    Refused(String),
}

/// The policy view's state.
#[derive(Debug, Clone)]
pub struct PolicyView {
    /// The registry's robots, as the switcher has them.
    pub profiles: Vec<RobotProfile>,
    /// How the text treats each of `profiles` under RFC 9309.
    pub reach: Vec<Reach>,
    /// The rows, top to bottom.
    pub rows: Vec<PolicyRow>,
    /// The row under the cursor.
    pub cursor: usize,
    /// The first row shown.
    pub offset: usize,
    /// The robots marked to block (indices into `profiles`).
    pub marked: BTreeSet<usize>,
    /// What blocking them would do.
    pub preview: Preview,
    /// The first line of the preview shown (`J`/`K`).
    pub preview_scroll: usize,
    /// The text generation `reach` was worked out for.
    generation: u64,
    /// The text as RFC 9309 robots read it, which the block edits (none for a text past
    /// the 500 KiB they read: no block is offered for it).
    before: Option<RobotsTxt>,
    /// The text's size.
    text_bytes: usize,
}

impl PolicyView {
    /// The view over `profiles` for `text`, nothing marked.
    fn new(profiles: Vec<RobotProfile>, text: &[u8], generation: u64) -> PolicyView {
        let rows = Purpose::ALL
            .iter()
            .flat_map(|&purpose| {
                let robots = profiles.iter().enumerate().filter(move |(_, profile)| profile.serves(purpose));
                std::iter::once(PolicyRow::Purpose(purpose)).chain(robots.map(|(index, _)| PolicyRow::Robot(index)))
            })
            .collect();
        let mut view = PolicyView {
            reach: Vec::new(),
            profiles,
            rows,
            cursor: 0,
            offset: 0,
            marked: BTreeSet::new(),
            preview: Preview::Nothing,
            preview_scroll: 0,
            generation,
            before: None,
            text_bytes: text.len(),
        };
        view.read(text, generation);
        view
    }

    /// Works out how `text` treats each robot: robots that read the same groups get
    /// the same verdicts, so each set of groups is asked once.
    fn read(&mut self, text: &[u8], generation: u64) {
        self.generation = generation;
        let txt = as_robots_read(text.to_vec());
        let robots: Vec<_> = self.profiles.iter().map(RobotProfile::robot).collect();
        self.reach = Reach::of_each(&txt, &robots, Reading::Rfc9309);
        self.text_bytes = text.len();
        self.before = (text.len() <= RFC9309_PARSE_LIMIT_BYTES).then_some(txt);
        self.preview = self.make_preview();
    }

    /// The robots of a purpose, by index.
    fn robots_of(&self, purpose: Purpose) -> impl Iterator<Item = usize> + '_ {
        (0..self.profiles.len()).filter(move |&index| self.profiles[index].serves(purpose))
    }

    /// How many of a purpose's robots the text blocks, lets in partly, and allows.
    #[must_use]
    pub fn tally(&self, purpose: Purpose) -> [usize; 3] {
        let mut counts = [0; 3];
        for index in self.robots_of(purpose) {
            counts[match self.reach[index] {
                Reach::Nothing => 0,
                Reach::Part => 1,
                Reach::Everything => 2,
            }] += 1;
        }
        counts
    }

    /// True when every robot of the purpose is marked.
    #[must_use]
    pub fn purpose_marked(&self, purpose: Purpose) -> bool {
        let mut robots = self.robots_of(purpose).peekable();
        robots.peek().is_some() && robots.all(|index| self.marked.contains(&index))
    }

    /// True when some robots of the purpose are marked, but not all.
    #[must_use]
    pub fn purpose_partly_marked(&self, purpose: Purpose) -> bool {
        !self.purpose_marked(purpose) && self.robots_of(purpose).any(|index| self.marked.contains(&index))
    }

    /// Space: marks the robot under the cursor, or every robot of the purpose (or
    /// unmarks them, when all are marked).
    fn toggle(&mut self) {
        match self.rows.get(self.cursor) {
            Some(&PolicyRow::Robot(index)) => {
                if !self.marked.remove(&index) {
                    self.marked.insert(index);
                }
            }
            Some(&PolicyRow::Purpose(purpose)) => {
                let all = self.purpose_marked(purpose);
                let robots: Vec<usize> = self.robots_of(purpose).collect();
                for index in robots {
                    if all {
                        self.marked.remove(&index);
                    } else {
                        self.marked.insert(index);
                    }
                }
            }
            None => return,
        }
        self.preview = self.make_preview();
        self.preview_scroll = 0;
    }

    /// The block of the marked robots, made and proved as `robotscope block` makes it.
    fn make_preview(&self) -> Preview {
        // Said as the view opens: no mark can change it.
        let Some(before) = &self.before else {
            return Preview::Refused(BlockRefusal::FilePastTheCut { bytes: self.text_bytes }.to_string());
        };
        if self.marked.is_empty() {
            return Preview::Nothing;
        }
        let tokens: Vec<String> = self.marked.iter().map(|&index| self.profiles[index].written().to_owned()).collect();
        let kept = robots_except(&self.profiles, &tokens);
        let request = BlockRequest { chosen: &tokens, kept: &kept };
        let proved = match block_proved(before, request, &[]) {
            Ok(proved) => proved,
            Err(refusal) => return Preview::Refused(refusal.to_string()),
        };
        let mut said = Vec::new();
        // The robots marked by what they may fetch now: allowed, partly, blocked.
        let by_reach = |reach: Reach| -> Vec<&str> {
            self.marked
                .iter()
                .filter(|&&index| self.reach[index] == reach)
                .map(|&index| self.profiles[index].name.as_str())
                .collect()
        };
        let changed = self.marked.iter().filter(|&&index| self.reach[index] != Reach::Nothing).count();
        let already = by_reach(Reach::Nothing);
        if changed == 0 {
            said.push(format!("Blocked already: {}; nothing changes.", plural(already.len(), "robot")));
        } else {
            said.push(format!(
                "Proved under RFC 9309: {} may then fetch nothing, and every other robot (the registry's, those the \
                 file names, and a robot no group names) keeps every verdict on every path.",
                plural(changed, "robot")
            ));
            for reach in [Reach::Everything, Reach::Part] {
                let robots = by_reach(reach);
                if !robots.is_empty() {
                    said.push(format!("  {} → blocked: {}", reach.word(), robots.join(", ")));
                }
            }
            if !already.is_empty() {
                said.push(format!("  blocked already: {}", already.join(", ")));
            }
            let classic = &proved.proof.classic_changes;
            said.push(if classic.is_none() {
                "The 1996 draft and the 1994 standard: no verdict changes beyond those.".to_owned()
            } else {
                let some: Vec<String> = classic.flips().iter().take(3).map(ToString::to_string).collect();
                format!(
                    "The older readings, which match names by substring: verdicts change for {} robots under one \
                     reading or both ({}{}).",
                    classic.changed(),
                    some.join("; "),
                    if classic.changed() > some.len() { "; …" } else { "" }
                )
            });
        }
        let marked: Vec<&RobotProfile> = self.marked.iter().map(|&index| &self.profiles[index]).collect();
        said.extend(block_caveats(&marked));
        let diff = unified_diff(before.source(), proved.after.source(), "robots.txt");
        Preview::Proved { text: proved.after.source().to_vec(), said, diff: diff.lines().map(str::to_owned).collect() }
    }

    /// Moves the cursor, keeping it in the rows shown.
    fn move_by(&mut self, delta: isize, shown: usize) {
        let last = self.rows.len().saturating_sub(1);
        self.cursor = self.cursor.saturating_add_signed(delta).min(last);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + shown {
            self.offset = self.cursor + 1 - shown;
        }
    }

    /// The view's answer to an action.
    pub(super) fn update(&mut self, action: Action, context: &mut Context) -> Reply {
        let app = context.app;
        match action {
            Action::MarkToBlock => self.toggle(),
            Action::ApplyBlock => self.apply(context),
            Action::Copy(CopyWhat::File) => {
                let text = match &self.preview {
                    Preview::Proved { text, .. } => String::from_utf8_lossy(text).into_owned(),
                    _ => String::from_utf8_lossy(app.document.txt.source()).into_owned(),
                };
                context.ask(Ask::Copy(CopyWhat::File, text));
            }
            Action::DetailDown => self.preview_scroll += 1,
            Action::DetailUp => self.preview_scroll = self.preview_scroll.saturating_sub(1),
            action => match movement(&action, list_height(app)) {
                Some(delta) => self.move_by(delta, list_height(app)),
                None => return Reply::Pass(action),
            },
        }
        Reply::done()
    }

    /// Enter: the block previewed becomes the text, one step to undo (the app then works
    /// the view out again over the new text, `App::refresh_policy`).
    fn apply(&mut self, context: &mut Context) {
        let Preview::Proved { text, .. } = &self.preview else {
            let why = match &self.preview {
                Preview::Refused(why) => format!("Nothing to apply: {why}"),
                _ => "Nothing to apply: Space marks the robots (or a purpose's) to block".to_owned(),
            };
            context.say(About::Moment, why);
            return;
        };
        if text.as_slice() == context.app.document.txt.source() {
            context.say(About::Moment, "Nothing to apply: the robots marked are blocked already");
            return;
        }
        let names: Vec<&str> = self.marked.iter().map(|&index| self.profiles[index].name.as_str()).collect();
        let what = if names.len() <= 3 { names.join(", ") } else { plural(names.len(), "robot") };
        context.ask(Ask::ReplaceText { text: text.clone(), undo: format!("the block of {what} (b)") });
        let they = if names.len() == 1 { "it" } else { "they" };
        context.say(
            About::Text,
            format!(
                "Blocked {what}: under RFC 9309 {they} may fetch nothing, and every other robot keeps every verdict \
                 (proved); Ctrl-Z undoes, v shows what changed"
            ),
        );
        self.marked.clear();
        self.preview_scroll = 0;
    }
}

/// The rows of the list, inside the view's border and below its heading.
fn list_height(app: &App) -> usize {
    let (width, height) = POLICY_OVERLAY;
    let (_, height) = layout::overlay_size(layout::above_status(app.area), width, height);
    usize::from(height.saturating_sub(4)).max(1)
}

impl App {
    /// `b`: the policy view, over the registry's robots.
    pub(in crate::app) fn open_policy(&mut self) -> Vec<Effect> {
        let profiles: Vec<RobotProfile> = self
            .robots
            .iter()
            .filter(|entry| entry.origin == RobotOrigin::Profile)
            .map(|entry| entry.profile.clone())
            .collect();
        let view = PolicyView::new(profiles, self.document.txt.source(), self.text_generation);
        self.show(super::View::Policy(Box::new(view)))
    }

    /// Works the open policy view out again when the text changed under it (an undo).
    pub(in crate::app) fn refresh_policy(&mut self) {
        let generation = self.text_generation;
        if let Some(super::View::Policy(view)) = &mut self.view
            && view.generation != generation
        {
            view.read(self.document.txt.source(), generation);
        }
    }
}
