//! Which mentions of an article name the same entity.
//!
//! Mentions are taken in text order; each joins the most recently mentioned
//! earlier cluster of its type that it matches, or starts a new one. A
//! person's family name alone joins the most mentioned of the people who bear
//! it ("Cruz" is the senator, not the wife named once); on PolNeAR dev this
//! credited 12 more attributions to the right source than recency. Names are
//! compared in lower case after dropping a leading "the", titles ("Mr.",
//! "Gov."), a possessive "'s" and company suffixes ("Inc.", "Corp."). A
//! mention matches a cluster when one of the cluster's names:
//!
//! - is the same name;
//! - for people, shares the family name with a one-word mention ("Smalls",
//!   "Chris Smalls"), or the given name when the mention is that alone
//!   ("Hillary"), and a full name joins a cluster that so far has only its
//!   family name;
//! - for other types, starts with the mention or with the cluster's name
//!   ("Brightwater", "Brightwater Terminals"), or has the mention's letters as
//!   its initials ("NYPD", "the New York Police Department"; "U.S.", "United
//!   States").
//!
//! Clusters are numbered from 0 in the order of their first mention.
//!
//! Before clustering, [`harmonize`] gives mentions that plainly name the same
//! entity the same type, because the tagger decides each sentence alone:
//! mentions with the same words take the type most of them have (the first's
//! on a tie); an acronym takes the type of the name it abbreviates; and one
//! word that opens a company's name ("Brightwater", "Brightwater Terminals
//! Inc.") is that company, unless a person of the article bears it.

use std::collections::{BTreeMap, HashMap, HashSet};

use attest_doc::{ClusterId, EntityLabel, Span};
use attest_lang::{WordList, listed};

use crate::gazetteer;

/// A mention's name, ready to compare.
#[derive(Clone, Debug)]
struct Name {
    /// Lower-case words.
    words: Vec<String>,
    /// The capitals of the words as written, without dots, for acronyms.
    initials: String,
    /// The mention as one word of capitals ("NYPD", "U.S."), dots removed.
    acronym: Option<String>,
}

impl Name {
    fn new(text: &str, label: EntityLabel) -> Name {
        let mut written: Vec<&str> = text.split_whitespace().collect();
        if let Some(last) = written.last_mut() {
            *last = last
                .strip_suffix("'s")
                .or_else(|| last.strip_suffix("’s"))
                .unwrap_or(last);
        }
        while written.len() > 1
            && written.first().is_some_and(|w| {
                let lower = w.to_lowercase();
                lower == "the" || gazetteer::is_title(&lower)
            })
        {
            written.remove(0);
        }
        if label == EntityLabel::Organization {
            while written.len() > 1
                && written
                    .last()
                    .is_some_and(|w| is_company_suffix(w.trim_end_matches(',')))
            {
                written.pop();
            }
            if let Some(last) = written.last_mut() {
                *last = last.trim_end_matches(',');
            }
        }
        let words: Vec<String> = written.iter().map(|w| w.to_lowercase()).collect();
        let initials = written
            .iter()
            // "Department of State" is "DOS" to no one: "of" is never an initial.
            .filter(|w| !listed(WordList::InitialFunctionWords, &w.to_lowercase()))
            .filter_map(|w| w.chars().next())
            .filter(|c| c.is_uppercase())
            .collect();
        let acronym = match written.as_slice() {
            [word] => {
                let letters: String = word.chars().filter(|c| *c != '.').collect();
                (letters.chars().count() >= 2 && letters.chars().all(char::is_uppercase))
                    .then_some(letters)
            }
            _ => None,
        };
        Name {
            words,
            initials,
            acronym,
        }
    }
}

#[derive(Debug)]
struct Cluster {
    label: EntityLabel,
    names: Vec<Name>,
    /// The index of its latest mention.
    latest: usize,
    /// How many mentions it has.
    mentions: usize,
}

fn matches_person(name: &Name, other: &Name, cluster_has_full_name: bool) -> bool {
    // "De Blasio" is "Bill de Blasio": a family name of several words opens
    // with a particle.
    let family_name_of = |family: &[String], full: &[String]| {
        family.len() >= 2
            && full.len() > family.len()
            && full.ends_with(family)
            && family
                .first()
                .is_some_and(|w| listed(WordList::SurnameParticles, w))
    };
    match (name.words.as_slice(), other.words.as_slice()) {
        (a, b) if a == b => true,
        (a, b) if family_name_of(a, b) => true,
        (a, b) if family_name_of(b, a) => !cluster_has_full_name,
        ([single], [first, .., last]) => single == last || single == first,
        ([.., last], [single]) => !cluster_has_full_name && single == last,
        _ => false,
    }
}

