//! Checks on the source tree itself: every Rust module opens with a `//!` comment
//! that says what it is for, every crate depends only on the crates
//! ARCHITECTURE.md allows it, and the test build compiles the binary's
//! dependencies with the binary's features.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n != "target" && n != "snapshots")
            {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_module_opens_with_a_doc_comment() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&crates, &mut files);
    files.sort();
    assert!(files.len() > 10, "found the workspace's sources");
    let missing: Vec<String> = files
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a //! header: {missing:#?}"
    );
}

/// The crates each crate may depend on, from ARCHITECTURE.md's code map: a
/// line `attest-x ──▶ attest-a, attest-b   what it is`, or `attest-x   what
/// it is` for a crate that may know none; `None` allows every crate.
fn allowed_dependencies(architecture: &str) -> BTreeMap<String, Option<BTreeSet<String>>> {
    let map = architecture
        .split("The arrows below are the only dependencies allowed")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("ARCHITECTURE.md has its code map");
    map.lines()
        .filter(|line| line.starts_with("attest-"))
        .map(|line| {
            // What a crate is follows its arrow's list after a run of spaces.
            let line = line.split("   ").next().unwrap_or(line);
            let (name, allowed) = match line.split_once("──▶") {
                Some((name, list)) if list.trim() == "every crate" => (name, None),
                Some((name, list)) => (
                    name,
                    Some(list.split(',').map(|d| d.trim().to_owned()).collect()),
                ),
                None => (line, Some(BTreeSet::new())),
            };
            (name.trim().to_owned(), allowed)
        })
        .collect()
}

/// A manifest's package name and the attest crates under `[dependencies]`.
fn manifest_dependencies(manifest: &str) -> (String, BTreeSet<String>) {
    let mut name = String::new();
    let mut dependencies = BTreeSet::new();
    let mut section = "";
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line;
        } else if section == "[package]" && line.starts_with("name") {
            name = line.split('"').nth(1).unwrap_or_default().to_owned();
        } else if section == "[dependencies]" && line.starts_with("attest-") {
            let crate_name = line.split(['.', ' ', '=']).next().unwrap_or_default();
            dependencies.insert(crate_name.to_owned());
        }
    }
    (name, dependencies)
}

#[test]
fn every_crate_depends_only_on_what_the_code_map_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let architecture =
        std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md reads");
    let allowed = allowed_dependencies(&architecture);
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ reads")
        .flatten()
        .map(|entry| entry.path().join("Cargo.toml"))
        .chain([root.join("python/Cargo.toml")])
        .filter(|path| path.exists())
        .collect();
    manifests.sort();
    assert!(manifests.len() >= 18, "{manifests:?}");
    for manifest in manifests {
        let text = std::fs::read_to_string(&manifest).expect("the manifest reads");
        let (name, dependencies) = manifest_dependencies(&text);
        let Some(allowed) = allowed.get(&name) else {
            panic!(
                "{name} ({}) is not in ARCHITECTURE.md's code map",
                manifest.display()
            );
        };
        if let Some(allowed) = allowed {
            let extra: Vec<&String> = dependencies.difference(allowed).collect();
            assert!(
                extra.is_empty(),
                "{name} depends on {extra:?}, which ARCHITECTURE.md's code map does not allow"
            );
        }
    }
}

#[test]
fn the_code_map_is_read_as_written() {
    let map = "The arrows below are the only dependencies allowed.\n\n```\n\
               attest-doc                 the model\n\
               attest-lang ──▶ attest-doc     data\n\
               attest-cli ──▶ every crate\n```\n";
    let allowed = allowed_dependencies(map);
    assert_eq!(allowed["attest-doc"], Some(BTreeSet::new()));
    assert_eq!(
        allowed["attest-lang"],
        Some(BTreeSet::from(["attest-doc".to_owned()]))
    );
    assert_eq!(allowed["attest-cli"], None);
    let (name, dependencies) = manifest_dependencies(
        "[package]\nname = \"attest-x\"\n[dependencies]\nattest-doc.workspace = true\n\
         attest-lang = { path = \"../lang\" }\n[dev-dependencies]\nattest-tag.workspace = true\n",
    );
    assert_eq!(name, "attest-x");
    assert_eq!(
        dependencies,
        BTreeSet::from(["attest-doc".to_owned(), "attest-lang".to_owned()])
    );
}

/// Every package of a `cargo tree` listing with its features, one line each.
fn packages_with_features(arguments: &[&str]) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .current_dir(root)
        .args(["tree", "--offline", "--prefix", "none", "--no-dedupe"])
        .args(["--format", "{p} [{f}]"])
        .args(arguments)
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree {arguments:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree writes UTF-8")
        .lines()
        .map(|line| line.trim_end_matches(" (*)").to_owned())
        .collect()
}

/// README's second command, `cargo test --workspace --release`, builds on the
/// first's `cargo build --release`: a dependency the tests compile with one more
/// feature is compiled again, with everything above it (serde_json's
/// `float_roundtrip` alone recompiled candle). attest-cli turns on in its own
/// dependencies what the test build adds (docs/benchmarks.md#building).
#[test]
fn the_test_build_compiles_the_binarys_dependencies_as_the_binary_does() {
    let binary = packages_with_features(&["--package", "attest-cli", "--edges", "normal,build"]);
    let tests = packages_with_features(&["--workspace", "--edges", "normal,build,dev"]);
    let differing: Vec<&String> = binary.difference(&tests).collect();
    assert!(
        differing.is_empty(),
        "the test build gives these packages other features than the binary's build, so \
         it compiles them again; turn the features the tests add on in attest-cli's \
         [dependencies]: {differing:#?}"
    );
    assert!(binary.len() > 100, "{binary:?}");
}
