//! Words of organizations' names (`data/organizations.tsv`), each with the
//! uses its readers put it to.

use std::sync::LazyLock;

use crate::tagged::{Use, use_list};

/// What a reader takes an organization word for (the file's `uses` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum OrganizationUse {
    /// The entity tagger's organization-word feature matches it.
    Entity,
    /// A capitalized name holding it is an organization's (source resolver).
    Name,
    /// A company suffix ("Inc."), dropped when entity mentions are compared;
    /// compared lowercased.
    Suffix,
    /// It marks a news outlet's name ("Times").
    Outlet,
    /// It names a group speaking for a cause or its members ("Coalition").
    Advocacy,
    /// It names a public body or a union ("Ministry"), never "the company".
    Public,
}

use_list!(OrganizationUse, "organizations.tsv", lowercase: false);

/// The company suffixes, lowercased.
static SUFFIXES: LazyLock<Vec<String>> = LazyLock::new(|| {
    organization_words(OrganizationUse::Suffix)
        .iter()
        .map(|suffix| suffix.to_lowercase())
        .collect()
});

/// Whether `word` is an organization word of that use: compared as written,
/// or lowercased for [`OrganizationUse::Suffix`].
pub fn organization_word(word: &str, use_: OrganizationUse) -> bool {
    if use_ == OrganizationUse::Suffix {
        let lower = word.to_lowercase();
        return SUFFIXES.contains(&lower);
    }
    use_.listed(word)
}

/// The organization words of one use, as written, sorted.
pub fn organization_words(use_: OrganizationUse) -> &'static [&'static str] {
    use_.words()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tagged::Tagged;

    #[test]
    fn the_shipped_file_parses() {
        Tagged::parse::<OrganizationUse>().unwrap();
    }

    #[test]
    fn uses_are_read_per_word() {
        assert!(organization_word("Inc.", OrganizationUse::Suffix));
        assert!(organization_word("l.l.c.", OrganizationUse::Suffix));
        assert!(!organization_word("Union", OrganizationUse::Suffix));
        assert!(organization_word("Union", OrganizationUse::Name));
        assert!(!organization_word("union", OrganizationUse::Name));
        assert!(organization_word("Times", OrganizationUse::Outlet));
        assert!(organization_words(OrganizationUse::Entity).contains(&"PAC"));
    }
}