fn matches_other(name: &Name, other: &Name) -> bool {
    if name.words == other.words {
        return true;
    }
    let acronym_of = |a: &Name, b: &Name| {
        a.acronym
            .as_ref()
            .is_some_and(|acronym| b.words.len() > 1 && *acronym == b.initials)
    };
    if acronym_of(name, other) || acronym_of(other, name) {
        return true;
    }
    let (shorter, longer) = if name.words.len() <= other.words.len() {
        (name, other)
    } else {
        (other, name)
    };
    shorter.acronym.is_none()
        && shorter.words.len() < longer.words.len()
        && longer.words.starts_with(&shorter.words)
}

fn matches(cluster: &Cluster, name: &Name) -> bool {
    if cluster.label == EntityLabel::Person {
        let full = cluster.names.iter().any(|n| n.words.len() > 1);
        cluster
            .names
            .iter()
            .any(|other| matches_person(name, other, full))
    } else {
        cluster.names.iter().any(|other| matches_other(name, other))
    }
}

/// The words of a mention as written, without a possessive "'s".
fn written_words(text: &str) -> Vec<&str> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if let Some(last) = words.last_mut() {
        *last = last
            .strip_suffix("'s")
            .or_else(|| last.strip_suffix("’s"))
            .unwrap_or(last);
    }
    words
}

fn label_rank(label: EntityLabel) -> usize {
    match label {
        EntityLabel::Person => 0,
        EntityLabel::Organization => 1,
        EntityLabel::Location => 2,
        EntityLabel::Other => 3,
    }
}

/// Gives mentions that plainly name one entity one type (see the module docs).
pub(crate) fn harmonize(text: &str, mentions: &mut [(Span, EntityLabel)]) {
    let names: Vec<Name> = mentions
        .iter()
        .map(|(span, label)| Name::new(span.get(text).unwrap_or_default(), *label))
        .collect();
    // The same words: the most frequent type, the first's on a tie.
    let mut groups: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (index, (span, _)) in mentions.iter().enumerate() {
        let words = written_words(span.get(text).unwrap_or_default())
            .iter()
            .map(|w| w.to_lowercase())
            .collect();
        groups.entry(words).or_default().push(index);
    }
    for members in groups.values() {
        let mut counts = [0usize; 4];
        for index in members {
            if let Some((_, label)) = mentions.get(*index) {
                counts[label_rank(*label)] += 1;
            }
        }
        let Some(first) = members.first().and_then(|i| mentions.get(*i)).map(|m| m.1) else {
            continue;
        };
        let best = members
            .iter()
            .filter_map(|i| mentions.get(*i).map(|m| m.1))
            .fold(first, |best, label| {
                if counts[label_rank(label)] > counts[label_rank(best)] {
                    label
                } else {
                    best
                }
            });
        for index in members {
            if let Some(mention) = mentions.get_mut(*index) {
                mention.1 = best;
            }
        }
    }
    // Acronyms and the first words of company names.
    let person_words: HashSet<&String> = mentions
        .iter()
        .zip(&names)
        .filter(|((_, label), name)| *label == EntityLabel::Person && name.words.len() > 1)
        .flat_map(|(_, name)| &name.words)
        .collect();
    // The first multi-word name with each set of initials, and the first
    // company name with each first word: one pass, so that a long article
    // costs no more per mention than a short one.
    let mut by_initials: HashMap<&str, (usize, EntityLabel)> = HashMap::new();
    let mut by_company_word: HashMap<&str, (usize, EntityLabel)> = HashMap::new();
    for (index, ((span, label), name)) in mentions.iter().zip(&names).enumerate() {
        if name.words.len() < 2 {
            continue;
        }
        by_initials
            .entry(name.initials.as_str())
            .or_insert((index, *label));
        if *label == EntityLabel::Organization
            && ends_with_company_suffix(span.get(text).unwrap_or_default())
            && let Some(first) = name.words.first()
        {
            by_company_word
                .entry(first.as_str())
                .or_insert((index, *label));
        }
    }
    let mut relabel = Vec::new();
    for (index, name) in names.iter().enumerate() {
        let abbreviates = name
            .acronym
            .as_deref()
            .and_then(|acronym| by_initials.get(acronym));
        let opens_company = match name.words.as_slice() {
            [word] if name.acronym.is_none() && !person_words.contains(&word) => {
                by_company_word.get(word.as_str())
            }
            _ => None,
        };
        let found = [abbreviates, opens_company]
            .into_iter()
            .flatten()
            .min_by_key(|(first, _)| *first);
        if let Some((_, label)) = found {
            relabel.push((index, *label));
        }
    }
    for (index, label) in relabel {
        if let Some(mention) = mentions.get_mut(index) {
            mention.1 = label;
        }
    }
}

