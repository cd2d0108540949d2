//! What lies below an output directory, for the tests of commands that
//! write many files.

use std::fs;
use std::path::Path;

/// Every file below `root`, as a path relative to it, sorted.
pub fn listing(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in fs::read_dir(&dir).expect("listed") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let relative = path.strip_prefix(root).expect("below the root");
                found.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}
