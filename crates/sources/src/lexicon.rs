//! The word lists behind stance, hedges and source types.
//!
//! Each list of this crate's own is a `match` on folded word forms
//! (lowercase, straight apostrophes), which compiles to a few comparisons per
//! word: no table is built at run time and no order of iteration can leak into
//! the output. Lists other crates read too (titles, organization words, stance
//! cues) are attest-lang's.
//! Inflections are listed, not stemmed, so a surprising stem can never pull a
//! word into a class ("stated" is a cue, "statement" is a document).

use attest_doc::StanceLabel;
use attest_lang::{Declining, OrganizationUse, WordList, listed};

/// How strongly a class wins when a cue holds words of several classes: "was
/// quoted as saying" reports, "declined to confirm" declines.
pub(crate) fn priority(label: StanceLabel) -> u8 {
    use StanceLabel::*;
    match label {
        Declines => 8,
        Denies => 7,
        Confirms => 6,
        Claims => 5,
        Reports => 4,
        Intends => 3,
        Believes => 2,
        Asserts => 1,
    }
}

/// The stance of a cue of class `label` under a negation: not saying,
/// confirming or denying something declines to say it ("did not confirm"),
/// while a belief or an intention denied is still one ("does not expect").
pub(crate) fn negated(label: StanceLabel) -> StanceLabel {
    use StanceLabel::*;
    match label {
        Asserts | Confirms | Reports | Claims | Denies | Declines => Declines,
        Believes | Intends => label,
    }
}

/// Verbs that decline when followed by "to" ("declined to comment").
pub(crate) fn is_decline_verb(word: &str) -> bool {
    attest_lang::declining(word, Declining::Decline)
}

/// Words that decline on their own inside a cue ("unavailable for comment").
pub(crate) fn is_decline_word(word: &str) -> bool {
    attest_lang::declining(word, Declining::Unavailable)
}

/// Verbs that, negated, mean the source gave nothing ("did not respond",
/// "could not be reached", "did not return calls").
pub(crate) fn is_silence_verb(word: &str) -> bool {
    attest_lang::declining(word, Declining::Silence)
}

/// Negators, including the clitic "n't" the tokenizer splits off.
pub(crate) fn is_negator(word: &str) -> bool {
    matches!(
        word,
        "not" | "n't" | "never" | "no" | "cannot" | "neither" | "nor"
    )
}

/// Common nouns that name a news medium ("told a newspaper").
pub(crate) fn is_media_noun(word: &str) -> bool {
    listed(WordList::MediaNouns, word)
}

/// Capitalized words that mark an outlet's name ("The Post", "Coastline News",
/// "Reuters").
pub(crate) fn is_outlet_word(raw: &str) -> bool {
    attest_lang::organization_word(raw, OrganizationUse::Outlet)
}

/// Capitalized words that make a name an organization's.
pub(crate) fn is_org_word(raw: &str) -> bool {
    attest_lang::organization_word(raw, OrganizationUse::Name)
}

/// A title or honorific written before a name (`attest_lang`'s title list).
/// Only a capitalized word is one: "the judge said" names no one.
fn name_title(raw: &str) -> Option<&'static attest_lang::Title> {
    if !raw.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    attest_lang::title(raw).filter(|title| title.used_as == Some(attest_lang::TitleUse::Title))
}

/// Honorifics and titles, and the gender they state (`None`: a title that
/// states none).
pub(crate) fn honorific(raw: &str) -> Option<Option<attest_doc::Gender>> {
    name_title(raw).map(|title| title.gender)
}

/// The common noun a title stands for, so "the senator" can find "Sen. Warren".
pub(crate) fn title_noun(raw: &str) -> Option<&'static str> {
    name_title(raw)?.noun
}

/// A form of "be", the curly apostrophe's "’s" included: the auxiliary of
/// passives ("was said") and raising verbs ("is believed to").
pub(crate) fn is_be(word: &str) -> bool {
    matches!(
        word,
        "is" | "are" | "was" | "were" | "'s" | "’s" | "been" | "being" | "be"
    )
}

/// Capitalized words that start sentences or names without naming anyone,
/// among them the names of weekdays and months ("Monday", "Sept.").
pub(crate) fn is_name_stopword(raw: &str) -> bool {
    is_date_name(raw) || listed(WordList::NameStopwords, raw)
}

