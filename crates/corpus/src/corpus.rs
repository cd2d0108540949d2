//! A split of a PolNeAR-format corpus, read one article at a time.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use attest_doc::{Article, Published};

use crate::brat::{GoldAttribution, parse_ann};
use crate::silver::{SilverToken, parse_silver};
use crate::{CorpusError, LineError};

/// Which annotator's file an article's gold comes from, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum AnnotatorChoice {
    /// The annotator `metadata.tsv` lists first for the article.
    Listed,
    /// The first file in sorted order, because the metadata lists no annotator for
    /// the article (`wanted` is `None`) or the first one it lists has no file.
    Fallback {
        /// The annotator the metadata lists first, if any.
        wanted: Option<String>,
    },
    /// The article has no annotation file: its gold is empty.
    Unannotated,
}

/// One article with its gold attributions and, when present, silver tokens.
#[derive(Clone, PartialEq, Debug)]
pub struct CorpusArticle {
    /// The file stem: "nyt_2016-04-18_...".
    pub name: String,
    /// The article text, as in `text/NAME.txt`.
    pub text: String,
    /// The gold attributions of the chosen annotator, with byte spans.
    pub gold: Vec<GoldAttribution>,
    /// The CoreNLP tokens, when `silver/NAME.tsv` exists.
    pub silver: Option<Vec<SilverToken>>,
    /// The annotator whose file was read.
    pub annotator: Option<String>,
    /// How that annotator was chosen.
    pub choice: AnnotatorChoice,
    /// `Discard` spans in the file read (not part of the gold).
    pub discarded: usize,
    /// `Discuss` spans in the file read (not part of the gold).
    pub discussed: usize,
    /// Events of the file read with neither cue nor content (not part of the gold).
    pub incomplete: usize,
    /// What `metadata.tsv` says about the article, when it lists it.
    pub metadata: Option<ArticleMetadata>,
}

impl CorpusArticle {
    /// An article read from outside a split (a seed article): its name, text
    /// and gold, with no silver, annotator or metadata.
    pub fn unlisted(name: String, text: String, gold: Vec<GoldAttribution>) -> CorpusArticle {
        CorpusArticle {
            name,
            text,
            gold,
            silver: None,
            annotator: None,
            choice: AnnotatorChoice::Unannotated,
            discarded: 0,
            discussed: 0,
            incomplete: 0,
            metadata: None,
        }
    }

    /// The article as attest's readers give it: id, text, and from the metadata
    /// its title, outlet and publication date (when that parses).
    pub fn to_article(&self) -> Article {
        let mut article = Article::new(self.name.clone(), self.text.clone());
        if let Some(metadata) = &self.metadata {
            article.title = metadata.title.clone();
            article.outlet = metadata.publisher.clone();
            article.published = metadata
                .publication_date
                .as_deref()
                .and_then(|date| date.parse::<Published>().ok());
        }
        article.language = Some("en".to_owned());
        article
    }
}

#[derive(Clone, Debug)]
struct Entry {
    name: String,
    /// Annotators with a file for this article, sorted.
    annotators: Vec<String>,
    /// The annotator metadata lists first.
    listed: Option<String>,
    metadata: Option<ArticleMetadata>,
}

/// What `metadata.tsv` says about an article; empty strings and `None` become `None`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ArticleMetadata {
    /// The outlet: "breitbart", "nyt", ...
    pub publisher: Option<String>,
    /// The publication date as written: "2016-09-12".
    pub publication_date: Option<String>,
    /// The byline.
    pub author: Option<String>,
    /// The headline.
    pub title: Option<String>,
}

/// One row of `metadata.tsv`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
struct MetadataRow {
    first_annotator: Option<String>,
    metadata: ArticleMetadata,
}

/// A split directory: `text/`, `attributions/` and optionally `silver/`.
///
/// Opening lists the files and reads `metadata.tsv`; articles are read from disk
/// only when asked for, so a pass over the corpus holds one article at a time.
#[derive(Clone, Debug)]
pub struct Corpus {
    dir: PathBuf,
    entries: Vec<Entry>,
    orphans: Vec<String>,
    metadata: Option<PathBuf>,
}

