//! Source identity across articles: which sources of different articles are
//! the same person or organization.
//!
//! The rule is deliberately conservative, because a wrong merge puts one
//! person's words in another's mouth while a missed merge only splits a count:
//!
//! - A **person** is merged only by a full name: after honorifics and titles
//!   ("Mr.", "Sen.", "President") are dropped, at least two words must remain and
//!   the first must be more than an initial. "Chris Smalls" in two articles is one
//!   source; "Mr. Smalls", "Smalls" or "C. Smalls" are never merged with anyone,
//!   so two people who share a surname are never joined.
//! - An **organization** or **media outlet** is merged by its whole name, without
//!   a leading "the": "the Teamsters Union" and "Teamsters Union" are one source,
//!   "Teamsters" is another. The name must be specific: it holds a capitalized
//!   word that is not a noun that describes (attest-lang's
//!   `head-nouns.tsv`, its `description` use), so "the union", "the company",
//!   "Police" or "the terminal operator" stay with their article, since every
//!   article's union is a different one.
//! - **Unnamed** sources, **documents** and **social-media** posts are never
//!   merged: "officials" in one article are not those of the next.
//!
//! Names are compared after Unicode compatibility normalization, lowercasing,
//! straightening of curly apostrophes, removal of periods and commas, and
//! collapsing of spaces, so "J.R. Ortiz-Lee" and "JR Ortiz-Lee" compare equal
//! while "Ortiz Lee" does not.

use crate::describes;
use attest_doc::{SourceKind, serde_name};
use unicode_normalization::UnicodeNormalization;

/// Whether an organization's name picks out one organization: some word of it,
/// after a leading "the", is capitalized and not a noun that describes.
fn is_specific(name: &str) -> bool {
    let name = name.trim();
    let name = ["the ", "The ", "THE "]
        .iter()
        .find_map(|article| name.strip_prefix(article))
        .unwrap_or(name);
    name.split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| !c.is_alphanumeric());
        word.chars().next().is_some_and(char::is_uppercase) && !describes(&word.to_lowercase())
    })
}

/// A name in the form names are compared in (see the module docs).
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for ch in name.nfkc().flat_map(char::to_lowercase) {
        match ch {
            '\u{2019}' | '\u{2018}' | '`' => out.push('\''),
            '.' | ',' => {}
            ch if ch.is_whitespace() => {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
            }
            ch => out.push(ch),
        }
    }
    // Dropping a period can leave two combining marks side by side, whose
    // canonical order differs from the order they were written in; composing
    // again puts them in it, so a normalized name normalizes to itself.
    out.trim_end().nfc().collect()
}

/// The name a source is looked up by in `attest said`: normalized, and for a
/// person without titles; for an organization without a leading "the".
pub fn lookup_name(name: &str, kind: SourceKind) -> String {
    let normalized = normalize(name);
    match kind {
        SourceKind::Person => person_words(&normalized).join(" "),
        _ => without_article(&normalized).to_string(),
    }
}

/// The name a query is looked up by: with titles and a leading "the" dropped,
/// since the query does not say what kind of source it names.
pub fn query_name(name: &str) -> String {
    let normalized = normalize(name);
    person_words(without_article(&normalized)).join(" ")
}

/// The identity key under which sources of different articles are merged, or
/// `None` for a source that is never merged (see the module docs).
pub fn identity_key(name: &str, kind: SourceKind) -> Option<String> {
    let normalized = normalize(name);
    match kind {
        SourceKind::Person => {
            let words = person_words(&normalized);
            let first_is_a_name = words
                .first()
                .is_some_and(|word| word.chars().filter(|c| c.is_alphabetic()).count() >= 2);
            (words.len() >= 2 && first_is_a_name).then(|| format!("person:{}", words.join(" ")))
        }
        SourceKind::Organization | SourceKind::MediaOutlet => {
            let key = without_article(&normalized);
            (!key.is_empty() && is_specific(name)).then(|| format!("{}:{key}", serde_name(&kind)))
        }
        _ => None,
    }
}

fn person_words(normalized: &str) -> Vec<&str> {
    let words: Vec<&str> = normalized.split(' ').filter(|w| !w.is_empty()).collect();
    // Titles and the words before them ("former", "acting") from the shared
    // list; a modifier counts only before a title, so "Vice" alone stays.
    let mut titles = 0;
    for (i, word) in words.iter().enumerate() {
        match crate::title(word).and_then(|title| title.used_as) {
            None => break,
            Some(crate::TitleUse::Title) => titles = i + 1,
            Some(crate::TitleUse::Modifier) => {}
        }
    }
    words[titles..].to_vec()
}

