//! Both taggers on arbitrary text: no panic, and every span fits the text.

use attest_doc::{Article, Doc, Published, Stage};
use attest_numbers::{QuantityTagger, TimeTagger};
use proptest::prelude::*;

/// Segmentation and tags, as the pipeline gives these stages: the unit tests' own.
#[path = "../src/testing.rs"]
mod testing;

fn check(text: &str, published: Option<Published>) -> Result<(), TestCaseError> {
    let mut article = Article::new("p", text);
    article.published = published;
    let mut doc = Doc::new(article);
    testing::prepare(&mut doc);
    QuantityTagger::new()
        .run(&mut doc)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    TimeTagger::new()
        .run(&mut doc)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for q in doc.quantities() {
        prop_assert!(!q.span.is_empty() && q.span.get(doc.text()).is_some());
        prop_assert!(q.low.is_some() || q.high.is_some());
    }
    for t in doc.times() {
        prop_assert!(!t.span.is_empty() && t.span.get(doc.text()).is_some());
        prop_assert!(t.value.is_some() != t.unresolved.is_some());
    }
    Ok(())
}

/// Words the matchers react to, so that random text exercises them.
const WORDS: &[&str] = &[
    "$",
    "€",
    "£",
    "1.2",
    "billion",
    "7.2bn",
    "5m",
    "37-year-old",
    "hundreds",
    "of",
    "tens",
    "thousands",
    "more",
    "than",
    "between",
    "and",
    "to",
    "-",
    "two-thirds",
    "a",
    "dozen",
    "half",
    "four",
    "years",
    "ago",
    "30",
    "minutes",
    "12",
    "%",
    "percent",
    "No.",
    "Route",
    "66",
    "2016",
    "May",
    "5",
    ",",
    "2025",
    "Monday",
    "night",
    "last",
    "next",
    "this",
    "week",
    "month",
    "year",
    "7:30",
    "p.m.",
    "at",
    "on",
    "yesterday",
    "earlier",
    "in",
    "the",
    "day",
    "5/5/25",
    "2026-03-04",
    "1990s",
    "'90s",
    "will",
    "said",
    "noon",
    "ET",
    "February",
    "30",
    "31st",
    "99999999999999999999",
    "0",
    "one",
    "workers",
    "old",
    "aged",
    ".",
    "Smith",
];

proptest! {
    #[test]
    fn arbitrary_text_never_breaks_the_taggers(text in "\\PC{0,80}", dated in any::<bool>()) {
        let published = dated.then(|| "2026-03-04T18:30:00-05:00".parse().ok()).flatten();
        check(&text, published)?;
    }

    #[test]
    fn trigger_words_in_any_order_never_break_the_taggers(
        words in proptest::collection::vec(proptest::sample::select(WORDS), 0..30),
        date_only in any::<bool>(),
    ) {
        let text = words.join(" ");
        let published: Option<Published> = if date_only {
            "2026-03-04".parse().ok()
        } else {
            "0001-01-01T00:00:00Z".parse().ok()
        };
        check(&text, published)?;
        check(&text, None)?;
    }
}
