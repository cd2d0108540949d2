//! Feature keys as 64-bit hashes, for stages that never name their features.
//!
//! A key is a template number mixed with the hashes ([`crate::fnv1a64`]) of
//! the values it looks at, which keeps extraction free of allocation and the
//! model file free of feature names. Two features sharing a 64-bit key would
//! share weights; with a few million keys that is below one chance in a million.
//!
//! A stage makes tens of keys per token, so these small functions are marked
//! `#[inline]`: without it they would be calls across the crate boundary.

use std::collections::HashMap;

use crate::features::Prehashed;

/// Mixes a value into a running key (the SplitMix64 finalizer over a rotate-xor),
/// so that `mix(mix(t, a), b)` differs from `mix(mix(t, b), a)`.
#[inline]
pub fn mix(key: u64, value: u64) -> u64 {
    let mut z = key.rotate_left(23) ^ value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A feature of template `template` over one value.
#[inline]
pub fn key1(template: u64, a: u64) -> u64 {
    mix(mix(0x5157_4A01, template), a)
}

/// A feature of template `template` over two values.
#[inline]
pub fn key2(template: u64, a: u64, b: u64) -> u64 {
    mix(key1(template, a), b)
}

/// A feature of template `template` over three values.
#[inline]
pub fn key3(template: u64, a: u64, b: u64, c: u64) -> u64 {
    mix(key2(template, a, b), c)
}

/// A map from feature keys (or any other hashes): they are not hashed again.
pub type KeyMap<V> = HashMap<u64, V, Prehashed>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fnv1a64;

    #[test]
    fn fnv_matches_reference_and_mix_is_ordered() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(key2(1, 2, 3), key2(1, 3, 2));
        assert_ne!(key1(1, 2), key1(2, 2));
        assert_eq!(key3(4, 5, 6, 7), key3(4, 5, 6, 7));
    }
}
