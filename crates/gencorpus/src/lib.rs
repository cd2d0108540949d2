//! Synthetic news articles for testing and benchmarking the ledger.
//!
//! [`generate`] writes `n` articles as JSON Lines in the format `attest` reads
//! (`id`, `title`, `outlet`, `published`, `text`). The articles are built from
//! templates and word lists written for this crate: named people,
//! organizations and unnamed sources are quoted directly, paraphrased, cited
//! with "according to", deny, decline to comment, and the article hedges
//! ("reportedly", "allegedly"). Some people share a surname, so that the
//! ledger's rule against merging bare surnames is exercised.
//!
//! **Claims travel.** Each claim (a place, a facility, an action, a figure,
//! what it counts and when, drawn apart from word lists) is first stated in one article, credited to a
//! source with a stance, and then repeated by later articles of other outlets
//! as news copy repeats a claim: credited to the same source
//! (`attributed_repeat`), stated in the writer's own voice
//! (`unattributed_repeat`), credited to someone else (`misattributed`), held
//! more firmly by its source (`hardened`: "claimed" becomes "said", "said"
//! becomes "confirmed"), or denied. Repeats use the claim's wording or a
//! shorter one without its "when". A claim is carried by 1 to 8 articles; most by one or
//! two. Claims waiting to be repeated are kept in a pool of
//! [`LIVE_CLAIMS`], so memory stays flat however many articles are written,
//! and publication dates rise with the article's index over two years, so that
//! the first appearance by publication is the first by input order too.
//! The same seed and count give the same bytes on every platform.
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

use std::collections::VecDeque;
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

/// The halves of the places claims are about: 40 × 24 one-word names
/// ("Ashcombe", "Belmere"), so that claims of one template about different
/// places are told apart by their names.
const PLACE_STARTS: [&str; 40] = [
    "Ash", "Bel", "Cor", "Dal", "Elm", "Fen", "Gar", "Hol", "Ivy", "Jar", "Kel", "Lin", "Mar",
    "Nor", "Oak", "Pel", "Quar", "Rav", "Sel", "Tor", "Ul", "Ver", "Wil", "Yar", "Brack", "Cran",
    "Dun", "Eas", "Fal", "Glen", "Hart", "Kings", "Lang", "Moss", "Nether", "Pen", "Red", "Stan",
    "Thorn", "Wex",
];

const PLACE_ENDS: [&str; 24] = [
    "combe", "mere", "ford", "wick", "dale", "ton", "field", "brook", "haven", "stead", "worth",
    "ley", "bury", "port", "moor", "gate", "holm", "by", "well", "ridge", "marsh", "wood", "cliff",
    "hurst",
];

/// The parts of a claim: "the {place} {facility} {action} {figure}
/// {counted} {when}" ("the Ashford water plant had failed 11 safety
/// inspections since 2023"). Drawn apart, they make claims that share few
/// words, as different claims in the news do, so that a claim's band keys
/// rarely meet another's.
const FACILITIES: [&str; 24] = [
    "water plant",
    "ferry terminal",
    "school district",
    "housing authority",
    "rail depot",
    "county clinic",
    "harbor bridge",
    "city council",
    "port authority",
    "fire service",
    "public library",
    "bus network",
    "power station",
    "sewer works",
    "shipyard",
    "hospital",
    "landfill",
    "police force",
    "tenant union",
    "farm cooperative",
    "airport",
    "marina",
    "community college",
    "courthouse",
];

const ACTIONS: [&str; 16] = [
    "had cut",
    "had lost",
    "would add",
    "had failed",
    "had paid for",
    "would close",
    "had hired",
    "had missed",
    "would double",
    "had recorded",
    "had turned away",
    "would replace",
    "had approved",
    "had delayed",
    "had sold",
    "had reported",
];

