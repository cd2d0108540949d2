//! Quantities and time expressions in news text.
//!
//! Two pipeline stages share one number grammar ("four", "two-thirds", "a
//! dozen", "1.2 billion", "7.2bn", "hundreds of"):
//!
//! - [`QuantityTagger`] assigns [`Layer::Quantities`](attest_doc::Layer): each
//!   number with its value (exact, a range, or a bound), its unit (an ISO 4217
//!   code, "percent", an age, a duration, or the counted noun) and its span. The
//!   conventions are in the [`quantity`] module.
//! - [`TimeTagger`] assigns [`Layer::Times`](attest_doc::Layer): dates, weekdays,
//!   relative phrases, times of day and durations, resolved against the
//!   article's publication time as ISO 8601 values with a granularity, or left
//!   unresolved with the reason. The conventions are in the [`time`] module.
//!
//! Both work over the tokens, sentences and part-of-speech tags of the
//! document with small matchers, so they need a segmented and tagged document
//! (`attest_text::Segmenter`, `attest_tag::Tagger`). [`eval`] runs them over
//! test sets.
//!
//! ```
//! use attest_doc::{Article, Doc, Granularity, Limits, Stage};
//! use attest_tag::Tagger;
//! use attest_numbers::{QuantityTagger, TimeTagger};
//!
//! let text = "The city spent $1.2 billion over four years. The mayor said on Monday night that 12% of it was wasted.";
//! let mut article = Article::new("a1", text);
//! article.published = Some("2026-03-04T18:30:00-05:00".parse().unwrap());
//! let mut doc = Doc::new(article);
//! doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT)).unwrap();
//! Tagger::shared().unwrap().run(&mut doc).unwrap();
//! QuantityTagger::new().run(&mut doc).unwrap();
//! TimeTagger::new().run(&mut doc).unwrap();
//!
//! let money = &doc.quantities()[0];
//! assert_eq!(doc.span_text(money.span), "$1.2 billion");
//! assert_eq!((money.low, money.high, money.unit.as_str()), (Some(1.2e9), Some(1.2e9), "USD"));
//! assert_eq!(doc.quantities()[2].unit, "percent");
//!
//! let monday = &doc.times()[1];
//! assert_eq!(doc.span_text(monday.span), "Monday night");
//! assert_eq!(monday.value.as_deref(), Some("2026-03-02T20:00/2026-03-03T06:00"));
//! assert_eq!(monday.granularity, Some(Granularity::PartOfDay));
//! ```

#![deny(missing_docs)]

pub mod eval;
mod number;
pub mod quantity;
pub mod time;
mod view;

#[cfg(test)]
mod testing;

pub use eval::{
    Analyse, EvalError, EvalFailure, EvalReport, eval_quantities, eval_quantities_str, eval_times,
    eval_times_str,
};
pub use quantity::QuantityTagger;
pub use time::TimeTagger;
