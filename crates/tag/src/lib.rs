//! Part-of-speech tagging stage.
