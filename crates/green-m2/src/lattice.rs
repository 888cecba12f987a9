//! The m2scorer's edit lattice between a source and a hypothesis, built the way it builds it.
//!
//! Vertices are cells of two Levenshtein matrices (substitution cost 1 and 2) that lie on an
//! optimal path; arcs are single edit steps, then merged edits from a transitive closure. The
//! order of the arc list and its duplicates decide ties later (Bellman–Ford relaxes in list
//! order, and a duplicated arc collects its weight twice), so both are kept exactly: sorted
//! lattice steps of both matrices with duplicates, then closure arcs in the order found, an arc
//! found again appended again, then the original's noop removal, which skips the element after
//! each removed one.
//!
//! Speed comes from doing the same work without the empty part: the original probes every
//! vertex triple, while for a vertex k only its predecessors × successors can act, in rank
//! order, and an arc added while processing k never touches k's own arcs.

use rustc_hash::FxHashMap;

use crate::Error;

/// Kind of an edit; a merged edit is `Ins`/`Del`/`Noop` only when both parts are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Noop,
    Ins,
    Del,
    Sub,
}

impl Kind {
    fn merge(self, other: Kind) -> Kind {
        if self == other && self != Kind::Sub {
            self
        } else {
            Kind::Sub
        }
    }
}

/// One arc between two vertices (ranks into [`Lattice::cells`]). Its edit replaces source
/// tokens `cells[from].0..cells[to].0` with hypothesis tokens `cells[from].1..cells[to].1`.
#[derive(Debug, Clone, Copy)]
pub struct Arc {
    pub from: u32,
    pub to: u32,
    pub kind: Kind,
    /// Unchanged tokens inside the edit.
    pub unchanged: u32,
    /// Number of lattice steps (the original's `dist`).
    pub dist: u32,
}

#[derive(Debug, Clone)]
pub struct Lattice {
    /// Vertex rank → matrix cell (source position, hypothesis position), ascending.
    pub cells: Vec<(u32, u32)>,
    pub arcs: Vec<Arc>,
    /// The original's edge list `E`: arc ids, duplicates included, in its order.
    pub order: Vec<u32>,
}

/// Most vertices accepted in one sentence's lattice. The closure can grow with the cube of
/// the vertex count: a sentence rewritten past this is not an edit of its source (the
/// original scorer takes hours on such lines).
pub const MAX_VERTICES: usize = 5000;

const DIAG: u8 = 1;
const DEL: u8 = 2;
const INS: u8 = 4;

/// Build the lattice of `src` → `hyp` (interned tokens) with the closure bounded by
/// `max_unchanged` unchanged tokens per merged edit.
pub fn build(src: &[u32], hyp: &[u32], max_unchanged: i64) -> Result<Lattice, Error> {
    let (n, m) = (src.len(), hyp.len());
    let width = m + 1;
    let cells = (n + 1)
        .checked_mul(width)
        .filter(|&c| c <= 1 << 24)
        .ok_or_else(|| Error::TooLong(format!("{n} source × {m} hypothesis tokens")))?;
    let mut on_path = vec![false; cells];
    let mut steps: Vec<(u32, u32)> = Vec::new();
    for sub_cost in [1u32, 2] {
        let back = backpointers(src, hyp, sub_cost);
        let mut seen = vec![false; cells];
        let mut stack = vec![cells - 1];
        seen[cells - 1] = true;
        while let Some(c) = stack.pop() {
            on_path[c] = true;
            for (bit, pred) in [
                (DIAG, c.wrapping_sub(width + 1)),
                (DEL, c.wrapping_sub(width)),
                (INS, c.wrapping_sub(1)),
            ] {
                if back[c] & bit != 0 {
                    steps.push((pred as u32, c as u32));
                    if !seen[pred] {
                        seen[pred] = true;
                        stack.push(pred);
                    }
                }
            }
        }
    }
    let mut rank = vec![u32::MAX; cells];
    let mut vertex_cells = Vec::new();
    for (c, _) in on_path.iter().enumerate().filter(|(_, &p)| p) {
        rank[c] = vertex_cells.len() as u32;
        vertex_cells.push(((c / width) as u32, (c % width) as u32));
    }
    if vertex_cells.len() > MAX_VERTICES {
        return Err(Error::TooLong(format!(
            "{} lattice vertices ({n} source × {m} hypothesis tokens, most of them changed), more than {MAX_VERTICES}",
            vertex_cells.len()
        )));
    }
    steps.sort_unstable();
    let mut lat = Lattice {
        cells: vertex_cells,
        arcs: Vec::new(),
        order: Vec::with_capacity(steps.len()),
    };
    let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for &(p, c) in &steps {
        let (from, to) = (rank[p as usize], rank[c as usize]);
        let id = *index.entry((from, to)).or_insert_with(|| {
            let (i, j) = (c as usize / width, c as usize % width);
            let kind = if p as usize + width + 1 == c as usize {
                if src[i - 1] == hyp[j - 1] {
                    Kind::Noop
                } else {
                    Kind::Sub
                }
            } else if p as usize + width == c as usize {
                Kind::Del
            } else {
                Kind::Ins
            };
            lat.arcs.push(Arc {
                from,
                to,
                kind,
                unchanged: u32::from(kind == Kind::Noop),
                dist: 1,
            });
            lat.arcs.len() as u32 - 1
        });
        lat.order.push(id);
    }
    close(&mut lat, &mut index, max_unchanged);
    remove_long_noops(&mut lat);
    Ok(lat)
}

