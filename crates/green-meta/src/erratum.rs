//! Known errors in published judgment files, corrected only when a descriptor asks.
//!
//! A judgment file is evidence, so green reads it as published; but a file can carry a
//! processing error that its authors' own numbers do not. Reproducing their tables then needs
//! the correction, and everyone else should be able to see both. An erratum is named in a
//! descriptor's human view (`rank_swap_erratum = "..."`) and applies to the **sentence-level
//! pairs only**: the human system scores (Expected Wins, TrueSkill) keep the items as
//! published, because the published scores and the papers' system-level cells were computed
//! from them.
//!
//! `seeda-edit-input-first` (SEEDA's `data/judgments_edit.xml`, Kobayashi et al. 2024): in
//! 56 of the 600 ranking items the ranks of the first two `<translation>`s are swapped. They
//! are exactly the items whose first translation names INPUT (the unchanged sentence) but
//! neither reference, REF-M or REF-F. The annotators' edit-based tool (the doccano files in
//! SEEDA's `data/EditEval_Step1`) showed no such output, and when the ranks were written back
//! position 0 took position 1's rank and the reverse. The evidence: items one annotator judged
//! twice agree with each other only after the swap (the file's lines 760 and 1229, 228 and
//! 1248); the annotators' own edit labels agree with their ranks 78:8 after it against
//! 59:19 before; SEEDA-S, the same outputs ranked whole, agrees 260:43 after against 170:128
//! before; and every metric's SEEDA-E sentence-level agreement moves towards the paper's
//! (M2 accuracy 0.536 to 0.574, paper 0.582; GLEU 0.667 to 0.704, paper 0.695) while the
//! published Expected Wins and TrueSkill match only the file as published.

use std::str::FromStr;

use crate::judgments::RankingItem;
use crate::Error;

/// A correction of a judgment file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Erratum {
    /// Swap the ranks of the first two translations of an item whose first translation
    /// names INPUT but neither REF-M nor REF-F (SEEDA's edit-based judgments).
    SeedaEditInputFirst,
}

impl FromStr for Erratum {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "seeda-edit-input-first" => Ok(Erratum::SeedaEditInputFirst),
            _ => Err(Error::Input(format!(
                "unknown rank_swap_erratum '{s}'; the known one is seeda-edit-input-first"
            ))),
        }
    }
}

impl Erratum {
    /// The name a descriptor gives it.
    pub fn name(self) -> &'static str {
        match self {
            Erratum::SeedaEditInputFirst => "seeda-edit-input-first",
        }
    }

    /// The systems the rule is stated in terms of; a descriptor using it must list them.
    pub fn systems(self) -> &'static [&'static str] {
        match self {
            Erratum::SeedaEditInputFirst => &["INPUT", "REF-M", "REF-F"],
        }
    }

    /// The corrected item, or `None` when the rule leaves `item` as it is. `systems` is the
    /// dataset's system list, which names every system of [`Erratum::systems`].
    pub fn apply(self, item: &RankingItem, systems: &[String]) -> Option<RankingItem> {
        let index = |name: &str| systems.iter().position(|s| s == name);
        let (Some(input), Some(minimal), Some(fluent)) =
            (index("INPUT"), index("REF-M"), index("REF-F"))
        else {
            return None;
        };
        let (&first, &second) = (item.translations.first()?, item.translations.get(1)?);
        let named: Vec<usize> = item.ranks[..first].iter().map(|&(s, _)| s).collect();
        if !named.contains(&input) || named.contains(&minimal) || named.contains(&fluent) {
            return None;
        }
        let (rank0, rank1) = (item.ranks[0].1, item.ranks[first].1);
        let mut fixed = item.clone();
        for (k, entry) in fixed.ranks[..first + second].iter_mut().enumerate() {
            entry.1 = if k < first { rank1 } else { rank0 };
        }
        Some(fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judgments::Judgments;

    fn names(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn swaps_the_first_two_translations_exactly_when_input_leads_without_a_reference() {
        let systems = names(&["A", "B", "INPUT", "REF-M", "REF-F"]);
        let xml = r#"<r>
<ranking-item src-id="1"><translation system="INPUT A" rank="1"/><translation system="B" rank="3"/><translation system="REF-F" rank="2"/></ranking-item>
<ranking-item src-id="2"><translation system="INPUT REF-M" rank="1"/><translation system="B" rank="3"/></ranking-item>
<ranking-item src-id="3"><translation system="A" rank="1"/><translation system="INPUT" rank="3"/></ranking-item>
<ranking-item src-id="4"><translation system="INPUT" rank="2"/></ranking-item>
</r>"#;
        let j = Judgments::parse(xml, "x.xml", &systems).unwrap();
        let e: Erratum = "seeda-edit-input-first".parse().unwrap();
        // INPUT and A (rank 1) swap with B (rank 3); REF-F's translation keeps its rank.
        let fixed = e.apply(&j.items[0], &systems).unwrap();
        assert_eq!(fixed.ranks, [(2, 3), (0, 3), (1, 1), (4, 2)]);
        assert_eq!(fixed.translations, j.items[0].translations);
        // A reference in the first translation, INPUT not first, or a single translation: kept.
        for item in &j.items[1..] {
            assert_eq!(e.apply(item, &systems), None, "src-id {}", item.src_id);
        }
        // A dataset without the rule's systems is never changed.
        assert_eq!(e.apply(&j.items[0], &names(&["A"])), None);
        assert_eq!(
            "swap".parse::<Erratum>().unwrap_err().to_string(),
            "unknown rank_swap_erratum 'swap'; the known one is seeda-edit-input-first"
        );
    }
}
