//! Currencies as news copy writes them (`data/currencies.tsv`), with their
//! ISO 4217 codes.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::{columns, entries};

/// Where a currency's written form stands, and so how it is compared.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CurrencyUse {
    /// A sign before the number ("$", "€"), compared as written.
    Sign,
    /// The code before the number ("USD 40"), compared as written.
    Code,
    /// A name after the number ("40 dollars"), lowercase.
    Name,
    /// Glued before "$", whose dollar it is ("C$", "HK$"), compared as
    /// written.
    DollarPrefix,
}

/// One row of the file.
#[derive(Debug)]
struct Currency {
    written: &'static str,
    code: &'static str,
    used: CurrencyUse,
}

const CURRENCIES_TSV: &str = include_str!("../data/currencies.tsv");

fn parse(text: &'static str) -> Result<Vec<Currency>, String> {
    entries(text)
        .map(|line| {
            let error = |why: &str| format!("currencies.tsv: {why}: {line:?}");
            let [written, code, used] =
                columns(line).ok_or_else(|| error("not three tab-separated columns"))?;
            if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                return Err(error("the code is not three capital letters"));
            }
            let used = match used {
                "sign" => CurrencyUse::Sign,
                "code" => CurrencyUse::Code,
                "name" => CurrencyUse::Name,
                "dollar-prefix" => CurrencyUse::DollarPrefix,
                _ => return Err(error("the use is not sign, code, name or dollar-prefix")),
            };
            if used == CurrencyUse::Name && written.to_lowercase() != written {
                return Err(error("a name is not lowercase"));
            }
            Ok(Currency {
                written,
                code,
                used,
            })
        })
        .collect()
}

/// The rows by written form and use, and the lowercased codes and dollar
/// prefixes that may start a quantity: both looked up once per token.
struct Currencies {
    codes: HashMap<(&'static str, CurrencyUse), &'static str>,
    starts: HashSet<String>,
}

static CURRENCIES: LazyLock<Currencies> = LazyLock::new(|| {
    let rows = parse(CURRENCIES_TSV).unwrap_or_default();
    Currencies {
        starts: rows
            .iter()
            .filter(|c| matches!(c.used, CurrencyUse::Code | CurrencyUse::DollarPrefix))
            .map(|c| c.written.to_ascii_lowercase())
            .collect(),
        codes: rows
            .into_iter()
            .map(|c| ((c.written, c.used), c.code))
            .collect(),
    }
});

/// The ISO 4217 code of a currency written `written` in that use.
pub fn currency(written: &str, used: CurrencyUse) -> Option<&'static str> {
    CURRENCIES.codes.get(&(written, used)).copied()
}

/// Whether `lower`, a lowercased token, is a currency's code or dollar
/// prefix, which may start a quantity ("usd", "hk").
pub fn starts_currency(lower: &str) -> bool {
    CURRENCIES.starts.contains(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_file_parses_and_lists_each_form_once_per_use() {
        let rows = parse(CURRENCIES_TSV).unwrap();
        assert_eq!(rows.len(), CURRENCIES.codes.len());
        for (i, row) in rows.iter().enumerate() {
            assert!(
                !rows[..i]
                    .iter()
                    .any(|other| other.used == row.used && other.written == row.written),
                "{} listed twice",
                row.written
            );
        }
        assert_eq!(currency("€", CurrencyUse::Sign), Some("EUR"));
        assert_eq!(currency("HK", CurrencyUse::DollarPrefix), Some("HKD"));
        assert_eq!(currency("yuan", CurrencyUse::Name), Some("CNY"));
        assert_eq!(currency("usd", CurrencyUse::Code), None);
        assert!(starts_currency("usd") && starts_currency("u.s.") && !starts_currency("dollars"));
        assert!(parse("$\tUSD\tprefix\n").unwrap_err().contains("use"));
        assert!(parse("$\tus\tsign\n").unwrap_err().contains("code"));
    }
}
