//! One annotator's best edit sequence through the lattice, as the m2scorer finds it.
//!
//! Arcs that match a gold edit weigh −|E|, every other change weighs its length plus 0.001
//! per occurrence in the arc list, unchanged arcs their length; Bellman–Ford relaxes the arc
//! list in its order with a strict `<`, so equal-weight paths are decided by the exact sums the
//! original computes. It stops at the first pass that changes nothing, which the original's
//! |V|−1 passes reach with the same result.

use crate::gold::GoldEdit;
use crate::lattice::{Kind, Lattice};
use crate::text::joined_eq;

const EPSILON: f64 = 0.001;

/// A sentence's lattice with its arc list grouped by source span, ready for any annotator.
pub struct Search<'a> {
    pub lattice: Lattice,
    pub src: Vec<&'a str>,
    pub hyp: Vec<&'a str>,
    /// (start, end) source span → arc ids with duplicates, sorted by (from, to).
    groups: Vec<((u32, u32), Vec<u32>)>,
}

impl<'a> Search<'a> {
    pub fn new(lattice: Lattice, src: Vec<&'a str>, hyp: Vec<&'a str>) -> Self {
        // (source span, (from, to), arc id)
        type Keyed = ((u32, u32), (u32, u32), u32);
        let mut keyed: Vec<Keyed> = lattice
            .order
            .iter()
            .map(|&id| {
                let a = lattice.arcs[id as usize];
                let span = (
                    lattice.cells[a.from as usize].0,
                    lattice.cells[a.to as usize].0,
                );
                (span, (a.from, a.to), id)
            })
            .collect();
        keyed.sort_unstable();
        let mut groups: Vec<((u32, u32), Vec<u32>)> = Vec::new();
        for (span, _, id) in keyed {
            match groups.last_mut() {
                Some((s, ids)) if *s == span => ids.push(id),
                _ => groups.push((span, vec![id])),
            }
        }
        Search {
            lattice,
            src,
            hyp,
            groups,
        }
    }

    /// Source tokens `start..end` and hypothesis tokens of arc `id`.
    pub fn texts(&self, id: u32) -> (usize, usize, &[&'a str], &[&'a str]) {
        let a = self.lattice.arcs[id as usize];
        let (i0, j0) = self.lattice.cells[a.from as usize];
        let (i1, j1) = self.lattice.cells[a.to as usize];
        let (i0, j0, i1, j1) = (i0 as usize, j0 as usize, i1 as usize, j1 as usize);
        (i0, i1, &self.src[i0..i1], &self.hyp[j0..j1])
    }

    /// The original's `matchEdit` for an arc.
    pub fn matches(&self, id: u32, g: &GoldEdit) -> bool {
        let (s, e, orig, corr) = self.texts(id);
        g.start == s
            && g.end == e
            && joined_eq(orig.iter().copied(), &g.original)
            && g.corrections
                .iter()
                .any(|c| joined_eq(corr.iter().copied(), c))
    }

    /// The best path's changing arcs for `gold`, in sentence order.
    pub fn best_path(&self, gold: &[GoldEdit]) -> Vec<u32> {
        let w = self.weights(gold);
        let lat = &self.lattice;
        let nv = lat.cells.len();
        let mut dist = vec![f64::INFINITY; nv];
        let mut via = vec![u32::MAX; nv];
        dist[0] = 0.0;
        for _ in 1..nv {
            let mut changed = false;
            for &id in &lat.order {
                let a = lat.arcs[id as usize];
                let d = dist[a.from as usize] + w[id as usize];
                if d < dist[a.to as usize] {
                    dist[a.to as usize] = d;
                    via[a.to as usize] = id;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut path = Vec::new();
        let mut v = nv - 1;
        while via[v] != u32::MAX {
            let a = lat.arcs[via[v] as usize];
            if a.kind != Kind::Noop {
                path.push(via[v]);
            }
            v = a.from as usize;
        }
        path.reverse();
        path
    }

    /// The original's `set_weights`.
    fn weights(&self, gold: &[GoldEdit]) -> Vec<f64> {
        let arcs = &self.lattice.arcs;
        let mut w: Vec<f64> = arcs.iter().map(|a| f64::from(a.dist)).collect();
        let matched = -(self.lattice.order.len() as f64);
        for ((s, e), group) in &self.groups {
            let g: Vec<&GoldEdit> = gold
                .iter()
                .filter(|g| g.start == *s as usize && g.end == *e as usize)
                .collect();
            if s != e {
                for &id in group {
                    if g.iter().any(|g| self.matches(id, g)) {
                        w[id as usize] = matched;
                    } else if arcs[id as usize].kind != Kind::Noop {
                        w[id as usize] += EPSILON;
                    }
                }
                continue;
            }
            // Insertions at one position: a walk from both ends consuming gold edits.
            let len = group.len() as isize;
            let (mut l, mut r, mut cur) = (0isize, len - 1, 0isize);
            let (mut gl, mut gr) = (0isize, g.len() as isize - 1);
            while l <= r {
                let id = group[cur as usize];
                let forward = cur == l;
                let hit = if forward {
                    (gl..=gr).find(|&i| self.matches(id, g[i as usize]))
                } else {
                    (gl..=gr).rev().find(|&i| self.matches(id, g[i as usize]))
                };
                match hit {
                    Some(i) => {
                        w[id as usize] = matched;
                        let arc = arcs[id as usize];
                        if forward {
                            gl = i + 1;
                            l += 1;
                            while l < len && arcs[group[l as usize] as usize].from != arc.to {
                                w[group[l as usize] as usize] += EPSILON;
                                l += 1;
                            }
                            cur = l;
                        } else {
                            gr = i - 1;
                            r -= 1;
                            while r >= 0 && arcs[group[r as usize] as usize].to != arc.from {
                                w[group[r as usize] as usize] += EPSILON;
                                r -= 1;
                            }
                            cur = r;
                        }
                    }
                    None => {
                        w[id as usize] += EPSILON;
                        if forward {
                            l += 1;
                            cur = r;
                        } else {
                            r -= 1;
                            cur = l;
                        }
                    }
                }
            }
        }
        w
    }
}
