//! The robots in the switcher: every profile, the robots the file names, those the user
//! added, and choosing one.

use super::{About, AgentName, App, HashSet, Overlay, Pane, Reading, RobotProfile, RobotsDb, RobotsTxt, product_token};
use crate::robots_db::Purpose;

/// Where a robot in the switcher comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotOrigin {
    /// A profile from `assets/robots.toml`.
    Profile,
    /// Named by the file but not in the profiles.
    NamedInFile,
    /// Added by the user with `a`.
    AddedByUser,
}

/// A robot in the switcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobotEntry {
    /// Its profile.
    pub profile: RobotProfile,
    /// Where it came from.
    pub origin: RobotOrigin,
    /// True when a group of the file names its token (RFC 9309 reading).
    pub named_in_file: bool,
}

impl App {
    pub(super) fn select_robot(&mut self, index: usize) {
        // A robot chosen outside the purpose shown (`a`, a click in the compare view)
        // shows every robot again, so that the switcher shows the one selected.
        if self.robot_purpose.is_some_and(|purpose| !self.robots[index].profile.serves(purpose)) {
            self.robot_purpose = None;
        }
        self.robot = index;
        self.note_robot_looked_at();
        let shown = self.shown_robots();
        self.robots_view.cursor = shown.iter().position(|&shown| shown == index).unwrap_or(0);
        let height = self.areas().inner_height(Pane::Robots);
        self.robots_view.reveal(self.robots_view.cursor, shown.len(), height);
        self.reevaluate();
    }

    /// The robots the switcher shows (indices into [`App::robots`]): every one, or those
    /// of the purpose `P` chose.
    #[must_use]
    pub fn shown_robots(&self) -> Vec<usize> {
        (0..self.robots.len())
            .filter(|&index| self.robot_purpose.is_none_or(|purpose| self.robots[index].profile.serves(purpose)))
            .collect()
    }

    /// The purpose whose robots the switcher shows, if one.
    #[must_use]
    pub fn robot_purpose(&self) -> Option<Purpose> {
        self.robot_purpose
    }

    /// The robot `delta` places from the selected one among those shown, round.
    pub(super) fn step_robot(&mut self, delta: isize) {
        let shown = self.shown_robots();
        let at = shown.iter().position(|&index| index == self.robot).unwrap_or(0);
        let count = shown.len().cast_signed();
        let next = (at.cast_signed() + delta).rem_euclid(count.max(1));
        if let Some(&index) = shown.get(next.cast_unsigned()) {
            self.select_robot(index);
        }
    }

    /// `P` in the robots pane: the robots of the next purpose that has any, then every
    /// robot again. The selected robot stays when it serves the purpose; else the
    /// first that does is selected.
    pub(super) fn cycle_robot_purpose(&mut self) {
        let serves = |purpose: Purpose| self.robots.iter().any(|entry| entry.profile.serves(purpose));
        let after = self.robot_purpose.and_then(|now| Purpose::ALL.iter().position(|&purpose| purpose == now));
        let start = after.map_or(0, |at| at + 1);
        self.robot_purpose = Purpose::ALL[start.min(Purpose::ALL.len())..].iter().copied().find(|&p| serves(p));
        let shown = self.shown_robots();
        let keep = shown.contains(&self.robot);
        let index = if keep { self.robot } else { shown.first().copied().unwrap_or(0) };
        self.robots_view.offset = 0;
        self.select_robot(index);
        let said = match self.robot_purpose {
            Some(purpose) => format!(
                "Robots of {} ({} of {}); P shows the next purpose",
                purpose.name(),
                shown.len(),
                self.robots.len()
            ),
            None => format!("Every robot ({})", self.robots.len()),
        };
        self.say(About::Moment, said);
    }

