//! Scoring claim grouping and roles against a provenance set: articles with
//! gold rows that give each appearance of a claim its claim, role and source
//! (`eval/claims/README.md` describes the format).
//!
//! - **Grouping**: pairwise precision, recall and F1 over the gold
//!   appearances. Two appearances of one gold claim are a pair; a found pair
//!   is two found appearances put in one claim. Recall counts the pairs of
//!   appearances never found as missed.
//! - **First appearance**: a gold claim's first appearance is right when its
//!   origin is found and is the first appearance of the claim that holds the
//!   most of the gold claim's appearances.
//! - **Roles**: the role of each gold appearance found, against its gold role.

use std::collections::HashMap;
use std::fmt;

use attest_doc::{Doc, Published};

use crate::index::ClaimIndex;
use crate::role::{Appearance, Role, roles, source_key};
use crate::statement::{Statement, in_grouping_order};

/// One gold row: an appearance of a claim.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GoldAppearance {
    /// The article's id.
    pub article: String,
    /// The gold claim's id.
    pub claim: String,
    /// Its gold role.
    pub role: Role,
    /// The canonical name it credits the claim to; `None` for none.
    pub source: Option<String>,
    /// Its span in code points of the article's text.
    pub chars: (usize, usize),
}

/// A gold file that does not read.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct GoldError {
    line: usize,
    message: String,
}

/// The rows of a gold file: a header, then `article claim role source start
/// end text`, tab-separated.
pub fn read_gold(contents: &str) -> Result<Vec<GoldAppearance>, GoldError> {
    let mut rows = Vec::new();
    for (number, line) in contents.lines().enumerate().skip(1) {
        let line_number = number + 1;
        let error = |message: String| GoldError {
            line: line_number,
            message,
        };
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [article, claim, role, source, start, end, ..] = fields.as_slice() else {
            return Err(error(format!(
                "expected 7 tab-separated fields, found {}",
                fields.len()
            )));
        };
        let role = role
            .parse::<Role>()
            .map_err(|_| error(format!("unknown role {role:?}")))?;
        let offset = |field: &str| {
            field
                .parse::<usize>()
                .map_err(|_| error(format!("{field:?} is no code-point offset")))
        };
        rows.push(GoldAppearance {
            article: (*article).to_string(),
            claim: (*claim).to_string(),
            role,
            source: (*source != "-").then(|| (*source).to_string()),
            chars: (offset(start)?, offset(end)?),
        });
    }
    Ok(rows)
}

/// One statement put in a claim, where it stands in the corpus.
#[derive(Clone, Debug)]
pub struct Grouped {
    /// The index of its article in the input.
    pub article: usize,
    /// The statement.
    pub statement: Statement,
    /// Its claim.
    pub claim: u64,
    /// Its role in the claim.
    pub role: Role,
}

/// Groups the statements of `docs` into claims, taking the articles in order
/// of publication (those without a time last), then of input, as an ingest in
/// that order would, and gives each appearance its role.
pub fn group(docs: &[Doc]) -> Vec<Grouped> {
    let mut order: Vec<usize> = (0..docs.len()).collect();
    order.sort_by_key(|&i| (publication_order(docs[i].article().published), i));
    let mut index = ClaimIndex::new();
    let mut grouped = Vec::new();
    for &article in &order {
        for statement in in_grouping_order(&docs[article]) {
            if let Some(claim) =
                index.add(statement.fingerprint.clone(), statement.may_start_a_claim())
            {
                grouped.push(Grouped {
                    article,
                    statement,
                    claim,
                    role: Role::Origin,
                });
            }
        }
    }
    let rank: HashMap<usize, usize> = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| (i, rank))
        .collect();
    let mut by_claim: HashMap<u64, Vec<usize>> = HashMap::new();
    for (at, item) in grouped.iter().enumerate() {
        by_claim.entry(item.claim).or_default().push(at);
    }
    for members in by_claim.values_mut() {
        members.sort_by_key(|&at| {
            let item = &grouped[at];
            (
                rank[&item.article],
                item.statement.extent().map(|span| span.byte_start()),
            )
        });
        let appearances: Vec<Appearance<String>> = members
            .iter()
            .map(|&at| {
                let item = &grouped[at];
                Appearance {
                    source: item
                        .statement
                        .source
                        .and_then(|source| docs[item.article].sources().get(source))
                        .map(|source| source_key(&source.name, source.kind)),
                    stance: item.statement.stance,
                    hedged: item.statement.hedged,
                }
            })
            .collect();
        for (&at, role) in members.iter().zip(roles(&appearances)) {
            grouped[at].role = role;
        }
    }
    grouped
}

