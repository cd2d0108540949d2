//! Prints the Python module of typed views generated from the document's
//! JSON Schema, as committed in `python/attest/_views.py`:
//! `cargo run -p attest-write --features schema --example python_views > python/attest/_views.py`.

fn main() -> Result<(), attest_write::PythonViewsError> {
    print!("{}", attest_write::python_views()?);
    Ok(())
}
