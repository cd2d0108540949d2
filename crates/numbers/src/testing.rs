//! Documents for the tests, the unit tests and those in `tests/` alike (which
//! include this file): segmented and tagged by the stages that run before the
//! quantity and time taggers.

use attest_doc::{Doc, Limits, Stage};

/// Segments and tags `doc`, as the pipeline does before these stages.
pub fn prepare(doc: &mut Doc) {
    let text = doc.text().to_owned();
    doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT))
        .expect("segmentation fits its text");
    attest_tag::Tagger::shared()
        .expect("the bundled tagger loads")
        .run(doc)
        .expect("tags fit the tokens");
}
