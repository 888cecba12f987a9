//! NumPy's arithmetic where the reference implementations use it: `np.mean` sums pairwise,
//! so a plain running sum differs in the last digit, which `-d 14` and above print.

/// NumPy's `np.mean` of a float64 array: its pairwise sum of all elements divided by n
/// (checked against NumPy 2.4 on random arrays of 1 to 70,000 elements).
pub fn numpy_mean(xs: &[f64]) -> f64 {
    pairwise_sum(xs) / xs.len() as f64
}

/// NumPy's `pairwise_sum` (how `np.sum`, `np.mean` and `np.std` add): a plain loop below 8
/// elements, eight interleaved accumulators up to 128, else the two halves (the first a multiple of 8 long) summed recursively.
pub fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        return a.iter().fold(0.0, |s, &x| s + x);
    }
    if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        for block in a[8..whole].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(block) {
                *acc += x;
            }
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        return res;
    }
    let half = n / 2;
    let half = half - half % 8;
    pairwise_sum(&a[..half]) + pairwise_sum(&a[half..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_mean_sums_pairwise() {
        // Where a running sum and NumPy's pairwise sum differ in the last bit (values from
        // NumPy 2.4): numpy.mean([0.1] * 10) == 0.1, but sum([0.1] * 10) / 10 is not.
        let xs = [0.1; 10];
        assert_eq!(numpy_mean(&xs), 0.1);
        assert_eq!(xs.iter().sum::<f64>() / 10.0, 0.09999999999999999);
        // numpy.mean([1 / (i + 1) for i in range(300)]): the recursive halves above 128.
        let ys: Vec<f64> = (0..300).map(|i| 1.0 / f64::from(i + 1)).collect();
        assert_eq!(numpy_mean(&ys), 0.02094221293433168);
        assert_eq!(ys.iter().sum::<f64>() / 300.0, 0.020942212934331673);
    }
}
