//! What the integration tests share: the stages before the attributions.

use attest_doc::{Doc, LayerError, Limits, Stage};

/// Segments a document holding only its article, tags its parts of speech
/// and finds its entities with the bundled models: the layers the source
/// stages read besides the attributions.
pub fn prepare(doc: &mut Doc) -> Result<(), LayerError> {
    doc.set_segmentation(attest_text::segment(doc.text(), &Limits::DEFAULT))?;
    let models = "the bundled models load";
    attest_tag::Tagger::shared().expect(models).run(doc)?;
    attest_entities::EntityTagger::shared()
        .expect(models)
        .run(doc)
}
