//! The OpenAPI document the server serves, `assets/openapi.json`.
//!
//! What a type knows comes from the type: each route's query parameters from
//! the struct its handler parses them into (a parameter's description is its
//! field's doc comment, its bounds the constants the handler checks), the
//! body of its success from the struct the handler serialises, and the
//! component schemas from the types those name. `assets/openapi.paths.json`,
//! written by hand, holds what no type knows: the `info` block, each route's
//! path, summary, description and operationId, its path and header
//! parameters and request body, which responses it has, and the shared
//! `components.responses`. [`TYPED`] joins the two by operationId.
//!
//! The hand-written part stays JSON rather than Rust because it is the
//! document's own prose and wiring, `$ref`s and all: written as it is served,
//! it reads as the document does.

use attest_ledger::{
    ArticleDetail, ArticleRow, ClaimRow, Correction, CorrectionInput, Review, StatsRow,
};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::analyze::AnalyzeQuery;
use crate::error::ErrorBody;
use crate::ledger::{
    ArticlesQuery, ClaimsQuery, Rows, SearchPage, SearchQuery, SourcePage, SourcesPage,
    SourcesQuery, StatementsQuery, StatsQuery, TraceQuery,
};
use crate::routes::{Health, Token};

/// The document without what the types say, written by hand.
const PATHS: &str = include_str!("../assets/openapi.paths.json");

/// Why the OpenAPI document could not be made: its hand-written part is not
/// JSON, or does not fit the routes' types.
#[derive(Debug, thiserror::Error)]
pub enum OpenApiError {
    /// `assets/openapi.paths.json` is not JSON.
    #[error("assets/openapi.paths.json: {0}")]
    Paths(#[from] serde_json::Error),
    /// The hand-written part and the routes' types do not fit together.
    #[error("assets/openapi.paths.json: {0}")]
    Mismatch(String),
}

/// Writes one type's schema with the generator it is given.
type Schematic = fn(&mut SchemaGenerator) -> Schema;

/// A type's schema: inline, or a `$ref` to the component schema of a named
/// type.
fn schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// A query type's own schema, never a `$ref`: its properties are the
/// parameters.
fn query<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    T::json_schema(generator)
}

