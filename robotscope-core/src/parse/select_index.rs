//! The index of which groups name which robots, kept with the interpretation it was
//! built from (made the first time a file naming many robots is asked about, by
//! [`agent::select`](super::super::agent::select)).

use super::{AgentName, Interpretation};
use crate::reading::Reading;

/// Which groups name which robots, built once per reading of a file that names many
/// (a file of 20,000 User-agent lines asked about each of them, as checking a fix does,
/// cost 20,000 scans of 20,000 lines): RFC 9309's tokens in a table, and the classic
/// readings' names in another, where each piece of a robot's name is looked up.
#[derive(Debug, Clone, Default)]
pub(crate) struct SelectIndex {
    /// Built for the classic readings (names) or RFC 9309 (tokens).
    classic: bool,
    /// Lower-cased tokens, with the groups naming each, in order.
    by_token: foldhash::HashMap<String, Vec<usize>>,
    /// Each distinct classic name, with the first group naming it.
    names: foldhash::HashMap<String, usize>,
    /// The first group with an empty name, which every robot's name holds.
    empty_name: Option<usize>,
    /// The groups that name `*`, in order.
    star_groups: Vec<usize>,
}

/// Robot names longer than this are looked for line by line: the pieces of a name are
/// as many as the square of its length.
pub(crate) const MAX_INDEXED_NAME_BYTES: usize = 96;

impl SelectIndex {
    /// The index of `interpretation`, read as `reading` reads it.
    pub(crate) fn new(interpretation: &Interpretation, reading: Reading) -> SelectIndex {
        let mut index = SelectIndex { classic: reading.is_classic(), ..SelectIndex::default() };
        for (group_index, group) in interpretation.groups().iter().enumerate() {
            if group.names_star() {
                index.star_groups.push(group_index);
            }
            for agent in group.agents() {
                let AgentName::Name(name) = agent.name() else { continue };
                if reading.is_classic() {
                    if name.is_empty() {
                        index.empty_name.get_or_insert(group_index);
                    } else if !index.names.contains_key(name.as_str()) {
                        index.names.insert(name.clone(), group_index);
                    }
                } else {
                    let groups = index.by_token.entry(name.to_ascii_lowercase()).or_default();
                    if groups.last() != Some(&group_index) {
                        groups.push(group_index);
                    }
                }
            }
        }
        index
    }

    /// The groups that name `*`, in order.
    pub(crate) fn star_groups(&self) -> &[usize] {
        &self.star_groups
    }

    /// True when built for the classic readings' names.
    pub(crate) fn is_classic(&self) -> bool {
        self.classic
    }

    /// The groups naming `token` (RFC 9309).
    pub(crate) fn groups_for_token(&self, token: &str) -> Vec<usize> {
        self.by_token.get(&token.to_ascii_lowercase()).cloned().unwrap_or_default()
    }

    /// The first group with a name `name` holds (the classic readings): each piece of
    /// `name` looked up. Ask only for a name of at most [`MAX_INDEXED_NAME_BYTES`].
    pub(crate) fn first_record_for(&self, name: &str) -> Option<usize> {
        let starts = name.char_indices().map(|(at, _)| at);
        let pieces = starts.flat_map(|start| {
            let ends = name[start..].char_indices().skip(1).map(move |(at, _)| start + at).chain([name.len()]);
            ends.map(move |end| &name[start..end])
        });
        pieces.filter_map(|piece| self.names.get(piece).copied()).chain(self.empty_name).min()
    }
}
