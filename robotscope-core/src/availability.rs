//! What the outcome of fetching a robots.txt means for each reading.
//!
//! A robots.txt that could not be read still answers every question: RFC 9309 §2.3.1
//! says what a crawler must assume when the server says "not found" (no restrictions),
//! "server error" (complete disallow) or nothing at all; the 1996 draft says a 401 or
//! 403 means "keep out" and other failures mean "defer". This module is that table; it
//! knows nothing of HTTP clients, only of status codes and kinds of failure.

use super::reading::Reading;

/// How far the robots.txt was obtained.
///
/// ```
/// use robotscope_core::Access;
/// use robotscope_core::{Availability, Reading};
/// // RFC 9309 §2.3.1: a 4xx means no rules; a 5xx (or 429) closes the site for now.
/// assert_eq!(Availability::Status(404).access(Reading::Rfc9309), Access::AllowAll);
/// assert_eq!(Availability::Status(503).access(Reading::Rfc9309), Access::DisallowAll);
/// assert_eq!(Availability::Available.access(Reading::Rfc9309), Access::Rules);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Availability {
    /// The file was read: a local file, standard input, or an HTTP 2xx answer.
    #[default]
    Available,
    /// The server answered with this status. A 2xx is read as [`Available`](Self::Available);
    /// a 3xx is a redirect not followed, read as
    /// [`RedirectWithoutTarget`](Self::RedirectWithoutTarget) is.
    Status(u16),
    /// No answer: the name did not resolve, the connection was refused or failed, or TLS
    /// failed.
    Unreachable,
    /// The server was reached but no complete answer came within the time allowed
    /// (RFC 9309 §2.3.1.4 counts a timeout as unreachable too).
    TimedOut,
    /// The redirects went on for more than five hops.
    TooManyRedirects,
    /// The redirects came back to a URL already asked for.
    RedirectLoop,
    /// A redirect status (301, 302, 304, ...) that says nowhere to go: no Location.
    RedirectWithoutTarget(u16),
}

impl Availability {
    /// True when the robots.txt could not be had for a reason on the server's side or
    /// the network's (a 5xx or 429, no answer, no answer in time), which RFC 9309
    /// §2.3.1.4 makes a "disallow everything" until it can: an outage, not a rule.
    #[must_use]
    pub fn is_outage(self) -> bool {
        matches!(self, Availability::Status(429 | 500..=599) | Availability::Unreachable | Availability::TimedOut)
    }

    /// True for the ways a chain of redirects can fail to reach the file: more than five
    /// hops, a loop, a redirect without a target, or a 3xx given as the final status (a
    /// redirect not followed; a 304, which an unconditional fetch should not get, too).
    #[must_use]
    pub fn is_redirect_failure(self) -> bool {
        matches!(
            self,
            Availability::Status(300..=399)
                | Availability::TooManyRedirects
                | Availability::RedirectLoop
                | Availability::RedirectWithoutTarget(_)
        )
    }
}

/// What the rules are, given how the file was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The file's own rules apply.
    Rules,
    /// Everything may be fetched.
    AllowAll,
    /// Nothing may be fetched.
    DisallowAll,
}

impl Availability {
    /// What `reading` makes of this outcome.
    ///
    /// * RFC 9309: 4xx is "unavailable" and allows everything (§2.3.1.3); 5xx is
    ///   "unreachable" and disallows everything (§2.3.1.4), and so does 429, which
    ///   Google treats as a server error (RFC 9309 leaves it to the 4xx class; robotscope
    ///   follows Google); no answer at all is unreachable too; more than five
    ///   redirects may be taken as unavailable (§2.3.1.2), so everything is allowed,
    ///   and robotscope reads every redirect chain that reaches no file so (a loop, a
    ///   redirect without a target, a 3xx not followed).
    /// * The 1996 draft (and the 1994 standard, which says nothing): 401 and 403 mean
    ///   the site is closed ("the robot should regard access to the site completely
    ///   restricted"), other 4xx mean no file, so no restrictions; 5xx and failures mean
    ///   the robot should defer visits, which is a disallow. The draft says to follow
    ///   redirects "until a resource can be found", so a chain robotscope gave up on is
    ///   a failure to reach the file.
    #[must_use]
    pub fn access(self, reading: Reading) -> Access {
        // The arms are read in order, each narrowing the next, which is why some share a
        // body without sharing an arm.
        #[allow(clippy::match_same_arms, reason = "the order of the arms carries the table")]
        match (self, reading) {
            (Availability::Available | Availability::Status(200..=299), _) => Access::Rules,
            (Availability::Status(429), Reading::Rfc9309) => Access::DisallowAll,
            (Availability::Status(400..=499), Reading::Rfc9309) => Access::AllowAll,
            (redirects, Reading::Rfc9309) if redirects.is_redirect_failure() => Access::AllowAll,
            (Availability::Status(401 | 403), _) => Access::DisallowAll,
            (Availability::Status(400..=499), _) => Access::AllowAll,
            (
                Availability::Status(_)
                | Availability::Unreachable
                | Availability::TimedOut
                | Availability::TooManyRedirects
                | Availability::RedirectLoop
                | Availability::RedirectWithoutTarget(_),
                _,
            ) => Access::DisallowAll,
        }
    }

