//! Groups: blank lines inside them, rules against each other, groups repeated for one
//! robot.

use super::{
    AgentLine, AgentName, Code, Cow, Edit, Fix, Group, HashMap, LineEnd, Linter, PrefixSet, Reading, Rule, RuleKind,
    Severity, lex, product_token,
};

impl Linter<'_> {
    pub(super) fn groups(&mut self) {
        self.usage_conflicts();
        self.usage_under_disallow();
        let has_star = self.rfc.groups().iter().any(Group::names_star);
        for &field in self.rfc.orphan_rules() {
            let field = &self.rfc.fields()[field];
            let fix = (!has_star && self.leading_boms <= 1).then(|| Fix {
                title: "Add `User-agent: *` above".into(),
                edits: vec![Edit {
                    span: self.line(field.line()).start()..self.line(field.line()).start(),
                    replacement: format!("User-agent: *{}", self.eol(field.line())),
                }],
            });
            // Only the first orphan of a run gets the fix; the rest join its new group.
            let first_of_run = field.line() == 1
                || self.rfc_field[field.line() - 2].is_none_or(|f| !self.rfc.fields()[f].kind().is_rule());
            self.push(
                Code::RuleOutsideGroup,
                Severity::Error,
                field.line(),
                field.key().start..field.value().end,
                "A rule before any User-agent line: it belongs to no group, and every reading ignores it.".to_owned(),
                if first_of_run { fix } else { None },
            );
        }
        for (index, group) in self.rfc.groups().iter().enumerate() {
            self.blank_lines_in(group);
            self.rules_against_each_other(index, group);
        }
        self.repeated_groups();
    }

    /// A group that names robots and restricts some paths frees them from every rule of
    /// the `*` group (RFC 9309 §2.2.1: a robot obeys the group that names it, the `*`
    /// group only when none does). When the `*` group disallows paths that the named
    /// group neither disallows nor allows, the author most likely meant them to hold for
    /// those robots too (`User-agent: GPTBot` + `Disallow: /private/` lets GPTBot into
    /// `/cart/`). A group that only allows, or disallows everything, is deliberate, and
    /// so are the 1990s files' groups for each robot beside a `*` group "for all other
    /// robots": only groups naming a robot `counts` takes are looked at (the registry's
    /// robots of today, see [`super::star_rules_dropped`]).
    /// Plain prefixes only (a wildcard's cover is no prefix question), and at most
    /// `BUDGET` pattern lookups, so that 25,000 named groups against a long `*` group
    /// stay linear.
    pub(super) fn groups_dropping_star_rules(&mut self, counts: &dyn Fn(&str) -> bool) {
        const BUDGET: usize = 1_000_000;
        const LISTED: usize = 3;
        let star: Vec<&[u8]> = self
            .rfc
            .groups()
            .iter()
            .filter(|group| group.names_star())
            .flat_map(Group::rules)
            .filter(|rule| rule.kind() == RuleKind::Disallow)
            .map(|rule| self.txt.pattern(Reading::Rfc9309, rule))
            .filter(|pattern| !pattern.is_empty() && crate::pattern::is_plain_prefix(pattern))
            .collect();
        if star.is_empty() {
            return;
        }
        let mut spent = 0;
        for group in self.rfc.groups().iter().filter(|group| !group.names_star()) {
            let patterns: Vec<(RuleKind, &[u8])> =
                group.rules().iter().map(|rule| (rule.kind(), self.txt.pattern(Reading::Rfc9309, rule))).collect();
            let restricts = patterns.iter().any(|(kind, pattern)| *kind == RuleKind::Disallow && !pattern.is_empty());
            let blocks_all = patterns
                .iter()
                .any(|(kind, pattern)| *kind == RuleKind::Disallow && matches!(*pattern, b"/" | b"*" | b"/*"));
            let counted = group.agents().iter().any(|agent| counts(&self.text(&agent.value())));
            if !restricts || blocks_all || !counted {
                continue;
            }
            spent += star.len();
            if spent > BUDGET {
                return;
            }
            // The group's own patterns, either kind: a path it speaks of is its choice.
            let own: PrefixSet<()> = PrefixSet::new(
                patterns
                    .iter()
                    .filter(|(_, pattern)| !pattern.is_empty())
                    .map(|(_, pattern)| (*pattern, (), 0))
                    .collect(),
            );
            let dropped: Vec<&[u8]> =
                star.iter().copied().filter(|&pattern| own.matches(pattern).next().is_none()).collect();
            if dropped.is_empty() {
                continue;
            }
            let names: Vec<String> = group.agents().iter().map(|agent| self.text(&agent.value())).collect();
            let listed: Vec<String> =
                dropped.iter().take(LISTED).map(|pattern| String::from_utf8_lossy(pattern).into_owned()).collect();
            let more = dropped.len().saturating_sub(LISTED);
            let first = group.agents().first().map_or(group.first_line(), AgentLine::line);
            // The fix repeats them at the group's end; `robotscope fix` leaves it to the
            // author, who alone knows whether the robot was meant to be freed.
            let repeated: Vec<String> =
                dropped.iter().map(|pattern| format!("Disallow: {}", String::from_utf8_lossy(pattern))).collect();
            let fix = Fix {
                title: "Repeat the * group's Disallow lines in this group".into(),
                edits: vec![self.insert_after(group.last_line(), &repeated)],
            };
            self.push(
                Code::GroupDropsStarRules,
                Severity::Warning,
                first,
                self.line(first).start()..self.line(first).content_end(),
                format!(
                    "This group frees {} from every rule of the * group: RFC 9309 robots obey only the group that \
                     names them. So {} may fetch {}{}, which the * group disallows. If {} should not, repeat \
                     those Disallow lines in this group.",
                    names.join(", "),
                    if names.len() == 1 { "it" } else { "they" },
                    listed.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() },
                    if names.len() == 1 { "it" } else { "they" },
                ),
                Some(fix),
            );
        }
    }

    /// Blank lines between a group's User-agent lines, or between them and the rules, or
    /// between the rules: RFC 9309 ignores them; the classic readings end the record.
    pub(super) fn blank_lines_in(&mut self, group: &Group) {
        let first = group.first_line();
        let last = group.last_line();
        // Agents and rules are in line order: a binary search answers for any line.
        let agents_line = |n: usize| group.agents().binary_search_by_key(&n, crate::parse::AgentLine::line).is_ok();
        // `*` reads as "every other robot" in the messages.
        let names: Vec<String> = group
            .agents()
            .iter()
            .map(|a| if *a.name() == AgentName::Star { "every other robot".to_owned() } else { self.text(&a.value()) })
            .collect();
        // A Crawl-delay (or other field that is no rule) in the group says what a record
        // before a blank line was for: the first such field, found once per group, not
        // once per blank line (20,000 blank lines would cost 20,000 scans).
        let first_non_rule = (first..=last)
            .filter_map(|l| self.rfc_field[l - 1].map(|f| &self.rfc.fields()[f]))
            .find(|field| !field.kind().is_rule() && !agents_line(field.line()))
            .map(|field| (field.line(), self.text(&field.key())));
        let verdict = self.group_gist(group);
        let mut n = first;
        while n < last {
            if !lex::is_blank(self.txt.source(), self.line(n)) {
                n += 1;
                continue;
            }
            let run_start = n;
            while n < last && lex::is_blank(self.txt.source(), self.line(n)) {
                n += 1;
            }
            let agents_before = group.agents().partition_point(|a| a.line() < run_start);
            // What the blank line separates is decided by the next field, past any
            // comment lines ("# this bot is slow" above a User-agent line).
            let next_field = (n..=last).find(|&l| self.rfc_field[l - 1].is_some()).unwrap_or(n);
            let after_is_agent = agents_line(next_field);
            let rules_before = group.rules().first().is_some_and(|r| r.line() < run_start);
            let span = self.line(run_start).start()..self.line(n - 1).end();
            let who = names_for_message(&names[..agents_before]);
            let (message, fix) = if after_is_agent && !rules_before {
                // "User-agent: webcrawler", blank, "User-agent: lycra", rules: the first
                // record was most likely meant to stand alone and allow everything.
                // A Crawl-delay (or other field that is no rule) before the blank line
                // says what the record was for: pacing the robot, not shutting it out.
                let paced = first_non_rule
                    .as_ref()
                    .filter(|(line, _)| *line < run_start)
                    .map(|(_, key)| format!(" (its {key} line does not end a group)"))
                    .unwrap_or_default();
                let later = names_for_message(&names[agents_before..]);
                (
                    format!(
                        "A blank line between User-agent lines. RFC 9309 robots ignore it and join {who} to the \
                         group of {later}{paced}, so {who} {verdict}; 1994/1996 robots end the record at the blank \
                         line, and a record without rules lets {who} go anywhere. If {who} is meant to go anywhere, \
                         say so with an empty `Disallow:`; if not, remove the blank line."
                    ),
                    Some(Fix {
                        title: format!("Add `Disallow:` so that {who} may go anywhere under every reading").into(),
                        edits: vec![self.insert_after(run_start - 1, &["Disallow:".to_owned()])],
                    }),
                )
            } else if !rules_before {
                (
                    format!(
                        "A blank line between User-agent and its rules. RFC 9309 robots ignore it and apply the \
                         rules below to {who}; 1994/1996 robots end the record at the blank line, so {who} may go \
                         anywhere for them and the rules below belong to no one."
                    ),
                    Some(Fix {
                        title: "Remove the blank line".into(),
                        edits: vec![Edit { span, replacement: String::new() }],
                    }),
                )
            } else {
                (
                    format!(
                        "A blank line inside the group of {who}. RFC 9309 robots read on; 1994/1996 robots end the \
                         record here, so for them the rules below it apply to no one."
                    ),
                    Some(Fix {
                        title: "Remove the blank line".into(),
                        edits: vec![Edit { span, replacement: String::new() }],
                    }),
                )
            };
            self.push(
                Code::BlankLineInGroup,
                Severity::Error,
                run_start,
                self.line(run_start).start()..self.line(run_start).end(),
                message,
                fix,
            );
        }
    }

    /// What a group does to its robots, in a few words, for messages.
    pub(super) fn group_gist(&self, group: &Group) -> String {
        let blocks_all = group
            .rules()
            .iter()
            .any(|r| r.kind() == RuleKind::Disallow && self.txt.pattern(Reading::Rfc9309, r) == b"/");
        if blocks_all { "is blocked from /".to_owned() } else { "gets that group's rules".to_owned() }
    }

    /// Shadowed (1996 draft, first match), duplicate and redundant rules, and Disallows
    /// that lose every tie.
    pub(super) fn rules_against_each_other(&mut self, _index: usize, group: &Group) {
        let patterns: Vec<&[u8]> = group.rules().iter().map(|r| self.txt.pattern(Reading::Rfc9309, r)).collect();
        // Duplicates, and a Disallow with the same pattern as an Allow.
        let mut seen: HashMap<(RuleKind, &[u8]), usize> =
            HashMap::with_capacity_and_hasher(group.rules().len(), foldhash::fast::RandomState::default());
        for (i, rule) in group.rules().iter().enumerate() {
            if let Some(&first) = seen.get(&(rule.kind(), patterns[i])) {
                self.push(
                    Code::DuplicateRule,
                    Severity::Info,
                    rule.line(),
                    rule.value().clone(),
                    format!("The same rule as line {first}; it changes nothing under any reading."),
                    Some(Fix { title: "Remove the duplicate".into(), edits: vec![self.delete_line(rule.line())] }),
                );
                continue;
            }
            seen.insert((rule.kind(), patterns[i]), rule.line());
        }
        for (i, rule) in group.rules().iter().enumerate() {
            if rule.kind() == RuleKind::Disallow
                && !patterns[i].is_empty()
                && let Some(&allow) = seen.get(&(RuleKind::Allow, patterns[i]))
                && seen.get(&(RuleKind::Disallow, patterns[i])) == Some(&rule.line())
            {
                self.push(
                    Code::DeadDisallow,
                    Severity::Warning,
                    rule.line(),
                    rule.value().clone(),
                    format!(
                        "Line {allow} allows the same pattern. RFC 9309 robots let Allow win a tie, so this \
                         Disallow never applies for them; 1996 robots take whichever comes first."
                    ),
                    None,
                );
            }
        }
        // Earlier rules whose pattern is a prefix of a later one's (plain patterns only:
        // wildcards make "covers" undecidable by prefix).
        let plain: Vec<usize> = (0..group.rules().len())
            .filter(|&i| crate::pattern::is_plain_prefix(patterns[i]) && !patterns[i].is_empty())
            .collect();
        // The set holds each pattern's first rule only: the earliest rule covering a later
        // one is what counts.
        let set = PrefixSet::first_of_each(
            plain.iter().map(|&i| (patterns[i], i, group.rules()[i].line())).collect(),
            |_, _| true,
        );
        let mut opposite_sorted: [Vec<&[u8]>; 2] = [Vec::new(), Vec::new()];
        for &i in &plain {
            opposite_sorted[kind_index(group.rules()[i].kind())].push(patterns[i]);
        }
        for list in &mut opposite_sorted {
            list.sort_unstable();
        }
        let has_wildcards = plain.len() < group.rules().iter().filter(|r| !r.value().is_empty()).count();
        for &j in &plain {
            let rule = &group.rules()[j];
            let covering = set
                .matches(patterns[j])
                .copied()
                .filter(|&i| i != j && group.rules()[i].line() < rule.line())
                .min_by_key(|&i| group.rules()[i].line());
            let Some(i) = covering else { continue };
            let earlier = &group.rules()[i];
            if patterns[i] == patterns[j] {
                continue; // Reported as a duplicate or dead Disallow above.
            }
            if earlier.kind() == rule.kind() {
                // Same kind: the later rule never changes a verdict, unless a rule of the
                // other kind sits between the two patterns (or wildcards might).
                let other = &opposite_sorted[1 - kind_index(rule.kind())];
                let start = other.partition_point(|p| *p < patterns[i]);
                let something_between = other.get(start).is_some_and(|p| p.starts_with(patterns[i]));
                if !something_between && !has_wildcards {
                    self.push(
                        Code::RedundantRule,
                        Severity::Info,
                        rule.line(),
                        rule.value().clone(),
                        format!(
                            "Line {} already {}s every path this rule matches, and no rule in between says \
                             otherwise: it never changes a verdict under any reading.",
                            earlier.line(),
                            earlier.kind().name().to_ascii_lowercase()
                        ),
                        Some(Fix {
                            title: "Remove the redundant rule".into(),
                            edits: vec![self.delete_line(rule.line())],
                        }),
                    );
                }
            } else {
                // The 1996 draft stops at the first match: `earlier` always decides.
                self.shadowed(rule, earlier);
            }
        }
    }

    pub(super) fn shadowed(&mut self, rule: &Rule, earlier: &Rule) {
        // Moving the rule above the one that shadows it changes nothing for RFC 9309
        // (longest match does not depend on order) and lets 1996 robots reach it.
        let line = self.line(rule.line());
        let text = String::from_utf8_lossy(line.content(self.txt.source())).into_owned();
        let target = self.line(earlier.line()).start();
        let eol = self.eol(rule.line());
        self.push(
            Code::ShadowedRule,
            Severity::Warning,
            rule.line(),
            rule.value().clone(),
            format!(
                "1996 robots take the first rule that matches, and line {} matches every path this rule does, so \
                 for them this {} never decides; RFC 9309 robots take the longest match and honour it. (1994 \
                 robots know only Disallow.) Moving it above line {} makes both agree.",
                earlier.line(),
                rule.kind().name(),
                earlier.line()
            ),
            Some(Fix {
                title: format!("Move it above line {}", earlier.line()).into(),
                edits: vec![
                    Edit { span: target..target, replacement: format!("{text}{eol}") },
                    Edit { span: line.start()..line.end(), replacement: String::new() },
                ],
            }),
        );
    }

    /// More than one `*` group, and robots named in more than one group.
    ///
    /// The fix moves the rules of every later group that names only that robot into the
    /// first group, in one go: it rides on the first repeat, and the others point to it.
    /// One fix per repeat would each span all the text between its group and the first,
    /// which a file of thousands of `*` groups turns into gigabytes of `--json`.
    pub(super) fn repeated_groups(&mut self) {
        let groups = &self.rfc.groups();
        // Each robot's groups, in file order, robots in the order they first appear.
        let mut first_for: HashMap<String, usize> = HashMap::default();
        let mut named: Vec<Vec<(usize, &AgentLine)>> = Vec::new();
        for (index, group) in groups.iter().enumerate() {
            for agent in group.agents() {
                let key = match &agent.name() {
                    AgentName::Star => "*".to_owned(),
                    AgentName::Name(name) if !name.is_empty() => name.clone(),
                    AgentName::Name(_) => continue,
                };
                let slot = *first_for.entry(key).or_insert_with(|| {
                    named.push(Vec::new());
                    named.len() - 1
                });
                if named[slot].last().is_none_or(|&(last, _)| last != index) {
                    named[slot].push((index, agent));
                }
            }
        }
        for naming in named.iter().filter(|naming| naming.len() > 1) {
            let earlier = &groups[naming[0].0];
            // RFC 9309 names a robot by its product token; the classic readings by the
            // whole value. `Sogou web spider` and `Sogou inst spider` are one robot to the
            // first and two to the others, whose records a merge would change (issue 24).
            let txt = self.txt;
            let value_of = |agent: &AgentLine| String::from_utf8_lossy(txt.text(&agent.value())).to_lowercase();
            let first_value = value_of(naming[0].1);
            let same_robot = |agent: &AgentLine| *agent.name() == AgentName::Star || value_of(agent) == first_value;
            // Only a group that names no other robot can be moved whole.
            let is_movable = |group: &Group| group.agents().len() == 1 && !group.rules().is_empty();
            let movable: Vec<&Group> = naming[1..]
                .iter()
                .filter(|(_, agent)| same_robot(agent))
                .map(|&(index, _)| &groups[index])
                .filter(|&group| is_movable(group))
                .collect();
            let mut fix = (!movable.is_empty()).then(|| self.merge_into(&movable, earlier));
            let mut fixed_on = None;
            for &(index, agent) in &naming[1..] {
                let star = *agent.name() == AgentName::Star;
                let code = if star { Code::SeveralStarGroups } else { Code::RobotInSeveralGroups };
                let who = if star { "every other robot".to_owned() } else { self.text(&agent.value()) };
                if !same_robot(agent) {
                    let earlier_name = self.text(&naming[0].1.value());
                    let token = String::from_utf8_lossy(product_token(who.as_bytes())).into_owned();
                    self.push(
                        code,
                        Severity::Info,
                        agent.line(),
                        agent.value().clone(),
                        format!(
                            "The group at line {} names {earlier_name}, and RFC 9309 robots read both names as the \
                             robot `{token}`: they merge the two groups. To 1994/1996 robots `{who}` and \
                             `{earlier_name}` are two robots, each with its own record; merging the groups would change \
                             what those robots may fetch.",
                            earlier.first_line()
                        ),
                        None,
                    );
                    continue;
                }
                let pointer = match fixed_on {
                    Some(line) if is_movable(&groups[index]) => {
                        format!(" The fix on line {line} moves these rules too.")
                    }
                    _ => String::new(),
                };
                let this_fix = fix.take();
                if this_fix.is_some() {
                    fixed_on = Some(agent.line());
                }
                self.push(
                    code,
                    Severity::Warning,
                    agent.line(),
                    agent.value().clone(),
                    format!(
                        "The group at line {} already names {who}. RFC 9309 robots merge the two groups; 1994/1996 \
                         robots read only the first record that names them, so they miss the rules below.{pointer}",
                        earlier.first_line()
                    ),
                    this_fix,
                );
            }
        }
    }

    /// Moves the rules of `groups` (and the lines among them) to the end of `into`, in
    /// file order, and removes those groups.
    pub(super) fn merge_into(&self, groups: &[&Group], into: &Group) -> Fix {
        let target = self.line(into.last_line());
        let mut moved = String::new();
        if target.line_end(self.txt.source()) == LineEnd::None {
            moved.push_str(self.eol(into.last_line()));
        }
        let mut edits = Vec::with_capacity(groups.len() + 1);
        for group in groups {
            let first_rule = group.agents().last().map_or(group.first_line(), crate::parse::AgentLine::line) + 1;
            let body_start = self.line(first_rule).start();
            let body_end = self.line(group.last_line()).end();
            moved.push_str(&String::from_utf8_lossy(&self.txt.source()[body_start..body_end]));
            if !moved.ends_with(['\n', '\r']) {
                moved.push_str(self.eol(into.last_line()));
            }
            // The blank lines before a removed group go with it, so that no run of blank
            // lines is left where it was (the one after it still separates its
            // neighbours).
            let mut first = group.first_line();
            while first > 1 && lex::is_blank(self.txt.source(), self.line(first - 1)) && first - 1 > into.last_line() {
                first -= 1;
            }
            edits.push(Edit { span: self.line(first).start()..body_end, replacement: String::new() });
        }
        edits.insert(0, Edit { span: target.end()..target.end(), replacement: moved });
        let title = match groups.len() {
            1 => format!("Move these rules into the group at line {}", into.first_line()),
            n => format!("Move the rules of these {n} groups into the group at line {}", into.first_line()),
        };
        Fix { title: title.into(), edits }
    }
}

