//! The one random generator of green's statistics: xoshiro256** (Blackman and Vigna 2018)
//! seeded through SplitMix64, written out here so that published numbers never depend on
//! another crate's choice of algorithm.

/// SplitMix64's output function: a bijective 64-bit mix.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// xoshiro256** state.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator whose state is the first four outputs of SplitMix64 started at `seed`.
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(GOLDEN);
            mix64(x)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// Stream `index` of `seed`: replicate `index` of a resampling draws from it, so a
    /// replicate's draws do not depend on which thread runs it.
    pub fn stream(seed: u64, index: u64) -> Rng {
        Rng::new(mix64(seed) ^ mix64(index ^ 0x632B_E59B_D9B4_E019))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`), without bias: Lemire's multiply-and-reject.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_and_xoshiro_match_the_published_reference_outputs() {
        // SplitMix64 from seed 1234567: its well-known first output.
        assert_eq!(mix64(1234567u64.wrapping_add(GOLDEN)), 6457827717110365317);
        // xoshiro256** from the state [1, 2, 3, 4]: the first outputs of the reference C code
        // (also the test vector of the rand_xoshiro crate).
        let mut r = Rng { s: [1, 2, 3, 4] };
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(first, [11520, 0, 1509978240]);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|_| Rng::stream(1, 0).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::stream(1, 0).next_u64(), Rng::stream(1, 1).next_u64());
        assert_ne!(Rng::stream(1, 0).next_u64(), Rng::stream(2, 0).next_u64());
    }
}
