//! The status bar's message and the message log.
//!
//! A message describes the present: each says what it is about ([`About`]), and it is
//! cleared as soon as that changes ("Selected Scooter" goes when the robot does; "Fixed:
//! ..." when the text changes again; a remark about a key press at the next key). Every
//! message also goes to a log that `M` shows whole, because the status bar cuts long
//! ones.

use std::collections::VecDeque;

/// The most messages the log keeps.
const LOG_LENGTH: usize = 200;

/// What a message is about, which decides when it stops being true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum About {
    /// The selected robot ("Selected Scooter").
    Robot,
    /// The text ("Fixed: ...", "Saved ..."): until it changes.
    Text,
    /// The key just pressed ("Nothing to fix on line 3"): until the next key.
    Moment,
}

/// The parts of the state that messages describe, to tell when one has gone stale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    /// The selected robot's index.
    pub robot: usize,
    /// The text generation.
    pub text: u64,
    /// How many sources were loaded.
    pub loads: u64,
    /// How many user actions (keys, clicks) were applied.
    pub user_actions: u64,
}

/// One message with what it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The words.
    pub text: String,
    about: About,
    stamp: Stamp,
}

impl Message {
    /// True while what the message describes is unchanged.
    fn is_current(&self, now: &Stamp) -> bool {
        match self.about {
            About::Robot => self.stamp.robot == now.robot && self.stamp.loads == now.loads,
            About::Text => self.stamp.text == now.text,
            About::Moment => self.stamp.user_actions == now.user_actions,
        }
    }
}

/// The status bar's message and the log of all messages.
#[derive(Debug, Clone, Default)]
pub struct Status {
    current: Option<Message>,
    log: VecDeque<String>,
}

impl Status {
    /// Shows a message (and logs it).
    pub fn say(&mut self, about: About, text: String, now: Stamp) {
        if self.log.len() == LOG_LENGTH {
            self.log.pop_front();
        }
        self.log.push_back(text.clone());
        self.show(about, text, now);
    }

    /// Shows a message without logging it: feedback at every key of a prompt ("Not
    /// found: abc" while a search is typed) would fill the log.
    pub fn show(&mut self, about: About, text: String, now: Stamp) {
        self.current = Some(Message { text, about, stamp: now });
    }

    /// Clears the message when what it describes has changed.
    pub fn expire(&mut self, now: &Stamp) {
        if self.current.as_ref().is_some_and(|message| !message.is_current(now)) {
            self.current = None;
        }
    }

    /// Clears the message.
    pub fn clear(&mut self) {
        self.current = None;
    }

    /// The message shown, if any.
    #[must_use]
    pub fn current(&self) -> Option<&str> {
        self.current.as_ref().map(|message| message.text.as_str())
    }

    /// Every message shown, oldest first (at most the last 200).
    pub fn log(&self) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
        self.log.iter().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_go_when_what_they_describe_changes() {
        let mut status = Status::default();
        let now = Stamp::default();
        status.say(About::Robot, "Selected Scooter".into(), now);
        status.expire(&Stamp { user_actions: 3, text: 2, ..now });
        assert_eq!(status.current(), Some("Selected Scooter"), "other changes leave it");
        status.expire(&Stamp { robot: 1, ..now });
        assert_eq!(status.current(), None);
        status.say(About::Moment, "Nothing to fix".into(), now);
        status.expire(&Stamp { user_actions: 1, ..now });
        assert_eq!(status.current(), None);
        assert_eq!(status.log().collect::<Vec<_>>(), ["Selected Scooter", "Nothing to fix"]);
    }
}
