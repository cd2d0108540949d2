//! Lists of words each with a set of uses: one `word<TAB>use,use` line a word.

use std::collections::HashMap;

use crate::entries;

/// The uses a list's words are put to, one enum per list, each use named in
/// the file as its variant in kebab case; [`use_list`] implements it for a
/// file of `data/`.
pub(crate) trait Use:
    Copy + Eq + strum::VariantArray + Into<&'static str> + 'static
{
    /// Whether the list's words are all lowercase.
    const LOWERCASE: bool;
    /// The list's file, as errors name it.
    const FILE: &'static str;
    /// The file's text.
    const TEXT: &'static str;

    /// The list, read on first use.
    fn list() -> &'static Tagged;

    fn name(self) -> &'static str {
        self.into()
    }

    fn bit(self) -> u32 {
        let index = Self::VARIANTS.iter().position(|u| *u == self).unwrap_or(0);
        1 << index
    }

    /// Whether `word`, compared as given, is listed with this use.
    fn listed(self, word: &str) -> bool {
        Self::list().has(word, self)
    }

    /// The words listed with this use, sorted.
    fn words(self) -> &'static [&'static str] {
        Self::list().words(self)
    }
}

/// Implements [`Use`] for the enum `$use` of the file `data/$file`, whose
/// words are all lowercase when `$lowercase` says so.
macro_rules! use_list {
    ($use:ty, $file:literal, lowercase: $lowercase:literal) => {
        impl $crate::tagged::Use for $use {
            const LOWERCASE: bool = $lowercase;
            const FILE: &'static str = $file;
            const TEXT: &'static str = include_str!(concat!("../data/", $file));

            fn list() -> &'static $crate::tagged::Tagged {
                static LIST: std::sync::LazyLock<$crate::tagged::Tagged> =
                    std::sync::LazyLock::new($crate::tagged::Tagged::load::<$use>);
                &LIST
            }
        }
    };
}
pub(crate) use use_list;

/// The `word<TAB>uses` lines of `text`, the file `file`, each with its word
/// and its uses column; an error names the first line whose word is not after
/// the one before in sorted order, or not lowercase when `lowercase` says so.
pub(crate) fn word_lines(
    file: &str,
    text: &'static str,
    lowercase: bool,
) -> Result<Vec<(&'static str, &'static str, &'static str)>, String> {
    let mut lines = Vec::new();
    let mut previous = "";
    for line in entries(text) {
        let error = |why: &str| format!("{file}: {why}: {line:?}");
        let (word, uses) = line
            .split_once('\t')
            .ok_or_else(|| error("not two tab-separated columns"))?;
        if word <= previous {
            return Err(error("not after the line before in sorted order"));
        }
        if lowercase && word.to_lowercase() != word {
            return Err(error("not lowercase"));
        }
        previous = word;
        lines.push((line, word, uses));
    }
    Ok(lines)
}

/// A list read: each word's uses, and the words of each use in file order.
pub(crate) struct Tagged {
    uses: HashMap<&'static str, u32>,
    by_use: Vec<Vec<&'static str>>,
}

impl Tagged {
    /// The list of `U`'s file; an empty list when it does not parse, which
    /// the file's unit test rules out for the shipped one.
    pub(crate) fn load<U: Use>() -> Tagged {
        Tagged::parse::<U>().unwrap_or_else(|_| Tagged {
            uses: HashMap::new(),
            by_use: vec![Vec::new(); U::VARIANTS.len()],
        })
    }

    /// Parses `U`'s file.
    pub(crate) fn parse<U: Use>() -> Result<Tagged, String> {
        Tagged::parse_text::<U>(U::FILE, U::TEXT)
    }

    /// Parses `text`, the file `file`, as a list of `U`.
    fn parse_text<U: Use>(file: &str, text: &'static str) -> Result<Tagged, String> {
        let mut tagged = Tagged {
            uses: HashMap::new(),
            by_use: vec![Vec::new(); U::VARIANTS.len()],
        };
        for (line, word, names) in word_lines(file, text, U::LOWERCASE)? {
            let error = |why: &str| format!("{file}: {why}: {line:?}");
            let mut bits = 0;
            for name in names.split(',') {
                let found = U::VARIANTS.iter().find(|u| u.name() == name);
                let found = found.ok_or_else(|| error("unknown use"))?;
                bits |= found.bit();
                if let Some(words) = tagged.by_use.get_mut(found.bit().trailing_zeros() as usize) {
                    words.push(word);
                }
            }
            tagged.uses.insert(word, bits);
        }
        if let Some(unused) = U::VARIANTS.iter().find(|u| tagged.words(**u).is_empty()) {
            return Err(format!("{file}: no word is listed for {}", unused.name()));
        }
        Ok(tagged)
    }

    /// Whether `word`, compared as given, is listed with `use_`.
    pub(crate) fn has<U: Use>(&self, word: &str, use_: U) -> bool {
        self.uses
            .get(word)
            .is_some_and(|bits| bits & use_.bit() != 0)
    }

    /// The words listed with `use_`, sorted.
    pub(crate) fn words<U: Use>(&self, use_: U) -> &[&'static str] {
        let index = use_.bit().trailing_zeros() as usize;
        self.by_use.get(index).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, PartialEq, Eq, Debug, strum::VariantArray, strum::IntoStaticStr)]
    #[strum(serialize_all = "kebab-case")]
    enum Color {
        Red,
        Blue,
    }

    impl Use for Color {
        const LOWERCASE: bool = true;
        const FILE: &'static str = "t";
        const TEXT: &'static str = "";

        fn list() -> &'static Tagged {
            unreachable!("the test parses its own texts")
        }
    }

    #[test]
    fn reads_uses_and_refuses_malformed_lines() {
        let list = Tagged::parse_text::<Color>("t", "# c\nberry\tred,blue\nsky\tblue\n").unwrap();
        assert!(list.has("berry", Color::Red) && list.has("sky", Color::Blue));
        assert!(!list.has("sky", Color::Red) && !list.has("Sky", Color::Blue));
        assert_eq!(list.words(Color::Blue), ["berry", "sky"]);
        let error = |text| {
            Tagged::parse_text::<Color>("t", text)
                .err()
                .unwrap_or_default()
        };
        assert!(error("sky\tgreen\n").contains("unknown use"));
        assert!(error("sky\tblue\n").contains("no word is listed for red"));
        assert!(error("Sky\tblue,red\n").contains("not lowercase"));
        assert!(error("sky\n").contains("two tab-separated"));
        assert!(error("sky\tblue\nberry\tred\n").contains("sorted order"));
        assert!(error("sky\tblue\nsky\tred\n").contains("sorted order"));
    }
}