/// Whether a word of an organization's name is a company suffix ("Inc."),
/// which does not tell it apart.
fn is_company_suffix(word: &str) -> bool {
    attest_lang::organization_word(word, attest_lang::OrganizationUse::Suffix)
}

fn ends_with_company_suffix(name: &str) -> bool {
    name.split_whitespace()
        .last()
        .is_some_and(|last| is_company_suffix(last.trim_end_matches(',')))
}

/// How many clusters sharing one word (or one set of initials) a mention is
/// compared with: the newest. Only a huge article repeats a name across more
/// clusters, and the bound keeps clustering linear in its mentions.
const MAX_CANDIDATES: usize = 64;

/// The clusters by the words of their names, their initials and acronyms, in
/// the order they gained each: where a mention's matches must be.
#[derive(Default)]
struct ClusterIndex<'a> {
    by_word: HashMap<&'a str, Vec<usize>>,
    by_initials: HashMap<&'a str, Vec<usize>>,
    by_acronym: HashMap<&'a str, Vec<usize>>,
}

impl<'a> ClusterIndex<'a> {
    fn add(&mut self, name: &'a Name, cluster: usize) {
        let note = |map: &mut HashMap<&'a str, Vec<usize>>, key: &'a str| {
            let list = map.entry(key).or_default();
            if list.last() != Some(&cluster) {
                list.push(cluster);
            }
        };
        for word in &name.words {
            note(&mut self.by_word, word);
        }
        if name.words.len() > 1 {
            note(&mut self.by_initials, &name.initials);
        }
        if let Some(acronym) = &name.acronym {
            note(&mut self.by_acronym, acronym);
        }
    }

