//! A fast hasher for the caches keyed by small integers (glyph ids, sizes, addresses,
//! code points): the standard library's SipHash guards against adversarial keys,
//! which these caches never see, at several times the cost per word. This is the
//! multiply-rotate hash of rustc's `FxHasher`.

use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FastHasher>>;

#[derive(Clone, Copy, Default)]
pub(crate) struct FastHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
        }
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.add(v as u64);
    }

    #[inline]
    fn write_u16(&mut self, v: u16) {
        self.add(v as u64);
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.add(v as u64);
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The [`FastHasher`] hash of a sequence of words.
pub(crate) fn hash_words(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h = FastHasher::default();
    for w in words {
        h.write_u64(w);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::FastMap;

    #[test]
    fn keys_that_differ_in_any_part_are_kept_apart() {
        let mut m: FastMap<Vec<u32>, usize> = FastMap::default();
        let keys: Vec<Vec<u32>> = (0..2000u32).map(|i| vec![i % 7, i / 7, i]).chain([vec![], vec![0], vec![0, 0]]).collect();
        for (i, k) in keys.iter().enumerate() {
            m.insert(k.clone(), i);
        }
        assert_eq!(m.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(m.get(k), Some(&i));
        }
        let mut t: FastMap<(u32, u16, i32), u8> = FastMap::default();
        t.insert((1, 2, -3), 1);
        t.insert((1, 2, 3), 2);
        t.insert((2, 1, -3), 3);
        assert_eq!((t[&(1, 2, -3)], t[&(1, 2, 3)], t[&(2, 1, -3)]), (1, 2, 3));
    }
}
