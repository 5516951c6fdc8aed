//! Usage preferences (Content-Usage, Content-Signal; see `policy::usage`): what each
//! line states, lines that conflict, and preferences under a Disallow.

use super::{
    AgentName, Code, Edit, Field, FieldKind, Fix, Interpretation, Linter, PrefixSet, Range, Reading, RuleKind,
    Severity, normalise_rfc9309, usage,
};

impl Linter<'_> {
    /// A Content-Usage or Content-Signal line: what it states (or why it states less
    /// than its author meant), with a fix where the intent is plain.
    pub(super) fn usage_field(&mut self, field: &Field) {
        let name = field.kind().canonical();
        let is_usage = field.kind() == FieldKind::ContentUsage;
        // The loose extensions are in file order: a binary search, not a scan per line.
        let fields = self.rfc.fields();
        if self.rfc.loose_extensions().binary_search_by_key(&field.line(), |&f| fields[f].line()).is_ok() {
            let message = format!("{name} before any User-agent line belongs to no group, so no robot reads it.");
            self.push(Code::UsageOutsideGroup, Severity::Warning, field.line(), field.key().clone(), message, None);
            return;
        }
        let value = self.text(&field.value());
        let text = value.trim();
        let text_start = field.value().start + (value.len() - value.trim_start().len());
        // A Content-Usage value may start with its path; the preferences follow it.
        let preferences_at = match text.find(char::is_whitespace) {
            Some(end) if is_usage && text.starts_with(['/', '*']) => {
                end + (text[end..].len() - text[end..].trim_start().len())
            }
            _ if is_usage && text.starts_with(['/', '*']) => text.len(),
            _ => 0,
        };
        let preferences = &text[preferences_at..];
        let span = text_start + preferences_at..text_start + text.len();
        if let Some((first, rest)) = preferences.split_once(char::is_whitespace)
            && is_usage
            && preferences_at == 0
            && first.contains('/')
            && !first.contains('=')
            && !rest.trim().is_empty()
        {
            let message = format!(
                "`{first}` does not start with /, so it is read as part of the preferences, which then do not parse: \
                 every category is unknown. With a slash it is the path `/{first}`."
            );
            let fix = Fix {
                title: format!("Write `/{first}`").into(),
                edits: vec![Edit { span: text_start..text_start, replacement: "/".into() }],
            };
            self.push(Code::UsagePathWithoutSlash, Severity::Error, field.line(), span, message, Some(fix));
            return;
        }
        let meaning = |preferences: &str| usage_meaning(is_usage, preferences);
        let lower = preferences.to_ascii_lowercase();
        if !usage::is_dictionary(preferences.as_bytes()) {
            let upper_case_keys = lower != preferences && usage::is_dictionary(lower.as_bytes());
            let message = if upper_case_keys {
                format!(
                    "`{preferences}` has upper-case keys, which RFC 9651 does not allow: it does not parse, so every \
                     category is unknown. In lower case: {}.",
                    meaning(&lower)
                )
            } else {
                format!(
                    "`{preferences}` is not an RFC 9651 dictionary (`train-ai=n, search=y`): every category is unknown."
                )
            };
            let fix = upper_case_keys.then(|| Fix {
                title: "Write the keys in lower case".into(),
                edits: vec![Edit { span: span.clone(), replacement: lower.clone() }],
            });
            self.push(Code::UsageUnparsable, Severity::Error, field.line(), span, message, fix);
            return;
        }
        let (fixed, renamed) = usage_in_own_words(is_usage, preferences);
        if meaning(&fixed) != meaning(preferences) {
            let code = if renamed { Code::UsageCategory } else { Code::UsageValue };
            let vocabulary = match (renamed, is_usage) {
                (true, true) => "calls training `train-ai` (`ai-train` is Content-Signal's word)",
                (true, false) => "calls training `ai-train` (`train-ai` is Content-Usage's word)",
                (false, true) => "takes the tokens y and n, in lower case and without quotes",
                (false, false) => "takes yes and no, in lower case",
            };
            let message =
                format!("{name} {vocabulary}: as written, {}; as meant, {}.", meaning(preferences), meaning(&fixed));
            let fix = Fix {
                title: format!("Write `{fixed}`").into(),
                edits: vec![Edit { span: span.clone(), replacement: fixed.clone() }],
            };
            self.push(code, Severity::Error, field.line(), span, message, Some(fix));
            return;
        }
        let message = format!(
            "{name}: {}. It says what robots may do with what they fetch, never whether they may fetch it; RFC 9309 \
             robots that implement it read it, 1994/1996 robots do not know the field.",
            meaning(preferences)
        );
        self.push(
            Code::UsagePreferences,
            Severity::Info,
            field.line(),
            field.key().start..field.value().end,
            message,
            None,
        );
    }

    /// Identical Content-Usage paths in one group, or Content-Signal lines of one group,
    /// that state different preferences: they combine most restrictive first, which the
    /// author may not expect. And a Content-Usage `y` that the group's Content-Signal
    /// `no` for the same category always overrides.
    pub(super) fn usage_conflicts(&mut self) {
        let mut conflicts = Vec::new();
        let mut overridden = Vec::new();
        for group in self.rfc.groups() {
            // Per path (Content-Usage) and for the group (Content-Signal): for each
            // category, the first line that said yes and the first that said no, so
            // that each line is checked in constant time however many there are.
            let mut paths: foldhash::HashMap<Option<Vec<u8>>, [[Option<usize>; 2]; 3]> = foldhash::HashMap::default();
            let mut signals: [[Option<usize>; 2]; 3] = Default::default();
            let mut usage_yes: Vec<(usize, Range<usize>, usize)> = Vec::new();
            for &index in group.extensions() {
                let field = &self.rfc.fields()[index];
                let span = field.key().start..field.value().end;
                let (said, stated, what): (Vec<Option<bool>>, _, _) = match field.kind() {
                    FieldKind::ContentUsage => {
                        let rule = usage::read_content_usage(self.txt.text(&field.value()));
                        let said = rule.said.unwrap_or_default();
                        for (category, &value) in said.iter().enumerate() {
                            if value == Some(true) {
                                usage_yes.push((field.line(), span.clone(), category));
                            }
                        }
                        let path = rule.path.map(|path| normalise_rfc9309(path).into_owned());
                        (said.to_vec(), paths.entry(path).or_default(), "the same path")
                    }
                    FieldKind::ContentSignal => {
                        let said = usage::read_content_signal(self.txt.text(&field.value()));
                        (said.to_vec(), &mut signals, "a Content-Signal")
                    }
                    _ => continue,
                };
                let earlier = said
                    .iter()
                    .enumerate()
                    .find_map(|(category, value)| value.and_then(|value| stated[category][usize::from(!value)]));
                if let Some(earlier) = earlier {
                    conflicts.push((field.line(), span, earlier, what));
                }
                for (category, value) in said.iter().enumerate() {
                    if let Some(value) = value {
                        stated[category][usize::from(*value)].get_or_insert(field.line());
                    }
                }
            }
            // Content-Usage's train-ai and search are Content-Signal's ai-train and
            // search (the first two categories of both).
            for (line, span, category) in usage_yes {
                if let Some(signal) = signals[category][0] {
                    overridden.push((line, span, signal, ["train-ai", "search"][category]));
                }
            }
        }
        for (line, span, earlier, what) in conflicts {
            let message = format!(
                "Line {earlier} has {what} with a different preference: they combine, and the most restrictive wins \
                 (an `n` or `no` over a `y` or `yes`)."
            );
            self.push(Code::UsageConflict, Severity::Warning, line, span, message, None);
        }
        for (line, span, signal, category) in overridden {
            let message = format!(
                "`{category}=y` never applies: line {signal}'s Content-Signal says no for the whole group, and the \
                 most restrictive preference wins. Remove the `no` from line {signal}, or this line."
            );
            self.push(Code::UsageOverridden, Severity::Warning, line, span, message, None);
        }
    }

    /// Content-Usage rules that can never apply: every path they name is disallowed by
    /// a rule of the same group, and a path the robot may not fetch has no preferences
    /// (draft-ietf-aipref-attach). Told only when it is certain: a Disallow without
    /// wildcards covers the rule's literal start, and no Allow of the group that could
    /// match one of those paths is as long (ties go to Allow, RFC 9309 §2.2.2).
    pub(super) fn usage_under_disallow(&mut self) {
        /// Allows whose literal start extends the rule's, looked at one by one at most:
        /// past it the rule is taken to be allowed somewhere (told only when certain).
        const MAX_EXTENDING_ALLOWS: usize = 64;
        let merged = merged_groups(self.rfc);
        let mut found = Vec::new();
        for (group_index, group) in self.rfc.groups().iter().enumerate() {
            // A group merged with another (RFC 9309 §2.2.1) may be opened by the other's
            // Allow lines: not certain, not told.
            if merged.contains(&group_index) {
                continue;
            }
            let usage_fields: Vec<&Field> = group
                .extensions()
                .iter()
                .map(|&index| &self.rfc.fields()[index])
                .filter(|field| field.kind() == FieldKind::ContentUsage)
                .collect();
            if usage_fields.is_empty() {
                continue;
            }
            // The group's plain Disallows (a final `*` changes nothing) by pattern, and
            // its Allows by literal start, each indexed once for all its usage rules.
            let mut disallows = Vec::new();
            let mut allow_starts: Vec<(&[u8], usize)> = Vec::new();
            for rule in group.rules() {
                let pattern = self.txt.pattern(Reading::Rfc9309, rule);
                match rule.kind() {
                    RuleKind::Disallow => {
                        let prefix = pattern.strip_suffix(b"*").unwrap_or(pattern);
                        if !prefix.is_empty() && !prefix.contains(&b'*') && !prefix.ends_with(b"$") {
                            disallows.push((prefix, (rule.line(), pattern.len()), rule.line()));
                        }
                    }
                    RuleKind::Allow if !pattern.is_empty() => {
                        allow_starts.push((literal_start(pattern), pattern.len()));
                    }
                    RuleKind::Allow => {}
                }
            }
            if disallows.is_empty() {
                continue;
            }
            allow_starts.sort_unstable();
            let allows_within: PrefixSet<usize> =
                PrefixSet::new(allow_starts.iter().map(|&(start, len)| (start, len, 0)).collect());
            let disallows = PrefixSet::new(disallows);
            for field in usage_fields {
                // A rule without a path names every path: all of them start with `/`.
                let path = usage::read_content_usage(self.txt.text(&field.value())).path.unwrap_or(b"/");
                let path = normalise_rfc9309(path);
                let start = literal_start(&path);
                // The longest Disallow covering every path the rule names decides
                // unless an Allow as long could match one of them.
                let Some(&(disallow_line, covering)) = disallows.matches(start).next() else { continue };
                let mut allowed_somewhere = allows_within.matches(start).any(|&len| len >= covering);
                if !allowed_somewhere {
                    let from = allow_starts.partition_point(|(allow, _)| *allow < start);
                    let mut extending = allow_starts[from..].iter().take_while(|(allow, _)| allow.starts_with(start));
                    allowed_somewhere = extending.by_ref().take(MAX_EXTENDING_ALLOWS).any(|&(_, len)| len >= covering)
                        || extending.next().is_some();
                }
                if !allowed_somewhere {
                    found.push((field.line(), field.key().start..field.value().end, disallow_line));
                }
            }
        }
        for (line, span, disallow) in found {
            let message = format!(
                "It never applies: line {disallow} disallows every path it names, and a path the robot may not fetch \
                 has no usage preferences. Remove it, or allow the paths it is meant for."
            );
            self.push(Code::UsageUnderDisallow, Severity::Warning, line, span, message, None);
        }
    }
}

