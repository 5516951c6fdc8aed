//! What a survey remembers while it runs, in private temporary SQLite files (SQLite
//! deletes them when the run ends), so that memory stays flat however many captures a
//! crawl holds: each URL's captures and the redirects that wait for their targets
//! ([`OnDisk`]), and each site's last capture for the tables written at the end
//! ([`LastCaptures`]). SQLite keeps its pages in a bounded cache and writes the rest to
//! the file.

use std::io;

use rusqlite::{Connection, OptionalExtension, params};

use crate::survey::{Category, RedirectMemory};

/// SQLite's page cache, in KiB (a negative `cache_size` is KiB).
const CACHE_KIB: i64 = 32 * 1024;

/// A [`RedirectMemory`] in a temporary SQLite database.
pub struct OnDisk {
    connection: Connection,
    urls: usize,
}

#[allow(clippy::needless_pass_by_value)] // map_err hands the error over.
fn failed(error: rusqlite::Error) -> io::Error {
    io::Error::other(format!("the survey's temporary file: {error}"))
}

impl OnDisk {
    /// A fresh temporary database (the empty file name: SQLite's private temporary
    /// file, in `$TMPDIR` or /var/tmp or /tmp).
    pub fn new() -> io::Result<OnDisk> {
        let connection = temporary(
            "CREATE TABLE urls (key TEXT, time TEXT, record BLOB NOT NULL, PRIMARY KEY (key, time)) WITHOUT ROWID;
             CREATE TABLE waiting (id INTEGER PRIMARY KEY, record BLOB NOT NULL);",
        )?;
        Ok(OnDisk { connection, urls: 0 })
    }
}

/// A private temporary database (the empty file name: SQLite's private temporary file,
/// in `$TMPDIR` or /var/tmp or /tmp) with `tables`, in a transaction that lasts the run.
fn temporary(tables: &str) -> io::Result<Connection> {
    let connection = Connection::open("").map_err(failed)?;
    // Nothing here outlives the run: no journal, no syncing, one transaction.
    connection
        .execute_batch(&format!(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -{CACHE_KIB};
             {tables} BEGIN;"
        ))
        .map_err(failed)?;
    Ok(connection)
}

impl RedirectMemory for OnDisk {
    fn remember(&mut self, key: &str, time: &str, record: &[u8]) -> io::Result<()> {
        let added = self
            .connection
            .prepare_cached("INSERT OR IGNORE INTO urls (key, time, record) VALUES (?1, ?2, ?3)")
            .and_then(|mut insert| insert.execute(params![key, time, record]))
            .map_err(failed)?;
        if added == 1 {
            self.urls += 1;
        } else {
            self.connection
                .prepare_cached("UPDATE urls SET record = ?3 WHERE key = ?1 AND time = ?2")
                .and_then(|mut update| update.execute(params![key, time, record]))
                .map_err(failed)?;
        }
        Ok(())
    }

    fn recall(&mut self, key: &str, time: &str) -> io::Result<Option<Vec<u8>>> {
        let nearest = |query: &str| {
            self.connection
                .prepare_cached(query)
                .and_then(|mut select| select.query_row([key, time], |row| row.get(0)).optional())
                .map_err(failed)
        };
        // A capture with no time (its date could not be read) is taken when no other is.
        if let Some(record) =
            nearest("SELECT record FROM urls WHERE key = ?1 AND time <= ?2 AND time <> '' ORDER BY time DESC LIMIT 1")?
        {
            return Ok(Some(record));
        }
        if let Some(record) = nearest("SELECT record FROM urls WHERE key = ?1 AND time > ?2 ORDER BY time LIMIT 1")? {
            return Ok(Some(record));
        }
        // (The time is bound as in the others, and has no say here.)
        nearest("SELECT record FROM urls WHERE key = ?1 AND time = '' AND ?2 = ?2")
    }

    fn remembered(&self) -> usize {
        self.urls
    }

