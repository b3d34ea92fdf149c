//! The neighbour test of the grid's walks (`Near`, `for_each_near`): which records of a run of
//! the grid's cell-ordered records are near an agent, a block of records at a time, and the
//! records it reads (`NearRecords`): the grid's packed records, or their positions copied into
//! columns for Personal Space (`NearColumns`).

use glam::{Vec2, Vec4};
use rayon::prelude::*;

use crate::spatial_grid::LAYER_GAP;

/// Records a neighbour loop tests at once in `for_each_near`.
const NEAR_BLOCK: usize = 8;

/// A neighbour test on the grid's records: a record `e` at rank `k` is near when its ground
/// distance from `p` is below `reach` (plus the record's own radius `e.w` when `add_radius`), its
/// height is within `LAYER_GAP` of `y`, and `k` is not `skip` (the asking agent's own rank).
#[derive(Clone, Copy, Debug)]
pub struct Near {
    pub p: Vec2,
    pub y: f32,
    pub reach: f32,
    pub add_radius: bool,
    pub skip: usize,
}

impl Near {
    /// The distance and height test for one record (the `skip` test is the caller's). Written as
    /// the negated rejections, so a NaN distance counts as near (as the loops always had it).
    #[inline(always)]
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub(crate) fn holds(&self, e: Vec4) -> bool {
        let (dx, dz) = (self.p.x - e.x, self.p.y - e.y);
        let m = if self.add_radius { self.reach + e.w } else { self.reach };
        !(dx * dx + dz * dz >= m * m) & !((e.z - self.y).abs() > LAYER_GAP)
    }

    /// Masks `bits` (record `k0 + j` at bit `j`) to the block's `len` records and drops the asking
    /// agent's own record.
    #[inline(always)]
    fn keep(&self, bits: u32, k0: usize, len: usize) -> u32 {
        let bits = bits & ((1u32 << len) - 1);
        let skip = self.skip.wrapping_sub(k0);
        bits & !(((skip < len) as u32) << (skip & 31))
    }

    /// `holds` for four records at once (SSE, which every x86-64 processor has): the same float
    /// operations lane by lane, so the same answers.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn bits4(&self, four: &[Vec4]) -> u32 {
        use std::arch::x86_64::*;
        debug_assert_eq!(four.len(), 4);
        // SAFETY: SSE is part of x86-64; the four records are read from a slice of four.
        unsafe {
            let ptr = four.as_ptr() as *const f32;
            let (mut r0, mut r1, mut r2, mut r3) =
                (_mm_loadu_ps(ptr), _mm_loadu_ps(ptr.add(4)), _mm_loadu_ps(ptr.add(8)), _mm_loadu_ps(ptr.add(12)));
            _MM_TRANSPOSE4_PS(&mut r0, &mut r1, &mut r2, &mut r3);
            // r0: the four x, r1: the four z, r2: the four heights, r3: the four radii.
            let dx = _mm_sub_ps(_mm_set1_ps(self.p.x), r0);
            let dz = _mm_sub_ps(_mm_set1_ps(self.p.y), r1);
            let d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dz, dz));
            let reach = _mm_set1_ps(self.reach);
            let m = if self.add_radius { _mm_add_ps(reach, r3) } else { reach };
            let far = _mm_cmpge_ps(d2, _mm_mul_ps(m, m));
            let dy = _mm_andnot_ps(_mm_set1_ps(-0.0), _mm_sub_ps(r2, _mm_set1_ps(self.y)));
            let other_floor = _mm_cmpgt_ps(dy, _mm_set1_ps(LAYER_GAP));
            (!_mm_movemask_ps(_mm_or_ps(far, other_floor)) & 0xf) as u32
        }
    }

    /// `holds` for the four records whose x, z and heights start at `x`, `z` and `h` (columns;
    /// without the radius), the same float operations as `bits4`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn bits4_lanes(&self, x: *const f32, z: *const f32, h: *const f32) -> u32 {
        use std::arch::x86_64::*;
        debug_assert!(!self.add_radius);
        // SAFETY: SSE is part of x86-64; the caller reads four floats at each pointer.
        unsafe {
            let dx = _mm_sub_ps(_mm_set1_ps(self.p.x), _mm_loadu_ps(x));
            let dz = _mm_sub_ps(_mm_set1_ps(self.p.y), _mm_loadu_ps(z));
            let d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dz, dz));
            let reach = _mm_set1_ps(self.reach);
            let far = _mm_cmpge_ps(d2, _mm_mul_ps(reach, reach));
            let dy = _mm_andnot_ps(_mm_set1_ps(-0.0), _mm_sub_ps(_mm_loadu_ps(h), _mm_set1_ps(self.y)));
            let other_floor = _mm_cmpgt_ps(dy, _mm_set1_ps(LAYER_GAP));
            (!_mm_movemask_ps(_mm_or_ps(far, other_floor)) & 0xf) as u32
        }
    }
}

/// Records a neighbour test reads: the grid's packed `(x, z, y, radius)` records, or their
/// positions copied into columns (`NearColumns`).
pub trait NearRecords {
    /// Bit `j` set where record `k0 + j` of `k0..k0 + len` is near (`len <= NEAR_BLOCK`).
    fn bits(&self, near: &Near, k0: usize, len: usize) -> u32;
}

