//! The model file: a compact, versioned, deterministic binary format.
//!
//! Every model attest ships is one envelope ([`seal_model`], [`open_model`]): the magic
//! bytes, the format version, a kind saying what the model is for, the body,
//! and a checksum. A [`Model`] (the tagger's and the entity tagger's) writes
//! this body:
//!
//! ```text
//! magic      8 bytes  "ATSTMODL"
//! version    u32 LE   1
//! kind       4 bytes  what the model is for ("POS2", ...)
//! meta       n, then n (key, value) strings, sorted by key
//! labels     n, then n strings
//! features   n, then n keys (u64 LE), increasing
//! weights    for each feature in that order: m, then m (class, f32 LE) sorted by class
//! trans      n, then n f32 LE (0, or (labels + 1) * labels for sequence models)
//! lexicon    n, then n (string, class) sorted by string
//! vocabulary n, then n words sorted bytewise, each front-coded:
//!            shared prefix length with the previous word, suffix length, suffix bytes
//! checksum   u64 LE   FNV-1a 64 of every byte before it
//! ```
//!
//! A feature's key is the hash of its name ([`crate::Scorer::hash`]), which is
//! how a stage looks it up, so the file holds no feature names. The vocabulary
//! lists the words whose features a stage sums ahead of time when it loads
//! the model.
//!
//! Counts, lengths and classes are unsigned LEB128 varints; strings are a length
//! and UTF-8 bytes. Writing sorts everything it writes, so the same model gives
//! the same bytes. Reading checks every count against the bytes left, every
//! string, order, class and float, and the checksum: a damaged file is an error,
//! never a panic or a huge allocation.

use std::collections::{BTreeMap, BTreeSet};

use crate::features::fnv1a64;
use crate::perceptron::Weights;
use crate::wire::{Reader, Writer};

const MAGIC: &[u8; 8] = b"ATSTMODL";
/// The format version this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Why a model file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The file does not start with the model magic bytes.
    #[error("not an attest model file (bad magic bytes)")]
    BadMagic,
    /// The file has a format version this build does not read.
    #[error("model format version {found} is not supported (this build reads {expected})")]
    UnsupportedVersion {
        /// The version found.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The file is in a format attest wrote once and no longer reads.
    #[error("model file in the retired {format} format: retrain it with `attest train`")]
    Retired {
        /// The retired format's name.
        format: String,
    },
    /// No model was bundled into this build.
    #[error("no {stage} model is bundled in this build: train one with `attest train`")]
    NotBundled {
        /// The stage whose model is missing.
        stage: String,
    },
    /// A model file that cannot be used, by name.
    #[error("{file}: {source}")]
    InFile {
        /// The file.
        file: String,
        /// Why it cannot be used.
        source: Box<ModelError>,
    },
    /// The model is for something else.
    #[error("model kind {found:?} where {expected:?} was expected")]
    WrongKind {
        /// The kind wanted.
        expected: String,
        /// The kind found.
        found: String,
    },
    /// The file ends before its contents do.
    #[error("model file truncated at byte {at}")]
    Truncated {
        /// Where the data ran out.
        at: usize,
    },
    /// A value in the file is impossible.
    #[error("model file corrupt at byte {at}: {what}")]
    Corrupt {
        /// Where.
        at: usize,
        /// What is wrong.
        what: String,
    },
    /// The contents do not match the checksum.
    #[error("model file checksum mismatch: the file is damaged")]
    Checksum,
}

impl ModelError {
    /// The error, naming the file it is about.
    pub fn in_file(self, file: impl Into<String>) -> ModelError {
        ModelError::InFile {
            file: file.into(),
            source: Box::new(self),
        }
    }
}

/// A trained model with everything needed to apply it.
#[derive(Clone, Debug)]
pub struct Model {
    /// What the model is for, checked when it is loaded by a stage.
    pub kind: [u8; 4],
    /// Free-form facts about training (corpus, iterations, seed, accuracy).
    pub meta: BTreeMap<String, String>,
    /// The name of each class or label, by index.
    pub labels: Vec<String>,
    /// The feature keys (see [`crate::FeatureTable::keys`]): `keys[id]` is the
    /// key of row `id` of [`Model::weights`].
    pub keys: Vec<u64>,
    /// The weights, one row per feature id.
    pub weights: Weights,
    /// Transition weights of a sequence model, `(labels + 1) * labels`; empty otherwise.
    pub transitions: Vec<f32>,
    /// Items whose class is fixed without scoring (a tagger's frequent,
    /// unambiguous words), by class index.
    pub lexicon: BTreeMap<String, u16>,
    /// The words whose features the stage sums ahead of time.
    pub vocabulary: BTreeSet<String>,
}