    /// Why the rules are what they are, in one sentence, for a blanket verdict.
    #[must_use]
    pub fn reason(self, reading: Reading) -> String {
        let what = match self {
            Availability::Available | Availability::Status(200..=299) => return "the file's rules apply".to_owned(),
            Availability::Status(status) => format!("the server answered {status}"),
            Availability::Unreachable => "the server could not be reached".to_owned(),
            Availability::TimedOut => "no complete answer came in time".to_owned(),
            Availability::TooManyRedirects => "the redirects went on for more than five hops".to_owned(),
            Availability::RedirectLoop => "the redirects go round in a loop".to_owned(),
            Availability::RedirectWithoutTarget(304) => {
                "the server answered 304 Not Modified, to a request that asked for no such thing".to_owned()
            }
            Availability::RedirectWithoutTarget(status) => {
                format!("the server answered {status}, a redirect, without saying where to (no Location header)")
            }
        };
        let rule = match (self, reading, self.access(reading)) {
            (Availability::Status(429), Reading::Rfc9309, _) => {
                "Google treats 429 like a server error, so robots assume complete disallow"
            }
            (Availability::Status(400..=499), Reading::Rfc9309, Access::AllowAll) => {
                "RFC 9309 §2.3.1.3 calls the file unavailable, so robots may crawl without restrictions"
            }
            (_, Reading::Rfc9309, Access::DisallowAll) => {
                "RFC 9309 §2.3.1.4 calls the file unreachable, so robots must assume complete disallow"
            }
            (_, Reading::Rfc9309, _) => {
                "the redirects reached no file, which robotscope reads as RFC 9309 §2.3.1.2 reads a chain given up on: unavailable, no restrictions"
            }
            (Availability::Status(401 | 403), _, _) => "to the 1996 draft that means the site is closed to robots",
            (_, _, Access::AllowAll) => "to the 1996 draft that means there is no file, so no restrictions",
            (_, _, _) => "the 1996 draft asks robots to defer their visit, so nothing is fetched",
        };
        // The 1994 standard says nothing about fetch outcomes; its robots are read as the
        // 1996 draft, which wrote down what they did.
        let silent = if reading == Reading::Koster1994 { " (the 1994 standard is silent here)" } else { "" };
        format!("{what}; {rule}{silent}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_table_per_reading() {
        use Access::{AllowAll, DisallowAll, Rules};
        let cases = [
            (Availability::Status(200), [Rules, Rules, Rules]),
            (Availability::Status(404), [AllowAll, AllowAll, AllowAll]),
            (Availability::Status(410), [AllowAll, AllowAll, AllowAll]),
            (Availability::Status(401), [AllowAll, DisallowAll, DisallowAll]),
            (Availability::Status(403), [AllowAll, DisallowAll, DisallowAll]),
            (Availability::Status(429), [DisallowAll, AllowAll, AllowAll]),
            (Availability::Status(503), [DisallowAll, DisallowAll, DisallowAll]),
            (Availability::Unreachable, [DisallowAll, DisallowAll, DisallowAll]),
            (Availability::TimedOut, [DisallowAll, DisallowAll, DisallowAll]),
            (Availability::TooManyRedirects, [AllowAll, DisallowAll, DisallowAll]),
            (Availability::RedirectLoop, [AllowAll, DisallowAll, DisallowAll]),
            (Availability::RedirectWithoutTarget(302), [AllowAll, DisallowAll, DisallowAll]),
        ];
        for (availability, expected) in cases {
            assert_eq!(Reading::ALL.map(|reading| availability.access(reading)), expected, "{availability:?}");
        }
    }

    #[test]
    fn a_redirect_status_not_followed_reads_as_a_redirect_failure() {
        for reading in Reading::ALL {
            for status in [300, 301, 302, 304, 307, 308] {
                let given = Availability::Status(status);
                assert_eq!(given.access(reading), Availability::RedirectWithoutTarget(status).access(reading));
            }
        }
        assert_eq!(Availability::Status(301).access(Reading::Rfc9309), Access::AllowAll);
        assert!(Availability::Status(301).reason(Reading::Rfc9309).contains("2.3.1.2"));
        assert_eq!(Availability::Status(301).access(Reading::Draft1996), Access::DisallowAll);
    }

    #[test]
    fn reasons_cite_the_rule() {
        assert!(Availability::Status(503).reason(Reading::Rfc9309).contains("2.3.1.4"));
        assert!(Availability::Status(403).reason(Reading::Draft1996).contains("closed"));
    }
}
