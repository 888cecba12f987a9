//! Real data (ignored unless run with `--ignored`; needs GREEN_SHARED): tagger-free edit
//! extraction equals ERRANT 3.0.2's `errant_parallel -lev -merge all-merge|all-split` for the
//! 13 CoNLL-2014 systems. The oracle outputs were recorded once with ERRANT itself
//! (`scripts/errant-parallel-oracle.py`, spaCy's en_core_web_sm 3.8.0) and are committed
//! gzipped under `tests/fixtures/parallel-oracle/`. Every line must be identical except the
//! error type, where ours is ERRANT's operation tier (`R:NOUN` → `R`; `UNK` stays `UNK`):
//! the finer types come from spaCy's tags.

use std::io::Read;
use std::path::{Path, PathBuf};

use green_edits::align::Merge;

fn shared() -> PathBuf {
    green_test_data::shared()
}

fn lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(str::to_owned).collect()
}

/// Whether our line says what ERRANT's says, types compared at the operation tier.
fn same(ours: &str, errant: &str) -> bool {
    if ours == errant {
        return true;
    }
    let (a, b): (Vec<&str>, Vec<&str>) =
        (ours.split("|||").collect(), errant.split("|||").collect());
    a.len() == 6
        && b.len() == 6
        && a.iter().zip(&b).enumerate().all(|(i, (x, y))| {
            i != 1 && x == y
                || i == 1 && (*x == *y || (*y != "UNK" && y.split(':').next() == Some(*x)))
        })
}

#[test]
#[ignore = "real data: needs GREEN_SHARED"]
fn all_merge_and_all_split_equal_errant() {
    let oracle = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parallel-oracle");
    let conll = shared().join("data/conll14");
    let source = lines(&conll.join("source.txt"));
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for entry in std::fs::read_dir(&oracle).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let mut parts = name.split('.');
        let (system, merge) = (parts.next().unwrap(), parts.next().unwrap());
        let merge: Merge = merge.parse().unwrap();
        let mut want = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_string(&mut want)
            .unwrap();
        let cor = lines(&conll.join(format!("systems/{system}.txt")));
        assert_eq!(cor.len(), source.len(), "{system}");
        let got: String = source
            .iter()
            .zip(&cor)
            .map(|(s, c)| green_edits::parallel::block(s, &[c.as_str()], merge).unwrap())
            .collect();
        let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
        if g.len() != w.len() {
            mismatches.push(format!("{name}: {} lines, ERRANT {}", g.len(), w.len()));
        }
        for (n, (a, b)) in g.iter().zip(&w).enumerate() {
            if !same(a, b) {
                mismatches.push(format!("{name}:{}: ours {a:?}, ERRANT {b:?}", n + 1));
            }
        }
        checked += 1;
    }
    assert_eq!(
        checked,
        26,
        "13 systems × 2 mergers expected under {}",
        oracle.display()
    );
    assert!(
        mismatches.is_empty(),
        "{}",
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