/// Each route's types, as its handler names them: its operationId in
/// `assets/openapi.paths.json`, the query parameters the handler parses, and
/// the JSON body of its one 2xx response.
const TYPED: &[(&str, Option<Schematic>, Option<Schematic>)] = &[
    ("health", None, Some(schema::<Health>)),
    ("token", None, Some(schema::<Token<'static>>)),
    // Its answer is the attest.document/1 JSON, from attest-write's types.
    (
        "analyze",
        Some(query::<AnalyzeQuery>),
        Some(attest_write::document_schema),
    ),
    (
        "articles",
        Some(query::<ArticlesQuery>),
        Some(schema::<Rows<ArticleRow>>),
    ),
    ("article", None, Some(schema::<ArticleDetail>)),
    ("correct", None, Some(schema::<Correction>)),
    ("review", None, Some(schema::<Review>)),
    (
        "sources",
        Some(query::<SourcesQuery>),
        Some(schema::<SourcesPage>),
    ),
    (
        "source",
        Some(query::<StatementsQuery>),
        Some(schema::<SourcePage>),
    ),
    (
        "search",
        Some(query::<SearchQuery>),
        Some(schema::<SearchPage>),
    ),
    (
        "claims",
        Some(query::<ClaimsQuery>),
        Some(schema::<Rows<ClaimRow>>),
    ),
    ("claim", None, Some(schema::<ClaimRow>)),
    (
        "trace",
        Some(query::<TraceQuery>),
        Some(schema::<Rows<ClaimRow>>),
    ),
    (
        "stats",
        Some(query::<StatsQuery>),
        Some(schema::<Rows<StatsRow>>),
    ),
];

/// The OpenAPI document: `assets/openapi.paths.json` with what the routes'
/// types say, and the schemas of the types they name.
/// `assets/openapi.json` is this document; `cargo run -p attest-server
/// --features schema --example openapi > crates/server/assets/openapi.json`
/// writes it again.
pub fn openapi() -> Result<Value, OpenApiError> {
    let mut document: Value = serde_json::from_str(PATHS)?;
    no_query_parameter_by_hand(&document)?;
    let mut answers = generator(SchemaSettings::draft2020_12().for_serialize());
    let mut queries = generator(SchemaSettings::draft2020_12().for_deserialize());
    for &(id, query, answer) in TYPED {
        let operation = operation(&mut document, id)?;
        if let Some(query) = query {
            add_query_parameters(operation, query(&mut queries))?;
        }
        if let Some(answer) = answer {
            add_answer(operation, answer(&mut answers))?;
        }
    }
    // Every error's body, which `components.responses` name.
    answers.subschema_for::<ErrorBody<'static>>();
    // A request is read, not written: its optional fields may be left out.
    let mut requests = generator(SchemaSettings::draft2020_12().for_deserialize());
    requests.subschema_for::<CorrectionInput>();
    let mut schemas: Map<String, Value> = answers.take_definitions(true);
    // The types more than one name are label enums, whose schema is the same
    // either way.
    schemas.extend(requests.take_definitions(true));
    schemas.extend(queries.take_definitions(true));
    document["components"]["schemas"] = schemas.into();
    Ok(document)
}

fn generator(settings: SchemaSettings) -> SchemaGenerator {
    settings
        .with(|settings| settings.definitions_path = "/components/schemas".into())
        .into_generator()
}

/// The operation of the document whose operationId is `id`.
fn operation<'a>(document: &'a mut Value, id: &str) -> Result<&'a mut Value, OpenApiError> {
    let mut found = document["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter(|operation| operation["operationId"] == id);
    match (found.next(), found.next()) {
        (Some(operation), None) => Ok(operation),
        (None, _) => Err(mismatch(format!("no operation has the operationId {id:?}"))),
        (Some(_), Some(_)) => Err(mismatch(format!(
            "more than one operation has the operationId {id:?}"
        ))),
    }
}

/// Adds a parameter `in: query` to `operation` for each property of the
/// object schema `query`, after the parameters written by hand.
fn add_query_parameters(operation: &mut Value, query: Schema) -> Result<(), OpenApiError> {
    let mut query = query.to_value();
    let required = query["required"].take();
    let Value::Object(properties) = query["properties"].take() else {
        return Err(mismatch(format!(
            "{}: the query is not an object",
            operation["operationId"]
        )));
    };
    let mut parameters = Vec::with_capacity(properties.len());
    for (name, mut schema) in properties {
        let description = schema
            .as_object_mut()
            .and_then(|schema| schema.remove("description"))
            .ok_or_else(|| {
                mismatch(format!(
                    "{}: the query parameter {name} has no doc comment",
                    operation["operationId"]
                ))
            })?;
        let required = required
            .as_array()
            .is_some_and(|names| names.iter().any(|n| *n == name));
        parameters.push(json!({
            "name": name,
            "in": "query",
            "required": required,
            "description": description,
            "schema": never_null(schema),
        }));
    }
    match &mut operation["parameters"] {
        Value::Array(written) => written.extend(parameters),
        absent => *absent = parameters.into(),
    }
    Ok(())
}

/// `schema` without the null that schemars allows an `Option`: a query
/// parameter is present or absent, never null.
fn never_null(mut schema: Value) -> Value {
    let null = Value::from("null");
    if let Some(types) = schema.get_mut("type")
        && let Value::Array(kinds) = types
    {
        kinds.retain(|kind| *kind != null);
        if let [only] = kinds.as_slice() {
            *types = only.clone();
        }
    }
    if let Some(choices) = schema.get_mut("anyOf").and_then(Value::as_array_mut) {
        choices.retain(|choice| choice["type"] != null);
        if let [only] = choices.as_slice() {
            let only = only.clone();
            if let (Some(schema), Value::Object(only)) = (schema.as_object_mut(), only) {
                schema.remove("anyOf");
                schema.extend(only);
            }
        }
    }
    schema
}

/// Gives `operation`'s one 2xx response the JSON body `answer`.
fn add_answer(operation: &mut Value, answer: Schema) -> Result<(), OpenApiError> {
    let id = operation["operationId"].to_string();
    let mut successes = operation["responses"]
        .as_object_mut()
        .into_iter()
        .flat_map(|responses| responses.iter_mut())
        .filter(|(status, _)| status.starts_with('2'))
        .map(|(_, response)| response);
    let response = match (successes.next(), successes.next()) {
        (Some(response), None) => response,
        _ => return Err(mismatch(format!("{id}: not one 2xx response"))),
    };
    if response.get("content").is_some() {
        return Err(mismatch(format!(
            "{id}: the 2xx response's content is its type's, not written by hand"
        )));
    }
    response["content"] = json!({ "application/json": { "schema": answer } });
    Ok(())
}

/// Refuses a query parameter in the hand-written part, where it could say
/// what the route's type does not.
fn no_query_parameter_by_hand(document: &Value) -> Result<(), OpenApiError> {
    let written = document["paths"]
        .as_object()
        .into_iter()
        .flat_map(|paths| paths.values())
        .filter_map(Value::as_object)
        .flat_map(|item| item.values())
        .filter(|operation| {
            operation["parameters"]
                .as_array()
                .is_some_and(|parameters| parameters.iter().any(|p| p["in"] == "query"))
        })
        .map(|operation| operation["operationId"].to_string())
        .collect::<Vec<_>>();
    if written.is_empty() {
        Ok(())
    } else {
        Err(mismatch(format!(
            "query parameters are written by hand in {}; they come from the route's query type",
            written.join(", ")
        )))
    }
}

fn mismatch(message: String) -> OpenApiError {
    OpenApiError::Mismatch(message)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::sync::Arc;

    use axum::body::Body;
    use http_body_util::BodyExt;
    use hyper::service::Service;
    use hyper_util::service::TowerToHyperService;

    use super::*;
    use crate::{AppState, Limits, router};

    /// Each route that takes a query takes the parameters the document lists
    /// for it and refuses every other one the document names anywhere: the
    /// document can neither promise a parameter that a route refuses, nor
    /// leave out one that it takes, whatever the table [`TYPED`] says.
    #[tokio::test]
    async fn each_route_takes_the_query_parameters_the_document_lists_and_no_other() {
        let document = openapi().unwrap();
        let mut routes = Vec::new();
        for (path, item) in document["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                let listed: BTreeSet<&str> = operation["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|parameter| parameter["in"] == "query")
                    .map(|parameter| parameter["name"].as_str().unwrap())
                    .collect();
                if !listed.is_empty() {
                    routes.push((method.to_uppercase(), path.replace("{id}", "1"), listed));
                }
            }
        }
        let mut names: BTreeSet<&str> = routes.iter().flat_map(|r| r.2.clone()).collect();
        names.insert("colour");
        let pipeline = attest_pipeline::Pipeline::new(Vec::new()).unwrap();
        let app =
            TowerToHyperService::new(router(AppState::new(Arc::new(pipeline), Limits::DEFAULT)));
        for (method, path, listed) in &routes {
            for name in &names {
                let request = axum::http::Request::builder()
                    .method(method.as_str())
                    .uri(format!("{path}?{name}=1"))
                    .header("host", "127.0.0.1")
                    .header("content-type", "application/json")
                    .body(Body::from("{}"))
                    .unwrap();
                let reply = app.call(request).await.unwrap();
                let body = reply.into_body().collect().await.unwrap().to_bytes();
                let reply = String::from_utf8_lossy(&body);
                assert_eq!(
                    reply.contains("unknown field"),
                    !listed.contains(name),
                    "{method} {path}?{name}=1: {reply}"
                );
            }
        }
    }

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