impl Corpus {
    /// Opens a split directory; `metadata.tsv` is looked for in it, then in its parent.
    pub fn open(split_dir: &Path) -> Result<Corpus, CorpusError> {
        let text_dir = split_dir.join("text");
        let ann_dir = split_dir.join("attributions");
        for dir in [&text_dir, &ann_dir] {
            if !dir.is_dir() {
                return Err(CorpusError::MissingDir { path: dir.clone() });
            }
        }
        let mut names = BTreeMap::new();
        for file in list_dir(&text_dir)? {
            if let Some(name) = file.strip_suffix(".txt") {
                names.insert(name.to_owned(), Vec::new());
            }
        }
        let mut orphans = Vec::new();
        for file in list_dir(&ann_dir)? {
            let Some(stem) = file.strip_suffix(".ann") else {
                continue;
            };
            let owner = stem
                .rsplit_once('_')
                .and_then(|(name, annotator)| Some((names.get_mut(name)?, annotator)));
            match owner {
                Some((annotators, annotator)) => annotators.push(annotator.to_owned()),
                None => orphans.push(file),
            }
        }
        let metadata = [
            split_dir.join("metadata.tsv"),
            split_dir.join("../metadata.tsv"),
        ]
        .into_iter()
        .find(|path| path.is_file());
        let listed = match &metadata {
            Some(path) => read_metadata(path)?,
            None => BTreeMap::new(),
        };
        let entries = names
            .into_iter()
            .map(|(name, mut annotators)| {
                annotators.sort();
                let row = listed.get(&name).cloned().unwrap_or_default();
                Entry {
                    metadata: listed.contains_key(&name).then_some(row.metadata),
                    listed: row.first_annotator,
                    name,
                    annotators,
                }
            })
            .collect();
        orphans.sort();
        Ok(Corpus {
            dir: split_dir.to_owned(),
            entries,
            orphans,
            metadata,
        })
    }

    /// The split directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The metadata file that was read, if one was found.
    pub fn metadata_file(&self) -> Option<&Path> {
        self.metadata.as_deref()
    }

    /// How many articles the split holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the split holds no article.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The article names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|entry| entry.name.as_str())
    }

    /// `.ann` files whose article has no text file: they are not read.
    pub fn orphan_annotation_files(&self) -> &[String] {
        &self.orphans
    }

    /// Every article in name order, each read when the iterator reaches it.
    pub fn articles(&self) -> impl Iterator<Item = Result<CorpusArticle, CorpusError>> + '_ {
        self.entries.iter().map(|entry| self.read(entry))
    }

    /// One article by name.
    pub fn article(&self, name: &str) -> Result<CorpusArticle, CorpusError> {
        let found = self
            .entries
            .binary_search_by(|entry| entry.name.as_str().cmp(name))
            .ok()
            .and_then(|at| self.entries.get(at));
        match found {
            Some(entry) => self.read(entry),
            None => Err(CorpusError::NoSuchArticle {
                name: name.to_owned(),
                dir: self.dir.clone(),
            }),
        }
    }

    fn read(&self, entry: &Entry) -> Result<CorpusArticle, CorpusError> {
        let text_path = self.dir.join("text").join(format!("{}.txt", entry.name));
        let text = read_file(&text_path)?;
        let (annotator, choice) = choose_annotator(entry);
        let (gold, discarded, discussed, incomplete) = match &annotator {
            Some(annotator) => {
                let path = self
                    .dir
                    .join("attributions")
                    .join(format!("{}_{annotator}.ann", entry.name));
                let ann = read_file(&path)?;
                let parsed = parse_ann(&ann, &text).map_err(|err| err.in_file(&path))?;
                (
                    parsed.attributions,
                    parsed.discarded,
                    parsed.discussed,
                    parsed.incomplete,
                )
            }
            None => (Vec::new(), 0, 0, 0),
        };
        let silver_path = self.dir.join("silver").join(format!("{}.tsv", entry.name));
        let silver = if silver_path.is_file() {
            let tsv = read_file(&silver_path)?;
            Some(parse_silver(&tsv, &text).map_err(|err| err.in_file(&silver_path))?)
        } else {
            None
        };
        Ok(CorpusArticle {
            name: entry.name.clone(),
            text,
            gold,
            silver,
            annotator,
            choice,
            discarded,
            discussed,
            incomplete,
            metadata: entry.metadata.clone(),
        })
    }
}

