//! Which of a system's edits were right, and which reference edits it missed.
//!
//! ERRANT counts an edit as a true positive when the reference has the same span and
//! correction, else as a false positive; a reference edit the system does not have is a
//! false negative. CLEME 2.0 (Ye et al. 2024) splits those into the four things a reader
//! wants to see: a **correct** edit, a **wrong correction** (the system changed a span the
//! reference also changes, differently), an **unnecessary** edit (the reference changes
//! nothing there: over-correction) and a **missed** edit (under-correction). Here a false
//! positive is a wrong correction when it overlaps a reference edit, and a reference edit
//! such a wrong correction overlaps is "covered" rather than missed, so the four counts add
//! up to ERRANT's TP, FP and FN exactly.

use green_edits::Edit;

/// Outcome codes of system edits (see [`crate::model::HypEdit`]).
pub const CORRECT: u8 = 0;
pub const WRONG: u8 = 1;
pub const UNNECESSARY: u8 = 2;
pub const NOT_SCORED: u8 = 3;

/// Whether ERRANT's span-and-correction comparison skips the edit (`UNK`: the same tokens on
/// both sides; `noop`: an annotator without edits).
fn skipped(e: &Edit) -> bool {
    e.kind == "UNK" || e.is_noop_span()
}

/// Whether two source spans share a token, or an insertion lies in or at either end of
/// the other span.
pub(crate) fn touches(a: &Edit, b: &Edit) -> bool {
    if a.start == a.end || b.start == b.end {
        a.start <= b.end && b.start <= a.end
    } else {
        a.start < b.end && b.start < a.end
    }
}

fn same(a: &Edit, b: &Edit) -> bool {
    a.start == b.start && a.end == b.end && a.correction == b.correction
}

/// The outcome of each system edit and a letter per reference edit (`h`, `w`, `m`, `-`).
pub fn classify(hyp: &[&Edit], reference: &[&Edit]) -> (Vec<u8>, String) {
    let outcomes: Vec<u8> = hyp
        .iter()
        .map(|h| {
            if skipped(h) {
                NOT_SCORED
            } else if reference.iter().any(|r| !skipped(r) && same(h, r)) {
                CORRECT
            } else if reference.iter().any(|r| !skipped(r) && touches(h, r)) {
                WRONG
            } else {
                UNNECESSARY
            }
        })
        .collect();
    let letters = reference
        .iter()
        .map(|r| {
            if skipped(r) {
                '-'
            } else if hyp.iter().any(|h| !skipped(h) && same(h, r)) {
                'h'
            } else if hyp
                .iter()
                .zip(&outcomes)
                .any(|(h, &o)| o == WRONG && touches(h, r))
            {
                'w'
            } else {
                'm'
            }
        })
        .collect();
    (outcomes, letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: i64, end: i64, correction: &str, kind: &str) -> Edit {
        Edit {
            line: 0,
            start,
            end,
            kind: kind.into(),
            correction: correction.into(),
            annotator: 0,
            alternative: 0,
        }
    }

    #[test]
    fn four_outcomes() {
        let hyp = [
            edit(1, 2, "goes", "R"), // correct
            edit(4, 5, "days", "R"), // wrong: the reference deletes token 4
            edit(6, 6, "very", "M"), // unnecessary
            edit(8, 9, "x", "UNK"),  // not scored
        ];
        let reference = [
            edit(1, 2, "goes", "R"),
            edit(4, 5, "", "U"),
            edit(7, 7, ".", "M"), // missed
        ];
        let h: Vec<&Edit> = hyp.iter().collect();
        let r: Vec<&Edit> = reference.iter().collect();
        let (outcomes, letters) = classify(&h, &r);
        assert_eq!(outcomes, [CORRECT, WRONG, UNNECESSARY, NOT_SCORED]);
        assert_eq!(letters, "hwm");
    }

    #[test]
    fn an_insertion_at_the_edge_of_a_replacement_overlaps_it() {
        let a = edit(3, 3, "the", "M");
        assert!(touches(&a, &edit(3, 4, "x", "R")));
        assert!(touches(&a, &edit(2, 3, "x", "R")));
        assert!(!touches(&a, &edit(4, 5, "x", "R")));
        assert!(!touches(&edit(1, 2, "a", "R"), &edit(2, 3, "b", "R")));
        // A reference edit next to a correct system edit is missed, not covered.
        let hyp = [edit(3, 4, "x", "R")];
        let reference = [edit(3, 4, "x", "R"), edit(3, 3, "the", "M")];
        let (o, l) = classify(
            &hyp.iter().collect::<Vec<_>>(),
            &reference.iter().collect::<Vec<_>>(),
        );
        assert_eq!((o, l.as_str()), (vec![CORRECT], "hm"));
    }
}