/// A weekday's or month's capitalized name, or a month's abbreviation with
/// its period.
fn is_date_name(raw: &str) -> bool {
    if !raw.starts_with(|c: char| c.is_uppercase()) {
        return false;
    }
    attest_lang::weekday(raw).is_some()
        || attest_lang::month(raw)
            .is_some_and(|month| month.form == attest_lang::MonthForm::Name || raw.ends_with('.'))
}

/// Words of names of groups that speak for a cause or their members, which
/// "the company" never stands for.
pub(crate) fn is_advocacy_word(raw: &str) -> bool {
    attest_lang::organization_word(raw, OrganizationUse::Advocacy)
}

/// Words of names of public bodies and unions, which "the company" never
/// stands for.
pub(crate) fn is_public_body_word(raw: &str) -> bool {
    attest_lang::organization_word(raw, OrganizationUse::Public)
}

/// What a common noun heading a source phrase makes of it: attest-lang's
/// `head-nouns.tsv` class. [`Head::Description`] is no class, so
/// [`head_class`] never gives it.
pub(crate) use attest_lang::HeadNoun as Head;

/// The class of a lowercase head noun of a source phrase.
pub(crate) use attest_lang::head_noun_class as head_class;

/// Social platforms, whose mention in a cue makes a statement a post.
pub(crate) fn is_platform(raw: &str) -> bool {
    listed(WordList::Platforms, raw)
}

/// Cue words that are posting in themselves ("tweeted").
pub(crate) fn is_posting_verb(word: &str) -> bool {
    matches!(word, "tweeted" | "tweets" | "tweet" | "posted" | "posts")
}

/// Words that end the head phrase of a description: what follows is an
/// attachment ("officials at the Agency", "records reviewed by the Tribune").
pub(crate) fn is_description_stop(word: &str) -> bool {
    listed(WordList::DescriptionStops, word)
}

/// Lowercase nouns that, right after a name, show it is an organization's
/// ("the Harlan Plastics factory", "Novalight shares").
pub(crate) fn is_org_follower(word: &str) -> bool {
    listed(WordList::OrganizationFollowers, word)
}

/// Words in organization names that a common noun can stand for: "the union"
/// for a "Brotherhood", "the agency" for an "Administration".
pub(crate) fn names_kind_of(noun: &str, name_word: &str) -> bool {
    if name_word.eq_ignore_ascii_case(noun) {
        return true;
    }
    match noun {
        "union" => matches!(
            name_word,
            "Brotherhood" | "Guild" | "Federation" | "Teamsters" | "Local"
        ),
        "agency" => matches!(
            name_word,
            "Administration" | "Bureau" | "Service" | "Commission" | "Authority" | "Department"
        ),
        "department" => matches!(name_word, "Dept." | "Ministry"),
        "group" | "organization" => matches!(
            name_word,
            "Association" | "Coalition" | "Alliance" | "Foundation" | "League" | "Society"
        ),
        "party" | "campaign" => false,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_do_not_collide_with_documents() {
        assert_eq!(
            attest_lang::stance_class("stated"),
            Some(StanceLabel::Asserts)
        );
        assert_eq!(head_class("statement"), Some(Head::Document));
        assert_eq!(attest_lang::stance_class("statement"), None);
        assert_eq!(
            attest_lang::stance_class("declined"),
            None,
            "declining needs its `to`"
        );
        assert!(is_decline_verb("declined"));
    }

    #[test]
    fn documents_include_the_plurals_and_kinds_news_cites() {
        // Read off the source phrases of the train labels typed
        // document-or-media: "studies show", "federal statistics", "the
        // RealClearPolitics average", "his tax returns".
        for word in [
            "studies",
            "analyses",
            "statistics",
            "average",
            "returns",
            "rulings",
        ] {
            assert_eq!(head_class(word), Some(Head::Document), "{word}");
        }
        // Many outlets are no one outlet "the newspaper" could stand for.
        assert_eq!(head_class("publications"), Some(Head::Document));
    }

    #[test]
    fn declines_outrank_what_they_decline() {
        assert!(priority(StanceLabel::Declines) > priority(StanceLabel::Confirms));
        assert!(priority(StanceLabel::Reports) > priority(StanceLabel::Asserts));
    }
}
