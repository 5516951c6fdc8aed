//! A set of literal patterns that finds, for a path, every pattern that is a prefix of
//! it, in about the time of one binary search. The batch matcher uses it for plain
//! rules; the diagnostics use it to find rules that shadow others.

/// A set of literal patterns, each carrying items, that finds for a path every pattern
/// that is a prefix of it.
///
/// The patterns are sorted, and each knows its parent: the longest other pattern in the
/// set that is a prefix of it. For a path `p`, let `s` be the greatest pattern `<= p`.
/// Every pattern `q` that is a prefix of `p` sorts between `q` and `p`, hence `q <= s`,
/// and every string between `q` and `p` starts with `q`, so `q` is a prefix of `s` too:
/// the answers are `s` and its ancestors no longer than the common prefix of `s` and
/// `p`. The patterns live back to back in one buffer, for locality.
#[derive(Debug, Clone)]
pub(crate) struct PrefixSet<T> {
    /// Every distinct pattern, back to back, in sorted order.
    bytes: Vec<u8>,
    /// Each pattern's span in `bytes`.
    spans: Vec<(u32, u32)>,
    /// Each pattern's first eight bytes as a big-endian number (zero-padded), so that
    /// the binary search compares integers and reads the bytes only on a tie.
    keys: Vec<u64>,
    /// Each pattern's parent, or `NO_PARENT`.
    parent: Vec<u32>,
    /// Each pattern's span in `items` (rules written with the same pattern share it).
    item_spans: Vec<(u32, u32)>,
    items: Vec<T>,
}

const NO_PARENT: u32 = u32::MAX;

/// Tells whether two items of one pattern count as the same (see [`PrefixSet::first_of_each`]).
type SameItem<'a, T> = dyn Fn(&T, &T) -> bool + 'a;

impl<T> PrefixSet<T> {
    /// Builds the set from (pattern, item, line) triples; items of one pattern keep
    /// file order.
    pub(crate) fn new(rules: Vec<(&[u8], T, usize)>) -> PrefixSet<T> {
        PrefixSet::build(rules, None)
    }

    /// Like [`PrefixSet::new`], but an item that `same` finds equal to one its pattern
    /// already holds is left out: a pattern repeated 100,000 times must not make every
    /// lookup walk 100,000 items. `same` should sort items into a few classes (a rule's
    /// kind), since each item is compared with those its pattern holds.
    pub(crate) fn first_of_each(rules: Vec<(&[u8], T, usize)>, same: impl Fn(&T, &T) -> bool) -> PrefixSet<T> {
        PrefixSet::build(rules, Some(&same))
    }

    fn build(mut rules: Vec<(&[u8], T, usize)>, same: Option<&SameItem<'_, T>>) -> PrefixSet<T> {
        // Unstable: no scratch buffer the size of the rules (pattern and line tell all apart).
        rules.sort_unstable_by(|a, b| a.0.cmp(b.0).then(a.2.cmp(&b.2)));
        // Sized once, exactly: grown by doubling, the buffers of 2,000,000 patterns would
        // hold up to twice their size.
        let distinct = rules.chunk_by(|a, b| a.0 == b.0).count();
        let mut set = PrefixSet {
            bytes: Vec::with_capacity(rules.chunk_by(|a, b| a.0 == b.0).map(|run| run[0].0.len()).sum()),
            spans: Vec::with_capacity(distinct),
            keys: Vec::with_capacity(distinct),
            parent: Vec::with_capacity(distinct),
            item_spans: Vec::with_capacity(distinct),
            items: Vec::new(),
        };
        // Offsets are u32: a robots.txt is held in memory whole, far below 4 GiB.
        for (pattern, item, _) in rules {
            let index = set.spans.len();
            if index > 0 && set.pattern(index - 1) == pattern {
                let (start, len) = set.item_spans[index - 1];
                let held = &set.items[start as usize..(start + len) as usize];
                if same.is_none_or(|same| !held.iter().any(|held| same(held, &item))) {
                    set.items.push(item);
                    set.item_spans[index - 1].1 += 1;
                }
                continue;
            }
            // The parent is the deepest pattern on the previous pattern's chain that is
            // a prefix of this one (sorted order puts every prefix before us).
            let mut candidate = index.checked_sub(1).map_or(NO_PARENT, |i| i as u32);
            while candidate != NO_PARENT && !pattern.starts_with(set.pattern(candidate as usize)) {
                candidate = set.parent[candidate as usize];
            }
            let start = set.bytes.len() as u32;
            set.bytes.extend_from_slice(pattern);
            set.spans.push((start, pattern.len() as u32));
            set.keys.push(key_of(pattern));
            set.parent.push(candidate);
            set.item_spans.push((set.items.len() as u32, 1));
            set.items.push(item);
        }
        set.items.shrink_to_fit();
        set
    }