const COUNTED: [&str; 24] = [
    "safety inspections",
    "teaching jobs",
    "affordable units",
    "hospital beds",
    "bus routes",
    "night shifts",
    "repair crews",
    "cleaning contracts",
    "patients",
    "noise complaints",
    "ferry crossings",
    "welders",
    "street lights",
    "garbage trucks",
    "classrooms",
    "building permits",
    "overtime hours",
    "families",
    "apprentices",
    "fire hydrants",
    "parking spaces",
    "security guards",
    "small business loans",
    "fishing vessels",
];

/// When, with `{Y}` a year; the paraphrase of a repeat leaves it out.
const WHEN: [&str; 10] = [
    "since {Y}",
    "in {Y}",
    "this winter",
    "last spring",
    "before {Y}",
    "over the past year",
    "by the end of {Y}",
    "during the strike",
    "after the flood",
    "since the merger",
];

/// Quotations that are no travelling claim, each about a place (`{P}`) and
/// most with a figure (`{N}`), so that two articles rarely say the same.
/// Two keep the words the benchmark's searches look for ("bargain", "cranes
/// stand still").
const QUOTES: [&str; 12] = [
    "We have waited {N} years for the {P} repairs",
    "Nobody in {P} voted for this",
    "We are not going to bargain against ourselves in {P}",
    "Every day the cranes stand still in {P} costs the region money",
    "There are {N} families in {P} who need an answer",
    "The {P} plan was written for developers, not for us",
    "We asked for a meeting in {P} {N} times and heard nothing back",
    "I have lived in {P} for {N} years and never seen this",
    "Our {N} members in {P} have been patient for long enough",
    "This is the last thing {P} families need right now",
    "We have cut {N} jobs in {P} and there is nothing left to cut",
    "The numbers for {P} simply do not add up",
];

/// What an organization is reported to have done, with a figure.
const REPORTED_ACTIONS: [&str; 4] = [
    "hired {N} outside lawyers",
    "missed {N} payments to contractors",
    "met {N} times in private",
    "spent {N} thousand dollars on travel",
];

const HEDGES: [&str; 4] = [
    "reportedly",
    "allegedly",
    "is said to have",
    "is believed to have",
];

/// How many claims wait at most to be repeated: when a new claim finds the
/// pool full, the oldest goes unrepeated, as old news does.
pub const LIVE_CLAIMS: usize = 64;

/// The most articles beyond its first that repeat a claim.
const MOST_REPEATS: usize = 7;

/// The first publication day (2025-01-01) and how many days the articles
/// span.
const FIRST_YEAR: usize = 2025;
const DAYS: usize = 730;

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

fn place(rng: &mut SplitMix64) -> String {
    format!("{}{}", pick(rng, &PLACE_STARTS), pick(rng, &PLACE_ENDS))
}

/// Fills a template's `{P}` and `{N}`.
fn fill(template: &str, place: &str, figure: usize) -> String {
    template
        .replace("{P}", place)
        .replace("{N}", &figure.to_string())
}

/// Who a claim's origin credits it to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Credit {
    /// A person, by full name, and the surname later mentions use.
    Person(String),
    /// An organization of [`ORGANIZATIONS`].
    Organization(&'static str),
}

impl Credit {
    fn name(&self) -> String {
        match self {
            Credit::Person(name) => name.clone(),
            Credit::Organization(org) => format!("the {org}"),
        }
    }
}

/// A claim stated once and waiting to be repeated.
#[derive(Clone, Debug)]
struct LiveClaim {
    id: usize,
    place: String,
    facility: &'static str,
    action: &'static str,
    figure: usize,
    counted: &'static str,
    when: String,
    credit: Credit,
    /// Whether the origin only claimed it ("claimed"), so that its source
    /// saying it later hardens it.
    claimed: bool,
    outlet: &'static str,
    repeats_left: usize,
}

