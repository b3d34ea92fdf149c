//! Building a `SurfaceGrid`: from bake samples (`SurfaceGrid::bake`) or from stored parts
//! (`from_parts`, for loading), deriving links, connected components, flat spans and the
//! clearance erosion.
//!
//! Bake rules: a span is walkable when its sample says so and the next surface above it is at
//! least `agent_height` higher. Neighbouring walkable spans link when their heights differ by at
//! most `max_step_height` (links are mutual; a diagonal link also needs both orthogonal cells of
//! its 2x2 block linked, so a diagonal never cuts a corner). Erosion by `clearance_radius` then
//! blocks every cell where no point is `clearance_radius` away from blocked space: any cell whose
//! walkable run along an axis or diagonal is narrower than twice the clearance, and any cell whose
//! centre is closer than the clearance to the centre of a missing neighbour.

use std::collections::BinaryHeap;

use glam::Vec3;
use rayon::prelude::*;

use crate::flow_field::surface::{BakeError, BakeParams, BakeSamples, CellId, SurfaceGrid, SurfaceSample, DIRS, NONE};

/// Samples closer than this in one column are one surface (the upper one is kept).
const MERGE_EPS: f32 = 0.01;
/// Spans processed per parallel work item (fixed, so work splits never depend on thread count).
const PAR_CHUNK: usize = 4096;

pub(super) fn check_layout(cell_size: f32, dims_x: u32, dims_z: u32, params: &BakeParams) -> Result<usize, BakeError> {
    if !(cell_size.is_finite() && cell_size > 0.0) {
        return Err(BakeError::BadCellSize);
    }
    let p = [params.agent_height, params.max_step_height, params.clearance_radius];
    if p.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(BakeError::BadParams);
    }
    let cols = dims_x as u64 * dims_z as u64;
    if cols == 0 || cols >= NONE as u64 {
        return Err(BakeError::BadDimensions);
    }
    Ok(cols as usize)
}

fn check_columns(column_start: &[u32], cols: usize, count: usize) -> Result<(), BakeError> {
    if column_start.len() != cols + 1
        || column_start[0] != 0
        || column_start[cols] as usize != count
        || column_start.windows(2).any(|w| w[0] > w[1])
    {
        return Err(BakeError::BadColumns);
    }
    Ok(())
}

impl SurfaceGrid {
    /// Bakes the grid from samples: spans, headroom, links, clearance erosion, final links.
    pub fn bake(samples: &BakeSamples, params: BakeParams) -> Result<Self, BakeError> {
        let cols = check_layout(samples.cell_size, samples.dims_x, samples.dims_z, &params)?;
        check_columns(&samples.column_start, cols, samples.samples.len())?;

        // Spans, column chunks on all threads, joined in column order.
        let chunks: Vec<ColumnSpans> = (0..cols.div_ceil(PAR_COLUMNS))
            .into_par_iter()
            .map(|k| column_spans_of(samples, k * PAR_COLUMNS..((k + 1) * PAR_COLUMNS).min(cols), params.agent_height))
            .collect();
        let spans: usize = chunks.iter().map(|c| c.height.len()).sum();
        if spans >= NONE as usize {
            return Err(BakeError::BadDimensions);
        }
        let mut column_start = Vec::with_capacity(cols + 1);
        let mut height = Vec::with_capacity(spans);
        let mut walkable = Vec::with_capacity(spans);
        column_start.push(0u32);
        for c in chunks {
            let base = height.len() as u32;
            column_start.extend(c.ends.iter().map(|e| base + e));
            height.extend_from_slice(&c.height);
            walkable.extend_from_slice(&c.walkable);
        }
        let layout = (samples.origin, samples.cell_size, samples.dims_x, samples.dims_z);
        let mut grid = Self::assemble(layout, params, column_start, height, walkable);
        let eroded = grid.erosion();
        if eroded.iter().any(|&e| e) {
            for (w, e) in grid.walkable.iter_mut().zip(&eroded) {
                *w &= !e;
            }
            grid.links = grid.build_links();
        }
        grid.component = grid.components();
        grid.flat = grid.flat_spans();
        grid.key = grid.hash_content();
        Ok(grid)
    }

