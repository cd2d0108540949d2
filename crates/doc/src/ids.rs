//! Index newtypes by which layers refer to each other.

macro_rules! index_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(u32);

        impl $name {
            /// The largest index: layers are capped by [`crate::Limits`] well below it.
            pub const MAX: usize = u32::MAX as usize;

            /// Makes an index, or `None` past [`Self::MAX`].
            pub fn new(index: usize) -> Option<$name> {
                u32::try_from(index).ok().map($name)
            }

            /// Makes an index the caller knows to be in range.
            ///
            /// # Panics
            /// Past [`Self::MAX`]: layers never grow that long.
            #[track_caller]
            pub fn must(index: usize) -> $name {
                match $name::new(index) {
                    Some(id) => id,
                    None => panic!("{} {index} is out of range", stringify!($name)),
                }
            }

            /// The index as a `usize`, for indexing its layer.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

index_type!(
    /// The index of a token in [`crate::Doc::tokens`].
    TokenId
);
index_type!(
    /// The index of a sentence in [`crate::Doc::sentences`].
    SentenceId
);
index_type!(
    /// The index of a paragraph in [`crate::Doc::paragraphs`].
    ParagraphId
);
index_type!(
    /// The index of an attribution in [`crate::Doc::attributions`].
    AttributionId
);
index_type!(
    /// The index of a source in [`crate::Doc::sources`].
    SourceId
);
index_type!(
    /// The index of an entity cluster of an article.
    ClusterId
);
