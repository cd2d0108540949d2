//! The pair rule and the choice among candidates on the cases of
//! `tests/data/rule-cases.json`, which the Spark grouping's Python
//! restatement of the rule (`examples/spark/claim_rule.py`) is held to as
//! well, and the bounds of the candidate rule that both restate.

use std::collections::HashMap;

use attest_claims::{
    ClaimTraits, EXEMPLARS, Figure, Fingerprint, MOST_CANDIDATES, PER_BAND_KEY, best_match,
};
use serde_json::Value;

fn cases() -> Value {
    let text = include_str!("data/rule-cases.json");
    serde_json::from_str(text).expect("the cases are JSON")
}

fn numbers(value: &Value) -> Vec<i64> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|n| n.as_i64().expect("an integer"))
        .collect()
}

fn words(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|w| w.as_str().expect("a string").to_string())
        .collect()
}

fn figures(value: &Value) -> Vec<Figure> {
    numbers(value).into_iter().map(Figure::from_bits).collect()
}

fn fingerprint(value: &Value) -> Fingerprint {
    Fingerprint {
        stems: numbers(&value["stems"])
            .into_iter()
            .map(|stem| u32::try_from(stem).expect("a 32-bit stem"))
            .collect(),
        figures: figures(&value["figures"]),
        names: words(&value["names"]),
        years: figures(&value["years"]),
    }
}

#[test]
fn the_pair_rule_decides_each_case() {
    for case in cases()["same_claim"].as_array().expect("cases") {
        let (a, b) = (fingerprint(&case["a"]), fingerprint(&case["b"]));
        let why = &case["why"];
        assert_eq!(a.same_claim(&b), case["same"], "{why}");
        assert_eq!(b.same_claim(&a), case["same"], "{why}, the other way");
        assert_eq!(
            Some(a.containment(&b)),
            case["containment"].as_f64(),
            "{why}"
        );
    }
}

#[test]
fn the_best_candidate_is_chosen_in_each_case() {
    for case in cases()["best_match"].as_array().expect("cases") {
        let statement = fingerprint(&case["statement"]);
        let candidates: Vec<(u64, Fingerprint)> = case["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|pair| {
                let claim = pair[0].as_u64().expect("a claim number");
                (claim, fingerprint(&pair[1]))
            })
            .collect();
        let traits: HashMap<u64, ClaimTraits> = case["traits"]
            .as_object()
            .expect("traits")
            .iter()
            .map(|(claim, held)| {
                let traits = ClaimTraits {
                    names: words(&held["names"]),
                    years: figures(&held["years"]),
                };
                (claim.parse().expect("a claim number"), traits)
            })
            .collect();
        let chosen = best_match(
            &statement,
            candidates.iter().map(|(claim, print)| (*claim, print)),
            |claim| traits.get(&claim),
        );
        assert_eq!(chosen, case["claim"].as_u64(), "{}", case["why"]);
    }
}

#[test]
fn the_bounds_of_the_candidate_rule_are_those_both_restate() {
    let bounds = &cases()["bounds"];
    for (name, value) in [
        ("EXEMPLARS", EXEMPLARS),
        ("PER_BAND_KEY", PER_BAND_KEY),
        ("MOST_CANDIDATES", MOST_CANDIDATES),
    ] {
        assert_eq!(bounds[name].as_u64(), Some(value as u64), "{name}");
    }
}
