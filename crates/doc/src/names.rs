//! The names of the model's enums, as their serde derives spell them.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde::de::value::{Error, StrDeserializer};

/// The name serde gives a unit variant (`"according_to"`, `"media_outlet"`),
/// so that every writer, the ledger and the evaluations spell each label as the
/// JSON schema does. Empty for a value that does not serialize to a string.
pub fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// The label serde spells `name`: the inverse of [`serde_name`], for labels
/// read back from the ledger, a gold file or a request.
pub fn from_serde_name<T: DeserializeOwned>(name: &str) -> Option<T> {
    T::deserialize(StrDeserializer::<Error>::new(name)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AttributionKind, Granularity, SourceKind};

    #[test]
    fn spells_variants_in_snake_case() {
        assert_eq!(serde_name(&AttributionKind::AccordingTo), "according_to");
        assert_eq!(serde_name(&Granularity::PartOfDay), "part_of_day");
        assert_eq!(serde_name(&SourceKind::MediaOutlet), "media_outlet");
    }

    #[test]
    fn reads_back_every_name_it_spells() {
        for &kind in SourceKind::ALL {
            assert_eq!(from_serde_name(&serde_name(&kind)), Some(kind));
        }
        assert_eq!(
            from_serde_name::<AttributionKind>("according_to"),
            Some(AttributionKind::AccordingTo)
        );
        assert_eq!(from_serde_name::<SourceKind>("Person"), None);
        assert_eq!(from_serde_name::<SourceKind>(""), None);
    }

    /// Table columns spell stances by `StanceLabel::name`, JSON by serde: one
    /// spelling either way.
    #[test]
    fn stance_names_are_their_serde_names() {
        for &label in crate::StanceLabel::ALL {
            assert_eq!(label.name(), serde_name(&label));
        }
    }
}