    /// Selects (or adds) the robot typed in the prompt; in the compare view, compares it.
    pub(super) fn add_robot_named(&mut self, name: &str) {
        if name.is_empty() {
            return;
        }
        // A User-Agent header pasted whole (`Mozilla/5.0 (compatible; Googlebot/2.1;
        // +http://…)`): the profile whose header it is, else the robot its product token
        // names, as the command line suggests.
        let header_of = |entry: &RobotEntry| !entry.profile.is_named(name) && entry.profile.user_agent == name;
        if self.overlay() != Some(Overlay::Compare)
            && let Some(index) = self.robots.iter().position(header_of)
        {
            self.select_robot(index);
            let robot = self.robot().profile.name.clone();
            self.say(About::Robot, format!("That is {robot}'s User-Agent header: selected {robot}"));
            return;
        }
        let known = |entry: &RobotEntry| entry.profile.is_named(name) || entry.profile.user_agent == name;
        if !self.robots.iter().any(known)
            && !crate::policy::agent::is_valid_token(name)
            && let Some(token) = crate::policy::agent::suggest_token(name)
        {
            let shown = crate::policy::escape::sanitize_str(name).into_owned();
            self.add_robot_named(&token);
            self.say(
                About::Robot,
                format!("{shown} is a User-Agent header; its product token is {token}: selected {token}"),
            );
            return;
        }
        let existing = self.robots.iter().position(known);
        let asked_before = self.unknown_robot_asked.take().is_some_and(|asked| asked == name);
        if existing.is_none() && !asked_before {
            let near = self.robots_near(name);
            // One robot whose name starts so (`Scoo`): that one.
            if let [only] = near.starts.as_slice() {
                return self.add_robot_named(&self.robots[*only].profile.name.clone());
            }
            let mut offered: Vec<&str> =
                near.starts.iter().chain(&near.close).map(|&i| self.robots[i].profile.name.as_str()).collect();
            offered.truncate(4);
            if !offered.is_empty() {
                let shown = crate::policy::escape::sanitize_str(name).into_owned();
                let offered = offered.join(", ");
                self.unknown_robot_asked = Some(name.to_owned());
                self.say(
                    About::Moment,
                    format!("No robot is called {shown}: did you mean {offered}? a, then {shown} again, adds it as a new robot"),
                );
                return;
            }
        }
        let index = existing.unwrap_or_else(|| {
            let profile = RobotProfile::custom(name);
            let named_in_file = names_token(&self.document.txt, &profile.token);
            self.robots.push(RobotEntry { profile, origin: RobotOrigin::AddedByUser, named_in_file });
            self.robots.len() - 1
        });
        // Said by the robot's own name, not as typed (`gptbot` selects GPTBot).
        let name = self.robots[index].profile.name.clone();
        if self.overlay() == Some(Overlay::Compare) {
            self.add_compare_robot(index);
            self.say(About::Moment, format!("Compared {name}"));
        } else {
            self.select_robot(index);
            self.say(
                About::Robot,
                if existing.is_some() { format!("Selected {name}") } else { format!("Added {name}") },
            );
        }
    }
}

impl App {
    /// Tab in the add-robot prompt: the name typed completed to the robot's whose name
    /// starts so (any case), or to what the names that start so share, saying which
    /// they are; or, when none does, the names a letter away.
    pub(super) fn complete_robot_name(&mut self) {
        let Some(prompt) = &self.prompt else { return };
        let typed = prompt.input.text().to_owned();
        let starting: Vec<&str> = self
            .robots
            .iter()
            .map(|entry| entry.profile.name.as_str())
            .filter(|name| name.get(..typed.len()).is_some_and(|head| head.eq_ignore_ascii_case(&typed)))
            .collect();
        let shown = crate::policy::escape::sanitize_str(&typed).into_owned();
        let completed = match starting.as_slice() {
            [] => {
                let near: Vec<String> =
                    self.robots_near(&typed).close.iter().map(|&i| self.robots[i].profile.name.clone()).collect();
                let hint = if near.is_empty() { String::new() } else { format!(": did you mean {}?", near.join(", ")) };
                self.say(About::Moment, format!("No robot's name starts with {shown}{hint}"));
                return;
            }
            [only] => (*only).to_owned(),
            many => {
                let shared = shared_prefix(many);
                let listed: Vec<&str> = many.iter().take(6).copied().collect();
                let more = if many.len() > listed.len() { ", …" } else { "" };
                self.say(About::Moment, format!("{} robots: {}{more}", many.len(), listed.join(", ")));
                if shared.chars().count() <= typed.chars().count() {
                    return;
                }
                shared
            }
        };
        if let Some(prompt) = &mut self.prompt {
            prompt.input.set_text(&completed);
        }
    }
}