    /// The bytes the set holds on the heap.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.bytes.len()
            + self.spans.len() * size_of::<(u32, u32)>()
            + self.keys.len() * size_of::<u64>()
            + self.parent.len() * size_of::<u32>()
            + self.item_spans.len() * size_of::<(u32, u32)>()
            + self.items.len() * size_of::<T>()
    }

    fn pattern(&self, index: usize) -> &[u8] {
        let (start, len) = self.spans[index];
        &self.bytes[start as usize..(start + len) as usize]
    }

    /// How many patterns sort at or before `path`: a binary search that compares the
    /// eight-byte keys and reads the bytes only when the keys are equal. (Zero-padding
    /// keeps key order consistent with byte order, except that equal keys can hide a
    /// difference after the eighth byte or in trailing zero bytes.)
    fn count_not_greater(&self, path: &[u8]) -> usize {
        let path_key = key_of(path);
        let (mut low, mut high) = (0, self.keys.len());
        while low < high {
            let middle = low + (high - low) / 2;
            let key = self.keys[middle];
            if key < path_key || (key == path_key && self.pattern(middle) <= path) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }

    /// The items of every pattern that is a prefix of `path`, longest pattern first.
    pub(crate) fn matches<'a>(&'a self, path: &[u8]) -> impl Iterator<Item = &'a T> + 'a {
        let greatest = self.count_not_greater(path).checked_sub(1);
        let common = greatest.map_or(0, |index| common_prefix_len(self.pattern(index), path));
        let mut next = greatest.map_or(NO_PARENT, |index| index as u32);
        std::iter::from_fn(move || {
            while next != NO_PARENT {
                let index = next as usize;
                next = self.parent[index];
                if self.spans[index].1 as usize <= common {
                    let (start, len) = self.item_spans[index];
                    return Some(&self.items[start as usize..(start + len) as usize]);
                }
            }
            None
        })
        .flatten()
    }
}

/// The first eight bytes of `bytes` as a big-endian number, zero-padded.
fn key_of(bytes: &[u8]) -> u64 {
    let mut key = [0u8; 8];
    let len = bytes.len().min(8);
    key[..len].copy_from_slice(&bytes[..len]);
    u64::from_be_bytes(key)
}

fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_prefix_longest_first() {
        let set = PrefixSet::new(vec![
            (&b"/a"[..], 'a', 1),
            (b"/a/b", 'b', 2),
            (b"/ab", 'c', 3),
            (b"/a", 'd', 4),
            (b"", 'e', 5),
        ]);
        let found: Vec<char> = set.matches(b"/a/b/c").copied().collect();
        assert_eq!(found, ['b', 'a', 'd', 'e']);
        assert_eq!(set.matches(b"/ab").copied().collect::<Vec<_>>(), ['c', 'a', 'd', 'e']);
        assert_eq!(set.matches(b"/b").copied().collect::<Vec<_>>(), ['e']);
    }
}
