//! Feature names and their ids.
//!
//! A stage describes each position by feature strings ("suffix=ing", "prev=DT");
//! a [`FeatureTable`] gives each distinct string a dense `u32` id. Strings are
//! looked up by a 64-bit FNV-1a hash, so that a [`FeatureWriter`] can format a
//! feature into one reused buffer and find its id without allocating.

use std::collections::HashMap;
use std::fmt::{self, Write};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The FNV-1a hash of what `hash` hashed followed by `bytes`: a feature's
/// hash can start from its prefix's, computed once (in a `const`).
#[inline]
pub const fn fnv1a64_extend(mut hash: u64, bytes: &[u8]) -> u64 {
    let mut at = 0;
    while at < bytes.len() {
        hash ^= bytes[at] as u64;
        hash = hash.wrapping_mul(FNV_PRIME);
        at += 1;
    }
    hash
}

/// The 64-bit FNV-1a hash of some bytes.
#[inline]
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_extend(FNV_OFFSET, bytes)
}

/// The FNV-1a hash of the concatenation of `parts`, without concatenating them.
pub fn fnv1a64_parts(parts: &[&str]) -> u64 {
    parts.iter().fold(FNV_OFFSET, |hash, part| {
        fnv1a64_extend(hash, part.as_bytes())
    })
}

/// The last `n` characters of a word (the whole word when it is shorter), for
/// suffix features.
pub fn last_chars(word: &str, n: usize) -> &str {
    let start = word
        .char_indices()
        .rev()
        .nth(n.saturating_sub(1))
        .map_or(0, |(at, _)| at);
    word.get(start..).unwrap_or(word)
}

/// The first `n` characters of a word (the whole word when it is shorter), for
/// prefix features.
pub fn first_chars(word: &str, n: usize) -> &str {
    let end = word.char_indices().nth(n).map_or(word.len(), |(at, _)| at);
    word.get(..end).unwrap_or(word)
}

/// A hasher for keys that are already hashes (such as [`fnv1a64`] values):
/// it passes a `u64` through, so maps keyed by hashes skip hashing twice.
#[derive(Default, Clone, Copy, Debug)]
pub struct IdentityHasher(u64);

/// The `BuildHasher` of [`IdentityHasher`], for `HashMap<u64, V, Prehashed>`.
pub type Prehashed = BuildHasherDefault<IdentityHasher>;

// Inline across crates: a map lookup is a handful of instructions around these.
impl Hasher for IdentityHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys reach this hasher; fold anything else in for safety.
        self.0 = fnv1a64(bytes) ^ self.0.rotate_left(5);
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

pub(crate) type HashIds = HashMap<u64, u32, Prehashed>;

/// Feature strings and their dense ids, in the order they were first seen.
///
/// Two strings with the same 64-bit hash would share an id (the first keeps
/// it); with the few million features a model holds, the chance of that is
/// below one in a billion. The map from hashes to ids is built on first use,
/// so a model loaded only to be scored through a [`crate::Scorer`] never pays
/// for it.
#[derive(Clone, Debug, Default)]
pub struct FeatureTable {
    ids: OnceLock<HashIds>,
    /// Every name, concatenated; `ends[i]` is where name `i` ends.
    text: String,
    ends: Vec<u32>,
}

impl FeatureTable {
    /// An empty table.
    pub fn new() -> FeatureTable {
        FeatureTable::default()
    }

    /// How many features it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn map(&self) -> &HashIds {
        self.ids.get_or_init(|| {
            let mut ids = HashIds::default();
            ids.reserve(self.ends.len());
            for (hash, id) in self.hashes() {
                ids.entry(hash).or_insert(id);
            }
            ids
        })
    }

    /// The id of a name, adding it when new; `None` only when the table is full
    /// (4 billion names, or 4 GiB of name text).
    pub fn intern(&mut self, name: &str) -> Option<u32> {
        let hash = fnv1a64(name.as_bytes());
        if let Some(id) = self.map().get(&hash) {
            return Some(*id);
        }
        let id = u32::try_from(self.ends.len()).ok()?;
        let end = u32::try_from(self.text.len() + name.len()).ok()?;
        self.ids.get_mut()?.insert(hash, id);
        self.text.push_str(name);
        self.ends.push(end);
        Some(id)
    }

    /// The id of a name, if the table holds it.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.map().get(&fnv1a64(name.as_bytes())).copied()
    }

    /// The id of the name made of `parts` concatenated, if the table holds it.
    pub fn get_parts(&self, parts: &[&str]) -> Option<u32> {
        self.map().get(&fnv1a64_parts(parts)).copied()
    }

    /// The name of an id.
    pub fn name(&self, id: u32) -> Option<&str> {
        let index = id as usize;
        let end = *self.ends.get(index)? as usize;
        let start = match index.checked_sub(1) {
            Some(previous) => *self.ends.get(previous)? as usize,
            None => 0,
        };
        self.text.get(start..end)
    }

    /// The key of every feature, by id: the hash of its name, by which a
    /// [`crate::Scorer`] finds it and a [`crate::Model`] file stores it.
    pub fn keys(&self) -> Vec<u64> {
        self.hashes().map(|(hash, _)| hash).collect()
    }

    /// Every (hash, id) pair, in id order.
    fn hashes(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let mut start = 0;
        self.ends.iter().zip(0u32..).map(move |(end, id)| {
            let name = self.text.get(start..*end as usize).unwrap_or_default();
            start = *end as usize;
            (fnv1a64(name.as_bytes()), id)
        })
    }
}

