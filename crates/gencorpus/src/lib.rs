//! Synthetic news articles for testing and benchmarking the ledger.
//!
//! [`generate`] writes `n` articles as JSON Lines in the format `attest` reads
//! (`id`, `title`, `outlet`, `published`, `text`). The articles are built from
//! templates and word lists written for this crate: a headline, then paragraphs
//! in which named people, organizations and unnamed sources are quoted directly,
//! paraphrased, cited with "according to", deny, decline to comment, and in
//! which the article hedges ("reportedly", "allegedly"). Some people share a
//! surname, so that the ledger's rule against merging bare surnames is
//! exercised. The same seed gives the same bytes on every platform.
//!
//! ```
//! let mut out = Vec::new();
//! attest_gencorpus::generate(3, 7, &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.lines().count(), 3);
//! let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
//! assert_eq!(first["id"], "gen-000000");
//! assert!(first["text"].as_str().unwrap().contains(" said"));
//! ```

#![deny(missing_docs)]

use std::io::{self, Write};

use attest_learn::SplitMix64;

/// Outlets, each with the share of articles it publishes (weights).
const OUTLETS: [(&str, usize); 6] = [
    ("Coast Herald", 30),
    ("Valley Times", 25),
    ("Northern Ledger", 15),
    ("Metro Daily", 15),
    ("Riverside Post", 10),
    ("Harbor Radio News", 5),
];

const FIRST_NAMES: [&str; 24] = [
    "Dana", "Lee", "Marisol", "Tobias", "Ingrid", "Kwame", "Priya", "Rafael", "Hollis", "Yusuf",
    "Bettina", "Oren", "Delphine", "Marcus", "Sunniva", "Teodor", "Amara", "Caspian", "Noor",
    "Wendell", "Ilse", "Jonah", "Renata", "Alistair",
];

const SURNAMES: [&str; 16] = [
    "Whitcombe",
    "Okafor",
    "Lindqvist",
    "Barrowman",
    "Castellano",
    "Haddad",
    "Pemberton",
    "Nakagawa",
    "Ferreira",
    "Abernathy",
    "Vasquez-Toll",
    "Mbeki",
    "Oyelaran",
    "Strand",
    "Quill",
    "Dunmore",
];

/// Titles people are introduced with; the ledger strips them when merging.
const TITLES: [&str; 6] = ["", "", "", "Dr. ", "Sen. ", "Mayor "];

const ROLES: [&str; 8] = [
    "a union organizer",
    "a city council member",
    "an economist at the state university",
    "a dockworker for 20 years",
    "the port's operations chief",
    "a parent of two",
    "a spokesperson for the transit authority",
    "a shop owner near the harbor",
];

const ORGANIZATIONS: [&str; 10] = [
    "Harbor Workers Union",
    "Brightwater Terminals Inc.",
    "Department of Transportation",
    "Tidewater Ferry Company",
    "County Board of Education",
    "Regional Housing Authority",
    "Northshore Police Department",
    "Meridian Shipping Group",
    "State Labor Board",
    "Valley Growers Association",
];

const UNNAMED: [&str; 6] = [
    "Officials",
    "Two people familiar with the talks",
    "A person close to the negotiations",
    "Several residents",
    "Analysts",
    "Union members who asked not to be named",
];

/// Topics: the words articles about them are made of.
struct Topic {
    headline: &'static str,
    subjects: &'static [&'static str],
    claims: &'static [&'static str],
    quotes: &'static [&'static str],
}

const TOPICS: [Topic; 4] = [
    Topic {
        headline: "Port talks resume as strike deadline nears",
        subjects: &[
            "the union",
            "the terminal operator",
            "negotiators",
            "the port authority",
        ],
        claims: &[
            "would return to the bargaining table next week",
            "had rejected the latest wage offer",
            "was prepared to extend the contract by 90 days",
            "could not accept cuts to overtime pay",
            "expected a tentative agreement within days",
        ],
        quotes: &[
            "We are not going to bargain against ourselves",
            "Our members have been patient for long enough",
            "Every day the cranes stand still costs the region money",
            "There is a deal to be made if both sides want one",
            "We will keep bargaining until the last minute",
        ],
    },
    Topic {
        headline: "Ferry fares to rise as fuel costs climb",
        subjects: &["the ferry company", "commuters", "the state", "regulators"],
        claims: &[
            "planned to raise fares by 12 percent in the spring",
            "had not been consulted about the increase",
            "would review the fuel surcharge in June",
            "was losing money on the island route",
        ],
        quotes: &[
            "Nobody wants to pay more to get to work",
            "The numbers simply do not add up anymore",
            "We asked for a meeting and heard nothing back",
            "This is the last thing families need right now",
        ],
    },
    Topic {
        headline: "School board weighs budget cuts",
        subjects: &["the board", "teachers", "the district", "parents"],
        claims: &[
            "would close two elementary schools next fall",
            "had found savings in the transportation budget",
            "was considering larger class sizes",
            "could lose state funding if enrollment kept falling",
        ],
        quotes: &[
            "Closing a school tears a neighborhood apart",
            "We have cut everything that can be cut",
            "The children should not pay for this mistake",
            "I have never seen a budget this tight",
        ],
    },
    Topic {
        headline: "Housing plan draws crowd at city hall",
        subjects: &[
            "the council",
            "developers",
            "tenants",
            "the housing authority",
        ],
        claims: &[
            "would allow taller buildings near the rail station",
            "had promised 400 affordable units by 2028",
            "was delaying the vote until after the summer",
            "underestimated the cost of new water lines",
        ],
        quotes: &[
            "People who work here should be able to live here",
            "This plan was written for developers, not for us",
            "We need homes, and we need them this decade",
            "Nobody has explained where the money will come from",
        ],
    },
];

