//! Prints each file's tokens as `sentence<TAB>cp_start<TAB>cp_end`, for comparing
//! segmentation with another tokenizer by script.

use attest_doc::{Limits, OffsetIndex};

fn main() {
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let index = OffsetIndex::new(&text);
        let segmentation = attest_text::segment(&text, &Limits::DEFAULT);
        println!("# {path}");
        for (n, sentence) in segmentation.sentences.iter().enumerate() {
            for token in
                &segmentation.tokens[sentence.tokens.start.index()..sentence.tokens.end.index()]
            {
                let start = index.byte_to_cp(token.span.byte_start()).unwrap_or(0);
                let end = index.byte_to_cp(token.span.byte_end()).unwrap_or(0);
                println!("{n}\t{start}\t{end}");
            }
        }
    }
}
