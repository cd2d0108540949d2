//! Who "he", "she", "I", "who" and "the Republican nominee" stand for,
//! learned from attest's labels of real copy (`eval/polnear`,
//! `models/source-link.model`).
//!
//! For a person pronoun the rules take the person mentioned last whose stated
//! gender does not conflict. On real copy that is often wrong: the last
//! person named is someone the speaker talks about, not the speaker; "Pell
//! Grants" or "Miss Universe" look like people; and most names state no
//! gender until a pronoun has resolved to them. For a definite description of
//! a person that no title links ("the GOP nominee", "the Indiana governor"),
//! the rules start a new, unnamed source.
//!
//! A mention ranker reads, for each of the few people mentioned last before
//! the pronoun or description (and, for a description, starting a new
//! source), how recent and how often mentioned the person is, whether they
//! have spoken and were the last to speak, whether their last mention was
//! its sentence's subject, the gender the article gave them, their first name crossed
//! with the pronoun or the description's words, and the rules' choice. The
//! candidate it scores highest replaces the rules' choice when it leads it by
//! more than a margin.
//!
//! The ranker is a logistic regression, not the perceptron the other source
//! models are: most of its features (a first name with a pronoun) are seen a
//! few times, and the perceptron's whole-step updates overfit them (on dev,
//! canonical sources 0.861 with the perceptron, 0.865 with this).

use attest_doc::Gender;

use crate::classifier::{Classifier, Features, Learner, Names, overrule};

/// The kind of the link model's file.
pub const MODEL_KIND: [u8; 4] = *b"LNK1";

/// The classes the model scores each candidate by.
pub const CLASSES: [&str; 2] = ["other", "antecedent"];

/// How many of the people mentioned last a pronoun is weighed against.
pub(crate) const CANDIDATES: usize = 8;

/// How much more the model must favour a candidate than the rules' choice,
/// in log-odds (tuned on dev; see docs/sources.md).
const MARGIN: f32 = 1.0;

/// How the link model is trained (tuned on dev; see docs/sources.md).
pub const LEARNER: Learner = Learner::Logistic {
    l2: 1e-4,
    rate: 0.1,
    prune: 0.05,
};

/// The mention being linked: a person pronoun, or a definite description.
#[derive(Clone, Debug, Default)]
pub(crate) struct Anaphor {
    /// The pronoun, folded, or "desc" for a description.
    pub(crate) form: String,
    /// A description's head noun and the words before it, folded.
    pub(crate) head: String,
    pub(crate) modifiers: Vec<String>,
}

/// What the resolver knows of one candidate antecedent.
#[derive(Clone, Debug, Default)]
pub(crate) struct Candidate {
    /// Its referent in the resolver; `None` for starting a new source.
    pub(crate) referent: Option<usize>,
    /// Whether its titles or descriptors hold the description's head.
    pub(crate) shares_head: bool,
    /// Its place among the candidates, the most recently mentioned first.
    pub(crate) rank: usize,
    /// The gender the article gave it, if any.
    pub(crate) gender: Option<Gender>,
    /// A person's name, or an unnamed individual ("a spokesman").
    pub(crate) named: bool,
    /// The number of words of its name.
    pub(crate) words: usize,
    /// The first word of its name, folded.
    pub(crate) first_word: String,
    pub(crate) honorific: bool,
    /// Attributions it was the source of before the pronoun.
    pub(crate) spoke: usize,
    /// Whether it is the source of the attribution just before.
    pub(crate) last_speaker: bool,
    /// How often it was mentioned before the pronoun (up to a few).
    pub(crate) mentions: usize,
    /// Sentences between its last mention and the pronoun.
    pub(crate) sentences_back: usize,
    /// Whether its last mention stands before any verb of its sentence: its
    /// subject, near enough.
    pub(crate) subject: bool,
    /// Whether a spokesperson's pronoun may stand for it (an organization).
    pub(crate) voice: bool,
    /// Whether the rules chose it.
    pub(crate) rule: bool,
}

/// One pronoun's candidates, kept when training.
#[derive(Clone, Debug)]
pub(crate) struct Choice {
    /// The attribution whose source the mention is.
    pub(crate) attribution: usize,
    pub(crate) anaphor: Anaphor,
    pub(crate) candidates: Vec<Candidate>,
}

/// The candidate `model` takes for `anaphor`: the rules' choice unless
/// another leads it by more than the margin. `None` when there is no rules'
/// choice among the candidates.
pub(crate) fn choose<'c>(
    model: &Classifier,
    anaphor: &Anaphor,
    candidates: &'c [Candidate],
) -> Option<&'c Candidate> {
    let scores: Vec<f32> = candidates
        .iter()
        .map(|c| {
            let s = model.scores(|out| features(anaphor, c, out));
            s.get(1).copied().unwrap_or(0.0) - s.first().copied().unwrap_or(0.0)
        })
        .collect();
    let held = candidates.iter().position(|c| c.rule)?;
    let chosen = overrule(&scores, held, MARGIN);
    candidates.get(chosen)
}

