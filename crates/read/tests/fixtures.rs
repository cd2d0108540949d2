//! The committed WARC fixtures are exactly what `common` builds.
//!
//! Regenerate them with
//! `ATTEST_WRITE_FIXTURES=1 cargo test -p attest-read --test fixtures`.

mod common;

use std::io::Read;

use flate2::read::MultiGzDecoder;

#[test]
fn warc_fixtures_match_their_builder() {
    let dir = common::data_dir();
    if std::env::var_os("ATTEST_WRITE_FIXTURES").is_some() {
        std::fs::write(dir.join("crawl.warc"), common::warc_bytes()).unwrap();
        std::fs::write(dir.join("crawl.warc.gz"), common::warc_gz_bytes()).unwrap();
    }
    let plain = std::fs::read(dir.join("crawl.warc")).unwrap();
    assert_eq!(
        plain,
        common::warc_bytes(),
        "crawl.warc is stale: regenerate it"
    );
    let gz = std::fs::read(dir.join("crawl.warc.gz")).unwrap();
    assert_eq!(gz.first(), Some(&0x1f));
    // Compare the content, not the compressed bytes, which may differ between
    // versions of the compressor.
    let mut unzipped = Vec::new();
    MultiGzDecoder::new(gz.as_slice())
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(
        unzipped,
        common::warc_bytes(),
        "crawl.warc.gz is stale: regenerate it"
    );
}
