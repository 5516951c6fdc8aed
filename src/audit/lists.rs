//! The address lists at hand: those shipped inside robotscope, the newer ones
//! `robotscope bots update` keeps in the user's data directory
//! (`$XDG_DATA_HOME/robotscope/bot-ips`), and those given with `--bot-ips`. Each file is
//! read to [`MAX_LIST_BYTES`] and checked before it is used.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::identity::{EMBEDDED, FAMILIES, RangeList, Verifier, ranges_overlap};
use crate::policy::escape::sanitize_str;

/// The bytes of a list read at most (Google's largest is under 100 KB).
pub const MAX_LIST_BYTES: usize = 4 << 20;

/// The ranges one list may hold (Google's longest holds a few thousand).
pub const MAX_LIST_RANGES: usize = 10_000;

/// Checks what a list holds: a range at least, at most `MAX_LIST_RANGES`, and a
/// `creationTime` that is a time not to come.
///
/// # Errors
///
/// Why the list is refused.
pub fn check(list: &RangeList) -> Result<(), String> {
    if list.ranges.is_empty() {
        return Err("holds no address range".to_owned());
    }
    if list.ranges.len() > MAX_LIST_RANGES {
        return Err(format!("holds more than {MAX_LIST_RANGES} address ranges"));
    }
    made(list).map(|_| ())
}