impl LiveClaim {
    fn new(rng: &mut SplitMix64, id: usize, outlet: &'static str, credit: Credit) -> LiveClaim {
        // Half of the claims stay in their first article; the others travel
        // through up to MOST_REPEATS more.
        let repeats_left = if rng.below(2) == 0 {
            0
        } else {
            1 + rng.below(MOST_REPEATS)
        };
        let year = 2019 + rng.below(11);
        LiveClaim {
            id,
            place: place(rng),
            facility: pick(rng, &FACILITIES),
            action: pick(rng, &ACTIONS),
            figure: 3 + rng.below(400),
            counted: pick(rng, &COUNTED),
            when: pick(rng, &WHEN).replace("{Y}", &year.to_string()),
            credit,
            claimed: rng.below(4) == 0,
            outlet,
            repeats_left,
        }
    }

    fn full(&self) -> String {
        format!("{} {}", self.short(), self.when)
    }

    /// The claim trimmed of when, as later copy shortens it.
    fn short(&self) -> String {
        let LiveClaim {
            place,
            facility,
            action,
            figure,
            counted,
            ..
        } = self;
        format!("the {place} {facility} {action} {figure} {counted}")
    }

    /// The wording of a repeat: the claim's own, or its shorter form.
    fn retold(&self, rng: &mut SplitMix64) -> String {
        if rng.below(2) == 0 {
            self.full()
        } else {
            self.short()
        }
    }
}

/// What a repeat does to a claim; the role attest should give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Repeat {
    Attributed,
    Unattributed,
    Misattributed,
    Hardened,
    Denied,
}

/// The claims an article states, by the claim's number: for tests.
#[derive(Debug, Default)]
struct Stated {
    origins: Vec<usize>,
    repeats: Vec<(usize, Repeat)>,
}

/// The generator's state across articles: its random numbers, the claims
/// waiting to be repeated, and the count of claims made.
struct Generator {
    rng: SplitMix64,
    live: VecDeque<LiveClaim>,
    claims: usize,
}

impl Generator {
    fn new(seed: u64) -> Generator {
        Generator {
            rng: SplitMix64::new(seed),
            live: VecDeque::with_capacity(LIVE_CLAIMS),
            claims: 0,
        }
    }

    /// A new claim of this article's, put in the pool to be repeated.
    fn new_claim(&mut self, outlet: &'static str, credit: Credit) -> LiveClaim {
        let claim = LiveClaim::new(&mut self.rng, self.claims, outlet, credit);
        self.claims += 1;
        if claim.repeats_left > 0 {
            if self.live.len() == LIVE_CLAIMS {
                self.live.pop_front();
            }
            self.live.push_back(claim.clone());
        }
        claim
    }

    /// A claim of another outlet to repeat, taken from the pool when this is
    /// its last repeat.
    fn claim_to_repeat(&mut self, outlet: &str, taken: &[usize]) -> Option<LiveClaim> {
        if self.live.is_empty() {
            return None;
        }
        let start = self.rng.below(self.live.len());
        let at = (0..self.live.len())
            .map(|step| (start + step) % self.live.len())
            .find(|&at| self.live[at].outlet != outlet && !taken.contains(&self.live[at].id))?;
        let claim = &mut self.live[at];
        claim.repeats_left -= 1;
        let chosen = claim.clone();
        if chosen.repeats_left == 0 {
            self.live.remove(at);
        }
        Some(chosen)
    }

