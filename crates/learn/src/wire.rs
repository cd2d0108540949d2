//! Little-endian reading and writing of model files, shared by every format
//! in attest so that each checks counts, floats and ends the same way.

use crate::model::ModelError;

/// Appends little-endian values and LEB128 varints to a byte buffer.
#[derive(Debug, Default)]
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// Appends bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends one byte.
    pub fn u8(&mut self, value: u8) {
        self.bytes.push(value);
    }

    /// Appends a `u32`, little-endian.
    pub fn u32(&mut self, value: u32) {
        self.raw(&value.to_le_bytes());
    }

    /// Appends a `u64`, little-endian.
    pub fn u64(&mut self, value: u64) {
        self.raw(&value.to_le_bytes());
    }

    /// Appends an `f32`, little-endian.
    pub fn f32(&mut self, value: f32) {
        self.raw(&value.to_le_bytes());
    }

    /// Appends an unsigned LEB128 varint.
    pub fn varint(&mut self, mut value: u64) {
        loop {
            let byte = (value & 0x7f) as u8;
            value >>= 7;
            if value == 0 {
                self.bytes.push(byte);
                return;
            }
            self.bytes.push(byte | 0x80);
        }
    }

    /// Appends a string as its length (a varint) and UTF-8 bytes.
    pub fn str(&mut self, text: &str) {
        self.varint(text.len() as u64);
        self.raw(text.as_bytes());
    }

    /// What has been written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads what a [`Writer`] wrote, failing with [`ModelError::Truncated`] at the
/// end and [`ModelError::Corrupt`] at an impossible value, never panicking.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// A reader of `bytes` whose errors count positions from `at`, for a part
    /// of a file.
    pub(crate) fn at(bytes: &'a [u8], at: usize) -> Reader<'a> {
        Reader {
            bytes: bytes.get(at..).unwrap_or_default(),
            at,
        }
    }

    /// The error for an impossible value here.
    pub fn corrupt(&self, what: &str) -> ModelError {
        ModelError::Corrupt {
            at: self.at,
            what: what.to_owned(),
        }
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }

    /// Fails unless every byte has been read.
    pub fn finish(&self) -> Result<(), ModelError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(self.corrupt("bytes left after the model"))
        }
    }

    /// The next `len` bytes.
    pub fn take(&mut self, len: usize) -> Result<&'a [u8], ModelError> {
        if len > self.bytes.len() {
            return Err(ModelError::Truncated { at: self.at });
        }
        let (head, tail) = self.bytes.split_at(len);
        self.bytes = tail;
        self.at += len;
        Ok(head)
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], ModelError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A byte.
    pub fn u8(&mut self) -> Result<u8, ModelError> {
        let [byte] = self.array()?;
        Ok(byte)
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, ModelError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, ModelError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A little-endian `f32`, which must be finite: a weight of NaN or
    /// infinity would poison every score it joins.
    pub fn f32(&mut self) -> Result<f32, ModelError> {
        let value = f32::from_le_bytes(self.array()?);
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.corrupt("weight is not a finite number"))
        }
    }

    /// An unsigned LEB128 varint of at most 64 bits.
    pub fn varint(&mut self) -> Result<u64, ModelError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.u8()?;
            let part = u64::from(byte & 0x7f);
            if shift == 63 && part > 1 {
                return Err(self.corrupt("varint overflows 64 bits"));
            }
            value |= part << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.corrupt("varint longer than 10 bytes"))
    }

    /// A varint that must fit a `usize`.
    pub fn varint_usize(&mut self) -> Result<usize, ModelError> {
        let value = self.varint()?;
        usize::try_from(value).map_err(|_| self.corrupt("number too large"))
    }

    /// A count (a varint) of items of at least `min_bytes` each, checked against
    /// what is left so that a damaged count cannot ask for a huge allocation.
    pub fn count(&mut self, min_bytes: usize) -> Result<usize, ModelError> {
        let count = self.varint_usize()?;
        if count.saturating_mul(min_bytes) > self.bytes.len() {
            return Err(self.corrupt("count larger than the file"));
        }
        Ok(count)
    }

    /// A string as [`Writer::str`] wrote it.
    pub fn string(&mut self) -> Result<&'a str, ModelError> {
        let len = self.varint_usize()?;
        let at = self.at;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes).map_err(|_| ModelError::Corrupt {
            at,
            what: "string is not UTF-8".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_the_end_is_an_error() {
        let mut out = Writer::default();
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            out.varint(value);
        }
        out.u32(7);
        out.f32(-1.5);
        out.str("Zoë");
        let bytes = out.into_bytes();
        let mut input = Reader::new(&bytes);
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(input.varint().unwrap(), value);
        }
        assert_eq!(input.u32().unwrap(), 7);
        assert_eq!(input.f32().unwrap(), -1.5);
        assert_eq!(input.string().unwrap(), "Zoë");
        assert!(input.finish().is_ok());
        assert!(matches!(input.u8(), Err(ModelError::Truncated { .. })));
        let nan = f32::NAN.to_le_bytes();
        assert!(matches!(
            Reader::new(&nan).f32(),
            Err(ModelError::Corrupt { .. })
        ));
    }
}
