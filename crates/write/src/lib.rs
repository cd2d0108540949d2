//! Writers for attest documents: JSON, JSON Lines, brat standoff and the terminal report.
//!
//! Each writer takes one analysed [`attest_doc::Doc`] at a time, so a batch can
//! stream through it:
//!
//! - [`write_json`] / [`write_jsonl`] / [`to_json_value`]: the versioned
//!   `attest.document/1` object ([`SCHEMA`]), with every span in bytes and code
//!   points and its exact text, and [`read_json`], which reads it back;
//! - [`brat_ann`]: brat standoff (the `.ann` beside the text as `.txt`), attributions
//!   exactly as PolNeAR writes them, offsets in code points;
//! - [`write_report`]: a report for people at a terminal, coloured on request;
//! - [`terminal_safe`]: the one sanitiser every string bound for a terminal passes.
//!
//! Only layers a stage assigned are written; an assigned layer with no records is
//! written as empty, so "none found" and "not looked for" stay apart.
//!
//! ```
//! use attest_doc::{Article, Doc};
//! use attest_write::{JsonConfig, to_json_value};
//!
//! let doc = Doc::new(Article::new("a1", "Officials said the road would reopen."));
//! let value = to_json_value(&doc, &JsonConfig::default());
//! assert_eq!(value["schema"], "attest.document/1");
//! assert_eq!(value["layers"], serde_json::json!([]));
//! assert!(value.get("attributions").is_none(), "not looked for");
//! ```

#![deny(missing_docs)]

mod brat;
mod json;
mod offsets;
mod pretty;
#[cfg(feature = "schema")]
mod python;
mod report;
mod terminal;
#[cfg(test)]
mod testing;

pub use brat::brat_ann;
pub use json::{
    AnalysisModel, JsonConfig, ReadError, Remake, SCHEMA, read_json, to_json_value, write_json,
    write_jsonl,
};
#[cfg(feature = "schema")]
pub use json::{document_schema, json_schema};
#[cfg(feature = "schema")]
pub use python::{PythonViewsError, python_views};
pub use report::{ReportConfig, write_report};
pub use terminal::{TerminalSafeWriter, terminal_safe};
