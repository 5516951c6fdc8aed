//! The records pane's rows: one reading's groups, rules and other fields, flattened
//! into a list that can be scrolled and drawn a screenful at a time.
//!
//! A 3.7 MB file has one group of 47,064 rules; building the rows once per reading and
//! drawing only the visible ones keeps scrolling and robot switching cheap.

use crate::policy::Interpretation;

/// A section of fields that belong to no group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Allow/Disallow lines outside any group.
    OrphanRules,
    /// Sitemap lines.
    Sitemaps,
    /// Host, and extension lines before the first User-agent.
    LooseExtensions,
    /// Fields no reading knows.
    Unknown,
}

impl Section {
    /// The section's heading.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Section::OrphanRules => "Rules outside any group (ignored)",
            Section::Sitemaps => "Sitemaps (for every robot)",
            Section::LooseExtensions => "Fields outside any group",
            Section::Unknown => "Unknown fields (ignored)",
        }
    }
}

/// One row of the records pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordRow {
    /// A group's heading.
    Group {
        /// Index into the interpretation's groups.
        group: usize,
    },
    /// One User-agent line of a group.
    Agent {
        /// Index of the group.
        group: usize,
        /// Index of the agent line in the group.
        agent: usize,
    },
    /// One rule of a group.
    Rule {
        /// Index of the group.
        group: usize,
        /// Index of the rule in the group.
        rule: usize,
    },
    /// An extension field (Crawl-delay and friends) of a group.
    Extension {
        /// Index of the group.
        group: usize,
        /// Index into the interpretation's fields.
        field: usize,
    },
    /// The heading of a section outside the groups.
    Heading(Section),
    /// A field in a section outside the groups.
    Field {
        /// Which section.
        section: Section,
        /// Index into the interpretation's fields.
        field: usize,
    },
}

impl RecordRow {
    /// The line the row stands for, if it stands for one.
    #[must_use]
    pub fn line(self, interpretation: &Interpretation) -> Option<usize> {
        match self {
            RecordRow::Group { group } => Some(interpretation.groups()[group].first_line()),
            RecordRow::Agent { group, agent } => Some(interpretation.groups()[group].agents()[agent].line()),
            RecordRow::Rule { group, rule } => Some(interpretation.groups()[group].rules()[rule].line()),
            RecordRow::Extension { field, .. } | RecordRow::Field { field, .. } => {
                Some(interpretation.fields()[field].line())
            }
            RecordRow::Heading(_) => None,
        }
    }

    /// The group the row belongs to, if any.
    #[must_use]
    pub fn group(self) -> Option<usize> {
        match self {
            RecordRow::Group { group }
            | RecordRow::Agent { group, .. }
            | RecordRow::Rule { group, .. }
            | RecordRow::Extension { group, .. } => Some(group),
            RecordRow::Heading(_) | RecordRow::Field { .. } => None,
        }
    }
}

/// Flattens an interpretation into rows: each group (heading, agents, rules,
/// extensions), then the sections outside the groups that are not empty.
#[must_use]
pub fn rows(interpretation: &Interpretation) -> Vec<RecordRow> {
    let mut rows = Vec::with_capacity(interpretation.fields().len() + interpretation.groups().len() + 8);
    for (group, g) in interpretation.groups().iter().enumerate() {
        rows.push(RecordRow::Group { group });
        rows.extend((0..g.agents().len()).map(|agent| RecordRow::Agent { group, agent }));
        rows.extend((0..g.rules().len()).map(|rule| RecordRow::Rule { group, rule }));
        rows.extend(g.extensions().iter().map(|&field| RecordRow::Extension { group, field }));
    }
    let sections = [
        (Section::Sitemaps, &interpretation.sitemaps()),
        (Section::LooseExtensions, &interpretation.loose_extensions()),
        (Section::OrphanRules, &interpretation.orphan_rules()),
        (Section::Unknown, &interpretation.unknown()),
    ];
    for (section, fields) in sections {
        if !fields.is_empty() {
            rows.push(RecordRow::Heading(section));
            rows.extend(fields.iter().map(|&field| RecordRow::Field { section, field }));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Reading, RobotsTxt};

    #[test]
    fn groups_then_sections() {
        let txt = RobotsTxt::parse(
            b"Disallow: /orphan\nUser-agent: a\nDisallow: /x\nCrawl-delay: 5\nSitemap: https://e.com/s.xml\n".to_vec(),
        );
        let interpretation = txt.interpretation(Reading::Rfc9309);
        let rows = rows(interpretation);
        assert_eq!(
            rows,
            vec![
                RecordRow::Group { group: 0 },
                RecordRow::Agent { group: 0, agent: 0 },
                RecordRow::Rule { group: 0, rule: 0 },
                RecordRow::Extension { group: 0, field: 3 },
                RecordRow::Heading(Section::Sitemaps),
                RecordRow::Field { section: Section::Sitemaps, field: 4 },
                RecordRow::Heading(Section::OrphanRules),
                RecordRow::Field { section: Section::OrphanRules, field: 0 },
            ]
        );
        assert_eq!(rows[2].line(interpretation), Some(3));
    }
}
