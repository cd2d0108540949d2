//! Feature keys as 64-bit hashes.
//!
//! Features are never formatted as strings: each one is a template number mixed
//! with the hashes of the values it looks at, which keeps extraction free of
//! allocation and the model file free of feature names. Two features sharing a
//! 64-bit key would share weights; with a few million keys that is below one
//! chance in a million.

/// The 64-bit FNV-1a hash of some bytes: stable across platforms and releases,
/// which the model file relies on.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Mixes a value into a running key (the SplitMix64 finalizer over a rotate-xor),
/// so that `mix(mix(t, a), b)` differs from `mix(mix(t, b), a)`.
pub(crate) fn mix(key: u64, value: u64) -> u64 {
    let mut z = key.rotate_left(23) ^ value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A feature of template `template` over one value.
pub(crate) fn key1(template: u64, a: u64) -> u64 {
    mix(mix(0x5157_4A01, template), a)
}

/// A feature of template `template` over two values.
pub(crate) fn key2(template: u64, a: u64, b: u64) -> u64 {
    mix(key1(template, a), b)
}

/// A feature of template `template` over three values.
pub(crate) fn key3(template: u64, a: u64, b: u64, c: u64) -> u64 {
    mix(key2(template, a, b), c)
}

/// A hasher for keys that are hashes already.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys reach this hasher; anything else still hashes soundly.
        self.0 = fnv(bytes) ^ self.0.rotate_left(5);
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// A map from feature keys.
pub(crate) type KeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_reference_and_mix_is_ordered() {
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(key2(1, 2, 3), key2(1, 3, 2));
        assert_ne!(key1(1, 2), key1(2, 2));
        assert_eq!(key3(4, 5, 6, 7), key3(4, 5, 6, 7));
    }
}