/// What the model reads of one candidate of `anaphor`.
fn features(anaphor: &Anaphor, c: &Candidate, out: &mut impl Features) {
    const COUNTS: [&str; 5] = ["0", "1", "2", "3", "4+"];
    let count = |n: usize| COUNTS[n.min(COUNTS.len() - 1)];
    let pronoun = match anaphor.form.as_str() {
        "he" | "him" | "his" => "he",
        "she" | "her" | "hers" => "she",
        "who" => "who",
        "desc" => "desc",
        _ => "i",
    };
    if c.referent.is_none() {
        out.add(&["new"]);
        out.add(&["new&head=", &anaphor.head]);
        out.add(&["new&rule=", if c.rule { "y" } else { "n" }]);
        return;
    }
    let gender = match (pronoun, c.gender) {
        (_, None) => "unknown",
        ("he", Some(Gender::Masculine)) | ("she", Some(Gender::Feminine)) => "agrees",
        ("he" | "she", Some(_)) => "conflicts",
        (_, Some(_)) => "given",
    };
    let kind = match (c.voice, c.named, c.words) {
        (true, ..) => "voice",
        (false, false, _) => "unnamed",
        (false, true, 1) => "one-word",
        (false, true, _) => "full",
    };
    let sentences = count(c.sentences_back);
    let facts: [(&str, &str); 10] = [
        ("rank=", count(c.rank)),
        ("gender=", gender),
        ("kind=", kind),
        ("spoke=", count(c.spoke)),
        ("last-speaker=", if c.last_speaker { "y" } else { "n" }),
        ("mentions=", count(c.mentions)),
        ("sentences=", sentences),
        ("subject=", if c.subject { "y" } else { "n" }),
        ("honorific=", if c.honorific { "y" } else { "n" }),
        ("rule=", if c.rule { "y" } else { "n" }),
    ];
    out.add(&["bias"]);
    for (name, value) in facts {
        out.add(&[name, value]);
        out.add(&["p=", pronoun, "&", name, value]);
    }
    out.add(&["rank=", count(c.rank), "&sentences=", sentences]);
    out.add(&["rank=", count(c.rank), "&gender=", gender]);
    out.add(&[
        "spoke=",
        count(c.spoke),
        "&last-speaker=",
        if c.last_speaker { "y" } else { "n" },
    ]);
    out.add(&["p=", pronoun, "&first=", &c.first_word]);
    if pronoun == "desc" {
        out.add(&["shares-head=", if c.shares_head { "y" } else { "n" }]);
        out.add(&["head=", &anaphor.head, "&first=", &c.first_word]);
        out.add(&["head=", &anaphor.head, "&rank=", count(c.rank)]);
        out.add(&["head=", &anaphor.head, "&mentions=", count(c.mentions)]);
        for modifier in &anaphor.modifiers {
            out.add(&["mod=", modifier, "&first=", &c.first_word]);
        }
    }
}

/// The examples of a document whose attributions are labelled: for each
/// `(attribution index, canonical source)` whose source span is a pronoun
/// with a candidate that is the labelled source, or a description, every
/// candidate, as the antecedent or not.
pub fn training_examples(
    doc: &attest_doc::Doc,
    labelled: &[(usize, Option<&str>)],
) -> Vec<(Vec<String>, u16)> {
    let (choices, names) = crate::resolve::pronoun_choices(doc);
    let canonical: std::collections::BTreeMap<usize, &str> = labelled
        .iter()
        .filter_map(|&(index, canonical)| Some((index, canonical?)))
        .collect();
    let mut examples = Vec::new();
    for choice in &choices {
        let Some(label) = canonical.get(&choice.attribution) else {
            continue;
        };
        let mut right: Vec<bool> = choice
            .candidates
            .iter()
            .map(|c| {
                c.referent
                    .and_then(|r| names.get(r))
                    .is_some_and(|name| same_party(label, name))
            })
            .collect();
        if !right.contains(&true) {
            // A new source is right when no one mentioned before is the
            // labelled one.
            match choice.candidates.iter().position(|c| c.referent.is_none()) {
                Some(new) => right[new] = true,
                None => continue,
            }
        }
        for (candidate, right) in choice.candidates.iter().zip(right) {
            let mut names = Names::default();
            features(&choice.anaphor, candidate, &mut names);
            examples.push((names.0, u16::from(right)));
        }
    }
    examples
}

/// Whether a referent's name stands for the labelled canonical source: every
/// word of the one is in the other, titles, "the" and possessives aside
/// ("Mr. Trump" for "Donald Trump", not "Ivanka Trump"); an unnamed
/// source's description shares a word of four letters or more with it.
fn same_party(canonical: &str, name: &str) -> bool {
    fn words(text: &str) -> Vec<String> {
        text.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .map(|w| {
                w.trim_end_matches("'s")
                    .trim_end_matches("’s")
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .filter(|w| {
                !w.is_empty()
                    && !matches!(
                        w.as_str(),
                        "the" | "mr" | "mrs" | "ms" | "dr" | "sen" | "rep" | "gov" | "president"
                    )
            })
            .collect()
    }
    let (label, found) = (words(canonical), words(name));
    if label.is_empty() || found.is_empty() {
        return false;
    }
    if canonical.starts_with('(') {
        return found.iter().any(|w| w.len() >= 4 && label.contains(w));
    }
    found.iter().all(|w| label.contains(w)) || label.iter().all(|w| found.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_the_party_when_its_words_are_the_labels() {
        assert!(same_party("Donald Trump", "Mr. Trump"));
        assert!(same_party("Donald Trump", "Trump’s"));
        assert!(!same_party("Donald Trump", "Ivanka Trump"));
        assert!(same_party("(a forum questioner)", "one questioner"));
        assert!(!same_party("(a forum questioner)", "the senator"));
    }

    #[test]
    fn features_cross_the_pronoun_with_what_decides() {
        let candidate = Candidate {
            referent: Some(0),
            gender: Some(Gender::Feminine),
            named: true,
            words: 2,
            first_word: "ann".into(),
            rule: true,
            ..Candidate::default()
        };
        let mut names = Names::default();
        let he = Anaphor {
            form: "he".into(),
            ..Anaphor::default()
        };
        features(&he, &candidate, &mut names);
        assert!(names.0.contains(&"p=he&gender=conflicts".to_owned()));
        assert!(names.0.contains(&"p=he&first=ann".to_owned()));
        assert!(names.0.contains(&"rule=y".to_owned()));
    }
}
