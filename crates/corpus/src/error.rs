//! The errors of reading a corpus.

use std::path::PathBuf;

/// Why a corpus or one of its articles could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CorpusError {
    /// A file or directory could not be read.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said (in the message, not also its `source()`, so
        /// that a chain prints it once).
        error: std::io::Error,
    },
    /// The split directory lacks a directory it must have.
    #[error("{}: missing directory (a split needs text/ and attributions/)", path.display())]
    MissingDir {
        /// The missing directory.
        path: PathBuf,
    },
    /// A line of a file does not have the expected form.
    #[error("{}:{line}: {message}", file.display())]
    Malformed {
        /// The file.
        file: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// No article of that name is in the corpus.
    #[error("no article named {name:?} in {}", dir.display())]
    NoSuchArticle {
        /// The name asked for.
        name: String,
        /// The split directory.
        dir: PathBuf,
    },
}

/// A malformed line of a file, before the file's path is known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl LineError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> LineError {
        LineError {
            line,
            message: message.into(),
        }
    }

    pub(crate) fn in_file(self, file: impl Into<PathBuf>) -> CorpusError {
        CorpusError::Malformed {
            file: file.into(),
            line: self.line,
            message: self.message,
        }
    }
}
