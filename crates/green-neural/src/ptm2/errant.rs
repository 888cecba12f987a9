//! PT-M2's `errant` and `senterrant` bases: the edits come from ERRANT M2 files (the
//! system's, as errant_parallel writes it, and the gold), not from the M2 scorer's edit
//! lattice, and are weighted as the `m2` bases weigh theirs.
//!
//! As PT-M2's errant_score.py reads them: each block's edits keyed `(start, end,
//! correction)` per coder, in the order coders first appear, duplicates merged; `UNK` edits
//! dropped; a block without edits is coder 0 with no edits; the noop edit dropped. The
//! system's edits of all its coders make one list. A system edit is correct when it equals a
//! gold edit after the last match (`matchSeq`). Corrections are taken as written: an ERRANT
//! deletion is empty, and `-NONE-` would be a token. PT-M2 asserts that the system's edits
//! give the system's sentence and the gold edits the reference; here a mismatch is an error.

use green_m2::GoldEdit;

use super::{BertScore, Edit, Plan, SentenceWeights, Texts};

/// One block of an ERRANT M2 file: the source and each coder's edits.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub source: String,
    /// 1-based line of the `S` line.
    pub line: usize,
    pub coders: Vec<(i64, Vec<Edit>)>,
}

impl Block {
    /// The system's edits: every coder's, in order.
    fn flattened(&self) -> Vec<Edit> {
        self.coders.iter().flat_map(|(_, e)| e.clone()).collect()
    }
}

/// Parses an ERRANT M2 file (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Result<Vec<Block>, String> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let at = || format!("{path}:{n}");
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        if !open {
            let Some(source) = line.strip_prefix("S ").or(line.strip_prefix("S")) else {
                return Err(format!(
                    "{}: a block must start with an `S` line; is this an M2 file?",
                    at()
                ));
            };
            blocks.push(Block {
                source: source.to_owned(),
                line: n,
                coders: Vec::new(),
            });
            open = true;
            continue;
        }
        let block = blocks.last_mut().expect("an open block");
        let fields: Vec<&str> = line.get(2..).unwrap_or("").split("|||").collect();
        let span: Vec<i64> = fields[0]
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        let coder = fields.last().and_then(|c| c.trim().parse::<i64>().ok());
        let (&[start, end], Some(coder), true) = (
            span.as_slice(),
            coder,
            line.starts_with("A ") && fields.len() >= 3,
        ) else {
            return Err(format!(
                "{}: not an edit line `A start end|||type|||correction|||...|||coder`",
                at()
            ));
        };
        let (cat, correction) = (fields[1], fields[2]);
        let at_coder = match block.coders.iter().position(|(c, _)| *c == coder) {
            Some(k) => k,
            None => {
                block.coders.push((coder, Vec::new()));
                block.coders.len() - 1
            }
        };
        if cat == "UNK" || (start, end, correction) == (-1, -1, "-NONE-") {
            continue;
        }
        let tokens: Vec<&str> = green_m2::text::split(&block.source).collect();
        if start < 0 || start > end || end as usize > tokens.len() {
            return Err(format!(
                "{}: the span {start} {end} is not within the sentence's {} tokens",
                at(),
                tokens.len()
            ));
        }
        if correction == "-NONE-" {
            return Err(format!(
                "{}: a deletion written `-NONE-` (m2scorer style); PT-M2's errant bases read ERRANT M2, where a deletion's correction is empty (make it with `green errant-parallel`)",
                at()
            ));
        }
        let (start, end) = (start as usize, end as usize);
        let edit = Edit {
            start,
            end,
            original: tokens[start..end].join(" "),
            correction: correction.to_owned(),
        };
        let edits = &mut block.coders[at_coder].1;
        if !edits.contains(&edit) {
            edits.push(edit);
        }
    }
    for b in &mut blocks {
        if b.coders.is_empty() {
            b.coders.push((0, Vec::new()));
        }
    }
    Ok(blocks)
}

/// `source` with `edits` applied in (start, end) order, as PT-M2's `get_ref`.
fn applied(source: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.start, e.end));
    super::apply(source, &sorted)
}

impl BertScore {
    /// Every edit's weight against every gold coder of every sentence: `gold` and `system`
    /// the ERRANT M2 blocks, `hypotheses[i]` the system's sentence `i`. Errors name the
    /// files `gold_path` and `system_path`.
    pub fn weigh_errant(
        &self,
        gold: &[Block],
        system: &[Block],
        hypotheses: &[String],
        (gold_path, system_path): (&str, &str),
    ) -> Result<Vec<SentenceWeights>, String> {
        if gold.len() != system.len() || gold.len() != hypotheses.len() {
            return Err(format!(
                "{gold_path} has {} sentences, {system_path} {} and the system output {} lines; they must be line for line (make {system_path} from the system output with `green errant-parallel`)",
                gold.len(),
                system.len(),
                hypotheses.len()
            ));
        }
        let mut texts = Texts::default();
        // Per sentence: (source, [(coder, system, gold, reference, [(edit, text)])]).
        let mut plans = Vec::with_capacity(gold.len());
        for ((g, s), h) in gold.iter().zip(system).zip(hypotheses) {
            if g.source != s.source {
                return Err(format!(
                    "{system_path}:{}: the source differs from {gold_path}:{}; both M2 files must be made from the same source",
                    s.line, g.line
                ));
            }
            let edits = s.flattened();
            let got = applied(&s.source, &edits);
            if got != *h {
                return Err(format!(
                    "{system_path}:{}: its edits give `{got}` but the system output has `{h}` (UNK edits are dropped, as PT-M2 does); make the M2 from this output with `green errant-parallel`",
                    s.line
                ));
            }
            let source = texts.id(g.source.clone());
            let mut coders = Vec::new();
            for (coder, gold_edits) in &g.coders {
                let reference = texts.id(applied(&g.source, gold_edits));
                let with = texts.each_alone(&g.source, edits.iter().chain(gold_edits));
                let gold_edits: Vec<GoldEdit> = gold_edits
                    .iter()
                    .map(|e| GoldEdit {
                        start: e.start,
                        end: e.end,
                        original: e.original.clone(),
                        corrections: vec![e.correction.clone()],
                    })
                    .collect();
                coders.push(Plan {
                    annotator: *coder,
                    system: edits.clone(),
                    gold: gold_edits,
                    reference,
                    applied: with,
                });
            }
            plans.push((source, coders));
        }
        self.weights_of(&texts, plans)
    }
}
