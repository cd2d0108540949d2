//! Duplicate article ids within one run.
//!
//! Two records that give the same id are one article to the ledger and one
//! file name to `analyze --out`; when their content differs, that is a fault
//! of the input that must be reported, never resolved by keeping either.

use std::collections::HashMap;

use attest_doc::Article;
use attest_ledger::content_hash;

/// The ids given by the inputs of a run, each with its content hash and the
/// place it was first read at.
#[derive(Debug, Default)]
pub(crate) struct SeenIds {
    seen: HashMap<String, (String, String)>,
}

impl SeenIds {
    /// Notes an article whose id the input gave, read at `place`. An article
    /// with the same id and different content read earlier is an error whose
    /// message names both places; the same content again is fine (a record
    /// repeated, which the ledger stores once).
    pub(crate) fn note(&mut self, article: &Article, place: &str) -> Result<(), String> {
        let hash = content_hash(article);
        match self.seen.get(&article.id) {
            Some((first_hash, _)) if *first_hash == hash => Ok(()),
            Some((_, first_place)) => Err(format!(
                "{place}: id {:?} was already given by {first_place} to an article with \
                 different content; ids must be unique",
                article.id
            )),
            None => {
                self.seen
                    .insert(article.id.clone(), (hash, place.to_string()));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_id_is_an_error_only_with_different_content() {
        let mut seen = SeenIds::default();
        let first = Article::new("a1", "The mayor said the road would reopen.");
        assert_eq!(seen.note(&first, "f.jsonl:1"), Ok(()));
        assert_eq!(seen.note(&first, "f.jsonl:2"), Ok(()));
        let other = Article::new("a1", "A different story.");
        let err = seen.note(&other, "f.jsonl:3").unwrap_err();
        assert!(
            err.starts_with("f.jsonl:3: ") && err.contains("f.jsonl:1"),
            "{err}"
        );
    }
}
