//! The article attest analyses when given no input.
//!
//! Written for attest (it reports on no real event), it exercises every stage:
//! direct quotes, one over two paragraphs; indirect speech; "according to"; an
//! unnamed official; a confirmation and a refusal to confirm; a denial; a claim;
//! "reportedly"; money, ages and durations; a weekday and "last month", which
//! resolve against its publication time.

use attest_doc::{Article, Published};

const TEXT: &str = include_str!("../sample/article.txt");

pub(crate) fn article() -> Article {
    Article {
        id: "sample/port-halvard-strike".to_string(),
        title: Some("Dockworkers strike at Port of Halvard over automation plan".to_string()),
        text: TEXT.to_string(),
        outlet: Some("Coastline News".to_string()),
        url: Some("https://news.example/2026/03/04/port-halvard-strike".to_string()),
        published: "2026-03-04T17:30:00-05:00".parse::<Published>().ok(),
        language: Some("en".to_string()),
    }
}
