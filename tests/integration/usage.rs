//! AI usage preferences against the drafts' own examples and Cloudflare's managed file:
//! the example robots.txt of draft-ietf-aipref-attach with its table of paths, the
//! dictionaries of draft-ietf-aipref-vocab's processing section, and the file
//! Cloudflare injects into the sites whose robots.txt it manages. Policy core only: runs
//! with and without the default features.

use std::path::Path;

use robotscope::policy::{Category, Preference, read_content_usage};
use robotscope::policy::{Matcher, Reading, RobotsTxt};

fn read(name: &str) -> (String, RobotsTxt) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/usage").join(name);
    let text = std::fs::read_to_string(path).expect("vector");
    let txt = RobotsTxt::parse(text.clone());
    (text, txt)
}

/// The number of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> usize {
    text.lines().position(|line| line.starts_with(start)).expect("the line") + 1
}

/// A category's preference and the lines that state it, for a robot and path; `None`
/// when the robot may not crawl the path.
fn stated(txt: &RobotsTxt, agent: &str, path: &str, category: Category) -> Option<(Preference, Vec<usize>)> {
    let usage = Matcher::new(txt, agent, Reading::Rfc9309).usage(path)?;
    let stated = usage.get(category);
    Some((stated.preference(), stated.lines().to_vec()))
}

/// draft-ietf-aipref-attach, "Example": the file and its "Sample of usage preferences
/// for different paths" table, for "all other crawlers" (the first group).
#[test]
fn the_attach_drafts_example_table() {
    let (text, txt) = read("attach-draft-example.txt");
    let default = line_of(&text, "Content-Usage: / ");
    let ai_ok = line_of(&text, "Content-Usage: /ai-ok/");
    // | Path        | Crawl | Usage Preference |
    let table = [
        ("/test", Some((Preference::Disallowed, vec![default]))),
        ("/never/test", None),
        ("/ai-ok/test", Some((Preference::Allowed, vec![ai_ok]))),
    ];
    for (path, expected) in table {
        assert_eq!(stated(&txt, "OtherBot", path, Category::TrainAi), expected, "{path}");
        assert_eq!(Matcher::new(&txt, "OtherBot", Reading::Rfc9309).allowed(path), expected.is_some(), "{path}");
    }
    // "A crawler that identifies as ExampleBot uses the second group": it may obtain
    // all content, with train-ai=y everywhere.
    let lines: Vec<&str> = text.lines().collect();
    let example_bot = lines.iter().rposition(|line| line.starts_with("Content-Usage: / ")).expect("line") + 1;
    for path in ["/test", "/never/test", "/ai-ok/test"] {
        assert_eq!(
            stated(&txt, "ExampleBot", path, Category::TrainAi),
            Some((Preference::Allowed, vec![example_bot])),
            "{path}"
        );
    }
    // The example says nothing of search, and Content-Usage has no ai-input.
    for category in [Category::Search, Category::AiInput] {
        assert_eq!(stated(&txt, "OtherBot", "/test", category).map(|s| s.0), Some(Preference::Unknown));
    }
}

/// draft-ietf-aipref-vocab, "Exemplary Serialization Format" and "Processing
/// Algorithm": each dictionary it gives, and what it states for train-ai and search
/// (`Some(true)` allow, `Some(false)` disallow, `None` unknown).
#[test]
fn the_vocabulary_drafts_dictionaries() {
    let cases: [(&str, [Option<bool>; 2]); 6] = [
        // "allow model training, disallow search".
        ("train-ai=y, search=n", [Some(true), Some(false)]),
        // A repeated key keeps its last value; a boolean and a string are not tokens:
        // "results in all preferences being unknown".
        ("train-ai=y, train-ai, search=n, search=\"n\"", [None, None]),
        // Only the parameters of the value selected apply: "a preference to allow".
        ("train-ai;allow=n, train-ai=y", [Some(true), None]),
        // Parameters on a preference that is unknown (a bare key is the boolean true).
        ("train-ai;has;parameters=\"?\"", [None, None]),
        // Tokens other than y and n, and unknown keys, are not errors: unknown.
        ("train-ai=yes, search=no, ai-use=n", [None, None]),
        ("search=y", [None, Some(true)]),
    ];
    for (dictionary, expected) in cases {
        assert_eq!(read_content_usage(dictionary.as_bytes()).said, Some(expected), "{dictionary}");
    }
    // "If the parsing of the Dictionary fails, preferences are unknown. This includes
    // where keys include uppercase characters"; the draft's own example ends with a
    // `;` that starts no parameter, which RFC 9651 does not parse either.
    for dictionary in ["Train-AI=n", "train-ai;has;parameters=\"?\";", "train-ai=n,"] {
        assert_eq!(read_content_usage(dictionary.as_bytes()).said, None, "{dictionary}");
    }
}

/// Cloudflare's managed robots.txt: search allowed and training disallowed for every
/// robot the managed `*` group covers, nothing for the AI crawlers it shuts out, and the
/// site's own `*` group (merged with the managed one, RFC 9309 §2.2.1) still decides
/// crawling.
#[test]
fn cloudflares_managed_file() {
    let (text, txt) = read("cloudflare-managed.txt");
    let signal = line_of(&text, "Content-signal:");
    for agent in ["Googlebot", "bingbot", "PerplexityBot"] {
        assert_eq!(stated(&txt, agent, "/", Category::TrainAi), Some((Preference::Disallowed, vec![signal])));
        assert_eq!(stated(&txt, agent, "/", Category::Search), Some((Preference::Allowed, vec![signal])));
        assert_eq!(stated(&txt, agent, "/", Category::AiInput), Some((Preference::Unknown, vec![])), "{agent}");
        assert_eq!(stated(&txt, agent, "/admin/users", Category::Search), None, "the site's own Disallow");
    }
    for agent in ["GPTBot", "ClaudeBot", "CCBot", "Google-Extended", "meta-externalagent"] {
        assert!(!Matcher::new(&txt, agent, Reading::Rfc9309).allowed("/"), "{agent} is shut out");
        assert_eq!(stated(&txt, agent, "/", Category::TrainAi), None, "{agent}: not fetched, no preferences");
    }
    // The classic readings read no preferences at all.
    assert!(Matcher::new(&txt, "Googlebot", Reading::Draft1996).usage("/").is_none());
}
