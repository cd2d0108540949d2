//! Why a model could not be loaded.

/// A model file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The bytes do not start with the attribution model's magic number.
    #[error("not an attest attribution model (bad magic number)")]
    BadMagic,
    /// The file is of a format version this build does not read.
    #[error("attribution model format version {found}, this build reads {expected}")]
    Version {
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file ends early.
    #[error("attribution model file is truncated")]
    Truncated,
    /// A field holds an impossible value.
    #[error("attribution model file is malformed: {0}")]
    Malformed(String),
    /// No model was bundled into this build.
    #[error("no attribution model is bundled in this build: train one with `attest train`")]
    NotBundled,
}