/// The key articles are ordered by for roles: the instant of publication (a
/// date alone counts from its midnight in UTC), articles without one last.
pub fn publication_order(published: Option<Published>) -> (bool, Option<jiff::Timestamp>) {
    let moment = match published {
        Some(Published::Instant(timestamp, _)) => Some(timestamp),
        Some(Published::Date(date)) => jiff::tz::TimeZone::UTC
            .to_timestamp(date.to_datetime(jiff::civil::Time::midnight()))
            .ok(),
        None => None,
    };
    (moment.is_none(), moment)
}

/// The scores of a provenance set.
#[derive(Clone, Debug, Default)]
pub struct ClaimsReport {
    /// Gold appearances, and those found in a claim.
    pub appearances: (usize, usize),
    /// Pairs found in one claim that are one gold claim, pairs found in one
    /// claim, and gold pairs.
    pub pairs: (usize, usize, usize),
    /// Gold claims whose first appearance is right, and gold claims.
    pub first: (usize, usize),
    /// Roles right, and gold appearances found.
    pub roles: (usize, usize),
    /// Gold role against the role found, over the appearances found.
    pub confusion: HashMap<(Role, Role), usize>,
    /// What went wrong, one line each.
    pub mistakes: Vec<String>,
}

impl ClaimsReport {
    /// Pairwise precision, recall and F1 of the grouping.
    pub fn pairwise(&self) -> (f64, f64, f64) {
        let (right, found, gold) = self.pairs;
        let precision = ratio(right, found);
        let recall = ratio(right, gold);
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        (precision, recall, f1)
    }

    /// The share of gold claims whose first appearance is right.
    pub fn first_accuracy(&self) -> f64 {
        ratio(self.first.0, self.first.1)
    }