    /// Rebuilds a grid from its stored parts (links and span columns are derived).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn from_parts(
        origin: Vec3,
        cell_size: f32,
        dims_x: u32,
        dims_z: u32,
        params: BakeParams,
        column_start: Vec<u32>,
        height: Vec<f32>,
        walkable: Vec<bool>,
    ) -> Result<Self, BakeError> {
        let cols = check_layout(cell_size, dims_x, dims_z, &params)?;
        if !origin.is_finite() || height.len() != walkable.len() || height.iter().any(|h| !h.is_finite()) {
            return Err(BakeError::BadBytes);
        }
        check_columns(&column_start, cols, height.len())?;
        let mut grid = Self::assemble((origin, cell_size, dims_x, dims_z), params, column_start, height, walkable);
        grid.component = grid.components();
        grid.flat = grid.flat_spans();
        grid.key = grid.hash_content();
        Ok(grid)
    }

    /// A grid of these spans (already checked) with its span columns and links derived.
    fn assemble(
        (origin, cell_size, dims_x, dims_z): (Vec3, f32, u32, u32),
        params: BakeParams,
        column_start: Vec<u32>,
        height: Vec<f32>,
        walkable: Vec<bool>,
    ) -> Self {
        let column = span_columns(&column_start);
        let mut grid = SurfaceGrid {
            origin,
            cell_size,
            inv_cell: 1.0 / cell_size,
            dims_x,
            dims_z,
            params,
            column_start,
            height,
            column,
            walkable,
            links: Vec::new(),
            component: Vec::new(),
            flat: Vec::new(),
            key: 0,
        };
        grid.links = grid.build_links();
        grid
    }

    /// The content key (see `content_key`): each span's column, height, walkability and links
    /// hashed in fixed chunks on all threads, the chunks folded in order with the layout.
    fn hash_content(&self) -> u64 {
        fn mix(h: u64, v: u64) -> u64 {
            (h ^ v).wrapping_mul(0x0100_0000_01b3).rotate_left(29)
        }
        let n = self.height.len();
        let chunks: Vec<u64> = (0..n.div_ceil(PAR_CHUNK))
            .into_par_iter()
            .map(|k| {
                let mut h = 0xcbf2_9ce4_8422_2325u64;
                for s in k * PAR_CHUNK..((k + 1) * PAR_CHUNK).min(n) {
                    h = mix(h, (self.column[s] as u64) << 32 | self.height[s].to_bits() as u64);
                    h = mix(h, self.walkable[s] as u64);
                    for pair in self.links[s].chunks_exact(2) {
                        h = mix(h, (pair[0] as u64) << 32 | pair[1] as u64);
                    }
                }
                h
            })
            .collect();
        let layout = [
            self.dims_x as u64,
            self.dims_z as u64,
            self.cell_size.to_bits() as u64,
            self.origin.x.to_bits() as u64,
            self.origin.z.to_bits() as u64,
            n as u64,
        ];
        layout.into_iter().chain(chunks).fold(0x9e37_79b9_7f4a_7c15, mix)
    }

    /// Which spans are flat ground: all linked neighbours at the span's own height.
    fn flat_spans(&self) -> Vec<bool> {
        (0..self.links.len())
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|s| self.links[s].iter().all(|&t| t == NONE || self.height[t as usize] == self.height[s]))
            .collect()
    }

    /// Labels connected components (walkable spans joined by links), numbered in the order of
    /// each one's lowest span id. Union-find with the lower id as the root, so a root is its
    /// component's lowest span: each chunk of spans joins the orthogonal links inside it on all
    /// threads (spans are in row order, so memory is read in order), then the few links between
    /// chunks are joined in order, then every span finds its root on all threads and the roots are
    /// numbered in id order.
    fn components(&self) -> Vec<u32> {
        let n = self.height.len();
        let mut root: Vec<u32> = (0..n as u32).into_par_iter().with_min_len(PAR_CHUNK).collect();
        let crossing: Vec<Vec<(u32, u32)>> = root
            .par_chunks_mut(PAR_CHUNK)
            .enumerate()
            .map(|(k, part)| {
                let (base, end) = ((k * PAR_CHUNK) as u32, (k * PAR_CHUNK + part.len()) as u32);
                let mut crossing = Vec::new();
                for s in base..end {
                    if !self.walkable[s as usize] {
                        continue;
                    }
                    // Only the orthogonal links (even directions): a diagonal link only closes a 2x2
                    // block whose orthogonal links all hold, so it joins nothing they do not.
                    for &t in self.links[s as usize].iter().step_by(2) {
                        // Links are mutual: the lower span joins each pair.
                        if t == NONE || t < s {
                            continue;
                        }
                        if t >= end {
                            crossing.push((s, t));
                        } else {
                            union(part, base, s, t);
                        }
                    }
                }
                crossing
            })
            .collect();
        for &(s, t) in crossing.iter().flatten() {
            union(&mut root, 0, s, t);
        }
        let top: Vec<u32> = (0..n as u32)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|mut s| {
                while root[s as usize] != s {
                    s = root[s as usize];
                }
                s
            })
            .collect();
        // Number the roots in id order (`root` now holds each root's number).
        let mut next = 0;
        for s in 0..n {
            if self.walkable[s] && top[s] == s as u32 {
                root[s] = next;
                next += 1;
            }
        }
        (0..n)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|s| if self.walkable[s] { root[top[s] as usize] } else { NONE })
            .collect()
    }

    /// Links between walkable spans (mutual nearest within the step height; diagonals only
    /// inside a fully linked 2x2 block).
    fn build_links(&self) -> Vec<[CellId; 8]> {
        let n = self.height.len();
        let step = self.params.max_step_height;
        // Each span's nearest walkable span within the step in each orthogonal column (+x, +z,
        // -x, -z: direction `2 * k`). Each pass writes every entry once, from all threads (fresh
        // memory is slow to touch the first time, so nothing is filled twice).
        let best: Vec<[CellId; 4]> = (0..n)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|s| {
                let mut o = [NONE; 4];
                if !self.walkable[s] {
                    return o;
                }
                let h = self.height[s];
                // The +x, +z, -x and -z columns, where they exist (one division per span).
                let (c, w) = (self.column[s], self.dims_x);
                let (ix, iz) = (c % w, c / w);
                let near = [
                    (ix + 1 < w).then(|| c + 1),
                    (iz + 1 < self.dims_z).then(|| c + w),
                    (ix > 0).then(|| c - 1),
                    (iz > 0).then(|| c - w),
                ];
                for (o, nc) in o.iter_mut().zip(near) {
                    let Some(nc) = nc else { continue };
                    let mut best_dh = f32::INFINITY;
                    for t in self.column_spans(nc) {
                        let dh = (self.height[t as usize] - h).abs();
                        if self.walkable[t as usize] && dh <= step && dh < best_dh {
                            best_dh = dh;
                            *o = t;
                        }
                    }
                }
                o
            })
            .collect();
        // Orthogonal links are mutual nearest spans; a diagonal closes a 2x2 block whose four
        // orthogonal links all hold.
        let mutual = |a: CellId, d: usize| -> CellId {
            let t = best[a as usize][d / 2];
            if t != NONE && best[t as usize][((d + 4) & 7) / 2] == a {
                t
            } else {
                NONE
            }
        };
        (0..n)
            .into_par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|s| {
                let s = s as CellId;
                let mut o = [NONE; 8];
                for d in (0..8).step_by(2) {
                    o[d] = mutual(s, d);
                }
                for d in (1..8).step_by(2) {
                    let (o1, o2) = (o[d - 1], o[(d + 1) & 7]);
                    if o1 == NONE || o2 == NONE {
                        continue;
                    }
                    let c = mutual(o1, (d + 1) & 7);
                    if c != NONE
                        && c == mutual(o2, d - 1)
                        && (self.height[c as usize] - self.height[s as usize]).abs() <= step
                    {
                        o[d] = c;
                    }
                }
                o
            })
            .collect()
    }

    /// Spans the clearance rules block (computed on the current links).
    fn erosion(&self) -> Vec<bool> {
        let n = self.height.len();
        let c = self.params.clearance_radius;
        let cs = self.cell_size;
        let mut eroded = vec![false; n];
        if c <= 0.0 {
            return eroded;
        }
        // Width rule: the walkable run through the cell along each axis and diagonal (cells,
        // the cell itself included) must be at least twice the clearance long. Runs are followed
        // only as far as that, per axis (0) and diagonal (1).
        let wide_enough = [cs, cs * std::f32::consts::SQRT_2].map(|spacing| {
            let mut run = 1u32;
            while (run as f32) * spacing + 1e-5 < 2.0 * c {
                run += 1;
            }
            run
        });
        eroded.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(k, out)| {
            for (j, e) in out.iter_mut().enumerate() {
                let s = (k * PAR_CHUNK + j) as u32;
                if !self.walkable[s as usize] {
                    continue;
                }
                *e = (0..4).any(|line| {
                    let short = wide_enough[line % 2] - 1;
                    let ahead = self.run_length(s, line, short);
                    ahead < short && ahead + self.run_length(s, line + 4, short - ahead) < short
                });
            }
        });
        // Wall rule: distance from the cell centre to the nearest missing neighbour's centre,
        // by propagating obstacle offsets outwards from cells with missing links. Only reaches
        // anything when the clearance exceeds one cell.
        if c > cs {
            let limit2 = (c / cs) * (c / cs);
            let mut offset = vec![(0i16, 0i16); n];
            let mut dist2 = vec![u32::MAX; n];
            let mut heap = BinaryHeap::new();
            for s in 0..n {
                if !self.walkable[s] {
                    continue;
                }
                for (d, &(dx, dz)) in DIRS.iter().enumerate() {
                    let d2 = (dx * dx + dz * dz) as u32;
                    if self.links[s][d] == NONE && d2 < dist2[s] {
                        dist2[s] = d2;
                        offset[s] = (dx as i16, dz as i16);
                    }
                }
                if dist2[s] != u32::MAX {
                    heap.push(std::cmp::Reverse((dist2[s], s as u32)));
                }
            }
            while let Some(std::cmp::Reverse((d2, s))) = heap.pop() {
                if d2 != dist2[s as usize] {
                    continue;
                }
                let (ox, oz) = offset[s as usize];
                for (d, &(dx, dz)) in DIRS.iter().enumerate() {
                    let t = self.links[s as usize][d];
                    if t == NONE {
                        continue;
                    }
                    let (tx, tz) = (ox as i32 - dx, oz as i32 - dz);
                    let t2 = (tx * tx + tz * tz) as u32;
                    if (t2 as f32) < limit2 && t2 < dist2[t as usize] {
                        dist2[t as usize] = t2;
                        offset[t as usize] = (tx as i16, tz as i16);
                        heap.push(std::cmp::Reverse((t2, t)));
                    }
                }
            }
            for (e, &d2) in eroded.iter_mut().zip(&dist2) {
                if d2 != u32::MAX && (d2 as f32) < limit2 {
                    *e = true;
                }
            }
        }
        eroded
    }

    /// Cells walkable in direction `d` from `s`, following links, up to `cap`.
    fn run_length(&self, s: CellId, d: usize, cap: u32) -> u32 {
        let mut n = 0;
        let mut cur = s;
        while n < cap {
            let t = self.links[cur as usize][d];
            if t == NONE {
                break;
            }
            cur = t;
            n += 1;
        }
        n
    }
}

