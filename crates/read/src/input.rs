//! Inputs to readers: directory walks, format choice by extension or by sniffing,
//! and the iterator that streams them all.
//!
//! A directory is walked recursively and its files are read in byte-wise order of
//! their full paths (`a-b.txt` before `a/b.txt`), so a batch comes out the same on
//! every machine (the walk lists the paths before reading any file, for the sort;
//! only paths are held, never contents). Only files with a known extension are read from a walked
//! directory: `.txt`, `.text`, `.md` (plain text), `.jsonl`, `.ndjson`, `.html`,
//! `.htm`, `.warc`, `.warc.gz` (case-insensitive); others are skipped silently.
//! Symbolic links to files are read, links to directories are not followed (a link
//! cycle would never end). A file named explicitly is always read: by its extension
//! when it has a known one, else by its first bytes (`<!doctype html` or `<html` is
//! HTML, `WARC/` or the gzip magic is WARC, anything else plain text).

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use crate::decode::{SNIFF_BYTES, is_binary};
use crate::error::{ReadError, ReadErrorKind};
use crate::html::{read_html_file, read_html_stdin};
use crate::jsonl::JsonlReader;
use crate::text::{read_stdin, read_text_file};
use crate::warc::{WarcReader, looks_like_html, warc_stream};
use crate::{BlankIds, Input, ReadConfig, ReadItem};

/// The formats an input can be read as; given to [`Articles::format`], one
/// format is used for every input whatever its extension or first bytes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// Plain text, one article per file (see [`crate::text`]).
    Text,
    /// JSON Lines, one article per line (see [`crate::jsonl`]).
    Jsonl,
    /// An HTML page, one article per file (see [`crate::html`]).
    Html,
    /// A web archive, gzipped or not, one article per HTML response (see [`crate::warc`]).
    Warc,
}

fn format_by_extension(path: &Path) -> Option<InputFormat> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let (_, extension) = name.rsplit_once('.')?;
    Some(match extension {
        "txt" | "text" | "md" => InputFormat::Text,
        "jsonl" | "ndjson" => InputFormat::Jsonl,
        "html" | "htm" => InputFormat::Html,
        "warc" => InputFormat::Warc,
        "gz" if name.ends_with(".warc.gz") => InputFormat::Warc,
        _ => return None,
    })
}

fn format_by_content(head: &[u8]) -> InputFormat {
    if head.starts_with(b"WARC/") || head.starts_with(&[0x1f, 0x8b]) {
        InputFormat::Warc
    } else if looks_like_html(head) {
        InputFormat::Html
    } else {
        InputFormat::Text
    }
}

/// A file of a walked directory, or the error met while walking.
enum Entry {
    File(PathBuf),
    Error(ReadError),
}

impl Entry {
    fn sort_key(&self) -> &[u8] {
        match self {
            Entry::File(path) => path.as_os_str().as_encoded_bytes(),
            Entry::Error(error) => error.path().as_bytes(),
        }
    }
}

/// Every readable file under `root`, in byte-wise path order, without recursion
/// (directory trees can be deeper than the stack).
fn walk(root: &Path) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut directories = vec![root.to_path_buf()];
    while let Some(directory) = directories.pop() {
        let listing = match fs::read_dir(&directory) {
            Ok(listing) => listing,
            Err(error) => {
                entries.push(Entry::Error(ReadError::new(
                    directory.display().to_string(),
                    ReadErrorKind::Io(error),
                )));
                continue;
            }
        };
        for entry in listing {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    entries.push(Entry::Error(ReadError::new(
                        directory.display().to_string(),
                        ReadErrorKind::Io(error),
                    )));
                    continue;
                }
            };
            let path = entry.path();
            let Ok(file_type) = entry.file_type() else {
                continue;
            };
            if file_type.is_dir() {
                directories.push(path);
            } else if format_by_extension(&path).is_some()
                && (file_type.is_file() || fs::metadata(&path).is_ok_and(|meta| meta.is_file()))
            {
                entries.push(Entry::File(path));
            }
        }
    }
    entries.sort_by(|a, b| a.sort_key().cmp(b.sort_key()));
    entries
}

/// The articles of every input, in order; see [`crate::read_inputs`].
pub struct Articles {
    inputs: std::vec::IntoIter<Input>,
    /// The directory named on the command line that `walked` came from.
    root: PathBuf,
    walked: VecDeque<Entry>,
    current: Option<Box<dyn Iterator<Item = Result<ReadItem, ReadError>> + Send>>,
    /// The file `current` reads, and the same relative to its input (see
    /// [`crate::Origin`]).
    current_file: Option<(PathBuf, PathBuf)>,
    config: ReadConfig,
    blank_ids: BlankIds,
    /// The format every input is read as, when the caller chose one.
    format: Option<InputFormat>,
}

impl Articles {
    pub(crate) fn new(inputs: Vec<Input>, config: ReadConfig) -> Articles {
        Articles {
            inputs: inputs.into_iter(),
            root: PathBuf::new(),
            walked: VecDeque::new(),
            current: None,
            current_file: None,
            config,
            blank_ids: BlankIds::default(),
            format: None,
        }
    }

    /// Reads every input, standard input included, as `format`, whatever
    /// extensions and first bytes say; a directory walk still picks its files
    /// by extension. Without it, standard input is plain text.
    pub fn format(mut self, format: Option<InputFormat>) -> Articles {
        self.format = format;
        self
    }

