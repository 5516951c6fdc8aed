//! The values of the group extensions robots read beside the rules: `Crawl-delay`,
//! `Request-rate` and `Visit-time`.
//!
//! None of them is in RFC 9309 (§2.2.4 leaves other records to crawlers), and no reading
//! changes a verdict for them; they say how fast and when a robot should fetch. The
//! forms read here are the ones robots honour: Bing and Yandex read `Crawl-delay` as
//! seconds, Seznam and Python's `urllib.robotparser` read `Request-rate` as
//! `requests/period`, and a few 1990s robots read `Visit-time` as a UTC window.

use std::fmt;
use std::time::Duration;

/// Reads a `Crawl-delay` value: a non-negative number of seconds (`10`, `0.5`).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "parts")] {
/// use std::time::Duration;
/// use robotscope_core::extensions::crawl_delay;
/// assert_eq!(crawl_delay("0.5"), Some(Duration::from_millis(500)));
/// assert_eq!(crawl_delay("soon"), None);
/// // A number of seconds longer than a Duration holds: the longest there is, not none.
/// assert_eq!(crawl_delay("1e20"), Some(Duration::MAX));
/// # }
/// ```
#[must_use]
pub fn crawl_delay(value: &str) -> Option<Duration> {
    let seconds = value.trim().parse::<f64>().ok()?;
    if !seconds.is_finite() || seconds < 0.0 {
        return None;
    }
    Some(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
}

/// A `Request-rate`: at most `requests` fetches per `period`, optionally only within
/// a daily window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestRate {
    requests: u32,
    period: Duration,
    window: Option<VisitTime>,
}

impl RequestRate {
    /// Reads `1/10s`, `30/1m`, `1/5` (seconds), `2/1h`, optionally followed by a
    /// window (`30/1m 0600-0845`).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use robotscope_core::RequestRate;
    /// let rate = RequestRate::parse("30/1m").unwrap();
    /// assert_eq!((rate.requests(), rate.period()), (30, Duration::from_secs(60)));
    /// assert_eq!(rate.interval(), Duration::from_secs(2));
    /// assert!(RequestRate::parse("fast").is_none());
    /// ```
    #[must_use]
    pub fn parse(value: &str) -> Option<RequestRate> {
        let mut parts = value.split_whitespace();
        let (requests, period) = parts.next()?.split_once('/')?;
        let unit = match period.chars().last()?.to_ascii_lowercase() {
            'h' => 3600,
            'm' => 60,
            _ => 1,
        };
        let amount = period.trim_end_matches(['s', 'm', 'h', 'S', 'M', 'H']).parse::<u32>().ok().filter(|&n| n > 0)?;
        let requests = requests.parse::<u32>().ok().filter(|&n| n > 0)?;
        let window = match parts.next() {
            Some(window) => Some(VisitTime::parse(window)?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(RequestRate { requests, period: Duration::from_secs(u64::from(amount) * unit), window })
    }

    /// How many fetches each period allows.
    #[must_use]
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// The period.
    #[must_use]
    pub fn period(&self) -> Duration {
        self.period
    }

    /// The time between fetches that keeps to the rate: the period over the requests.
    #[must_use]
    pub fn interval(&self) -> Duration {
        self.period / self.requests
    }

    /// The daily window the rate applies in, if the value names one.
    #[must_use]
    pub fn window(&self) -> Option<VisitTime> {
        self.window
    }
}

/// A daily window in UTC, `Visit-time: 0100-0500`, in minutes after midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisitTime {
    from: u16,
    to: u16,
}

impl VisitTime {
    /// Reads `0100-0500` (also seen as `01:00-05:00`).
    ///
    /// # Examples
    ///
    /// ```
    /// use robotscope_core::VisitTime;
    /// let night = VisitTime::parse("2300-0400").unwrap();
    /// assert_eq!((night.from_minute(), night.to_minute()), (23 * 60, 4 * 60));
    /// assert!(night.contains(60));
    /// assert!(!night.contains(12 * 60));
    /// assert!(VisitTime::parse("2500-0100").is_none());
    /// ```
    #[must_use]
    pub fn parse(value: &str) -> Option<VisitTime> {
        let (from, to) = value.trim().split_once('-')?;
        Some(VisitTime { from: minute_of_day(from.trim())?, to: minute_of_day(to.trim())? })
    }

    /// The window's start, in minutes after midnight UTC.
    #[must_use]
    pub fn from_minute(&self) -> u16 {
        self.from
    }

    /// The window's end, in minutes after midnight UTC.
    #[must_use]
    pub fn to_minute(&self) -> u16 {
        self.to
    }

    /// Whether `minute` (after midnight UTC) falls in the window; a window whose end
    /// is before its start runs over midnight.
    #[must_use]
    pub fn contains(&self, minute: u16) -> bool {
        if self.from <= self.to {
            (self.from..=self.to).contains(&minute)
        } else {
            minute >= self.from || minute <= self.to
        }
    }
}

impl fmt::Display for VisitTime {
    /// `0100-0500`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}-{:02}{:02}", self.from / 60, self.from % 60, self.to / 60, self.to % 60)
    }
}

/// `0100` or `01:00` as minutes after midnight.
fn minute_of_day(clock: &str) -> Option<u16> {
    let digits: Vec<u16> =
        clock.chars().filter(|&c| c != ':').map(|c| c.to_digit(10).map(|d| d as u16)).collect::<Option<_>>()?;
    let [h1, h2, m1, m2] = digits[..] else { return None };
    let (hour, minute) = (h1 * 10 + h2, m1 * 10 + m2);
    (hour < 24 && minute < 60).then_some(hour * 60 + minute)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawl_delays_are_seconds() {
        assert_eq!(crawl_delay("10"), Some(Duration::from_secs(10)));
        assert_eq!(crawl_delay(" 2.5 "), Some(Duration::from_millis(2500)));
        for wrong in ["-1", "NaN", "inf", "", "10s"] {
            assert_eq!(crawl_delay(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn request_rates_read_their_unit() {
        let rate = |v| RequestRate::parse(v).map(|r| (r.requests(), r.period().as_secs()));
        assert_eq!(rate("1/10s"), Some((1, 10)));
        assert_eq!(rate("1/5"), Some((1, 5)));
        assert_eq!(rate("2/1h"), Some((2, 3600)));
        assert_eq!(rate("0/1m"), None);
        assert_eq!(rate("1/0s"), None);
        assert_eq!(rate("1/10s 0600-0845 extra"), None);
        let windowed = RequestRate::parse("30/1m 0600-0845").and_then(|r| r.window());
        assert_eq!(windowed.map(|w| w.to_string()), Some("0600-0845".to_owned()));
    }

    #[test]
    fn visit_times_are_clock_windows() {
        assert_eq!(VisitTime::parse("01:00-05:30").map(|w| (w.from_minute(), w.to_minute())), Some((60, 330)));
        for wrong in ["0100", "2400-0100", "0160-0200", "1-2", "ab00-0100"] {
            assert_eq!(VisitTime::parse(wrong), None, "{wrong}");
        }
    }
}
