//! Both taggers over the PolNeAR article texts (an ignored test; see
//! `attest_corpus::testing`): no panic, every span fits, and the throughput is printed.
//!
//! The corpus is not ours to ship; it is read in place and nothing of it is kept.

use std::time::Instant;

use attest_doc::{Article, Doc, Limits, Published, Stage};
use attest_numbers::{QuantityTagger, TimeTagger};

#[test]
#[ignore = "needs ../shared/data/polnear"]
fn taggers_run_over_the_corpus() {
    let root = attest_corpus::testing::polnear();
    let tagger = attest_tag::Tagger::bundled().expect("the bundled tagger loads");
    let mut docs = Vec::new();
    for split in ["train", "dev"] {
        let Ok(entries) = std::fs::read_dir(root.join(split).join("text")) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for path in paths {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            // File names carry the publication date: "outlet_2016-10-04_slug.txt".
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let published: Option<Published> = name.split('_').nth(1).and_then(|d| d.parse().ok());
            let mut article = Article::new(name, text.clone());
            article.published = published;
            let mut doc = Doc::new(article);
            doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT))
                .expect("segmentation fits");
            tagger.run(&mut doc).expect("tags fit the tokens");
            docs.push(doc);
        }
    }
    let bytes: usize = docs.iter().map(|d| d.text().len()).sum();
    let (quantities, times) = (QuantityTagger::new(), TimeTagger::new());
    let started = Instant::now();
    let mut found = (0, 0);
    for doc in &docs {
        let q = quantities.tag(doc);
        let t = times.tag(doc);
        for span in q.iter().map(|q| q.span).chain(t.iter().map(|t| t.span)) {
            assert!(span.get(doc.text()).is_some() && !span.is_empty());
        }
        found.0 += q.len();
        found.1 += t.len();
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} articles, {:.1} MB: {} quantities, {} times in {:.3} s ({:.1} MB/s, both taggers, after segmentation)",
        docs.len(),
        bytes as f64 / 1e6,
        found.0,
        found.1,
        seconds,
        bytes as f64 / 1e6 / seconds.max(1e-9)
    );
}
