//! Abbreviations that keep their period.
//!
//! The lists are facts about English news style: titles, months, states as AP
//! style abbreviates them, company suffixes and common Latin shorthands. Each is
//! written without its final period and compared case-sensitively, since "No." is
//! an abbreviation before a number and "no." ends a sentence.

/// Abbreviations that usually stand before a name or number and so never end a
/// sentence: "Sen. Warren", "No. 2"; with them stand the months' ("Jan. 5"),
/// which are attest-lang's.
const BEFORE_NAME: &[&str] = &[
    "Adm", "Ald", "Amb", "Art", "Asst", "Atty", "Brig", "Capt", "Ch", "Cmdr", "Cmdt", "Col", "Cpl",
    "Dep", "Dept", "Dr", "Drs", "Fig", "Fr", "Ft", "Gen", "Gens", "Gov", "Govs", "Hon", "Insp",
    "Lieut", "Lt", "Maj", "Messrs", "Mlle", "Mme", "Mmes", "Mr", "Mrs", "Ms", "Msgr", "Mt", "No",
    "Nos", "Pfc", "Pp", "Pres", "Prof", "Pvt", "Rep", "Reps", "Rev", "Sec", "Sen", "Sens", "Sgt",
    "St", "Ste", "Supt", "Vol", "ch", "no", "nos", "pp", "sec", "v", "vol", "vs",
];

/// Abbreviations that may end a sentence: "Acme Inc.", "a Democrat from Calif."
const MAY_END: &[&str] = &[
    "Ala", "Ariz", "Ark", "Assn", "Ave", "Blvd", "Bros", "Calif", "Co", "Colo", "Conn", "Corp",
    "Cos", "Del", "Dist", "Esq", "Fla", "Ga", "Hwy", "Ida", "Ill", "Inc", "Ind", "Jr", "Kan",
    "Kans", "Ky", "La", "LLC", "Ltd", "Mass", "Md", "Mich", "Minn", "Miss", "Mo", "Mont", "Neb",
    "Nev", "Okla", "Ore", "Pa", "Pkwy", "Plc", "Rd", "Sr", "Tenn", "Tex", "Univ", "Va", "Vt",
    "Wash", "Wis", "Wyo", "al", "approx", "est", "etc", "ft", "hr", "hrs", "lb", "lbs", "min",
    "mins", "mph", "oz", "sq", "yr", "yrs",
];

/// Whether a letters-only word followed by a period is an abbreviation.
pub(crate) fn is_abbreviation(word: &str) -> bool {
    before_name(word) || MAY_END.contains(&word)
}

fn before_name(word: &str) -> bool {
    BEFORE_NAME.contains(&word) || attest_lang::month_abbreviations().contains(&word)
}

/// Whether an abbreviation can end a sentence (its period doubling as the full stop).
pub(crate) fn may_end_sentence(word_with_period: &str) -> bool {
    let word = word_with_period
        .strip_suffix('.')
        .unwrap_or(word_with_period);
    if MAY_END.contains(&word) {
        return true;
    }
    if before_name(word) {
        return false;
    }
    // Dotted acronyms ("U.S.", "D.C.", "a.m.") end sentences often enough in news
    // that a following capital is read as a new sentence; single initials ("J.")
    // almost never do.
    word.contains('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_never_end_sentences_but_company_suffixes_may() {
        assert!(is_abbreviation("Sen"));
        assert!(!may_end_sentence("Sen."));
        assert!(may_end_sentence("Inc."));
        assert!(may_end_sentence("U.S."));
        assert!(!may_end_sentence("J."));
        assert!(!is_abbreviation("said"));
    }
}