impl NearRecords for [Vec4] {
    #[inline(always)]
    fn bits(&self, near: &Near, k0: usize, len: usize) -> u32 {
        let records = self;
        debug_assert!(len <= NEAR_BLOCK && k0 + len <= records.len());
        let mut bits = 0u32;
        #[cfg(target_arch = "x86_64")]
        let scalar = k0 + NEAR_BLOCK > records.len();
        #[cfg(not(target_arch = "x86_64"))]
        let scalar = true;
        if scalar {
            for (j, &e) in records[k0..k0 + len].iter().enumerate() {
                bits |= (near.holds(e) as u32) << j;
            }
        } else {
            // Two groups of four (records past `len` are read but their bits dropped).
            #[cfg(target_arch = "x86_64")]
            {
                let group = &records[k0..k0 + NEAR_BLOCK];
                bits = near.bits4(&group[..4]);
                if len > 4 {
                    bits |= near.bits4(&group[4..]) << 4;
                }
            }
        }
        near.keep(bits, k0, len)
    }
}

/// The grid's record positions as columns, x, z and height (`NearColumns::copy`), for Personal
/// Space's walk: a block of four is then three loads, where the packed records take four loads
/// and a transpose. `NEAR_BLOCK` padding records past the end, never near, spare the walk its
/// test for a block at the end.
#[derive(Clone, Debug, Default)]
pub struct NearColumns {
    x: Vec<f32>,
    z: Vec<f32>,
    y: Vec<f32>,
}

impl NearColumns {
    /// The positions of `records` (the grid's, in rank order), in parallel.
    pub fn copy(&mut self, records: &[Vec4]) {
        let n = records.len();
        for c in [&mut self.x, &mut self.z, &mut self.y] {
            c.resize(n + NEAR_BLOCK, f32::INFINITY);
            c[n..].fill(f32::INFINITY);
        }
        let chunk = 4096;
        (self.x[..n].par_chunks_mut(chunk), self.z[..n].par_chunks_mut(chunk), self.y[..n].par_chunks_mut(chunk))
            .into_par_iter()
            .zip(records.par_chunks(chunk))
            .for_each(|((x, z, y), r)| {
                for (((x, z), y), e) in x.iter_mut().zip(z).zip(y).zip(r) {
                    (*x, *z, *y) = (e.x, e.y, e.z);
                }
            });
    }

    /// Record `k`'s ground position.
    #[inline(always)]
    pub fn at(&self, k: usize) -> Vec2 {
        Vec2::new(self.x[k], self.z[k])
    }

    pub fn heap_bytes(&self) -> usize {
        (self.x.capacity() + self.z.capacity() + self.y.capacity()) * 4
    }
}

impl NearRecords for NearColumns {
    #[inline(always)]
    fn bits(&self, near: &Near, k0: usize, len: usize) -> u32 {
        // (The three columns are as long, `copy` keeps them so; the padding makes every block whole.)
        assert!(k0 + NEAR_BLOCK <= self.x.len(), "a block past the columns");
        #[cfg(target_arch = "x86_64")]
        let bits = {
            // SAFETY: `k0 + NEAR_BLOCK` floats are in each column (above).
            let lanes = |k: usize| unsafe { (self.x.as_ptr().add(k), self.z.as_ptr().add(k), self.y.as_ptr().add(k)) };
            let (x, z, y) = lanes(k0);
            let mut bits = near.bits4_lanes(x, z, y);
            if len > 4 {
                let (x, z, y) = lanes(k0 + 4);
                bits |= near.bits4_lanes(x, z, y) << 4;
            }
            bits
        };
        #[cfg(not(target_arch = "x86_64"))]
        let bits = (0..len).fold(0, |b, j| {
            let k = k0 + j;
            b | (near.holds(Vec4::new(self.x[k], self.z[k], self.y[k], 0.0)) as u32) << j
        });
        near.keep(bits, k0, len)
    }
}

/// Calls `f(k)` for every record `k` in `a..b` that `near` accepts, in ascending order
/// (descending when `backward`), until `f` returns false; returns false when stopped. The test
/// runs on a block of records at a time (four at once on x86-64) without branching and only the
/// accepted records are visited, so a dense crowd, where about a third of the candidates pass
/// a radius test at random, costs no branch misprediction per candidate. The same calls, in the
/// same order, as a plain loop.
#[inline(always)]
pub fn for_each_near<R: NearRecords + ?Sized>(
    records: &R,
    a: usize,
    b: usize,
    backward: bool,
    near: &Near,
    mut f: impl FnMut(usize) -> bool,
) -> bool {
    if backward {
        let mut end = b;
        while end > a {
            let len = (end - a).min(NEAR_BLOCK);
            let k0 = end - len;
            let mut bits = records.bits(near, k0, len);
            while bits != 0 {
                let j = 31 - bits.leading_zeros() as usize;
                bits &= !(1 << j);
                if !f(k0 + j) {
                    return false;
                }
            }
            end = k0;
        }
    } else {
        let mut k0 = a;
        while k0 < b {
            let len = (b - k0).min(NEAR_BLOCK);
            let mut bits = records.bits(near, k0, len);
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !f(k0 + j) {
                    return false;
                }
            }
            k0 += len;
        }
    }
    true
}
