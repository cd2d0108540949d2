//! Prints the JSON Schema of the document JSON, as committed in
//! `docs/attest.document.schema.json`:
//! `cargo run -p attest-write --features schema --example schema > docs/attest.document.schema.json`.

fn main() -> serde_json::Result<()> {
    println!(
        "{}",
        serde_json::to_string_pretty(&attest_write::json_schema())?
    );
    Ok(())
}