    /// One article's headline and text, and the claims it states.
    fn article(&mut self, outlet: &'static str) -> (String, String, Stated) {
        let mut stated = Stated::default();
        let mut paragraphs = Vec::new();
        let org = pick(&mut self.rng, &ORGANIZATIONS);
        let (lead_name, lead_surname) = person(&mut self.rng);
        let title = TITLES[self.rng.below(TITLES.len())];
        let role = pick(&mut self.rng, &ROLES);
        let lead = self.new_claim(outlet, Credit::Person(lead_name.clone()));
        stated.origins.push(lead.id);
        let cue = if lead.claimed { "claimed" } else { "said" };
        paragraphs.push(format!(
            "{}, {title}{lead_name}, {role}, {cue} on Tuesday.",
            sentence_case(&lead.full())
        ));
        let headline = sentence_case(&lead.short());
        let mut repeats_left = 1 + self.rng.below(3);
        let paragraph_count = 4 + self.rng.below(4);
        for _ in 0..paragraph_count {
            let repeat = if repeats_left > 0 && self.rng.below(2) == 0 {
                let taken: Vec<usize> = stated.repeats.iter().map(|(id, _)| *id).collect();
                self.claim_to_repeat(outlet, &taken)
            } else {
                None
            };
            let paragraph = match repeat {
                Some(claim) => {
                    repeats_left -= 1;
                    let (paragraph, kind) = self.repeat(&claim);
                    stated.repeats.push((claim.id, kind));
                    paragraph
                }
                None => self.other_paragraph(outlet, org, lead_surname, &lead.place, &mut stated),
            };
            paragraphs.push(paragraph);
        }
        (headline, paragraphs.join("\n\n"), stated)
    }

    /// A paragraph that repeats `claim`, and what it does to it.
    fn repeat(&mut self, claim: &LiveClaim) -> (String, Repeat) {
        let rng = &mut self.rng;
        let said = claim.retold(rng);
        let source = claim.credit.name();
        let (other, _) = person(rng);
        let other = if Credit::Person(other.clone()) == claim.credit {
            format!("Sen. {} Ashdown", FIRST_NAMES[0])
        } else {
            other
        };
        match rng.below(10) {
            0..=2 => {
                let paragraph = if rng.below(2) == 0 {
                    format!("{} said {said}.", sentence_case(&source))
                } else {
                    format!("{}, {source} said.", sentence_case(&said))
                };
                let kind = if claim.claimed {
                    Repeat::Hardened
                } else {
                    Repeat::Attributed
                };
                (paragraph, kind)
            }
            3..=4 => (format!("{}.", sentence_case(&said)), Repeat::Unattributed),
            5..=6 => (format!("{other} said {said}."), Repeat::Misattributed),
            7 => (
                format!("{} confirmed that {said}.", sentence_case(&source)),
                Repeat::Hardened,
            ),
            _ => (format!("{other} denied that {said}."), Repeat::Denied),
        }
    }

    /// A paragraph that repeats no claim: a new claim, a quotation, a refusal
    /// to comment or a hedged report.
    fn other_paragraph(
        &mut self,
        outlet: &'static str,
        org: &'static str,
        lead_surname: &str,
        lead_place: &str,
        stated: &mut Stated,
    ) -> String {
        let (name, _) = person(&mut self.rng);
        let figure = 2 + self.rng.below(98);
        let quote = fill(pick(&mut self.rng, &QUOTES), lead_place, figure);
        match self.rng.below(8) {
            0 => format!("“{quote},” {lead_surname} said."),
            1 => format!("“{quote},” said {name}. “We will see what happens next.”"),
            2 => {
                let claim = self.new_claim(outlet, Credit::Person(name.clone()));
                stated.origins.push(claim.id);
                format!("{name} told reporters that {}.", claim.full())
            }
            3 => {
                let claim = self.new_claim(outlet, Credit::Organization(org));
                stated.origins.push(claim.id);
                format!("According to the {org}, {}.", claim.full())
            }
            4 => {
                let unnamed = pick(&mut self.rng, &UNNAMED);
                let claim = self.new_claim(outlet, Credit::Organization(org));
                stated.origins.push(claim.id);
                format!("{unnamed} said {}.", claim.full())
            }
            5 => format!(
                "A spokesperson for the {org} declined to comment. {name} did not respond to a request for comment."
            ),
            6 => {
                let action = fill(pick(&mut self.rng, &REPORTED_ACTIONS), "", figure);
                let hedge = pick(&mut self.rng, &HEDGES);
                format!("The {org} {hedge} {action}, a report said.")
            }
            _ => {
                let claim = self.new_claim(outlet, Credit::Organization(org));
                stated.origins.push(claim.id);
                format!(
                    "The {org} said in a statement that “{}” and that {}.",
                    quote.to_lowercase(),
                    claim.full()
                )
            }
        }
    }
}