/// What every one of `names` starts with (any case; spelled as the first spells it).
fn shared_prefix(names: &[&str]) -> String {
    let first = names.first().copied().unwrap_or_default();
    let mut end = first.len();
    for name in &names[1..] {
        end = first
            .char_indices()
            .zip(name.chars())
            .take_while(|((_, a), b)| a.eq_ignore_ascii_case(b))
            .map(|((at, a), _)| at + a.len_utf8())
            .last()
            .unwrap_or(0)
            .min(end);
    }
    first[..end].to_owned()
}

/// The robots whose names are near one typed: those that start with it, and those a
/// letter from it (two would take `NewCrawler` for `WebCrawler`).
struct Near {
    starts: Vec<usize>,
    close: Vec<usize>,
}

impl App {
    fn robots_near(&self, typed: &str) -> Near {
        let squeeze = |text: &str| {
            text.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).flat_map(char::to_lowercase).collect::<String>()
        };
        let wanted = squeeze(typed);
        let (mut starts, mut close) = (Vec::new(), Vec::new());
        if wanted.is_empty() {
            return Near { starts, close };
        }
        for (index, entry) in self.robots.iter().enumerate() {
            let name = squeeze(&entry.profile.name);
            if name.starts_with(&wanted) {
                starts.push(index);
            } else if crate::policy::edit_distance(&wanted, &name) == 1 {
                close.push(index);
            }
        }
        Near { starts, close }
    }
}

/// True when a group of the file (RFC 9309 reading) names `token`.
pub(super) fn names_token(txt: &RobotsTxt, token: &str) -> bool {
    txt.interpretation(Reading::Rfc9309)
        .groups()
        .iter()
        .flat_map(crate::policy::parse::Group::agents)
        .any(|agent| matches!(&agent.name(), AgentName::Name(name) if name.eq_ignore_ascii_case(token)))
}

/// The switcher's robots: every profile, then the robots the file names that have no
/// profile (by their product token as the file writes it), then those the user added.
pub(super) fn robot_entries(txt: &RobotsTxt, db: &RobotsDb, added: &[RobotEntry]) -> Vec<RobotEntry> {
    robot_entries_from(txt, db.profiles(), added)
}

pub(super) fn robot_entries_from(txt: &RobotsTxt, profiles: &[RobotProfile], added: &[RobotEntry]) -> Vec<RobotEntry> {
    let mut entries: Vec<RobotEntry> = profiles
        .iter()
        .map(|profile| RobotEntry {
            profile: profile.clone(),
            origin: RobotOrigin::Profile,
            named_in_file: names_token(txt, &profile.token),
        })
        .collect();
    // Names and tokens already listed, lower-cased: a file may name thousands of robots.
    let mut listed: HashSet<String> = entries
        .iter()
        .flat_map(|entry| [entry.profile.name.to_ascii_lowercase(), entry.profile.token.to_ascii_lowercase()])
        .collect();
    for agent in txt.interpretation(Reading::Rfc9309).groups().iter().flat_map(crate::policy::parse::Group::agents) {
        let token = String::from_utf8_lossy(product_token(txt.text(&agent.value()))).into_owned();
        if token.is_empty() || !listed.insert(token.to_ascii_lowercase()) {
            continue;
        }
        entries.push(RobotEntry {
            profile: RobotProfile::custom(&token),
            origin: RobotOrigin::NamedInFile,
            named_in_file: true,
        });
    }
    for entry in added {
        if !entries.iter().any(|e| e.profile.is_named(&entry.profile.token)) {
            let named_in_file = names_token(txt, &entry.profile.token);
            entries.push(RobotEntry { named_in_file, ..entry.clone() });
        }
    }
    entries
}
