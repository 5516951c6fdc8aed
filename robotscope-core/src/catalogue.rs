//! The diagnostics catalogue (DESIGN.md §3): every code `lint` can report, its stable
//! name and a one-line description. The enum is the single list; the names printed by
//! `lint`, the JSON `code` field and the README's table all come from it.

use std::fmt;
use std::str::FromStr;

/// Declares [`Code`] and its table from one list, so that a code cannot lack a name or
/// a description.
macro_rules! catalogue {
    ($($variant:ident => $name:literal, $description:literal;)*) => {
        /// A diagnostic's code. Names are stable: scripts match on them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $(#[doc = $description] $variant,)*
        }

        impl Code {
            /// Every code, in the catalogue's order.
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// The stable name, as `lint` prints it (`path-without-slash`).
            #[must_use]
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// What the code is about, in one line.
            #[must_use]
            pub fn description(self) -> &'static str {
                match self { $(Code::$variant => $description,)* }
            }
        }
    };
}

catalogue! {
    PathWithoutSlash => "path-without-slash", "a path that does not start with / matches no URL";
    SeveralPaths => "several-paths", "several paths on one line are one odd path";
    SeveralFields => "several-fields", "several fields on one line are one odd value";
    SeveralAgents => "several-agents", "several robot names on one User-agent line";
    AgentNameWithSpaces => "agent-name-with-spaces", "one robot's name with spaces, of which RFC 9309 reads the first word";
    BlankLineInGroup => "blank-line-in-group", "a blank line inside a group ends the record for 1994/1996 robots";
    SeveralStarGroups => "several-star-groups", "more than one * group: classic robots read only the first";
    RobotInSeveralGroups => "robot-in-several-groups", "the same robot named in several groups: classic robots read only the first";
    StarPath => "star-path", "Disallow: * (or Allow: *) is a wildcard only to RFC 9309 robots";
    WildcardForClassicRobots => "wildcard-for-classic-robots", "* and $ are literal characters to 1994/1996 robots";
    DollarInsidePattern => "dollar-inside-pattern", "a $ that is not at the end is an ordinary character";
    RuleOutsideGroup => "rule-outside-group", "a rule before any User-agent line applies to no robot";
    MissingColon => "missing-colon", "a field without a colon is read only by Google";
    MisspeltField => "misspelt-field", "a misspelt field name is read only by Google, or by no one";
    UnsupportedField => "unsupported-field", "a field no robot honours in robots.txt (noindex)";
    UnknownField => "unknown-field", "a field no reading knows, ignored";
    EmptyUserAgent => "empty-user-agent", "an empty User-agent names no robot, or every robot";
    UserAgentVersion => "user-agent-version", "a version after the robot's name hides it from 1994/1996 robots";
    TokenCut => "token-cut", "RFC 9309 cuts a robot's name at its first digit or dot";
    SitemapNotAbsolute => "sitemap-not-absolute", "a Sitemap must be an absolute URL";
    BadExtensionValue => "bad-extension-value", "a Crawl-delay, Request-rate or Visit-time that does not parse";
    ExtensionSupport => "extension-support", "which robots honour an extension field";
    PathWithSpace => "path-with-space", "a space in a path matches only a literal space";
    ShadowedRule => "shadowed-rule", "a rule that 1996 robots never reach, because an earlier rule matches first";
    RedundantRule => "redundant-rule", "a rule that never changes a verdict, because an earlier one covers it";
    DuplicateRule => "duplicate-rule", "the same rule twice in one group";
    DeadDisallow => "dead-disallow", "a Disallow with the same pattern as an Allow never wins";
    HtmlFile => "html-file", "the file is an HTML page, not a robots.txt";
    BinaryFile => "binary-file", "the file is not text";
    Utf16File => "utf16-file", "the file is UTF-16, which no robot decodes";
    Utf8Bom => "utf8-bom", "a byte order mark: Google skips it, classic robots see it in the first field";
    InvalidUtf8 => "invalid-utf8", "bytes that are not UTF-8";
    ContentPast500Kib => "content-past-500kib", "content past 500 KiB, which RFC 9309 readers may ignore";
    NulByte => "nul-byte", "a NUL byte ends the line for Google's parser";
    ControlCharacter => "control-character", "a control character in the file";
    InvisibleCharacter => "invisible-character", "an invisible character in a robot's name or a path, which then reads as something other than it shows";
    LongLine => "long-line", "a line longer than Google reads";
    UsagePreferences => "usage-preferences", "what a Content-Usage or Content-Signal line states, and who reads it";
    UsageValue => "usage-value", "a usage preference in another vocabulary's words (yes/no, y/n), which leaves it unknown";
    UsageCategory => "usage-category", "a category named as the other extension names it (ai-train, train-ai)";
    UsageUnparsable => "usage-unparsable", "preferences that are not an RFC 9651 dictionary, so every category is unknown";
    UsagePathWithoutSlash => "usage-path-without-slash", "a Content-Usage path that does not start with /";
    UsageUnderDisallow => "usage-under-disallow", "a Content-Usage rule whose every path its group disallows, so it never applies";
    UsageConflict => "usage-conflict", "identical Content-Usage paths, or Content-Signal lines of a group, that state different preferences";
    UsageOverridden => "usage-overridden", "a Content-Usage y that the group's Content-Signal no always overrides";
    UsageOutsideGroup => "usage-outside-group", "a Content-Usage or Content-Signal line before any User-agent line";
    GroupDropsStarRules => "group-drops-star-rules", "a robot's own group restricts some paths, and frees it from the * group's Disallows it does not repeat";
    SearchCrawlerBlocked => "search-crawler-blocked", "a search crawler blocked beside its operator's AI control token, which was probably meant";
    RetiredToken => "retired-token", "a retired robot name, without the robot that replaced it";
    RobotIgnoresRobotsTxt => "robot-ignores-robots-txt", "a robot documented as not obeying robots.txt";
    NearMissToken => "near-miss-token", "a robot's name one or two letters from a known robot's, which names no robot";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`: `{:<12}` lines names up.
        f.pad(self.name())
    }
}

/// A name that is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no diagnostic is called `{0}`")]
pub struct UnknownCode(String);

impl FromStr for Code {
    type Err = UnknownCode;

    /// Reads a code by its name.
    ///
    /// ```
    /// use robotscope_core::Code;
    /// assert_eq!("duplicate-rule".parse(), Ok(Code::DuplicateRule));
    /// assert!("no-such-code".parse::<Code>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Code, UnknownCode> {
        Code::ALL.iter().copied().find(|code| code.name() == name).ok_or_else(|| UnknownCode(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        let names: std::collections::HashSet<&str> = Code::ALL.iter().map(|code| code.name()).collect();
        assert_eq!(names.len(), Code::ALL.len());
        for &code in Code::ALL {
            assert_eq!(code.name().parse(), Ok(code));
            assert!(!code.description().is_empty());
        }
    }
}