/// How a [`FeatureWriter`] turns names into ids: by adding them (training) or
/// only finding them (tagging).
pub trait Lookup {
    /// The id of `name`, or `None` when it has none.
    fn id(&mut self, name: &str) -> Option<u32>;

    /// The id of the name made of `parts` concatenated; `buffer` is scratch space.
    fn id_of_parts(&mut self, parts: &[&str], buffer: &mut String) -> Option<u32> {
        buffer.clear();
        parts.iter().for_each(|part| buffer.push_str(part));
        self.id(buffer)
    }
}

impl Lookup for FeatureTable {
    fn id(&mut self, name: &str) -> Option<u32> {
        self.intern(name)
    }
}

/// A read-only view of a table: unknown names get no id.
#[derive(Clone, Copy, Debug)]
pub struct Frozen<'a>(pub &'a FeatureTable);

impl Lookup for Frozen<'_> {
    fn id(&mut self, name: &str) -> Option<u32> {
        self.0.get(name)
    }

    fn id_of_parts(&mut self, parts: &[&str], _: &mut String) -> Option<u32> {
        // Hashing the parts in turn finds the name without writing it out.
        self.0.get_parts(parts)
    }
}

/// Collects the feature ids of one position, formatting each name into a
/// buffer it reuses, so extraction allocates nothing once warmed up.
#[derive(Clone, Debug, Default)]
pub struct FeatureWriter {
    buffer: String,
    ids: Vec<u32>,
}

impl FeatureWriter {
    /// An empty writer.
    pub fn new() -> FeatureWriter {
        FeatureWriter::default()
    }

    /// Forgets the ids collected so far.
    pub fn clear(&mut self) {
        self.ids.clear();
    }

    /// Adds the feature named by `name` (use `format_args!`), if it has an id.
    pub fn add<L: Lookup>(&mut self, lookup: &mut L, name: fmt::Arguments<'_>) {
        self.buffer.clear();
        if self.buffer.write_fmt(name).is_ok()
            && let Some(id) = lookup.id(&self.buffer)
        {
            self.ids.push(id);
        }
    }

    /// Adds the feature whose name is `parts` concatenated, if it has an id;
    /// cheaper than [`FeatureWriter::add`] when looking up in a [`Frozen`] table.
    pub fn add_parts<L: Lookup>(&mut self, lookup: &mut L, parts: &[&str]) {
        if let Some(id) = lookup.id_of_parts(parts, &mut self.buffer) {
            self.ids.push(id);
        }
    }

    /// The ids collected since the last [`FeatureWriter::clear`].
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_and_finds_names() {
        let mut table = FeatureTable::new();
        assert_eq!(table.intern("w=the"), Some(0));
        assert_eq!(table.intern("suffix=he"), Some(1));
        assert_eq!(table.intern("w=the"), Some(0));
        assert_eq!(table.get("suffix=he"), Some(1));
        assert_eq!(table.get("w=a"), None);
        assert_eq!(table.name(1), Some("suffix=he"));
        assert_eq!(table.name(2), None);
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn writer_adds_when_training_and_skips_unknown_when_frozen() {
        let mut table = FeatureTable::new();
        let mut writer = FeatureWriter::new();
        writer.add(&mut table, format_args!("w={}", "said"));
        writer.add(&mut table, format_args!("suffix={}", "aid"));
        assert_eq!(writer.ids(), [0, 1]);
        writer.clear();
        let mut frozen = Frozen(&table);
        writer.add(&mut frozen, format_args!("w={}", "told"));
        writer.add(&mut frozen, format_args!("suffix={}", "aid"));
        writer.add_parts(&mut frozen, &["w=", "sa", "id"]);
        writer.add_parts(&mut frozen, &["w=", "told"]);
        assert_eq!(writer.ids(), [1, 0]);
        writer.add_parts(&mut table, &["w=", "told"]);
        assert_eq!(writer.ids(), [1, 0, 2]);
        assert_eq!(table.get("w=told"), Some(2));
    }

    #[test]
    fn affixes_count_characters_not_bytes() {
        assert_eq!(last_chars("café", 2), "fé");
        assert_eq!(last_chars("a", 3), "a");
        assert_eq!(first_chars("Élan", 1), "É");
        assert_eq!(first_chars("Élan", 9), "Élan");
        assert_eq!(first_chars("", 2), "");
    }

    #[test]
    fn fnv_matches_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64_parts(&["ab", "", "c"]), fnv1a64(b"abc"));
        const AB: u64 = fnv1a64(b"ab");
        assert_eq!(fnv1a64_extend(AB, b"c"), fnv1a64(b"abc"));
    }
}
