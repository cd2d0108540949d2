//! `attest train` on a tiny split written here, with and without extra gold.

use std::fs;
use std::path::Path;
use std::process::Command;

/// Articles written for this test, each with one attribution: source, cue,
/// content.
const ARTICLES: &[(&str, &str, [&str; 3])] = &[
    (
        "bridge",
        "The bridge will close in June. Mayor Tess Arden said the repairs would take a year.",
        ["Mayor Tess Arden", "said", "the repairs would take a year"],
    ),
    (
        "school",
        "A new school opens on Monday. Principal Omar Reyes said every class was full.",
        ["Principal Omar Reyes", "said", "every class was full"],
    ),
];

const EXTRA: (&str, &str, [&str; 3]) = (
    "ferry",
    "Ferries stopped at noon. The harbor master told reporters the wind was too strong.",
    ["The harbor master", "told", "the wind was too strong"],
);

/// Writes `text/NAME.txt`, `attributions/NAME_ANNOTATOR.ann` and, with
/// `silver`, `silver/NAME.tsv` (one token per run of letters or digits, or
/// per other character, tagged as CoreNLP would roughly tag them).
fn write_article(
    dir: &Path,
    (name, text, roles): (&str, &str, [&str; 3]),
    annotator: &str,
    silver: bool,
) {
    for sub in ["text", "attributions", "silver"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }
    fs::write(dir.join(format!("text/{name}.txt")), text).unwrap();
    let at = |phrase: &str| {
        let start = text[..text.find(phrase).expect("the phrase is in the text")]
            .chars()
            .count();
        (start, start + phrase.chars().count())
    };
    let [source, cue, content] = roles.map(at);
    let ann = format!(
        "T1\tSource {} {}\t{}\nT2\tCue {} {}\t{}\nT3\tContent {} {}\t{}\nT4\tAttribution {} {}\t{}\n\
         E1\tAttribution:T4 Source:T1 Cue:T2 Content:T3\n",
        source.0,
        source.1,
        roles[0],
        cue.0,
        cue.1,
        roles[1],
        content.0,
        content.1,
        roles[2],
        cue.0,
        cue.1,
        roles[1]
    );
    fs::write(
        dir.join(format!("attributions/{name}_{annotator}.ann")),
        ann,
    )
    .unwrap();
    if !silver {
        return;
    }
    let mut tsv = String::from("#sent\ttok\tword\tbegin\tend\tlemma\tpos\tner\thead\tdeprel\n");
    let (mut sentence, mut index) = (1, 0);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if chars[i].is_alphanumeric() {
            while i < chars.len() && chars[i].is_alphanumeric() {
                i += 1;
            }
        } else {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let pos = match word.as_str() {
            "." => ".",
            "said" | "told" => "VBD",
            "the" | "The" | "A" | "every" => "DT",
            w if w.starts_with(char::is_uppercase) => "NNP",
            _ => "NN",
        };
        let ner = if pos == "NNP" { "PERSON" } else { "O" };
        index += 1;
        tsv.push_str(&format!(
            "{sentence}\t{index}\t{word}\t{start}\t{i}\t{word}\t{pos}\t{ner}\t0\tdep\n"
        ));
        if word == "." {
            sentence += 1;
            index = 0;
        }
    }
    fs::write(dir.join(format!("silver/{name}.tsv")), tsv).unwrap();
}

/// Labels of the train split's attributions (one each, E1), as
/// `eval/polnear/train.sources.tsv` holds them, in `dir`.
fn write_labels(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let mut sources = String::from(
        "article\tattribution_id\tstance\tsource_type\tcanonical_source\tdirect_quote\n",
    );
    for (name, _, [source, ..]) in ARTICLES {
        let canonical = source.split_once(' ').map_or(*source, |(_, name)| name);
        sources.push_str(&format!(
            "{name}\tE1\tasserts\tnamed person\t{canonical}\tno\n"
        ));
    }
    fs::write(dir.join("train.sources.tsv"), sources).unwrap();
    fs::write(
        dir.join("train.hedges.tsv"),
        "article\thedge_id\tcue_start\tcue_end\tscope_start\tscope_end\tannotated_as\tinside_content_of\n",
    )
    .unwrap();
}

fn train(data: &Path, out: &Path, extra: Option<&Path>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_attest"));
    command
        .args(["train", "--data"])
        .arg(data)
        .arg("--out")
        .arg(out)
        .arg("--labels")
        .arg(data.join("labels"));
    if let Some(extra) = extra {
        command.arg("--extra-gold").arg(extra);
    }
    let output = command.output().expect("attest train runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn extra_gold_joins_the_train_split_for_the_attribution_model() {
    let dir = std::env::temp_dir().join(format!("attest-train-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let train_dir = dir.join("data/train");
    for &article in ARTICLES {
        write_article(&train_dir, article, "gold", true);
    }
    let extra = dir.join("corrections");
    write_article(&extra, EXTRA, "corrections", false);
    write_labels(&dir.join("data/labels"));

    let plain = train(&dir.join("data"), &dir.join("plain"), None);
    assert!(plain.contains("attrib.model"), "{plain}");
    assert!(
        plain.contains("stance.model") && plain.contains("2 labelled examples"),
        "{plain}"
    );
    assert!(!plain.contains("extra gold"), "{plain}");
    let with_extra = train(&dir.join("data"), &dir.join("extra"), Some(&extra));
    assert!(
        with_extra.contains("extra gold: 1 articles"),
        "{with_extra}"
    );
    let model = |run: &str| fs::read(dir.join(run).join("attrib.model")).expect("a model");
    assert_ne!(
        model("plain"),
        model("extra"),
        "the extra article was learnt from"
    );
    assert_eq!(
        fs::read(dir.join("plain/pos.model")).unwrap(),
        fs::read(dir.join("extra/pos.model")).unwrap(),
        "the tagger learns from the silver train split alone"
    );

    let missing = Command::new(env!("CARGO_BIN_EXE_attest"))
        .args(["train", "--data"])
        .arg(dir.join("data"))
        .arg("--out")
        .arg(dir.join("missing"))
        .arg("--extra-gold")
        .arg(dir.join("no-such-dir"))
        .output()
        .expect("attest train runs");
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("extra gold"), "{stderr}");
    let _ = fs::remove_dir_all(&dir);
}
