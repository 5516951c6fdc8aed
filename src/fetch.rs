//! Where a robots.txt comes from: source resolution, and reading it.
//!
//! [`Source::parse`] turns what the user typed into standard input, a file or a site
//! (DESIGN.md §4). Local sources are read here; fetching a site over HTTP comes with the
//! fetch layer.

use std::io::Read;
use std::path::{Path, PathBuf};

use url::Url;

/// A robots.txt source, as the user named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `-`: standard input.
    Stdin,
    /// A local file.
    File(PathBuf),
    /// A site's robots.txt.
    Site {
        /// The robots.txt URL (`https://host/robots.txt`).
        robots_url: Url,
        /// The path and query the user gave with the site, for the tester (`None` for
        /// the bare site).
        page: Option<String>,
    },
}

/// Why a source could not be resolved or read.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// A name that looks like a file does not exist.
    #[error("{0}: no such file (and it does not look like a site name)")]
    NoSuchFile(PathBuf),
    /// The file or standard input could not be read.
    #[error("cannot read {what}: {source}")]
    Read {
        /// What was being read.
        what: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The text is neither a file nor a usable URL.
    #[error("'{spec}' is not a file or a site URL: {reason}")]
    BadUrl {
        /// What the user typed.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Fetching over HTTP is not available.
    #[error("{0}: fetching sites is not available in this build")]
    FetchUnavailable(Url),
}

impl Source {
    /// Resolves what the user typed: `-`, an existing file, or else a URL or host name.
    /// `example.com` means `https://example.com/robots.txt`; a URL with a path means its
    /// origin's robots.txt, and the path is kept for the tester.
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope::fetch::Source;
    /// let Ok(Source::Site { robots_url, page }) = Source::parse("example.com/shop/item?id=1") else { panic!() };
    /// assert_eq!(robots_url.as_str(), "https://example.com/robots.txt");
    /// assert_eq!(page.as_deref(), Some("/shop/item?id=1"));
    /// ```
    pub fn parse(spec: &str) -> Result<Source, SourceError> {
        if spec == "-" {
            return Ok(Source::Stdin);
        }
        let path = Path::new(spec);
        if path.exists() {
            return Ok(Source::File(path.to_path_buf()));
        }
        if !spec.contains("://") && looks_like_a_file(spec) {
            return Err(SourceError::NoSuchFile(path.to_path_buf()));
        }
        let with_scheme = if spec.contains("://") { spec.to_owned() } else { format!("https://{spec}") };
        let bad = |reason: &str| SourceError::BadUrl { spec: spec.to_owned(), reason: reason.to_owned() };
        let url = Url::parse(&with_scheme).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("only http and https sites have a robots.txt"));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(bad("no host name"));
        }
        let mut robots_url = url.clone();
        robots_url.set_path("/robots.txt");
        robots_url.set_query(None);
        robots_url.set_fragment(None);
        // Credentials never travel with a robots.txt request.
        let _ = robots_url.set_username("");
        let _ = robots_url.set_password(None);
        let page = match (url.path(), url.query()) {
            ("/" | "/robots.txt", None) => None,
            (path, None) => Some(path.to_owned()),
            (path, Some(query)) => Some(format!("{path}?{query}")),
        };
        Ok(Source::Site { robots_url, page })
    }

    /// A short name for the status bar and messages.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Source::Stdin => "standard input".to_owned(),
            Source::File(path) => path.display().to_string(),
            Source::Site { robots_url, .. } => robots_url.to_string(),
        }
    }

    /// Reads a local source (standard input or a file) whole.
    pub fn read_local(&self) -> Result<Vec<u8>, SourceError> {
        match self {
            Source::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|source| SourceError::Read { what: "standard input".to_owned(), source })?;
                Ok(bytes)
            }
            Source::File(path) => {
                std::fs::read(path).map_err(|source| SourceError::Read { what: path.display().to_string(), source })
            }
            Source::Site { robots_url, .. } => Err(SourceError::FetchUnavailable(robots_url.clone())),
        }
    }
}

/// True for names that are surely meant as files: paths starting with `.`, `/` or `~`,
/// paths whose first part cannot be a host name, and bare names ending in `.txt` (no
/// top-level domain is called `txt`).
fn looks_like_a_file(spec: &str) -> bool {
    if spec.starts_with(['.', '/', '~', '\\']) {
        return true;
    }
    let first = spec.split(['/', '\\']).next().unwrap_or_default();
    let could_be_host = first.contains(['.', ':', '[']) || first.eq_ignore_ascii_case("localhost");
    if spec.contains(['/', '\\']) {
        !could_be_host
    } else {
        Path::new(spec).extension().is_some_and(|ext| ext.eq_ignore_ascii_case("txt"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(spec: &str) -> (String, Option<String>) {
        match Source::parse(spec) {
            Ok(Source::Site { robots_url, page }) => (robots_url.to_string(), page),
            other => panic!("{spec}: {other:?}"),
        }
    }

    #[test]
    fn hosts_and_urls_become_robots_urls() {
        assert_eq!(site("example.com"), ("https://example.com/robots.txt".into(), None));
        assert_eq!(
            site("http://example.com:8080/a/b"),
            ("http://example.com:8080/robots.txt".into(), Some("/a/b".into()))
        );
        assert_eq!(site("https://user:pw@example.com/"), ("https://example.com/robots.txt".into(), None));
        assert_eq!(site("bücher.example"), ("https://xn--bcher-kva.example/robots.txt".into(), None));
        assert_eq!(site("127.0.0.1:9/x?y=1"), ("https://127.0.0.1:9/robots.txt".into(), Some("/x?y=1".into())));
    }

    #[test]
    fn file_like_names_that_do_not_exist_are_errors() {
        assert!(matches!(Source::parse("robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::parse("./missing"), Err(SourceError::NoSuchFile(_))));
        assert!(matches!(Source::parse("dir/robots.txt"), Err(SourceError::NoSuchFile(_))));
        assert_eq!(site("localhost:8080/robots.txt").0, "https://localhost:8080/robots.txt");
        assert!(matches!(Source::parse("ftp://example.com"), Err(SourceError::BadUrl { .. })));
        assert_eq!(Source::parse("-").ok(), Some(Source::Stdin));
    }
}
