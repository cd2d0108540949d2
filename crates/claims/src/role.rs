//! What each appearance of a claim does to it as it travels.

use attest_doc::{SourceKind, StanceLabel, serde_name};
use attest_lang::identity::{identity_key, lookup_name};
use serde::{Deserialize, Serialize};

/// The part an appearance plays in a claim's travel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::VariantArray, strum::IntoStaticStr, strum::EnumString)]
#[strum(serialize_all = "snake_case")]
pub enum Role {
    /// The first appearance: by publication time, then by the order the
    /// articles came in, then by place in the article.
    Origin,
    /// Credited to the origin's source, no more firmly.
    AttributedRepeat,
    /// Stated with no source: in the writer's own voice, or on hearsay
    /// alone ("reportedly").
    UnattributedRepeat,
    /// Credited to another source than the origin's.
    Misattributed,
    /// Credited to the origin's source, more firmly: a firmer stance
    /// ("alleged" to "said", "said" to "confirmed"), or a hedge dropped.
    Hardened,
    /// The content of a denial.
    Denied,
}

impl Role {
    /// Every role, in the order of the enum.
    pub const ALL: &'static [Role] = <Role as strum::VariantArray>::VARIANTS;

    /// The role's name as the JSON and the ledger spell it.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What the role of one appearance is decided by.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Appearance<K> {
    /// Who it is credited to, as a key that is equal for one source across
    /// articles; `None` when no one.
    pub source: Option<K>,
    /// The attribution's stance; `None` for a quotation or a sentence.
    pub stance: Option<StanceLabel>,
    /// Whether a hedge qualifies it.
    pub hedged: bool,
}

/// The key a source is compared by across articles when roles are given: the
/// ledger's identity key (a person by full name, an organization by a whole
/// and specific name), or, for a source the ledger never merges, its kind and
/// name, so that "officials" of two articles are the same party here.
pub fn source_key(name: &str, kind: SourceKind) -> String {
    identity_key(name, kind)
        .unwrap_or_else(|| format!("{}:{}", serde_name(&kind), lookup_name(name, kind)))
}

/// The roles of a claim's appearances, given in the order they appeared.
pub fn roles<K: PartialEq>(appearances: &[Appearance<K>]) -> Vec<Role> {
    let Some(origin) = appearances.first() else {
        return Vec::new();
    };
    let origin_firmness = firmness(origin);
    std::iter::once(Role::Origin)
        .chain(appearances.iter().skip(1).map(|appearance| {
            if appearance.stance == Some(StanceLabel::Denies) {
                Role::Denied
            } else if appearance.source.is_none() {
                Role::UnattributedRepeat
            } else if origin.source.is_some() && appearance.source != origin.source {
                Role::Misattributed
            } else if firmness(appearance) > origin_firmness {
                Role::Hardened
            } else {
                Role::AttributedRepeat
            }
        }))
        .collect()
}

/// Of two stances of one statement, the one that holds it more firmly; a
/// denial, of either, wins.
pub(crate) fn firmer(a: Option<StanceLabel>, b: Option<StanceLabel>) -> Option<StanceLabel> {
    if a == Some(StanceLabel::Denies) || b == Some(StanceLabel::Denies) {
        return Some(StanceLabel::Denies);
    }
    let firmness = |stance| {
        firmness(&Appearance::<()> {
            source: None,
            stance,
            hedged: false,
        })
    };
    if b.is_some() && firmness(b) > firmness(a) {
        b
    } else {
        a
    }
}

/// How firmly an appearance states its claim: a hedge weakens any stance; a
/// confirmation is firmer than a plain statement, which is firmer than a
/// claim, a belief, an intention or a report.
fn firmness<K>(appearance: &Appearance<K>) -> u8 {
    if appearance.hedged {
        return 0;
    }
    match appearance.stance {
        Some(StanceLabel::Confirms) => 3,
        None | Some(StanceLabel::Asserts) => 2,
        Some(
            StanceLabel::Claims
            | StanceLabel::Reports
            | StanceLabel::Believes
            | StanceLabel::Intends,
        ) => 1,
        Some(StanceLabel::Denies | StanceLabel::Declines) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StanceLabel::*;

    fn seen(
        source: Option<&'static str>,
        stance: StanceLabel,
        hedged: bool,
    ) -> Appearance<&'static str> {
        Appearance {
            source,
            stance: Some(stance),
            hedged,
        }
    }

    #[test]
    fn each_later_appearance_is_read_against_the_origin() {
        let cases = [
            (seen(Some("ruiz"), Asserts, false), Role::AttributedRepeat),
            (seen(Some("ruiz"), Claims, false), Role::AttributedRepeat),
            (seen(Some("ruiz"), Confirms, false), Role::Hardened),
            (seen(Some("lee"), Asserts, false), Role::Misattributed),
            (seen(None, Asserts, false), Role::UnattributedRepeat),
            (seen(Some("utility"), Denies, false), Role::Denied),
            (seen(Some("ruiz"), Asserts, true), Role::AttributedRepeat),
        ];
        let origin = seen(Some("ruiz"), Asserts, false);
        for (appearance, expected) in cases {
            let got = roles(&[origin.clone(), appearance.clone()]);
            assert_eq!(got, [Role::Origin, expected], "{appearance:?}");
        }
    }

    #[test]
    fn a_hedge_dropped_or_an_allegation_restated_hardens_the_claim() {
        let hedged = seen(Some("ruiz"), Asserts, true);
        let alleged = seen(Some("ruiz"), Claims, false);
        let plain = seen(Some("ruiz"), Asserts, false);
        assert_eq!(roles(&[hedged, plain.clone()])[1], Role::Hardened);
        assert_eq!(roles(&[alleged, plain])[1], Role::Hardened);
    }

    #[test]
    fn a_claim_first_stated_by_no_one_has_no_misattribution() {
        let origin = Appearance {
            source: None,
            stance: None,
            hedged: false,
        };
        let later = seen(Some("lee"), Asserts, false);
        assert_eq!(
            roles(&[origin, later]),
            [Role::Origin, Role::AttributedRepeat]
        );
        assert!(roles::<&str>(&[]).is_empty());
    }

    #[test]
    fn of_two_stances_of_one_statement_the_firmer_holds() {
        assert_eq!(firmer(Some(Asserts), Some(Confirms)), Some(Confirms));
        assert_eq!(firmer(Some(Asserts), Some(Intends)), Some(Asserts));
        assert_eq!(firmer(Some(Confirms), Some(Denies)), Some(Denies));
        assert_eq!(firmer(None, Some(Claims)), None);
        assert_eq!(firmer(Some(Claims), None), Some(Claims));
    }

    #[test]
    fn every_role_has_its_name() {
        for role in Role::ALL {
            assert_eq!(role.name().parse::<Role>().ok(), Some(*role));
        }
    }
}
