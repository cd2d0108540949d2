//! Clusters of words that mean alike (`models/word-clusters.tsv`, made by
//! `training/clusters.sh` from the accurate mode's base encoder).
//!
//! The sourcing models learn from a few thousand labelled attributions, so
//! many cue words of real copy were never seen in training. A feature naming
//! a word's cluster lets a weight learned for "hate" reach "despise", and one
//! learned for "plans" reach "is eyeing".

use std::collections::HashMap;
use std::sync::LazyLock;

/// The clusters of one word, each the cluster's number as the file writes it,
/// so that features take them without formatting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WordCluster {
    /// Its cluster among few (64): broad kinds of meaning.
    pub coarse: &'static str,
    /// Its cluster among many (512): near synonyms.
    pub fine: &'static str,
}

const CLUSTERS_TSV: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/word-clusters.tsv"
));

/// The longest word looked up; longer ones have no cluster.
const LONGEST: usize = 32;

static CLUSTERS: LazyLock<HashMap<&'static str, WordCluster>> =
    LazyLock::new(|| parse(CLUSTERS_TSV).unwrap_or_default());

/// Parses the file; a unit test holds the shipped file to it, so that what is
/// read at run time is the whole file.
fn parse(text: &'static str) -> Result<HashMap<&'static str, WordCluster>, String> {
    let mut clusters = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        let mut columns = line.split('\t');
        let (Some(word), Some(coarse), Some(fine), None) = (
            columns.next(),
            columns.next(),
            columns.next(),
            columns.next(),
        ) else {
            return Err(format!("line {}: not three columns", number + 1));
        };
        let lowercase = !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase());
        let numbered = |c: &str| c.parse::<u16>().is_ok();
        if !lowercase || word.len() > LONGEST || !numbered(coarse) || !numbered(fine) {
            return Err(format!("line {}: {line:?}", number + 1));
        }
        if clusters
            .insert(word, WordCluster { coarse, fine })
            .is_some()
        {
            return Err(format!("line {}: {word:?} twice", number + 1));
        }
    }
    Ok(clusters)
}

/// The clusters of `word`, compared lowercase; a word the file lacks is
/// looked up again without a plural or tense ending ("bristled" as
/// "bristle"). `None` when neither form is listed.
pub fn word_cluster(word: &str) -> Option<WordCluster> {
    let mut buffer = [0u8; LONGEST];
    let out = buffer.get_mut(..word.len())?;
    out.copy_from_slice(word.as_bytes());
    out.make_ascii_lowercase();
    let lower = std::str::from_utf8(out).ok()?;
    let clusters = &*CLUSTERS;
    if let Some(&cluster) = clusters.get(lower) {
        return Some(cluster);
    }
    const ENDINGS: [(&str, &str); 7] = [
        ("ies", "y"),
        ("ied", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
    ];
    ENDINGS.iter().find_map(|(ending, replacement)| {
        let stem = lower.strip_suffix(ending)?;
        let mut base = [0u8; LONGEST];
        let joined = base.get_mut(..stem.len() + replacement.len())?;
        joined[..stem.len()].copy_from_slice(stem.as_bytes());
        joined[stem.len()..].copy_from_slice(replacement.as_bytes());
        clusters.get(std::str::from_utf8(joined).ok()?).copied()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_whole() {
        let clusters = parse(CLUSTERS_TSV).unwrap();
        let rows = CLUSTERS_TSV.lines().filter(|l| !l.starts_with('#')).count();
        assert_eq!(clusters.len(), rows);
        assert!(rows > 50_000, "{rows} words");
    }

    #[test]
    fn words_are_looked_up_lowercase_and_without_their_endings() {
        let said = word_cluster("said").unwrap();
        assert_eq!(word_cluster("Said"), Some(said));
        assert_eq!(word_cluster("SAID"), Some(said));
        assert_eq!(word_cluster("zzzzqx"), None);
        assert_eq!(word_cluster(""), None);
        assert_eq!(word_cluster("Müller"), None);
        assert_eq!(word_cluster(&"a".repeat(LONGEST + 1)), None);
    }

    #[test]
    fn malformed_rows_are_refused_with_their_line() {
        assert!(parse("said\t1\t2\n").is_ok());
        assert_eq!(
            parse("# header\nsaid\t1\n").unwrap_err(),
            "line 2: not three columns"
        );
        assert!(parse("Said\t1\t2\n").is_err());
        assert!(parse("said\tone\t2\n").is_err());
        assert!(parse("said\t1\t2\nsaid\t1\t2\n").is_err());
    }
}
