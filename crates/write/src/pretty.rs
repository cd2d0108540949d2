//! A pretty JSON formatter that keeps arrays of scalars on one line.
//!
//! serde_json's own pretty printer puts every array element on a line of its
//! own, which turns each `[byte_start, byte_end, "kind"]` token into five lines.
//! This formatter indents objects and arrays of objects like it, but writes an
//! array whose first element is a scalar compactly: `[0, 7, "word"]`.

use std::io::{self, Write};

use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

const INDENT: &[u8] = b"  ";

enum Frame {
    /// An array before its first element is seen.
    Undecided,
    /// An array of scalars, written on one line.
    Compact,
    /// An array of objects or arrays, one element per line.
    Pretty,
    /// An object, and whether it has a member yet.
    Object(bool),
}

/// The formatter; one per written document.
pub(crate) struct ScalarArrays {
    frames: Vec<Frame>,
    /// Set between `begin_array_value` of a first element and that element, when
    /// the layout of the array depends on what the element turns out to be.
    pending: bool,
}

impl ScalarArrays {
    pub(crate) fn new() -> ScalarArrays {
        ScalarArrays {
            frames: Vec::new(),
            pending: false,
        }
    }

    fn newline<W: ?Sized + Write>(&self, writer: &mut W, depth: usize) -> io::Result<()> {
        writer.write_all(b"\n")?;
        for _ in 0..depth {
            writer.write_all(INDENT)?;
        }
        Ok(())
    }

    /// Decides the layout of the array whose first element is about to be written.
    fn resolve<W: ?Sized + Write>(&mut self, writer: &mut W, scalar: bool) -> io::Result<()> {
        if !self.pending {
            return Ok(());
        }
        self.pending = false;
        let depth = self.frames.len();
        if let Some(frame) = self.frames.last_mut() {
            if scalar {
                *frame = Frame::Compact;
            } else {
                *frame = Frame::Pretty;
                self.newline(writer, depth)?;
            }
        }
        Ok(())
    }
}

macro_rules! scalar {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<W: ?Sized + Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> io::Result<()> {
                self.resolve(writer, true)?;
                CompactFormatter.$method(writer $(, $arg)*)
            }
        )*
    };
}

impl Formatter for ScalarArrays {
    scalar! {
        write_null();
        write_bool(value: bool);
        write_i8(value: i8);
        write_i16(value: i16);
        write_i32(value: i32);
        write_i64(value: i64);
        write_i128(value: i128);
        write_u8(value: u8);
        write_u16(value: u16);
        write_u32(value: u32);
        write_u64(value: u64);
        write_u128(value: u128);
        write_f32(value: f32);
        write_f64(value: f64);
        write_number_str(value: &str);
        begin_string();
        write_byte_array(value: &[u8]);
        write_raw_fragment(fragment: &str);
    }

    fn end_string<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        CompactFormatter.end_string(writer)
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        CompactFormatter.write_string_fragment(writer, fragment)
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        CompactFormatter.write_char_escape(writer, char_escape)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.resolve(writer, false)?;
        self.frames.push(Frame::Undecided);
        writer.write_all(b"[")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        let depth = self.frames.len();
        match self.frames.last() {
            Some(Frame::Undecided) => {
                self.pending = true;
                Ok(())
            }
            Some(Frame::Compact) if !first => writer.write_all(b", "),
            Some(Frame::Pretty) => {
                if !first {
                    writer.write_all(b",")?;
                }
                self.newline(writer, depth)
            }
            _ => Ok(()),
        }
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let frame = self.frames.pop();
        if let Some(Frame::Pretty) = frame {
            self.newline(writer, self.frames.len())?;
        }
        writer.write_all(b"]")
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.resolve(writer, false)?;
        self.frames.push(Frame::Object(false));
        writer.write_all(b"{")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if let Some(Frame::Object(has_member)) = self.frames.last_mut() {
            *has_member = true;
        }
        if !first {
            writer.write_all(b",")?;
        }
        self.newline(writer, self.frames.len())
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if let Some(Frame::Object(true)) = self.frames.pop() {
            self.newline(writer, self.frames.len())?;
        }
        writer.write_all(b"}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    fn pretty(value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, ScalarArrays::new());
        value.serialize(&mut serializer).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn keeps_scalar_arrays_on_one_line_and_indents_the_rest() {
        let value = serde_json::json!({
            "a": [[0, 7, "word"], [8, 9, "punct"]],
            "b": [],
            "c": {},
            "d": [{"x": null}],
            "e": ["q\"\n"]
        });
        let expected = "{\n  \"a\": [\n    [0, 7, \"word\"],\n    [8, 9, \"punct\"]\n  ],\n  \"b\": [],\n  \"c\": {},\n  \"d\": [\n    {\n      \"x\": null\n    }\n  ],\n  \"e\": [\"q\\\"\\n\"]\n}";
        assert_eq!(pretty(&value), expected);
        let back: serde_json::Value = serde_json::from_str(expected).unwrap();
        assert_eq!(back, value);
    }
}