fn without_article(normalized: &str) -> &str {
    normalized.strip_prefix("the ").unwrap_or(normalized)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn people_merge_by_full_name_only() {
        let key = |name| identity_key(name, SourceKind::Person);
        assert_eq!(
            key("Dana Whitcombe").as_deref(),
            Some("person:dana whitcombe")
        );
        assert_eq!(key("Ms. Dana Whitcombe"), key("Dana Whitcombe"));
        assert_eq!(key("Former Gov. Dana  Whitcombe"), key("dana whitcombe"));
        assert_eq!(key("Mr. Whitcombe"), None, "a bare surname is never merged");
        assert_eq!(key("Whitcombe"), None);
        assert_eq!(key("D. Whitcombe"), None, "an initial is not a first name");
        assert_ne!(key("Dana Whitcombe"), key("Lee Whitcombe"));
        assert_ne!(key("Dana Whitcombe"), key("Dana Whitcombe Jr."));
    }

    /// The ledger drops the titles the resolver knows ("Adm." and "Atty." were
    /// missing here, so "Adm. Jane Doe" and "Jane Doe" were two people); a
    /// word that only stands before a title is dropped only before one.
    #[test]
    fn every_title_of_the_shared_list_is_dropped() {
        let key = |name| identity_key(name, SourceKind::Person);
        assert_eq!(key("Adm. Jane Doe"), key("Jane Doe"));
        assert_eq!(key("Atty. Jane Doe"), key("Jane Doe"));
        assert_eq!(key("Former Deputy Jane Doe"), key("Jane Doe"));
        assert_eq!(key("Acting Prime Minister Jane Doe"), key("Jane Doe"));
        assert_eq!(
            key("Vice Jane Doe").as_deref(),
            Some("person:vice jane doe")
        );
    }

    #[test]
    fn descriptions_of_organizations_stay_with_their_article() {
        let org = |name| identity_key(name, SourceKind::Organization);
        for name in [
            "the union",
            "The Union",
            "the company",
            "Police",
            "police",
            "officials",
            "the terminal operator",
            "the State Department",
            "the county elections office",
        ] {
            assert_eq!(org(name), None, "{name}");
        }
        assert_eq!(
            org("the Harbor Workers Union").as_deref(),
            Some("organization:harbor workers union")
        );
        assert!(org("Brightwater Police Department").is_some());
        assert!(org("NASA").is_some());
        assert!(identity_key("The Daily Ledger", SourceKind::MediaOutlet).is_some());
    }

    #[test]
    fn organizations_merge_by_whole_name_and_others_never() {
        let key = |name, kind| identity_key(name, kind);
        assert_eq!(
            key("the Harbor Workers Union", SourceKind::Organization),
            key("Harbor Workers Union", SourceKind::Organization)
        );
        assert_ne!(
            key("Harbor Workers Union", SourceKind::Organization),
            key("Harbor Workers", SourceKind::Organization)
        );
        assert_ne!(
            key("Tribune", SourceKind::Organization),
            key("Tribune", SourceKind::MediaOutlet)
        );
        assert_eq!(key("officials", SourceKind::Unnamed), None);
        assert_eq!(key("the report", SourceKind::Document), None);
    }

    #[test]
    fn normalization_ignores_case_periods_and_quote_styles() {
        assert_eq!(normalize("J.R.  O’Neill-Baptiste"), "jr o'neill-baptiste");
        assert_eq!(normalize("ＡＢＣ News"), "abc news", "compatibility forms");
        let marks_a_period_kept_apart = "\u{1e08f}.\u{11d42}";
        let once = normalize(marks_a_period_kept_apart);
        assert_eq!(normalize(&once), once, "combining marks in canonical order");
        assert_eq!(query_name("Mr. Whitcombe"), "whitcombe");
        assert_eq!(
            lookup_name("Mr. Whitcombe", SourceKind::Person),
            "whitcombe"
        );
        assert_eq!(
            query_name("the Harbor Workers Union"),
            "harbor workers union"
        );
    }

    proptest! {
        #[test]
        fn a_person_key_always_holds_two_words_or_none(name in "[A-Za-z. ]{0,30}") {
            if let Some(key) = identity_key(&name, SourceKind::Person) {
                let words = key.trim_start_matches("person:").split(' ').count();
                prop_assert!(words >= 2, "{key}");
            }
        }

        #[test]
        fn normalizing_twice_changes_nothing(name in "\\PC{0,30}") {
            let once = normalize(&name);
            prop_assert_eq!(normalize(&once), once.clone());
        }
    }
}
