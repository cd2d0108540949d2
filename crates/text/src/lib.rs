//! Tokenization, sentence splitting and paragraphs for English news.