pub(super) fn kind_index(kind: RuleKind) -> usize {
    match kind {
        RuleKind::Allow => 0,
        RuleKind::Disallow => 1,
    }
}

/// Robots' names for a message: all of them when there are few, else the first three
/// and how many more. A group of thousands of robots with a blank line after each must
/// not get messages naming them all, once per blank line.
///
/// Messages about one line name robots from other lines, often several times: each
/// name is cut to [`NAME_EXCERPT_CHARS`], so that a file of 16 KB names and many blank
/// lines costs in proportion to its size, not to the names times the blank lines.
pub(super) fn names_for_message(names: &[String]) -> String {
    const SHOWN: usize = 3;
    let shown = |names: &[String]| names.iter().map(|name| excerpt(name)).collect::<Vec<_>>().join(", ");
    if names.len() <= SHOWN + 1 {
        shown(names)
    } else {
        format!("{} and {} more", shown(&names[..SHOWN]), names.len() - SHOWN)
    }
}

/// How much of a robot's name a message about another line quotes.
pub(super) const NAME_EXCERPT_CHARS: usize = 40;

/// `name`, or its first [`NAME_EXCERPT_CHARS`] characters and an ellipsis.
pub(super) fn excerpt(name: &str) -> Cow<'_, str> {
    match name.char_indices().nth(NAME_EXCERPT_CHARS) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &name[..cut])),
        None => Cow::Borrowed(name),
    }
}
