//! Correlation statistics shared by every meta-evaluation (human judgments here, MAEGE later).
//!
//! Small, dependency-free and general: any two equally long slices of `f64`. Undefined
//! values (fewer than two points, a constant side, a NaN) come back as `None` rather than
//! NaN, so a caller must decide how to show them. Ranks are 1-based and ties get the
//! average of the ranks they span, as in `scipy.stats.rankdata(method="average")`, so
//! Spearman's rho equals SciPy's on tied data too.

/// Pearson's product-moment correlation; `None` when undefined.
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n != y.len() || n < 2 || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        let (dx, dy) = (a - mx, b - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some((sxy / (sxx.sqrt() * syy.sqrt())).clamp(-1.0, 1.0))
}

/// 1-based ranks, ties sharing the average of the ranks they span (smallest value = rank 1).
/// NaNs sort last.
pub fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut out = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        // Positions i..=j hold equal values: ranks i+1..=j+1, average (i + j) / 2 + 1.
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = avg;
        }
        i = j + 1;
    }
    out
}

/// Spearman's rho: Pearson's r of the average ranks; `None` when undefined.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.iter().chain(y).any(|v| !v.is_finite()) {
        return None;
    }
    pearson(&ranks(x), &ranks(y))
}

/// Pair counts behind every Kendall tau variant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct PairCounts {
    pub concordant: u64,
    pub discordant: u64,
    /// Tied in x only.
    pub ties_x: u64,
    /// Tied in y only.
    pub ties_y: u64,
    /// Tied in both.
    pub ties_xy: u64,
}

impl PairCounts {
    /// Count every pair i < j of (x, y); O(n²), meant for the small n of meta-evaluation.
    pub fn of(x: &[f64], y: &[f64]) -> PairCounts {
        let mut c = PairCounts::default();
        for i in 0..x.len().min(y.len()) {
            for j in i + 1..x.len().min(y.len()) {
                c.add(x[i].partial_cmp(&x[j]), y[i].partial_cmp(&y[j]));
            }
        }
        c
    }

    /// Add one pair given the order of its two x values and of its two y values.
    /// An unordered (NaN) side counts as a tie.
    pub fn add(&mut self, x: Option<std::cmp::Ordering>, y: Option<std::cmp::Ordering>) {
        use std::cmp::Ordering::Equal;
        let (x, y) = (x.unwrap_or(Equal), y.unwrap_or(Equal));
        match (x == Equal, y == Equal) {
            (true, true) => self.ties_xy += 1,
            (true, false) => self.ties_x += 1,
            (false, true) => self.ties_y += 1,
            (false, false) if x == y => self.concordant += 1,
            (false, false) => self.discordant += 1,
        }
    }

    pub fn pairs(&self) -> u64 {
        self.concordant + self.discordant + self.ties_x + self.ties_y + self.ties_xy
    }

    /// Tau-a: (C - D) / all pairs.
    pub fn tau_a(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| (self.concordant as f64 - self.discordant as f64) / n as f64)
    }

    /// Tau-b: (C - D) / sqrt((pairs untied in x) · (pairs untied in y)), SciPy's default.
    pub fn tau_b(&self) -> Option<f64> {
        let untied_x = (self.concordant + self.discordant + self.ties_y) as f64;
        let untied_y = (self.concordant + self.discordant + self.ties_x) as f64;
        let d = (untied_x * untied_y).sqrt();
        (d > 0.0).then(|| (self.concordant as f64 - self.discordant as f64) / d)
    }
}

/// Kendall's tau-b of two samples (SciPy's `kendalltau` default); `None` when undefined.
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() {
        return None;
    }
    PairCounts::of(x, y).tau_b()
}

/// Kendall's tau-a of two samples: ties count in the denominator only.
pub fn kendall_tau_a(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() {
        return None;
    }
    PairCounts::of(x, y).tau_a()
}

/// Kendall's tau-c (Stuart's), for data with few distinct values:
/// 2m(C - D) / (n²(m - 1)), m = the smaller number of distinct values of x and y.
pub fn kendall_tau_c(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    if n != y.len() || n < 2 {
        return None;
    }
    let distinct = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s.dedup();
        s.len()
    };
    let m = distinct(x).min(distinct(y)) as f64;
    if m < 2.0 {
        return None;
    }
    let c = PairCounts::of(x, y);
    let nf = n as f64;
    Some(2.0 * m * (c.concordant as f64 - c.discordant as f64) / (nf * nf * (m - 1.0)))
}