fn choose_annotator(entry: &Entry) -> (Option<String>, AnnotatorChoice) {
    if let Some(listed) = &entry.listed
        && entry.annotators.contains(listed)
    {
        return (Some(listed.clone()), AnnotatorChoice::Listed);
    }
    match entry.annotators.first() {
        Some(first) => (
            Some(first.clone()),
            AnnotatorChoice::Fallback {
                wanted: entry.listed.clone(),
            },
        ),
        None => (None, AnnotatorChoice::Unannotated),
    }
}

fn list_dir(dir: &Path) -> Result<Vec<String>, CorpusError> {
    let io = |error| CorpusError::Io {
        path: dir.to_owned(),
        error,
    };
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        if let Some(name) = entry.file_name().to_str() {
            files.push(name.to_owned());
        }
    }
    files.sort();
    Ok(files)
}

fn read_file(path: &Path) -> Result<String, CorpusError> {
    fs::read_to_string(path).map_err(|error| CorpusError::Io {
        path: path.to_owned(),
        error,
    })
}

fn read_metadata(path: &Path) -> Result<BTreeMap<String, MetadataRow>, CorpusError> {
    parse_metadata(&read_file(path)?).map_err(|err| err.in_file(path))
}

/// Maps article names to their row of `metadata.tsv`: the annotator it lists
/// first, and the descriptive columns that are present.
fn parse_metadata(tsv: &str) -> Result<BTreeMap<String, MetadataRow>, LineError> {
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let column = |name: &str| header.iter().position(|field| *field == name);
    let required = |name: &str| {
        column(name).ok_or_else(|| LineError::new(1, format!("no {name:?} column in the header")))
    };
    let (name_col, annotators_col) = (required("filename")?, required("annotators")?);
    let optional = [
        column("publisher"),
        column("publication_date"),
        column("author"),
        column("title"),
    ];
    let mut rows = BTreeMap::new();
    for (line_index, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(annotators)) = (fields.get(name_col), fields.get(annotators_col))
        else {
            return Err(LineError::new(
                line_index + 2,
                format!("{} fields, fewer than the header's", fields.len()),
            ));
        };
        let value = |col: Option<usize>| {
            col.and_then(|c| fields.get(c))
                .map(|v| v.trim())
                .filter(|v| !v.is_empty() && *v != "None")
                .map(str::to_owned)
        };
        let [publisher, publication_date, author, title] = optional.map(value);
        let first_annotator = annotators
            .split('|')
            .map(str::trim)
            .find(|a| !a.is_empty())
            .map(str::to_owned);
        rows.insert(
            (*name).to_owned(),
            MetadataRow {
                first_annotator,
                metadata: ArticleMetadata {
                    publisher,
                    publication_date,
                    author,
                    title,
                },
            },
        );
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_gives_the_first_listed_annotator() {
        let tsv = "compartment\tfilename\tannotators\n\
                   train\talpha\tbb|aa\n\
                   dev\tbeta\tcc\n\n";
        let listed = parse_metadata(tsv).unwrap();
        let first = |name: &str| listed.get(name).and_then(|r| r.first_annotator.as_deref());
        assert_eq!(first("alpha"), Some("bb"));
        assert_eq!(first("beta"), Some("cc"));
        assert!(parse_metadata("filename\tother\n").is_err());
        assert_eq!(
            parse_metadata("a\tfilename\tannotators\nx\n")
                .unwrap_err()
                .line,
            2
        );
    }

    #[test]
    fn metadata_fills_the_article() {
        let tsv = "filename\tannotators\tpublisher\tpublication_date\tauthor\ttitle\n\
                   a\tx1\tnyt\t2016-09-12\tNone\tA Headline\n\
                   b\tx1\t\tnot a date\t\t\n";
        let rows = parse_metadata(tsv).unwrap();
        let a = &rows["a"].metadata;
        assert_eq!(a.publisher.as_deref(), Some("nyt"));
        assert_eq!(a.author, None, "the corpus writes None for no author");
        let article = |name: &str| CorpusArticle {
            metadata: Some(rows[name].metadata.clone()),
            ..CorpusArticle::unlisted(name.into(), "Text.".into(), Vec::new())
        };
        let a = article("a").to_article();
        assert_eq!(a.title.as_deref(), Some("A Headline"));
        assert_eq!(
            a.published.map(|p| p.date().to_string()).as_deref(),
            Some("2016-09-12")
        );
        let b = article("b").to_article();
        assert_eq!((b.outlet, b.published), (None, None));
    }

    #[test]
    fn annotator_choice_prefers_the_listed_one_then_sorted_order() {
        let entry = |listed: Option<&str>, annotators: &[&str]| Entry {
            name: "a".into(),
            annotators: annotators.iter().map(|a| a.to_string()).collect(),
            listed: listed.map(str::to_owned),
            metadata: None,
        };
        assert_eq!(
            choose_annotator(&entry(Some("zz"), &["aa", "zz"])),
            (Some("zz".into()), AnnotatorChoice::Listed)
        );
        assert_eq!(
            choose_annotator(&entry(Some("qq"), &["aa", "zz"])),
            (
                Some("aa".into()),
                AnnotatorChoice::Fallback {
                    wanted: Some("qq".into())
                }
            )
        );
        assert_eq!(
            choose_annotator(&entry(None, &[])),
            (None, AnnotatorChoice::Unannotated)
        );
    }

    #[test]
    fn opens_a_split_written_on_disk() {
        let root = std::env::temp_dir().join(format!("attest-corpus-test-{}", std::process::id()));
        let split = root.join("train");
        for dir in ["text", "attributions", "silver"] {
            fs::create_dir_all(split.join(dir)).unwrap();
        }
        fs::write(
            root.join("metadata.tsv"),
            "filename\tannotators\nb\tx2|x1\n",
        )
        .unwrap();
        fs::write(split.join("text/b.txt"), "Ann said no.").unwrap();
        fs::write(split.join("text/a.txt"), "Nothing here.").unwrap();
        let ann = "T1\tSource 0 3\tAnn\nT2\tCue 4 8\tsaid\nT3\tContent 9 11\tno\nT4\tAttribution 4 8\tsaid\nE1\tAttribution:T4 Source:T1 Cue:T2 Content:T3\n";
        fs::write(split.join("attributions/b_x1.ann"), "").unwrap();
        fs::write(split.join("attributions/b_x2.ann"), ann).unwrap();
        fs::write(split.join("attributions/zzz_x1.ann"), "").unwrap();
        let corpus = Corpus::open(&split).unwrap();
        assert_eq!(corpus.names().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(corpus.orphan_annotation_files(), ["zzz_x1.ann"]);
        let articles: Vec<CorpusArticle> = corpus.articles().map(Result::unwrap).collect();
        assert_eq!(articles[0].choice, AnnotatorChoice::Unannotated);
        assert_eq!(articles[1].annotator.as_deref(), Some("x2"));
        assert_eq!(articles[1].gold.len(), 1);
        assert!(articles[1].silver.is_none());
        assert!(matches!(
            corpus.article("c"),
            Err(CorpusError::NoSuchArticle { .. })
        ));
        fs::write(split.join("attributions/b_x2.ann"), "T1\tCue 0 99\tx\n").unwrap();
        let err = corpus.article("b").unwrap_err().to_string();
        assert!(err.contains("b_x2.ann:1:"), "{err}");
        fs::remove_dir_all(&root).unwrap();
        assert!(matches!(
            Corpus::open(&split),
            Err(CorpusError::MissingDir { .. })
        ));
    }
}