const HEDGES: [&str; 4] = [
    "reportedly",
    "allegedly",
    "is said to have",
    "is believed to have",
];

/// Picks from weighted choices.
fn weighted<'a>(rng: &mut SplitMix64, choices: &[(&'a str, usize)]) -> &'a str {
    let total: usize = choices.iter().map(|(_, weight)| weight).sum();
    let mut roll = rng.below(total);
    for (choice, weight) in choices {
        if roll < *weight {
            return choice;
        }
        roll -= weight;
    }
    choices[0].0
}

fn pick<'a>(rng: &mut SplitMix64, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Capitalizes the first letter.
fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A person of the corpus: a small cast, so that names recur across articles.
fn person(rng: &mut SplitMix64) -> (String, &'static str) {
    // 24 × 16 names would rarely meet twice; a cast of 120 recurs like a beat's.
    let index = rng.below(120);
    let first = FIRST_NAMES[index % FIRST_NAMES.len()];
    let last = SURNAMES[(index * 7) % SURNAMES.len()];
    (format!("{first} {last}"), last)
}

/// One article's text and headline.
fn article(rng: &mut SplitMix64) -> (String, String) {
    let topic = &TOPICS[rng.below(TOPICS.len())];
    let mut paragraphs = Vec::new();
    let org = pick(rng, &ORGANIZATIONS);
    let (lead_name, lead_surname) = person(rng);
    let title = TITLES[rng.below(TITLES.len())];
    let role = pick(rng, &ROLES);
    let subject = pick(rng, topic.subjects);
    let claim = pick(rng, topic.claims);
    paragraphs.push(format!(
        "{} {claim}, {title}{lead_name}, {role}, said on Tuesday.",
        sentence_case(subject)
    ));
    let paragraph_count = 4 + rng.below(5);
    for _ in 0..paragraph_count {
        let subject = pick(rng, topic.subjects);
        let claim = pick(rng, topic.claims);
        let quote = pick(rng, topic.quotes);
        let (name, _) = person(rng);
        let unnamed = pick(rng, &UNNAMED);
        let paragraph = match rng.below(9) {
            0 => format!("“{quote},” {lead_surname} said."),
            1 => format!("“{quote},” said {name}. “We will see what happens next.”"),
            2 => format!("{name} told reporters that {subject} {claim}."),
            3 => format!("According to the {org}, {subject} {claim}."),
            4 => format!("{unnamed} said {subject} {claim}."),
            5 => format!("{name} denied that {subject} {claim}."),
            6 => format!(
                "A spokesperson for the {org} declined to comment. {name} did not respond to a request for comment."
            ),
            7 => format!(
                "The {org} {} {}, and {subject} {claim}, a report said.",
                pick(rng, &HEDGES),
                pick(
                    rng,
                    &[
                        "missed a payment",
                        "hired outside lawyers",
                        "met in private",
                        "changed its plans"
                    ]
                )
            ),
            _ => format!(
                "The {org} said in a statement that it “{}” and that {subject} {claim}.",
                sentence_case(quote).to_lowercase()
            ),
        };
        paragraphs.push(paragraph);
    }
    (topic.headline.to_string(), paragraphs.join("\n\n"))
}

/// Writes `n` articles generated from `seed` as JSON Lines, one per line.
pub fn generate(n: usize, seed: u64, out: &mut dyn Write) -> io::Result<()> {
    let mut rng = SplitMix64::new(seed);
    for i in 0..n {
        let outlet = weighted(&mut rng, &OUTLETS);
        let year = 2025 + rng.below(2);
        let month = 1 + rng.below(12);
        let day = 1 + rng.below(28);
        let (title, text) = article(&mut rng);
        let line = serde_json::json!({
            "id": format!("gen-{i:06}"),
            "title": title,
            "outlet": outlet,
            "published": format!("{year}-{month:02}-{day:02}"),
            "text": text,
        });
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(n: usize, seed: u64) -> String {
        let mut out = Vec::new();
        generate(n, seed, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_same_seed_gives_the_same_bytes() {
        assert_eq!(corpus(20, 1), corpus(20, 1));
        assert_ne!(corpus(20, 1), corpus(20, 2));
    }

    #[test]
    fn articles_hold_quotes_hedges_and_refusals() {
        let text = corpus(200, 3);
        for needle in [
            "“",
            " said",
            "According to",
            "denied",
            "declined to comment",
            "reportedly",
        ] {
            assert!(text.contains(needle), "{needle}");
        }
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(value["text"].as_str().is_some_and(|t| t.len() > 100));
        }
    }
}