/// The root of `s` in a union-find over spans `base..` (`root[i]` is span `base + i`'s parent,
/// never below `base`), halving the path on the way.
fn find(root: &mut [u32], base: u32, mut s: u32) -> u32 {
    while root[(s - base) as usize] != s {
        let up = root[(root[(s - base) as usize] - base) as usize];
        root[(s - base) as usize] = up;
        s = up;
    }
    s
}

/// Joins the sets of `s` and `t` under the lower root (see `find`).
fn union(root: &mut [u32], base: u32, s: u32, t: u32) {
    let (a, b) = (find(root, base, s), find(root, base, t));
    if a != b {
        root[(a.max(b) - base) as usize] = a.min(b);
    }
}

/// Columns per parallel work item when the spans are made from samples.
const PAR_COLUMNS: usize = 1024;

/// The spans of a run of columns: heights and walkability, and each column's end (from the run's
/// first span).
struct ColumnSpans {
    height: Vec<f32>,
    walkable: Vec<bool>,
    ends: Vec<u32>,
}

/// The spans of `columns`: finite samples sorted by height, near-duplicates merged (the upper
/// kept), and a span with less than `agent_height` to the next one up not walkable.
fn column_spans_of(samples: &BakeSamples, columns: std::ops::Range<usize>, agent_height: f32) -> ColumnSpans {
    let (a, b) = (samples.column_start[columns.start] as usize, samples.column_start[columns.end] as usize);
    let mut out = ColumnSpans {
        height: Vec::with_capacity(b - a),
        walkable: Vec::with_capacity(b - a),
        ends: Vec::with_capacity(columns.len()),
    };
    let mut scratch: Vec<SurfaceSample> = Vec::new();
    for c in columns {
        let (a, b) = (samples.column_start[c] as usize, samples.column_start[c + 1] as usize);
        scratch.clear();
        scratch.extend(samples.samples[a..b].iter().filter(|s| s.height.is_finite()));
        scratch.sort_by(|p, q| p.height.total_cmp(&q.height));
        let first = out.height.len();
        for (i, s) in scratch.iter().enumerate() {
            if scratch.get(i + 1).is_some_and(|n| n.height - s.height < MERGE_EPS) {
                continue;
            }
            out.height.push(s.height);
            out.walkable.push(s.walkable);
        }
        // Headroom: the next surface above is the ceiling.
        for i in first..out.height.len() {
            if i + 1 < out.height.len() && out.height[i + 1] - out.height[i] < agent_height {
                out.walkable[i] = false;
            }
        }
        out.ends.push(out.height.len() as u32);
    }
    out
}

fn span_columns(column_start: &[u32]) -> Vec<u32> {
    let mut column = Vec::with_capacity(*column_start.last().unwrap_or(&0) as usize);
    for (c, w) in column_start.windows(2).enumerate() {
        column.extend(std::iter::repeat_n(c as u32, (w[1] - w[0]) as usize));
    }
    column
}
