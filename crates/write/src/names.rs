//! The snake_case names of attest-doc's enums, as their serde derives spell them.

use serde::Serialize;

/// The name serde gives a unit variant (`"according_to"`), so that brat and the
/// report spell every label as the JSON does.
pub(crate) fn snake<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{AttributionKind, Granularity};

    #[test]
    fn spells_variants_in_snake_case() {
        assert_eq!(snake(&AttributionKind::AccordingTo), "according_to");
        assert_eq!(snake(&Granularity::PartOfDay), "part_of_day");
    }
}