/// Back-pointer bits of every cell of the Levenshtein matrix with insertion and deletion
/// cost 1 and the given substitution cost; every tied predecessor is kept.
fn backpointers(src: &[u32], hyp: &[u32], sub_cost: u32) -> Vec<u8> {
    let width = hyp.len() + 1;
    let mut d = vec![0u32; (src.len() + 1) * width];
    let mut back = vec![0u8; d.len()];
    for j in 1..width {
        d[j] = j as u32;
        back[j] = INS;
    }
    for i in 1..=src.len() {
        let row = i * width;
        d[row] = i as u32;
        back[row] = DEL;
        for j in 1..width {
            let c = row + j;
            let del = d[c - width] + 1;
            let ins = d[c - 1] + 1;
            let sub = d[c - width - 1]
                + if src[i - 1] == hyp[j - 1] {
                    0
                } else {
                    sub_cost
                };
            let best = sub.min(del).min(ins);
            d[c] = best;
            back[c] = (u8::from(sub == best) * DIAG)
                | (u8::from(del == best) * DEL)
                | (u8::from(ins == best) * INS);
        }
    }
    back
}

/// The transitive closure: for each vertex k in rank order, each predecessor i and successor
/// j in rank order, a merged edit i→j is appended when it is shorter than the known one and
/// keeps at most `max_unchanged` unchanged tokens.
fn close(lat: &mut Lattice, index: &mut FxHashMap<(u32, u32), u32>, max_unchanged: i64) {
    let nv = lat.cells.len();
    let mut preds: Vec<Vec<(u32, u32)>> = vec![Vec::new(); nv];
    let mut succs: Vec<Vec<(u32, u32)>> = vec![Vec::new(); nv];
    for (id, a) in lat.arcs.iter().enumerate() {
        preds[a.to as usize].push((a.from, id as u32));
        succs[a.from as usize].push((a.to, id as u32));
    }
    for k in 0..nv {
        let mut ins = std::mem::take(&mut preds[k]);
        let mut outs = std::mem::take(&mut succs[k]);
        ins.sort_unstable();
        outs.sort_unstable();
        for &(i, ik) in &ins {
            let a = lat.arcs[ik as usize];
            for &(j, kj) in &outs {
                let b = lat.arcs[kj as usize];
                let dist = a.dist + b.dist;
                let known = index.get(&(i, j)).copied();
                if known.is_some_and(|id| lat.arcs[id as usize].dist <= dist) {
                    continue;
                }
                let unchanged = a.unchanged + b.unchanged;
                if i64::from(unchanged) > max_unchanged {
                    continue;
                }
                let arc = Arc {
                    from: i,
                    to: j,
                    kind: a.kind.merge(b.kind),
                    unchanged,
                    dist,
                };
                let id = match known {
                    Some(id) => {
                        lat.arcs[id as usize] = arc;
                        id
                    }
                    None => {
                        let id = lat.arcs.len() as u32;
                        lat.arcs.push(arc);
                        index.insert((i, j), id);
                        preds[j as usize].push((i, id));
                        succs[i as usize].push((j, id));
                        id
                    }
                };
                lat.order.push(id);
            }
        }
        preds[k] = ins;
        succs[k] = outs;
    }
}

/// The original removes merged noop arcs while iterating over the same list, so the element
/// after each removed one is never looked at and survives.
fn remove_long_noops(lat: &mut Lattice) {
    let mut removed = vec![false; lat.arcs.len()];
    let old = std::mem::take(&mut lat.order);
    let mut q = 0;
    while q < old.len() {
        let id = old[q] as usize;
        let a = lat.arcs[id];
        if a.kind == Kind::Noop && a.dist > 1 && !removed[id] {
            removed[id] = true;
            if let Some(&next) = old.get(q + 1) {
                lat.order.push(next);
            }
            q += 2;
        } else {
            lat.order.push(old[q]);
            q += 1;
        }
    }
    // A removed arc listed twice would crash the original; its copies carry no edit.
    lat.order.retain(|&id| !removed[id as usize]);
}
