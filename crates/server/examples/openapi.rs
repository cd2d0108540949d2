//! Prints the OpenAPI document, as committed in
//! `crates/server/assets/openapi.json`:
//! `cargo run -p attest-server --features schema --example openapi > crates/server/assets/openapi.json`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "{}",
        serde_json::to_string_pretty(&attest_server::openapi()?)?
    );
    Ok(())
}
