//! The bundled test sets, run as the `attest eval` command runs them, pinned
//! exactly: the reports (counts and every case got wrong) are insta snapshots
//! in `tests/snapshots`, so that any change to a tagger's output on the sets
//! shows as a diff to review, better or worse.

use attest_numbers::eval::{QUANTITIES_TSV, TIMES_TSV};
use attest_numbers::{eval_quantities_str, eval_times_str};

/// Segmentation and tags, as `attest eval` gives each case: the unit tests' own.
#[path = "../src/testing.rs"]
mod testing;

#[test]
fn quantity_test_set_report() {
    let report = eval_quantities_str(QUANTITIES_TSV, &testing::prepare)
        .expect("the bundled set is well formed");
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn time_test_set_report() {
    let report =
        eval_times_str(TIMES_TSV, &testing::prepare).expect("the bundled set is well formed");
    insta::assert_snapshot!(report.to_string());
}