/// Refuses a list for `family` (`None`: a robot of no known operator) that holds a range
/// of another operator's published list: it would make that operator's addresses
/// verify this robot (issue 35). Checked against the lists shipped inside robotscope;
/// one operator's lists may share ranges (`OpenAI`'s `GPTBot` and `OAI-SearchBot` lists do).
///
/// # Errors
///
/// Which range, and whose it is.
pub fn foreign(list: &RangeList, family: Option<usize>) -> Result<(), String> {
    let operator = family.map(|index| FAMILIES[index].operator);
    let others = FAMILIES.iter().filter(|other| Some(other.operator) != operator);
    for other in others {
        for published in other.lists {
            let Ok(Some(theirs)) = shipped(published.name) else { continue };
            for &(address, bits) in &list.ranges {
                if let Some(&(at, at_bits)) =
                    theirs.ranges.iter().find(|&&range| ranges_overlap((address, bits), range))
                {
                    return Err(format!(
                        "holds {address}/{bits}, which meets {at}/{at_bits} of {}'s {}: it would make their \
                         addresses verify these robots",
                        other.operator, published.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The lists `--bot-ips` may give at most.
const MAX_GIVEN: usize = 16;

/// Where `bots update` keeps the lists.
#[must_use]
pub fn lists_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "robotscope").map(|dirs| dirs.data_dir().join("bot-ips"))
}

/// The lists a run checks addresses against: each known list from the data directory
/// when `bots update` fetched it, else as shipped; then each of `given` (`FILE`, named as
/// an operator's list, or `TOKEN=FILE` for any robot). Gives the warnings to show.
///
/// # Errors
///
/// When a given list cannot be read, or names no operator.
pub fn verifier(given: &[String]) -> Result<(Verifier, Vec<String>), String> {
    let mut verifier = Verifier::default();
    let mut warnings = Vec::new();
    let dir = lists_dir();
    for family in FAMILIES {
        for published in family.lists {
            let index = Verifier::family_of_list(published.name).unwrap_or_default();
            let shipped = shipped(published.name)?;
            let kept = dir.as_ref().map(|dir| dir.join(published.name)).filter(|path| path.is_file());
            if let Some(path) = kept {
                let read = read_list(&path).and_then(|list| {
                    foreign(&list, Some(index)).map_err(|why| format!("{}: {why}", path.display()))?;
                    Ok(list)
                });
                match read {
                    // A copy older than the one shipped (a mirror's stale file) gives way to it.
                    Ok(list) if shipped.as_ref().is_some_and(|shipped| is_older(&list, shipped)) => {}
                    Ok(list) => {
                        verifier.add(index, published.name, list, path.display().to_string());
                        continue;
                    }
                    Err(why) => warnings.push(format!("{why}; the list shipped with robotscope is used")),
                }
            }
            if let Some(list) = shipped {
                verifier.add(index, published.name, list, "shipped".to_owned());
            }
        }
    }
    if given.len() > MAX_GIVEN {
        return Err(format!("at most {MAX_GIVEN} lists may be given"));
    }
    for given in given {
        let (token, path) = match given.split_once('=') {
            Some(("", _)) if !Path::new(given).exists() => {
                return Err(format!("{}: TOKEN=FILE needs the robot's token", sanitize_str(given)));
            }
            Some((token, path)) if !Path::new(given).exists() => (Some(token), Path::new(path)),
            _ => (None, Path::new(given.as_str())),
        };
        let list = read_list(path)?;
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        let family = match token {
            Some(token) => verifier.family_of(token),
            None => Verifier::family_of_list(&name),
        };
        foreign(&list, family).map_err(|why| format!("{}: {why}", sanitize_str(&path.display().to_string())))?;
        match (token, Verifier::family_of_list(&name)) {
            (Some(token), _) => {
                verifier.add_for_robot(token, &format!("{name} for {token}"), list, path.display().to_string());
            }
            (None, Some(family)) => verifier.add(family, &name, list, path.display().to_string()),
            (None, None) => {
                return Err(format!(
                    "{}: not a list robotscope knows by name (googlebot.json, bingbot.json, gptbot.json, ...); \
                     write TOKEN={0} to say whose it is",
                    sanitize_str(given)
                ));
            }
        }
    }
    if !verifier.lists_left_out().is_empty() {
        warnings.push(format!(
            "the lists hold more than {} address ranges together: {} left out (their robots are unverifiable)",
            super::identity::MAX_RANGES,
            sanitize_str(&verifier.lists_left_out().join(", "))
        ));
    }
    Ok((verifier, warnings))
}

/// The list of that name shipped inside robotscope, if one is.
///
/// # Errors
///
/// Never in a build whose tests pass (the shipped lists are read by them).
pub fn shipped(name: &str) -> Result<Option<RangeList>, String> {
    EMBEDDED
        .iter()
        .find(|(shipped, _)| *shipped == name)
        .map(|(_, json)| RangeList::parse(json).map_err(|error| format!("the shipped {name}: {error}")))
        .transpose()
}

/// When a list says it was made (`creationTime`, ISO 8601 as every operator writes it,
/// read as UTC).
///
/// # Errors
///
/// When it says something that is no time, or a time to come (a list dated 9999 would
/// hold off every genuine one after it).
pub fn made(list: &RangeList) -> Result<Option<jiff::civil::DateTime>, String> {
    let Some(created) = &list.created else { return Ok(None) };
    let shown = sanitize_str(created);
    let time: jiff::civil::DateTime =
        created.trim_end_matches('Z').parse().map_err(|_| format!("its creationTime `{shown}` is no time"))?;
    let now = jiff::tz::Offset::UTC.to_datetime(jiff::Timestamp::now());
    // An hour's leeway for a clock that is a little behind.
    let soon = now.checked_add(jiff::SignedDuration::from_hours(1)).unwrap_or(now);
    if time > soon {
        return Err(format!("its creationTime `{shown}` is still to come"));
    }
    Ok(Some(time))
}

/// True when `list` says it was made before `than` (lists that do not say are not older).
#[must_use]
pub fn is_older(list: &RangeList, than: &RangeList) -> bool {
    matches!((made(list), made(than)), (Ok(Some(list)), Ok(Some(than))) if list < than)
}

/// A list file, read to `MAX_LIST_BYTES` and checked: a list without a range vouches for
/// no address, and would make every request of its robots forged.
///
/// # Errors
///
/// When it cannot be read, is longer, or is not a list of the published shape.
pub fn read_list(path: &Path) -> Result<RangeList, String> {
    let shown = sanitize_str(&path.display().to_string()).into_owned();
    // Only a regular file: opening a FIFO waits for a writer, for ever.
    let metadata = std::fs::metadata(path).map_err(|error| format!("{shown}: {error}"))?;
    if !metadata.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    let file = std::fs::File::open(path).map_err(|error| format!("{shown}: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_LIST_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(|error| format!("{shown}: {error}"))?;
    if bytes.len() > MAX_LIST_BYTES {
        return Err(format!("{shown}: longer than {} MiB", MAX_LIST_BYTES >> 20));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8"))?;
    let list = RangeList::parse(&text).map_err(|error| format!("{shown}: {error}"))?;
    check(&list).map_err(|why| format!("{shown}: {why}"))?;
    Ok(list)
}