    fn wait(&mut self, record: &[u8]) -> io::Result<()> {
        self.connection
            .prepare_cached("INSERT INTO waiting (record) VALUES (?1)")
            .and_then(|mut insert| insert.execute([record]))
            .map_err(failed)?;
        Ok(())
    }

    fn waiting(&mut self, from: usize, count: usize) -> io::Result<Vec<Vec<u8>>> {
        let (from, count) = (i64::try_from(from).unwrap_or(i64::MAX), i64::try_from(count).unwrap_or(i64::MAX));
        // Ids count from 1 in the order the redirects came.
        let mut select = self
            .connection
            .prepare_cached("SELECT record FROM waiting WHERE id > ?1 ORDER BY id LIMIT ?2")
            .map_err(failed)?;
        let rows = select.query_map([from, count], |row| row.get(0)).map_err(failed)?;
        rows.collect::<Result<_, _>>().map_err(failed)
    }
}

/// Each site's last capture in each period, for what is written at the end: the
/// summary's (the whole run, period `""`) and `--dpi`'s and `--plot`'s (a month,
/// `YYYY-MM`). A capture is its time and each robot's category, in the robots' order.
pub struct LastCaptures {
    connection: Connection,
}

/// The periods [`LastCaptures::each`] goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Periods {
    /// The whole run's (the summary's).
    Whole,
    /// The months'.
    Months,
}

impl LastCaptures {
    pub fn new() -> io::Result<LastCaptures> {
        let connection = temporary(
            "CREATE TABLE last (site TEXT, period TEXT, time TEXT NOT NULL, categories BLOB NOT NULL,
                 PRIMARY KEY (site, period)) WITHOUT ROWID;",
        )?;
        Ok(LastCaptures { connection })
    }

    /// Keeps `categories` as the site's in `period`, unless a later capture is kept
    /// already; of two at the same time, the later in the input.
    pub fn keep(&mut self, site: &str, period: &str, time: &str, categories: &[Category]) -> io::Result<()> {
        let codes: Vec<u8> =
            categories.iter().map(|category| u8::try_from(category.index()).unwrap_or(u8::MAX)).collect();
        self.connection
            .prepare_cached(
                "INSERT INTO last (site, period, time, categories) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (site, period) DO UPDATE SET time = excluded.time, categories = excluded.categories
                 WHERE excluded.time >= last.time",
            )
            .and_then(|mut upsert| upsert.execute(params![site, period, time, codes]))
            .map_err(failed)?;
        Ok(())
    }

    /// Each site's last capture in each of `periods`, by site and then period: the
    /// site, the period and the categories.
    pub fn each(
        &mut self,
        periods: Periods,
        mut visit: impl FnMut(&str, &str, &[Category]) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut select = self
            .connection
            .prepare_cached("SELECT site, period, categories FROM last WHERE (period <> '') = ?1 ORDER BY site, period")
            .map_err(failed)?;
        let mut rows = select.query([periods == Periods::Months]).map_err(failed)?;
        let mut categories = Vec::new();
        while let Some(row) = rows.next().map_err(failed)? {
            let (site, period) = (row.get_ref(0).map_err(failed)?, row.get_ref(1).map_err(failed)?);
            let (site, period) = (site.as_str().map_err(failed_type)?, period.as_str().map_err(failed_type)?);
            let codes = row.get_ref(2).map_err(failed)?.as_blob().map_err(failed_type)?;
            categories.clear();
            for &code in codes {
                categories.push(Category::at(usize::from(code)).ok_or_else(|| io::Error::other("a damaged category"))?);
            }
            visit(site, period, &categories)?;
        }
        Ok(())
    }
}

