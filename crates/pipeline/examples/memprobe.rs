//! Throwaway: peak RSS after each stage.
use attest_doc::{Article, Doc, Limits};
use attest_pipeline::Pipeline;
fn hwm() -> String {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("VmHWM") || l.starts_with("VmRSS"))
        .collect::<Vec<_>>()
        .join(" ")
}
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
    println!("loaded {}", hwm());
    let mut doc = Doc::new(Article::new("x", text.as_str()));
    for stage in pipeline.stages() {
        let _ = stage.run(&mut doc);
        println!("{:<14} {}", stage.name(), hwm());
    }
    let mut json = Vec::new();
    attest_write::write_json(&doc, &Default::default(), &mut json).unwrap();
    println!("json {} {}", json.len(), hwm());
}
