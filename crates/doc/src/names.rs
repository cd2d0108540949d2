//! The names of the model's enums, as their serde derives spell them.

use serde::Serialize;

/// The name serde gives a unit variant (`"according_to"`, `"media_outlet"`),
/// so that every writer, the ledger and the evaluations spell each label as the
/// JSON schema does. Empty for a value that does not serialize to a string.
pub fn serde_name<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
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
}