#[allow(clippy::needless_pass_by_value)] // map_err hands the error over.
fn failed_type(error: rusqlite::types::FromSqlError) -> io::Error {
    io::Error::other(format!("the survey's temporary file: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_are_recalled_nearest_in_time_and_waiting_redirects_in_order() {
        let mut memory = OnDisk::new().expect("a temporary database");
        memory.remember("a", "2024-01", b"1").expect("kept");
        memory.remember("a", "2024-01", b"2").expect("kept");
        memory.remember("a", "2025-06", b"3").expect("kept");
        memory.remember("b", "2024-01", b"4").expect("kept");
        assert_eq!(memory.remembered(), 3);
        let recall = |memory: &mut OnDisk, key: &str, time: &str| memory.recall(key, time).expect("read");
        assert_eq!(recall(&mut memory, "a", "2024-03").as_deref(), Some(&b"2"[..]), "the last before");
        assert_eq!(recall(&mut memory, "a", "2025-06").as_deref(), Some(&b"3"[..]), "at the time");
        assert_eq!(recall(&mut memory, "a", "2023-01").as_deref(), Some(&b"2"[..]), "else the first after");
        assert_eq!(recall(&mut memory, "c", "2024-01"), None);
        // The memory in the library recalls alike.
        // A capture with no time is taken only when no other is.
        memory.remember("a", "", b"u").expect("kept");
        memory.remember("d", "", b"w").expect("kept");
        assert_eq!(recall(&mut memory, "a", "2023-01").as_deref(), Some(&b"2"[..]), "a dated one after");
        assert_eq!(recall(&mut memory, "d", "2023-01").as_deref(), Some(&b"w"[..]), "the undated one alone");
        let mut in_memory = crate::survey::InMemory::default();
        for (key, time, record) in [("a", "2024-01", b"2"), ("a", "2025-06", b"3"), ("a", "", b"u"), ("d", "", b"w")] {
            in_memory.remember(key, time, record).expect("kept");
        }
        for (key, time) in [("a", "2024-03"), ("a", "2025-06"), ("a", "2023-01"), ("a", ""), ("d", "2024-01")] {
            assert_eq!(
                in_memory.recall(key, time).expect("read"),
                memory.recall(key, time).expect("read"),
                "{key} {time}"
            );
        }
        for record in [b"x", b"y", b"z"] {
            memory.wait(record).expect("kept");
        }
        assert_eq!(memory.waiting(1, 5).expect("read"), [b"y".to_vec(), b"z".to_vec()]);
        assert_eq!(memory.waiting(3, 5).expect("read"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn each_sites_last_capture_is_kept_in_each_period() {
        use Category::{Full, Missing, None as Open, Partial};
        let mut last = LastCaptures::new().expect("a temporary database");
        let keep = |last: &mut LastCaptures, site: &str, period: &str, time: &str, categories: &[Category]| {
            last.keep(site, period, time, categories).expect("kept");
        };
        keep(&mut last, "b.example", "", "2024-02-01T00:00:00Z", &[Full, Open]);
        keep(&mut last, "b.example", "", "2024-01-01T00:00:00Z", &[Missing, Missing]);
        keep(&mut last, "a.example", "", "2024-01-01T00:00:00Z", &[Partial, Partial]);
        keep(&mut last, "a.example", "", "2024-01-01T00:00:00Z", &[Open, Full]);
        keep(&mut last, "a.example", "2024-01", "2024-01-01T00:00:00Z", &[Missing, Open]);
        let read = |last: &mut LastCaptures, periods| {
            let mut seen = Vec::new();
            last.each(periods, |site, period, categories| {
                seen.push((site.to_owned(), period.to_owned(), categories.to_vec()));
                Ok(())
            })
            .expect("read");
            seen
        };
        let whole = read(&mut last, Periods::Whole);
        // The later capture stands; of two at one time, the later in the input.
        assert_eq!(
            whole,
            [
                ("a.example".into(), String::new(), vec![Open, Full]),
                ("b.example".into(), String::new(), vec![Full, Open])
            ]
        );
        assert_eq!(read(&mut last, Periods::Months), [("a.example".into(), "2024-01".into(), vec![Missing, Open])]);
    }
}