impl Model {
    /// Fails unless the model is of `kind`.
    pub fn expect_kind(&self, kind: [u8; 4]) -> Result<(), ModelError> {
        expect_kind(self.kind, kind)
    }

    /// The model as file bytes. Features without weights are left out.
    pub fn to_bytes(&self) -> Vec<u8> {
        seal_model(self.kind, |out| self.write_body(out))
    }

    fn write_body(&self, out: &mut Writer) {
        out.varint(self.meta.len() as u64);
        for (key, value) in &self.meta {
            out.str(key);
            out.str(value);
        }
        out.varint(self.labels.len() as u64);
        for label in &self.labels {
            out.str(label);
        }
        let mut kept: Vec<(u64, u32)> = (0u32..)
            .zip(&self.keys)
            .filter(|(id, _)| self.weights.row(*id).next().is_some())
            .map(|(id, key)| (*key, id))
            .collect();
        kept.sort_unstable();
        kept.dedup_by_key(|(key, _)| *key);
        out.varint(kept.len() as u64);
        for (key, _) in &kept {
            out.u64(*key);
        }
        for (_, id) in &kept {
            let row: Vec<(u16, f32)> = self.weights.row(*id).collect();
            out.varint(row.len() as u64);
            for (class, value) in row {
                out.varint(u64::from(class));
                out.f32(value);
            }
        }
        out.varint(self.transitions.len() as u64);
        for value in &self.transitions {
            out.f32(*value);
        }
        out.varint(self.lexicon.len() as u64);
        for (item, class) in &self.lexicon {
            out.str(item);
            out.varint(u64::from(*class));
        }
        out.varint(self.vocabulary.len() as u64);
        let mut previous: &str = "";
        for word in &self.vocabulary {
            let shared = common_prefix(previous, word);
            out.varint(shared as u64);
            out.str(word.get(shared..).unwrap_or_default());
            previous = word;
        }
    }

    /// Reads a model from file bytes, checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let (kind, reader) = open_model(bytes)?;
        Model::read_body(kind, reader)
    }

    fn read_body(kind: [u8; 4], mut reader: Reader<'_>) -> Result<Model, ModelError> {
        let mut meta = BTreeMap::new();
        for _ in 0..reader.count(2)? {
            let key = reader.string()?.to_owned();
            let value = reader.string()?.to_owned();
            meta.insert(key, value);
        }
        let n_labels = reader.count(1)?;
        let n_classes =
            u16::try_from(n_labels).map_err(|_| reader.corrupt("more than 65535 labels"))?;
        let mut labels = Vec::with_capacity(n_labels);
        for _ in 0..n_labels {
            labels.push(reader.string()?.to_owned());
        }

        let n_features = reader.count(8)?;
        let mut keys = Vec::with_capacity(n_features);
        for _ in 0..n_features {
            let key = reader.u64()?;
            if keys.last().is_some_and(|last| *last >= key) {
                return Err(reader.corrupt("feature keys out of order"));
            }
            keys.push(key);
        }

        let mut weights = Weights::with_capacity(n_classes, n_features + 1, n_features * 3);
        for _ in 0..n_features {
            let mut last: Option<u16> = None;
            for _ in 0..reader.count(5)? {
                let class = reader.varint()?;
                let class = u16::try_from(class)
                    .ok()
                    .filter(|c| *c < n_classes)
                    .ok_or_else(|| reader.corrupt("class out of range"))?;
                if last.is_some_and(|last| last >= class) {
                    return Err(reader.corrupt("classes of a row out of order"));
                }
                last = Some(class);
                weights.push_entry(class, reader.f32()?);
            }
            weights.end_row();
        }

        let n_transitions = reader.count(4)?;
        if n_transitions != 0 && n_transitions != (n_labels + 1) * n_labels {
            return Err(reader.corrupt("transition table of the wrong size"));
        }
        let mut transitions = Vec::with_capacity(n_transitions);
        for _ in 0..n_transitions {
            transitions.push(reader.f32()?);
        }
        let mut lexicon = BTreeMap::new();
        let mut previous: Option<&str> = None;
        for _ in 0..reader.count(2)? {
            let item = reader.string()?;
            if previous.is_some_and(|p| p >= item) {
                return Err(reader.corrupt("lexicon out of order"));
            }
            let class = u16::try_from(reader.varint()?)
                .ok()
                .filter(|c| *c < n_classes)
                .ok_or_else(|| reader.corrupt("lexicon class out of range"))?;
            lexicon.insert(item.to_owned(), class);
            previous = Some(item);
        }
        let mut vocabulary = BTreeSet::new();
        let mut word = String::new();
        for index in 0..reader.count(2)? {
            let shared = reader.varint_usize()?;
            let suffix = reader.string()?;
            let Some(previous_rest) = word.get(shared..) else {
                return Err(reader.corrupt("word prefix longer than the previous word"));
            };
            // Sharing `shared` bytes, the new word sorts after the previous one
            // exactly when its suffix sorts after the rest of the previous word.
            if index > 0 && suffix <= previous_rest {
                return Err(reader.corrupt("vocabulary out of order"));
            }
            word.truncate(shared);
            word.push_str(suffix);
            vocabulary.insert(word.clone());
        }
        reader.finish()?;
        Ok(Model {
            kind,
            meta,
            labels,
            keys,
            weights,
            transitions,
            lexicon,
            vocabulary,
        })
    }

    /// Reads a model of `kind`. A file of `retired`, the kind the stage's
    /// models had when they named their features, is [`ModelError::Retired`]:
    /// it is to be retrained, not read as damaged.
    pub fn from_bytes_of_kind(
        bytes: &[u8],
        kind: [u8; 4],
        retired: [u8; 4],
    ) -> Result<Model, ModelError> {
        let (found, reader) = open_model(bytes)?;
        if found == retired {
            return Err(ModelError::Retired {
                format: format!(
                    "{} model (features by name)",
                    String::from_utf8_lossy(&retired)
                ),
            });
        }
        expect_kind(found, kind)?;
        Model::read_body(found, reader)
    }
}