/// The fix that writes a field's canonical name.
/// Usage preferences rewritten in their own extension's words: Content-Usage's `y`/`n`
/// and `train-ai`, Content-Signal's `yes`/`no` and `ai-train`. The flag says whether a
/// category was renamed.
pub(super) fn usage_in_own_words(is_usage: bool, preferences: &str) -> (String, bool) {
    let (other_name, own_name) = if is_usage { ("ai-train", "train-ai") } else { ("train-ai", "ai-train") };
    let (written_words, own_words): ([&str; 2], [&str; 2]) =
        if is_usage { (["yes", "no"], ["y", "n"]) } else { (["y", "n"], ["yes", "no"]) };
    let mut renamed = false;
    let members: Vec<String> = dictionary_members(preferences)
        .into_iter()
        .map(|member| {
            let member = member.trim();
            let Some((key, rest)) = member.split_once('=') else { return member.to_owned() };
            let key = if key == other_name {
                renamed = true;
                own_name
            } else {
                key
            };
            let word = rest.split(';').next().unwrap_or_default();
            let params = &rest[word.len()..];
            // `no`, `N`, `"n"`, `No`: the intent is plain whatever the case or quotes.
            let plain = word.trim_matches('"').to_ascii_lowercase();
            let meant = written_words.iter().chain(&own_words).position(|w| *w == plain);
            let word = meant.map_or(word, |i| own_words[i % 2]);
            format!("{key}={word}{params}")
        })
        .collect();
    (members.join(", "), renamed)
}

