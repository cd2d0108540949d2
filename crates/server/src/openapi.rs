//! The OpenAPI document the server serves, `assets/openapi.json`: the paths,
//! parameters and responses of `assets/openapi.paths.json`, written by hand,
//! with the component schemas derived from the types the routes serve and
//! read, so that a new field or stance reaches the document with no edit.

use attest_ledger::{
    ArticleDetail, ArticleRow, Correction, CorrectionInput, SourceRow, Statement, StatsRow,
};
use schemars::SchemaGenerator;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::error::ErrorBody;
use crate::ledger::Hit;

/// The document without `components.schemas`, whose `$ref`s name them.
const PATHS: &str = include_str!("../assets/openapi.paths.json");

/// The OpenAPI document: `assets/openapi.paths.json` with the schemas of the
/// types it names. `assets/openapi.json` is this document; `cargo run -p
/// attest-server --features schema --example openapi >
/// crates/server/assets/openapi.json` writes it again.
pub fn openapi() -> serde_json::Result<Value> {
    let mut document: Value = serde_json::from_str(PATHS)?;
    let mut answers = generator(SchemaSettings::draft2020_12().for_serialize());
    answers.subschema_for::<ErrorBody<'static>>();
    answers.subschema_for::<ArticleRow>();
    answers.subschema_for::<ArticleDetail>();
    answers.subschema_for::<SourceRow>();
    answers.subschema_for::<Statement>();
    answers.subschema_for::<Hit>();
    answers.subschema_for::<StatsRow>();
    answers.subschema_for::<Correction>();
    // A request is read, not written: its optional fields may be left out.
    let mut requests = generator(SchemaSettings::draft2020_12().for_deserialize());
    requests.subschema_for::<CorrectionInput>();
    let mut schemas: Map<String, Value> = answers.take_definitions(true);
    // The types both name are label enums, whose schema is the same either way.
    schemas.extend(requests.take_definitions(true));
    document["components"]["schemas"] = schemas.into();
    Ok(document)
}

fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|settings| settings.definitions_path = "/components/schemas".into())
        .into_generator()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The served document is the generated one, so that it changes with the
    /// types without an edit by hand.
    #[test]
    fn the_served_openapi_document_is_the_generated_one() {
        let generated = format!(
            "{}\n",
            serde_json::to_string_pretty(&openapi().unwrap()).unwrap()
        );
        assert!(
            crate::routes::OPENAPI == generated,
            "crates/server/assets/openapi.json is out of date; write it again with \
             `cargo run -p attest-server --features schema --example openapi > crates/server/assets/openapi.json`"
        );
    }
}
