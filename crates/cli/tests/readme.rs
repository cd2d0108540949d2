//! The README as a reader uses it: every `attest` command it shows is one the
//! command line accepts, every file it links to exists, and it stays a README
//! (at most 10 KB, 10,000 bytes) rather than a manual, whose pages are in `docs/`.

mod common;

use std::path::{Path, PathBuf};

use common::{attest, stderr, stdout};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The pages whose commands are held to the command line.
const PAGES: &[&str] = &["README.md", "docs/usage.md", "docs/server.md"];

/// The arguments of every `attest` command in the page's `sh` and `console`
/// blocks, with its line: each part of a pipeline that runs `attest` (or
/// `cargo run … --bin attest -- …`), up to a redirection or the next command.
fn commands(page: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let mut block = None;
    for (number, line) in (1..).zip(page.lines()) {
        if let Some(fence) = line.strip_prefix("```") {
            block = match block {
                None => Some(fence.to_owned()),
                Some(_) => None,
            };
            continue;
        }
        let command = match block.as_deref() {
            Some("sh") => line,
            Some("console") => match line.strip_prefix("$ ") {
                Some(command) => command,
                None => continue,
            },
            _ => continue,
        };
        // A continued line is checked with what it continues by hand, not here.
        if command.trim_end().ends_with('\\') {
            continue;
        }
        let Some(words) = shlex::split(command) else {
            panic!("line {number}: unbalanced quotes in {command:?}");
        };
        for part in words.split(|w| matches!(w.as_str(), "|" | "&&" | ";")) {
            let part: Vec<&String> = part
                .iter()
                .take_while(|w| !matches!(w.as_str(), "<" | ">" | "2>"))
                .collect();
            let args = match part.first().map(|w| w.as_str()) {
                Some("attest") => &part[1..],
                Some("cargo") if part.iter().any(|w| *w == "attest") => {
                    match part.iter().position(|w| *w == "--") {
                        Some(dashes) => &part[dashes + 1..],
                        None => &part[part.len()..],
                    }
                }
                _ => continue,
            };
            found.push((number, args.iter().map(|w| (*w).clone()).collect()));
        }
    }
    found
}

#[test]
fn every_command_the_pages_show_is_accepted() {
    let mut checked = 0;
    for page in PAGES {
        let text = std::fs::read_to_string(repository().join(page)).expect("the page reads");
        for (line, args) in commands(&text) {
            // The parser checks every argument before `--help` answers, so a
            // renamed flag or a value it no longer takes fails here.
            let mut with_help: Vec<&str> = args.iter().map(String::as_str).collect();
            with_help.push("--help");
            let output = attest(&with_help);
            assert!(
                output.status.success(),
                "{page}:{line}: `attest {}` is refused:\n{}",
                args.join(" "),
                stderr(&output)
            );
            assert!(stdout(&output).contains("Usage: attest"), "{page}:{line}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} commands found");
}

#[test]
fn a_misspelt_flag_is_caught() {
    let page = "```sh\nattest analyze story.txt --formt json  # a typo\n```\n";
    let found = commands(page);
    assert_eq!(found.len(), 1);
    let mut args: Vec<&str> = found[0].1.iter().map(String::as_str).collect();
    args.push("--help");
    assert!(!attest(&args).status.success());
}

#[test]
fn commands_are_read_from_pipelines_and_cargo() {
    let page = "```console\n$ cat a.txt | attest analyze - > out.json\nnot a command\n```\n\
                ```sh\ncargo run --release --bin attest -- eval tokens dev  # tokens\n```\n";
    let found: Vec<Vec<String>> = commands(page).into_iter().map(|(_, a)| a).collect();
    assert_eq!(
        found,
        vec![
            vec!["analyze".to_owned(), "-".to_owned()],
            vec!["eval".to_owned(), "tokens".to_owned(), "dev".to_owned()],
        ]
    );
}

#[test]
fn the_readme_is_short_and_its_links_lead_somewhere() {
    let readme = std::fs::read_to_string(repository().join("README.md")).expect("README reads");
    assert!(
        readme.len() <= 10_000,
        "README.md is {} bytes; its details belong in docs/",
        readme.len()
    );
    for target in readme
        .split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
    {
        let path = target.split('#').next().unwrap_or(target);
        if path.is_empty() || path.contains("://") {
            continue;
        }
        assert!(
            repository().join(path).exists(),
            "README.md links to {target}, which is not there"
        );
    }
}
