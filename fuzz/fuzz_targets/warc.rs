//! Fuzzes the warc reader: any bytes read as a `.warc` file.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attest_read_fuzz::read_as(data, "warc"));
