//! Named-entity mentions of the silver CoreNLP layer, in attest's four types.
//!
//! CoreNLP writes one class per token and no B/I marks, so a mention is a
//! maximal run of neighbouring tokens of one sentence that map to the same
//! type. Its classes map onto [`EntityLabel`] as follows:
//!
//! | CoreNLP class | attest |
//! |---|---|
//! | `PERSON` | `person` |
//! | `ORGANIZATION` | `organization` |
//! | `LOCATION`, `CITY`, `COUNTRY`, `STATE_OR_PROVINCE` | `location` |
//! | `MISC`, `NATIONALITY`, `RELIGION` | `other` |
//! | everything else | not a name |
//!
//! Not names: `DATE`, `TIME`, `DURATION`, `SET`, `NUMBER`, `ORDINAL`,
//! `PERCENT` and `MONEY` are what attest's quantity and time layers cover;
//! `TITLE` ("president"), `IDEOLOGY` ("liberal"), `CAUSE_OF_DEATH` and
//! `CRIMINAL_CHARGE` are common nouns and adjectives; `EMAIL` and `URL` are
//! token kinds. The PolNeAR silver files hold only the four-class model's
//! classes and SUTime's, but the fine-grained ones are mapped too so that a
//! corpus annotated by a newer CoreNLP reads the same way.

use attest_doc::{EntityLabel, Span};

use crate::SilverToken;

/// The attest type of a CoreNLP entity class, or `None` when the class names
/// no entity.
pub fn entity_label_of_class(class: &str) -> Option<EntityLabel> {
    match class {
        "PERSON" => Some(EntityLabel::Person),
        "ORGANIZATION" => Some(EntityLabel::Organization),
        "LOCATION" | "CITY" | "COUNTRY" | "STATE_OR_PROVINCE" => Some(EntityLabel::Location),
        "MISC" | "NATIONALITY" | "RELIGION" => Some(EntityLabel::Other),
        _ => None,
    }
}

/// One entity mention of the silver layer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SilverMention {
    /// From its first token's first byte to its last token's last byte.
    pub span: Span,
    /// Its type.
    pub label: EntityLabel,
}

/// The entity mentions of an article's silver tokens, in text order.
pub fn silver_mentions(tokens: &[SilverToken]) -> Vec<SilverMention> {
    let mut mentions: Vec<SilverMention> = Vec::new();
    let mut previous: Option<&SilverToken> = None;
    for token in tokens {
        let label = entity_label_of_class(&token.ner);
        let continues = previous.is_some_and(|p| {
            p.sentence == token.sentence
                && p.index + 1 == token.index
                && entity_label_of_class(&p.ner) == label
        });
        match (label, mentions.last_mut()) {
            (Some(_), Some(last)) if continues => last.span = last.span.cover(token.span),
            (Some(label), _) => mentions.push(SilverMention {
                span: token.span,
                label,
            }),
            (None, _) => {}
        }
        previous = Some(token);
    }
    mentions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_silver;

    #[test]
    fn runs_of_one_class_form_a_mention() {
        let text = "Ana Ruiz of Acme Corp. met Bo in Oslo on 5 May. Li Wu left.";
        let rows = [
            (1, 1, 0, 3, "PERSON"),
            (1, 2, 4, 8, "PERSON"),
            (1, 3, 9, 11, "O"),
            (1, 4, 12, 16, "ORGANIZATION"),
            (1, 5, 17, 22, "ORGANIZATION"),
            (1, 6, 23, 26, "O"),
            (1, 7, 27, 29, "PERSON"),
            (1, 8, 30, 32, "O"),
            (1, 9, 33, 37, "CITY"),
            (1, 10, 38, 40, "O"),
            (1, 11, 41, 42, "DATE"),
            (1, 12, 43, 46, "DATE"),
            (1, 13, 46, 47, "O"),
            // A new sentence starts a new mention even right after one.
            (2, 1, 48, 50, "PERSON"),
            (2, 2, 51, 53, "PERSON"),
            (2, 3, 54, 58, "O"),
        ];
        let tsv: String = rows
            .iter()
            .map(|(s, i, b, e, ner)| format!("{s}\t{i}\tw\t{b}\t{e}\tw\tNN\t{ner}\t0\tdep\n"))
            .collect();
        let tokens = parse_silver(&tsv, text).unwrap();
        let found: Vec<(&str, EntityLabel)> = silver_mentions(&tokens)
            .iter()
            .map(|m| (m.span.slice(text), m.label))
            .collect();
        assert_eq!(
            found,
            [
                ("Ana Ruiz", EntityLabel::Person),
                ("Acme Corp.", EntityLabel::Organization),
                ("Bo", EntityLabel::Person),
                ("Oslo", EntityLabel::Location),
                ("Li Wu", EntityLabel::Person),
            ]
        );
    }

    #[test]
    fn maps_classes() {
        assert_eq!(entity_label_of_class("MISC"), Some(EntityLabel::Other));
        assert_eq!(
            entity_label_of_class("COUNTRY"),
            Some(EntityLabel::Location)
        );
        assert_eq!(entity_label_of_class("MONEY"), None);
        assert_eq!(entity_label_of_class("TITLE"), None);
        assert_eq!(entity_label_of_class("O"), None);
    }
}