/// Two-sided permutation p-value of a correlation statistic: the share of permutations of
/// `y` whose |statistic| is at least the observed one. Exact (all n! orders) for n ≤ 8,
/// which is where it matters: with 6 systems, only 720 orders exist.
/// `None` for n > 8 or when the statistic is undefined on the data.
pub fn exact_permutation_p(
    x: &[f64],
    y: &[f64],
    stat: fn(&[f64], &[f64]) -> Option<f64>,
) -> Option<f64> {
    let n = x.len();
    if n != y.len() || n > 8 {
        return None;
    }
    let observed = stat(x, y)?.abs();
    let mut perm = y.to_vec();
    let (mut hits, mut total) = (0u64, 0u64);
    // Heap's algorithm over every order of `perm`.
    let mut c = vec![0usize; n];
    let mut visit = |p: &[f64]| {
        total += 1;
        if stat(x, p).is_some_and(|s| s.abs() >= observed - 1e-12) {
            hits += 1;
        }
    };
    visit(&perm);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            perm.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            visit(&perm);
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    Some(hits as f64 / total as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("defined");
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }

    #[test]
    fn pearson_by_hand() {
        // x = 1..4, y = 2,4,5,9: mean 2.5 / 5; sxy = 1.5*3+.5*1+.5*0+1.5*4 = 11; sxx = 5; syy = 26.
        close(
            pearson(&[1., 2., 3., 4.], &[2., 4., 5., 9.]),
            11.0 / (5f64.sqrt() * 26f64.sqrt()),
        );
        close(pearson(&[1., 2., 3.], &[3., 2., 1.]), -1.0);
        assert_eq!(pearson(&[1., 1., 1.], &[1., 2., 3.]), None);
        assert_eq!(pearson(&[1.], &[1.]), None);
        assert_eq!(pearson(&[1., 2.], &[1.]), None);
        assert_eq!(pearson(&[1., f64::NAN], &[1., 2.]), None);
    }

    #[test]
    fn average_ranks_for_ties() {
        assert_eq!(ranks(&[10., 20., 20., 5., 20.]), [2., 4., 4., 1., 4.]);
        assert_eq!(ranks(&[3., 3.]), [1.5, 1.5]);
        assert!(ranks(&[]).is_empty());
    }

    #[test]
    fn spearman_with_ties_by_hand() {
        // ranks x = 1, 2.5, 2.5, 4; ranks y = 1, 2, 3, 4.
        // dx = -1.5, 0, 0, 1.5; dy = -1.5, -.5, .5, 1.5: sxy = 4.5, sxx = 4.5, syy = 5.
        close(
            spearman(&[1., 2., 2., 3.], &[10., 20., 30., 40.]),
            4.5 / (4.5f64.sqrt() * 5f64.sqrt()),
        );
        close(spearman(&[1., 2., 3.], &[1., 4., 9.]), 1.0);
    }

    #[test]
    fn kendall_variants_by_hand() {
        // x = 1,2,3,4 ; y = 1,3,2,2. Pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) D, (2,4) D, (3,4) tie in y.
        let (x, y) = ([1., 2., 3., 4.], [1., 3., 2., 2.]);
        let c = PairCounts::of(&x, &y);
        assert_eq!(
            (c.concordant, c.discordant, c.ties_y, c.ties_x, c.ties_xy),
            (3, 2, 1, 0, 0)
        );
        close(kendall_tau_a(&x, &y), 1.0 / 6.0);
        close(kendall_tau_b(&x, &y), 1.0 / (6f64 * 5.0).sqrt());
        // m = min(4 distinct, 3 distinct) = 3: 2·3·1 / (16·2).
        close(kendall_tau_c(&x, &y), 6.0 / 32.0);
        assert_eq!(kendall_tau_b(&[1., 1.], &[1., 2.]), None);
    }

    #[test]
    fn exact_permutation_test() {
        // Perfect order of 4: only the identity and the reversal reach |rho| = 1: 2/24.
        let p = exact_permutation_p(&[1., 2., 3., 4.], &[1., 2., 3., 4.], spearman).unwrap();
        assert!((p - 2.0 / 24.0).abs() < 1e-12);
        assert_eq!(exact_permutation_p(&[0.; 9], &[0.; 9], pearson), None);
    }
}
