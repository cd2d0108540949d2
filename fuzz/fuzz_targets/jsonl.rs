//! Fuzzes the jsonl reader: any bytes read as a `.jsonl` file.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attest_read_fuzz::read_as(data, "jsonl"));