    /// The clusters `name` may match, newest last, each once.
    fn candidates(&self, name: &Name, out: &mut Vec<usize>) {
        out.clear();
        let mut newest = |list: Option<&Vec<usize>>| {
            let list = list.map_or(&[][..], Vec::as_slice);
            out.extend_from_slice(
                list.get(list.len().saturating_sub(MAX_CANDIDATES)..)
                    .unwrap_or_default(),
            );
        };
        for word in &name.words {
            newest(self.by_word.get(word.as_str()));
        }
        if let Some(acronym) = &name.acronym {
            newest(self.by_initials.get(acronym.as_str()));
        }
        if name.words.len() > 1 {
            newest(self.by_acronym.get(name.initials.as_str()));
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// The cluster of each mention, given in text order.
pub(crate) fn clusters(text: &str, mentions: &[(Span, EntityLabel)]) -> Vec<ClusterId> {
    let names: Vec<Name> = mentions
        .iter()
        .map(|(span, label)| Name::new(span.get(text).unwrap_or_default(), *label))
        .collect();
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut index = ClusterIndex::default();
    let mut candidates = Vec::new();
    let mut assigned = Vec::with_capacity(mentions.len());
    for (at_mention, ((_, label), name)) in mentions.iter().zip(&names).enumerate() {
        index.candidates(name, &mut candidates);
        let found = candidates
            .iter()
            .filter_map(|at| clusters.get(*at).map(|cluster| (*at, cluster)))
            .filter(|(_, cluster)| cluster.label == *label && matches(cluster, name))
            .max_by_key(|(_, cluster)| {
                // A family name alone is the most mentioned of the people who
                // bear it (the candidate, not the spouse named once), then the
                // one mentioned last.
                let salience = if *label == EntityLabel::Person && name.words.len() == 1 {
                    cluster.mentions
                } else {
                    0
                };
                (salience, cluster.latest)
            })
            .map(|(at, _)| at);
        let at = found.unwrap_or_else(|| {
            clusters.push(Cluster {
                label: *label,
                names: Vec::new(),
                latest: at_mention,
                mentions: 0,
            });
            clusters.len() - 1
        });
        if let Some(cluster) = clusters.get_mut(at) {
            // A name the cluster has already adds nothing to match against.
            if !cluster.names.iter().any(|n| n.words == name.words) {
                cluster.names.push(name.clone());
                index.add(name, at);
            }
            cluster.latest = at_mention;
            cluster.mentions += 1;
        }
        assigned.push(ClusterId::must(at));
    }
    assigned
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::mentions_in;
    use EntityLabel::*;

    fn clustered(text: &str, mentions: &[(&str, EntityLabel)]) -> Vec<usize> {
        let spans = mentions_in(text, mentions);
        clusters(text, &spans).iter().map(|c| c.index()).collect()
    }

    #[test]
    fn people_by_family_name_given_name_and_title() {
        let text = "Chris Smalls spoke. Smalls left. Mr. Smalls returned. Ana Smalls and Hillary Clinton met Hillary and Bill Clinton, then Clinton left.";
        let found = clustered(
            text,
            &[
                ("Chris Smalls", Person),
                ("Smalls", Person),
                ("Mr. Smalls", Person),
                ("Ana Smalls", Person),
                ("Hillary Clinton", Person),
                ("Hillary", Person),
                ("Bill Clinton", Person),
                ("Clinton", Person),
            ],
        );
        // "Clinton" goes to the Clinton mentioned most, not the one named last.
        assert_eq!(found, [0, 0, 0, 1, 2, 2, 3, 2]);
    }

    #[test]
    fn a_family_name_opening_with_a_particle_is_the_persons() {
        let text = "Bill de Blasio spoke. De Blasio left. Lena Blasio came.";
        let found = clustered(
            text,
            &[
                ("Bill de Blasio", Person),
                ("De Blasio", Person),
                ("Lena Blasio", Person),
            ],
        );
        assert_eq!(found, [0, 0, 1]);
    }

    #[test]
    fn a_full_name_joins_a_family_name_seen_first() {
        let text = "Smalls spoke. Chris Smalls left. Dana Smalls came.";
        let found = clustered(
            text,
            &[
                ("Smalls", Person),
                ("Chris Smalls", Person),
                ("Dana Smalls", Person),
            ],
        );
        assert_eq!(found, [0, 0, 1]);
    }

    #[test]
    fn organizations_by_acronym_prefix_and_suffix() {
        let text = "The New York Police Department said the NYPD and Brightwater Terminals Inc. agreed. Brightwater's plan and the U.S. and United States and Police.";
        let found = clustered(
            text,
            &[
                ("New York Police Department", Organization),
                ("NYPD", Organization),
                ("Brightwater Terminals Inc.", Organization),
                ("Brightwater's", Organization),
                ("U.S.", Location),
                ("United States", Location),
                ("Police", Organization),
            ],
        );
        assert_eq!(found, [0, 0, 1, 1, 2, 2, 3]);
    }

    fn harmonized(text: &str, mentions: &[(&str, EntityLabel)]) -> Vec<EntityLabel> {
        let mut spans = mentions_in(text, mentions);
        harmonize(text, &mut spans);
        spans.iter().map(|(_, label)| *label).collect()
    }

    #[test]
    fn one_name_gets_one_type() {
        let text = "Halvard and Halvard's port and Halvard. Brightwater Terminals Inc. and Brightwater. NYPD and the New York Police Department.";
        let found = harmonized(
            text,
            &[
                ("Halvard", Location),
                ("Halvard's", Other),
                ("Halvard", Other),
                ("Brightwater Terminals Inc.", Organization),
                ("Brightwater", Person),
                ("NYPD", Other),
                ("New York Police Department", Organization),
            ],
        );
        assert_eq!(
            found,
            [
                Other,
                Other,
                Other,
                Organization,
                Organization,
                Organization,
                Organization
            ]
        );
        // A tie goes to the first; a person's name is not a company's.
        let text = "Trump and Trump. Ann Trump and Trump Hotels Inc.";
        let found = harmonized(
            text,
            &[
                ("Trump", Person),
                ("Trump", Organization),
                ("Ann Trump", Person),
                ("Trump Hotels Inc.", Organization),
            ],
        );
        assert_eq!(found, [Person, Person, Person, Organization]);
    }

    #[test]
    fn types_do_not_mix() {
        let text = "Washington said Washington.";
        let found = clustered(text, &[("Washington", Person), ("Washington", Location)]);
        assert_eq!(found, [0, 1]);
        assert!(clusters(text, &[]).is_empty());
    }
}