/// The members of a dictionary as written, split at the commas outside strings (a
/// string may hold a comma: `c="x,y"`).
pub(super) fn dictionary_members(preferences: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut in_string, mut escaped, mut start) = (false, false, 0);
    for (at, c) in preferences.char_indices() {
        match c {
            '\\' if in_string && !escaped => escaped = true,
            '"' if !escaped => in_string = !in_string,
            ',' if !in_string => {
                members.push(&preferences[start..at]);
                start = at + 1;
            }
            _ => {}
        }
        if c != '\\' {
            escaped = false;
        }
    }
    members.push(&preferences[start..]);
    members
}

/// The groups (by index) that share a product token with another group, which RFC
/// 9309 §2.2.1 merges for the robots they name.
pub(super) fn merged_groups(interpretation: &Interpretation) -> foldhash::HashSet<usize> {
    let mut first_group: foldhash::HashMap<String, usize> = foldhash::HashMap::default();
    let mut merged = foldhash::HashSet::default();
    for (index, group) in interpretation.groups().iter().enumerate() {
        for agent in group.agents() {
            let token = match agent.name() {
                AgentName::Star => "*".to_owned(),
                AgentName::Name(name) => name.to_ascii_lowercase(),
            };
            match first_group.get(&token) {
                Some(&first) if first != index => {
                    merged.insert(first);
                    merged.insert(index);
                }
                Some(_) => {}
                None => {
                    first_group.insert(token, index);
                }
            }
        }
    }
    merged
}

/// A pattern's start before its first wildcard or end anchor: every path it matches
/// starts with it.
pub(super) fn literal_start(pattern: &[u8]) -> &[u8] {
    let end = pattern.iter().position(|&b| b == b'*' || b == b'$').unwrap_or(pattern.len());
    &pattern[..end]
}

/// What usage preferences state, in words: `train-ai disallowed, search unknown`.
pub(super) fn usage_meaning(is_usage: bool, preferences: &str) -> String {
    let word = |said: Option<bool>| match said {
        Some(true) => "allowed",
        Some(false) => "disallowed",
        None => "unknown",
    };
    if is_usage {
        let said = usage::read_content_usage(preferences.as_bytes()).said.unwrap_or_default();
        format!("train-ai {}, search {}", word(said[0]), word(said[1]))
    } else {
        let said = usage::read_content_signal(preferences.as_bytes());
        format!("ai-train {}, search {}, ai-input {}", word(said[0]), word(said[1]), word(said[2]))
    }
}