/// A model file of `kind` whose body `body` writes.
pub fn seal_model(kind: [u8; 4], body: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut out = Writer::default();
    out.raw(MAGIC);
    out.u32(FORMAT_VERSION);
    out.raw(&kind);
    body(&mut out);
    let checksum = fnv1a64(out.as_bytes());
    out.u64(checksum);
    out.into_bytes()
}

/// Checks a model file's magic bytes, version and checksum, and returns its
/// kind and a reader of its body.
pub fn open_model(bytes: &[u8]) -> Result<([u8; 4], Reader<'_>), ModelError> {
    if bytes.len() < MAGIC.len() || !bytes.starts_with(MAGIC) {
        return Err(ModelError::BadMagic);
    }
    let Some(body_len) = bytes.len().checked_sub(8) else {
        return Err(ModelError::Truncated { at: bytes.len() });
    };
    if body_len < MAGIC.len() + 8 {
        return Err(ModelError::Truncated { at: bytes.len() });
    }
    let (body, stored) = bytes.split_at(body_len);
    let mut reader = Reader::at(body, MAGIC.len());
    let version = reader.u32()?;
    if version != FORMAT_VERSION {
        return Err(ModelError::UnsupportedVersion {
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let stored: [u8; 8] = stored
        .try_into()
        .map_err(|_| ModelError::Truncated { at: body_len })?;
    if u64::from_le_bytes(stored) != fnv1a64(body) {
        return Err(ModelError::Checksum);
    }
    let kind: [u8; 4] = reader.array()?;
    Ok((kind, reader))
}

/// Fails unless a model's kind `found` is `expected`.
pub fn expect_kind(found: [u8; 4], expected: [u8; 4]) -> Result<(), ModelError> {
    if found == expected {
        Ok(())
    } else {
        Err(ModelError::WrongKind {
            expected: String::from_utf8_lossy(&expected).into_owned(),
            found: String::from_utf8_lossy(&found).into_owned(),
        })
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    let mut shared = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !b.is_char_boundary(shared) {
        shared -= 1;
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FeatureTable, Trainer};
    use proptest::prelude::*;

    fn sample() -> Model {
        let mut features = FeatureTable::new();
        let mut trainer = Trainer::new(3);
        let examples = [
            (vec!["w=said", "suf=aid"], 0),
            (vec!["w=Zoë", "suf=oë"], 1),
            (vec!["w=said", "prev=Zoë"], 2),
            (vec!["w=unused"], 0),
        ];
        for _ in 0..3 {
            for (names, truth) in &examples {
                let ids: Vec<u32> = names.iter().filter_map(|n| features.intern(n)).collect();
                trainer.train_one(&ids, *truth);
            }
        }
        Model {
            kind: *b"TEST",
            meta: [("seed".to_owned(), "7".to_owned())].into_iter().collect(),
            labels: vec!["A".into(), "B".into(), "C".into()],
            keys: features.keys(),
            weights: trainer.average(),
            transitions: vec![0.5; 12],
            lexicon: [("the".to_owned(), 1), ("“".to_owned(), 2)]
                .into_iter()
                .collect(),
            vocabulary: ["said", "saying", "Zoë", "Zoë's"]
                .map(str::to_owned)
                .into_iter()
                .collect(),
        }
    }

    /// The weights row of the feature named `name`.
    fn row(model: &Model, name: &str) -> Vec<(u16, f32)> {
        let key = fnv1a64(name.as_bytes());
        let id = model.keys.iter().position(|k| *k == key).unwrap();
        model.weights.row(id as u32).collect()
    }

    #[test]
    fn round_trips_and_is_deterministic() {
        let model = sample();
        let bytes = model.to_bytes();
        let loaded = Model::from_bytes(&bytes).unwrap();
        assert_eq!(
            loaded.to_bytes(),
            bytes,
            "reading and writing again changes nothing"
        );
        assert_eq!(loaded.labels, model.labels);
        assert_eq!(loaded.meta, model.meta);
        assert_eq!(loaded.transitions, model.transitions);
        assert_eq!(loaded.lexicon, model.lexicon);
        assert_eq!(loaded.vocabulary, model.vocabulary);
        // Same weights for the same feature names, whatever the ids.
        for name in ["w=said", "suf=aid", "w=Zoë", "prev=Zoë"] {
            assert_eq!(row(&model, name), row(&loaded, name), "{name}");
        }
        assert!(loaded.keys.is_sorted(), "keys are written in order");
        assert!(loaded.expect_kind(*b"TEST").is_ok());
        assert!(matches!(
            loaded.expect_kind(*b"POS1"),
            Err(ModelError::WrongKind { .. })
        ));
    }

    /// The one test of what every stage's model reader refuses before its own
    /// checks: another kind, the retired kind, and no model at all.
    #[test]
    fn a_model_of_the_retired_kind_says_to_retrain() {
        let bytes = sample().to_bytes();
        assert!(matches!(
            Model::from_bytes_of_kind(b"", *b"TEST", *b"TST0"),
            Err(ModelError::BadMagic)
        ));
        assert!(Model::from_bytes_of_kind(&bytes, *b"TEST", *b"TST0").is_ok());
        let retired = Model::from_bytes_of_kind(&bytes, *b"TST1", *b"TEST").unwrap_err();
        assert!(matches!(retired, ModelError::Retired { .. }), "{retired:?}");
        assert!(retired.to_string().contains("retrain"), "{retired}");
        assert!(matches!(
            Model::from_bytes_of_kind(&bytes, *b"TST1", *b"TST0"),
            Err(ModelError::WrongKind { .. })
        ));
    }

    #[test]
    fn names_the_damage() {
        let bytes = sample().to_bytes();
        assert_eq!(
            Model::from_bytes(b"nope").unwrap_err(),
            ModelError::BadMagic
        );
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            Model::from_bytes(&version),
            Err(ModelError::UnsupportedVersion { found: 9, .. })
        ));
        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0x40;
        assert_eq!(
            Model::from_bytes(&flipped).unwrap_err(),
            ModelError::Checksum
        );
        assert!(Model::from_bytes(&bytes[..bytes.len() - 3]).is_err());
    }

    /// A body with a valid checksum, so that the parser itself is exercised.
    fn sealed(mut body: Vec<u8>) -> Vec<u8> {
        let checksum = fnv1a64(&body);
        body.extend_from_slice(&checksum.to_le_bytes());
        body
    }

    proptest! {
        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = Model::from_bytes(&bytes);
            let mut framed = MAGIC.to_vec();
            framed.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            framed.extend_from_slice(&bytes);
            let _ = Model::from_bytes(&sealed(framed));
        }

        #[test]
        fn damaged_models_never_panic(at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
            let bytes = sample().to_bytes();
            let body = &bytes[..bytes.len() - 8];
            let mut damaged = body.to_vec();
            let at = at.index(damaged.len());
            damaged[at] = byte;
            let _ = Model::from_bytes(&sealed(damaged.clone()));
            let cut = cut.index(damaged.len());
            let _ = Model::from_bytes(&sealed(damaged[..cut].to_vec()));
        }
    }
}
