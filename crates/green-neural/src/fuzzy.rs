//! The two string-similarity gates of Scribendi, as gec-metrics computes them: fuzzywuzzy's
//! `token_sort_ratio` (on python-Levenshtein, which gec-metrics installs) and a character
//! Levenshtein ratio with substitutions costing 2.

/// Characters U+0080–U+00FF, which fuzzywuzzy's `force_ascii` deletes (nothing else).
fn latin1_high(c: char) -> bool {
    ('\u{80}'..='\u{ff}').contains(&c)
}

/// fuzzywuzzy's `full_process(s, force_ascii=True)` and `_process_and_sort`: every character
/// outside `\w` becomes a space, lower case, tokens sorted and joined by one space.
fn process_and_sort(s: &str) -> Vec<char> {
    let cleaned: String = s
        .chars()
        .filter(|&c| !latin1_high(c))
        .map(|c| {
            if c == '_' || c.is_alphanumeric() {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .to_lowercase();
    let mut tokens: Vec<&str> = cleaned.split_whitespace().collect();
    tokens.sort_unstable();
    tokens.join(" ").chars().collect()
}

/// The indel distance (insertions and deletions; a substitution is both) of two sequences.
fn indel_distance(a: &[char], b: &[char]) -> usize {
    // Longest common subsequence, one row at a time.
    let mut row = vec![0usize; b.len() + 1];
    for &x in a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    a.len() + b.len() - 2 * row[b.len()]
}

/// `fuzz.token_sort_ratio(a, b) / 100`: a whole percentage, rounded half to even.
pub fn token_sort_ratio(a: &str, b: &str) -> f64 {
    let (a, b) = (process_and_sort(a), process_and_sort(b));
    let percent = if a == b {
        100.0
    } else if a.is_empty() || b.is_empty() {
        0.0
    } else {
        let ratio = 1.0 - indel_distance(&a, &b) as f64 / (a.len() + b.len()) as f64;
        (100.0 * ratio).round_ties_even()
    };
    percent / 100.0
}

/// gec-metrics' `levenshtein_distance_ratio`: 1 − distance / (|a| + |b|) over characters,
/// a substitution costing 2.
pub fn levenshtein_ratio(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    1.0 - indel_distance(&a, &b) as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzywuzzy_values() {
        // Values from fuzzywuzzy 0.18 with python-Levenshtein 0.27.
        assert_eq!(
            token_sort_ratio(
                "This sentences contain gramamtical error .",
                "This sentence contains a grammatical error ."
            ),
            0.93
        );
        assert_eq!(token_sort_ratio("a b", "b a"), 1.0);
        assert_eq!(token_sort_ratio("...", "abc"), 0.0);
        assert_eq!(token_sort_ratio("!!", "?"), 1.0);
        assert_eq!(levenshtein_ratio("abc", "abd"), 1.0 - 2.0 / 6.0);
    }
}
