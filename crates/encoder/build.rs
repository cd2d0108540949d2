//! Sets `cfg(attest_parity)` when the trained model and training's parity
//! fixture are both in the source tree, so that the parity test is built then,
//! and only then (src/parity.rs says why).

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let weights = root.join("models/encoder/model.safetensors");
    let fixture = root.join("training/fixtures/parity.json");
    println!("cargo::rustc-check-cfg=cfg(attest_parity)");
    println!("cargo::rerun-if-changed={}", weights.display());
    println!("cargo::rerun-if-changed={}", fixture.display());
    if weights.is_file() && fixture.is_file() {
        println!("cargo::rustc-cfg=attest_parity");
    }
}