/// The publication date of article `index` of `n`: the days of two years
/// shared out in order, so that a later article is never published earlier.
fn published(index: usize, n: usize) -> String {
    let mut day = index * DAYS / n.max(1);
    let mut year = FIRST_YEAR;
    loop {
        let in_year = if is_leap(year) { 366 } else { 365 };
        if day < in_year {
            break;
        }
        day -= in_year;
        year += 1;
    }
    let lengths = [
        31,
        if is_leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut month = 1;
    for length in lengths {
        if day < length {
            break;
        }
        day -= length;
        month += 1;
    }
    format!("{year}-{month:02}-{:02}", day + 1)
}

fn is_leap(year: usize) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// Writes `n` articles generated from `seed` as JSON Lines, one per line.
pub fn generate(n: usize, seed: u64, out: &mut dyn Write) -> io::Result<()> {
    generate_stated(n, seed, &mut |line, _| writeln!(out, "{line}"))
}

/// Generates `n` articles, handing each JSON line to `write` with the claims
/// it states.
fn generate_stated(
    n: usize,
    seed: u64,
    write: &mut dyn FnMut(&serde_json::Value, Stated) -> io::Result<()>,
) -> io::Result<()> {
    let mut generator = Generator::new(seed);
    for i in 0..n {
        let outlet = weighted(&mut generator.rng, &OUTLETS);
        let (title, text, stated) = generator.article(outlet);
        let line = serde_json::json!({
            "id": format!("gen-{i:06}"),
            "title": title,
            "outlet": outlet,
            "published": published(i, n),
            "text": text,
        });
        write(&line, stated)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

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
            "confirmed",
            "claimed",
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

    #[test]
    fn claims_travel_to_later_articles_of_other_outlets() {
        let mut articles_of: HashMap<usize, Vec<(String, String)>> = HashMap::new();
        let mut kinds = Vec::new();
        generate_stated(3000, 5, &mut |line, stated| {
            let at = (
                line["outlet"].as_str().unwrap().to_string(),
                line["published"].as_str().unwrap().to_string(),
            );
            for id in stated.origins {
                assert!(!articles_of.contains_key(&id), "an origin comes first");
                articles_of.entry(id).or_default().push(at.clone());
            }
            for (id, kind) in stated.repeats {
                let seen = articles_of
                    .get_mut(&id)
                    .expect("a repeat follows its origin");
                assert_ne!(seen[0].0, at.0, "repeated by another outlet");
                assert!(seen[0].1 <= at.1, "published no earlier");
                seen.push(at.clone());
                kinds.push(kind);
            }
            Ok(())
        })
        .unwrap();
        let spread: Vec<usize> = articles_of.values().map(Vec::len).collect();
        let claims = spread.len();
        assert!(claims > 3000, "{claims} claims in 3,000 articles");
        assert!(spread.iter().all(|&n| (1..=8).contains(&n)));
        let travelled = spread.iter().filter(|&&n| n >= 3).count();
        assert!(
            travelled * 10 > claims,
            "{travelled} of {claims} in 3 or more"
        );
        for kind in [
            Repeat::Attributed,
            Repeat::Unattributed,
            Repeat::Misattributed,
            Repeat::Hardened,
            Repeat::Denied,
        ] {
            assert!(kinds.contains(&kind), "{kind:?}");
        }
    }

    #[test]
    fn publication_dates_rise_over_two_years() {
        assert_eq!(published(0, 10), "2025-01-01");
        assert_eq!(published(5, 10), "2026-01-01");
        assert_eq!(published(9, 10), "2026-10-20");
        assert_eq!(published(59, 730), "2025-03-01");
        assert!((1..1000).all(|i| published(i - 1, 1000) <= published(i, 1000)));
    }
}
