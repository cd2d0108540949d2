//! The bundled test sets, run as the `attest eval` command runs them.

use attest_doc::{Limits, Segmentation};
use attest_numbers::eval::{QUANTITIES_TSV, TIMES_TSV};
use attest_numbers::{eval_quantities_str, eval_times_str};

fn segment(text: &str) -> Segmentation {
    attest_text::segment(text, &Limits::DEFAULT)
}

#[test]
fn quantity_test_set_reaches_the_target() {
    let report =
        eval_quantities_str(QUANTITIES_TSV, &segment).expect("the bundled set is well formed");
    println!("{report}");
    assert!(
        report.cases >= 150,
        "at least 150 cases, found {}",
        report.cases
    );
    assert!(report.accuracy >= 0.95, "{report}");
}

#[test]
fn time_test_set_reaches_the_target() {
    let report = eval_times_str(TIMES_TSV, &segment).expect("the bundled set is well formed");
    println!("{report}");
    assert!(
        report.cases >= 150,
        "at least 150 cases, found {}",
        report.cases
    );
    assert!(report.accuracy >= 0.95, "{report}");
}
