//! Where a survey's redirects remember each URL's captures and the redirects that
//! wait for their targets: a private temporary SQLite file (SQLite deletes it when the
//! run ends), so that memory stays flat however many captures a crawl holds. SQLite
//! keeps its pages in a bounded cache and writes the rest to the file.

use std::io;

use rusqlite::{Connection, OptionalExtension, params};

use crate::survey::RedirectMemory;

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
        let connection = Connection::open("").map_err(failed)?;
        // Nothing here outlives the run: no journal, no syncing, one transaction.
        connection
            .execute_batch(&format!(
                "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -{CACHE_KIB};
                 CREATE TABLE urls (key TEXT, time TEXT, record BLOB NOT NULL, PRIMARY KEY (key, time))
                     WITHOUT ROWID;
                 CREATE TABLE waiting (id INTEGER PRIMARY KEY, record BLOB NOT NULL);
                 BEGIN;"
            ))
            .map_err(failed)?;
        Ok(OnDisk { connection, urls: 0 })
    }
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
        match nearest("SELECT record FROM urls WHERE key = ?1 AND time <= ?2 ORDER BY time DESC LIMIT 1")? {
            Some(record) => Ok(Some(record)),
            None => nearest("SELECT record FROM urls WHERE key = ?1 AND time > ?2 ORDER BY time LIMIT 1"),
        }
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
        let mut in_memory = crate::survey::InMemory::default();
        for (key, time, record) in [("a", "2024-01", b"2"), ("a", "2025-06", b"3")] {
            in_memory.remember(key, time, record).expect("kept");
        }
        for time in ["2024-03", "2025-06", "2023-01"] {
            assert_eq!(in_memory.recall("a", time).expect("read"), memory.recall("a", time).expect("read"), "{time}");
        }
        for record in [b"x", b"y", b"z"] {
            memory.wait(record).expect("kept");
        }
        assert_eq!(memory.waiting(1, 5).expect("read"), [b"y".to_vec(), b"z".to_vec()]);
        assert_eq!(memory.waiting(3, 5).expect("read"), Vec::<Vec<u8>>::new());
    }
}