    /// What a JSON Lines record with a blank `id` becomes (by default, an error).
    pub fn blank_ids(mut self, blank_ids: BlankIds) -> Articles {
        self.blank_ids = blank_ids;
        self
    }

    /// `path` as [`crate::Origin::file`] names it.
    fn relative(&self, path: &Path, explicit: bool) -> PathBuf {
        let relative = if explicit {
            path.file_name().map(Path::new)
        } else {
            path.strip_prefix(&self.root).ok()
        };
        relative.unwrap_or(path).to_path_buf()
    }

    /// Reads one file: the result of a one-article format, or a stream set as current.
    fn open(&mut self, path: &Path, explicit: bool) -> Option<Result<ReadItem, ReadError>> {
        let display = path.display().to_string();
        let limits = &self.config.limits;
        let file = (path.to_path_buf(), self.relative(path, explicit));
        let with_origin = |item: Result<ReadItem, ReadError>| {
            item.map(|mut item| {
                item.origin.path = Some(file.0.clone());
                item.origin.relative = Some(file.1.clone());
                item
            })
        };
        let format = match self.format.or_else(|| format_by_extension(path)) {
            Some(format) => format,
            None if explicit => match sniff(path) {
                Ok(format) => format,
                Err(error) => return Some(Err(ReadError::new(display, ReadErrorKind::Io(error)))),
            },
            None => return None,
        };
        match format {
            InputFormat::Text => Some(with_origin(read_text_file(path, &display, limits))),
            InputFormat::Html => Some(with_origin(read_html_file(path, &display, limits))),
            InputFormat::Jsonl => match open_checked(path) {
                Ok(reader) => {
                    let reader = JsonlReader::new(reader, display, *limits, self.blank_ids);
                    self.current = Some(Box::new(reader));
                    self.current_file = Some(file);
                    None
                }
                Err(kind) => Some(Err(ReadError::new(display, kind))),
            },
            InputFormat::Warc => {
                let stream = File::open(path).and_then(|file| warc_stream(BufReader::new(file)));
                match stream {
                    Ok(reader) => {
                        self.current = Some(Box::new(WarcReader::new(reader, display, *limits)));
                        self.current_file = Some(file);
                        None
                    }
                    Err(error) => Some(Err(ReadError::new(display, ReadErrorKind::Io(error)))),
                }
            }
        }
    }
}

impl Articles {
    /// Reads standard input in the chosen format: the result of a one-article
    /// format, or a stream set as current.
    fn open_stdin(&mut self) -> Option<Result<ReadItem, ReadError>> {
        let limits = &self.config.limits;
        match self.format.unwrap_or(InputFormat::Text) {
            InputFormat::Text => Some(read_stdin(limits)),
            InputFormat::Html => Some(read_html_stdin(limits)),
            InputFormat::Jsonl => {
                let reader = BufReader::new(io::stdin());
                self.current = Some(Box::new(JsonlReader::new(
                    reader,
                    "-",
                    *limits,
                    self.blank_ids,
                )));
                self.current_file = None;
                None
            }
            InputFormat::Warc => match warc_stream(BufReader::new(io::stdin())) {
                Ok(stream) => {
                    self.current = Some(Box::new(WarcReader::new(stream, "-", *limits)));
                    self.current_file = None;
                    None
                }
                Err(error) => Some(Err(ReadError::new("-", ReadErrorKind::Io(error)))),
            },
        }
    }
}

/// The first bytes of a file, for choosing its format.
fn sniff(path: &Path) -> io::Result<InputFormat> {
    let mut head = Vec::new();
    File::open(path)?.take(64).read_to_end(&mut head)?;
    Ok(format_by_content(&head))
}

/// A file read again from its start after its first bytes were checked.
type Checked = BufReader<io::Chain<Cursor<Vec<u8>>, File>>;

/// Opens a text stream, refusing it when its first 8 KiB are mostly binary.
fn open_checked(path: &Path) -> Result<Checked, ReadErrorKind> {
    let mut file = File::open(path).map_err(ReadErrorKind::Io)?;
    let mut head = Vec::new();
    (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(ReadErrorKind::Io)?;
    if is_binary(&head) {
        return Err(ReadErrorKind::Binary);
    }
    Ok(BufReader::new(Cursor::new(head).chain(file)))
}

impl Iterator for Articles {
    type Item = Result<ReadItem, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(current) = &mut self.current {
                if let Some(item) = current.next() {
                    return Some(item.map(|mut item| {
                        if let Some((path, relative)) = &self.current_file {
                            item.origin.path = Some(path.clone());
                            item.origin.relative = Some(relative.clone());
                        }
                        item
                    }));
                }
                self.current = None;
            }
            if let Some(entry) = self.walked.pop_front() {
                match entry {
                    Entry::Error(error) => return Some(Err(error)),
                    Entry::File(path) => {
                        if let Some(item) = self.open(&path, false) {
                            return Some(item);
                        }
                        continue;
                    }
                }
            }
            match self.inputs.next()? {
                Input::Stdin => {
                    if let Some(item) = self.open_stdin() {
                        return Some(item);
                    }
                }
                Input::Path(path) => match fs::metadata(&path) {
                    Err(error) => {
                        return Some(Err(ReadError::new(
                            path.display().to_string(),
                            ReadErrorKind::Io(error),
                        )));
                    }
                    Ok(meta) if meta.is_dir() => {
                        self.walked = walk(&path).into();
                        self.root = path;
                    }
                    Ok(_) => {
                        if let Some(item) = self.open(&path, true) {
                            return Some(item);
                        }
                    }
                },
            }
        }
    }
}