    /// The share of found appearances whose role is right.
    pub fn role_accuracy(&self) -> f64 {
        ratio(self.roles.0, self.roles.1)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// Scores the claims grouped from `docs` against `gold`.
pub fn score(docs: &[Doc], gold: &[GoldAppearance]) -> ClaimsReport {
    let grouped = group(docs);
    let article_of: HashMap<&str, usize> = docs
        .iter()
        .enumerate()
        .map(|(i, doc)| (doc.article().id.as_str(), i))
        .collect();
    let mut report = ClaimsReport::default();
    // The grouped statement each gold appearance is found as: the one of its
    // article that overlaps it most.
    let found: Vec<Option<usize>> = gold
        .iter()
        .map(|row| {
            let article = *article_of.get(row.article.as_str())?;
            let text = docs[article].text();
            let (start, end) = byte_range(text, row.chars)?;
            grouped
                .iter()
                .enumerate()
                .filter(|(_, item)| item.article == article)
                .filter_map(|(at, item)| {
                    let overlap: usize = item
                        .statement
                        .spans
                        .iter()
                        .map(|span| {
                            span.byte_end()
                                .min(end)
                                .saturating_sub(span.byte_start().max(start))
                        })
                        .sum();
                    (overlap > 0).then_some((overlap, at))
                })
                .max_by_key(|(overlap, at)| (*overlap, std::cmp::Reverse(*at)))
                .map(|(_, at)| at)
        })
        .collect();
    report.appearances = (gold.len(), found.iter().flatten().count());
    for (i, a) in gold.iter().enumerate() {
        for (j, b) in gold.iter().enumerate().skip(i + 1) {
            let same_gold = a.claim == b.claim;
            let same_found = match (found[i], found[j]) {
                (Some(x), Some(y)) => grouped[x].claim == grouped[y].claim,
                _ => false,
            };
            report.pairs.0 += usize::from(same_gold && same_found);
            report.pairs.1 += usize::from(same_found);
            report.pairs.2 += usize::from(same_gold);
        }
    }
    let mut gold_claims: Vec<&str> = gold.iter().map(|row| row.claim.as_str()).collect();
    gold_claims.sort_unstable();
    gold_claims.dedup();
    for claim in gold_claims {
        report.first.1 += 1;
        let rows: Vec<usize> = (0..gold.len())
            .filter(|&i| gold[i].claim == claim)
            .collect();
        let mut votes: HashMap<u64, usize> = HashMap::new();
        for &i in &rows {
            if let Some(at) = found[i] {
                *votes.entry(grouped[at].claim).or_default() += 1;
            }
        }
        let majority = votes
            .iter()
            .max_by_key(|(claim, n)| (**n, std::cmp::Reverse(**claim)))
            .map(|(c, _)| *c);
        let origin = rows
            .iter()
            .find(|&&i| gold[i].role == Role::Origin)
            .and_then(|&i| found[i]);
        let right = matches!((origin, majority), (Some(at), Some(claim)) if grouped[at].claim == claim && grouped[at].role == Role::Origin);
        if right {
            report.first.0 += 1;
        } else {
            report.mistakes.push(format!(
                "{claim}: first appearance not found as the first of its claim"
            ));
        }
    }
    for (row, at) in gold.iter().zip(&found) {
        let Some(at) = at else {
            report.mistakes.push(format!(
                "{} {} {}: not found",
                row.article,
                row.claim,
                row.role.name()
            ));
            continue;
        };
        let role = grouped[*at].role;
        report.roles.1 += 1;
        *report.confusion.entry((row.role, role)).or_default() += 1;
        if role == row.role {
            report.roles.0 += 1;
        } else {
            let item = &grouped[*at];
            let origin = grouped
                .iter()
                .find(|other| other.claim == item.claim && other.role == Role::Origin)
                .map_or_else(String::new, |origin| {
                    let doc = &docs[origin.article];
                    format!(
                        "\n      origin {} {}",
                        doc.article().id,
                        described(doc, &origin.statement)
                    )
                });
            report.mistakes.push(format!(
                "{} {} {}: found {} (claim {}) {}{origin}",
                row.article,
                row.claim,
                row.role.name(),
                role.name(),
                item.claim,
                described(&docs[item.article], &item.statement)
            ));
        }
    }
    report
}

/// What a mistake's reader needs to see of the statement found: who it is
/// credited to, how firmly, and its words, cut to a line.
fn described(doc: &Doc, statement: &Statement) -> String {
    const SHOWN: usize = 90;
    let source = statement
        .source
        .and_then(|source| doc.sources().get(source))
        .map_or("no source", |source| source.name.as_str());
    let stance = statement.stance.map_or("-", |stance| stance.name());
    let words: String = statement
        .spans
        .iter()
        .map(|span| span.slice(doc.text()))
        .collect::<Vec<_>>()
        .join(" … ");
    let cut: String = words.chars().take(SHOWN).collect();
    let ellipsis = if cut.len() < words.len() { "…" } else { "" };
    format!(
        "[{source}, {stance}{}] {cut}{ellipsis}",
        if statement.hedged { ", hedged" } else { "" }
    )
}

/// The byte range of a code-point range of `text`.
fn byte_range(text: &str, (start, end): (usize, usize)) -> Option<(usize, usize)> {
    let mut bytes = text
        .char_indices()
        .map(|(at, _)| at)
        .chain(std::iter::once(text.len()));
    let first = bytes.clone().nth(start)?;
    let last = bytes.nth(end)?;
    Some((first, last))
}

impl fmt::Display for ClaimsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (precision, recall, f1) = self.pairwise();
        writeln!(
            f,
            "appearances: {} gold, {} found in a claim",
            self.appearances.0, self.appearances.1
        )?;
        writeln!(
            f,
            "grouping, pairwise: P {precision:.3}  R {recall:.3}  F1 {f1:.3}  ({} right of {} found, {} gold pairs)",
            self.pairs.0, self.pairs.1, self.pairs.2
        )?;
        writeln!(
            f,
            "first appearance: {}/{} claims  {:.3}",
            self.first.0,
            self.first.1,
            self.first_accuracy()
        )?;
        writeln!(
            f,
            "roles: {}/{} found appearances  {:.3}",
            self.roles.0,
            self.roles.1,
            self.role_accuracy()
        )?;
        writeln!(f, "role confusion (rows gold, columns found)")?;
        write!(f, "{:<20}", "")?;
        for role in Role::ALL {
            write!(f, " {:>8.8}", role.name())?;
        }
        writeln!(f)?;
        for gold in Role::ALL {
            write!(f, "{:<20}", gold.name())?;
            for found in Role::ALL {
                write!(
                    f,
                    " {:>8}",
                    self.confusion.get(&(*gold, *found)).copied().unwrap_or(0)
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
