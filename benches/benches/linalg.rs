//! Criterion: the linalg facade against calling `ndarray-linalg` directly (the facade must add
//! no measurable overhead), and pairwise distances against the bare gemm they are built on.
//!
//! `cargo bench -p ndlearn-bench --bench linalg`

// `criterion_group!` generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ndarray::Array2;
use ndarray_linalg::{Cholesky, Eigh, JobSvd, SVDDC, UPLO};
use ndlearn_core::{linalg, random};
use std::hint::black_box;

fn gaussian(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    Array2::from_shape_fn((n, d), |_| random::standard_normal(&mut rng))
}

fn spd(n: usize) -> Array2<f64> {
    let g = gaussian(n, n, 1);
    g.t().dot(&g) / n as f64 + Array2::<f64>::eye(n)
}

fn facade_overhead(c: &mut Criterion) {
    let mut group = c.benchmark_group("facade_vs_direct");
    group.sample_size(20);
    for &n in &[64usize, 256] {
        let a = spd(n);
        group.bench_with_input(BenchmarkId::new("cholesky/facade", n), &a, |b, a| {
            b.iter(|| linalg::cholesky(black_box(a)))
        });
        group.bench_with_input(BenchmarkId::new("cholesky/direct", n), &a, |b, a| {
            b.iter(|| black_box(a).cholesky(UPLO::Lower))
        });
        group.bench_with_input(BenchmarkId::new("eigh/facade", n), &a, |b, a| {
            b.iter(|| linalg::eigh(black_box(a)))
        });
        group.bench_with_input(BenchmarkId::new("eigh/direct", n), &a, |b, a| {
            b.iter(|| black_box(a).eigh(UPLO::Lower))
        });
        let m = gaussian(2 * n, n, 2);
        group.bench_with_input(BenchmarkId::new("svd_thin/facade", n), &m, |b, m| {
            b.iter(|| linalg::svd_thin(black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("svd_thin/direct", n), &m, |b, m| {
            b.iter(|| black_box(m).svddc(JobSvd::Some))
        });
    }
    group.finish();
}

fn distances_vs_gemm(c: &mut Criterion) {
    let mut group = c.benchmark_group("pairwise_vs_gemm");
    group.sample_size(10);
    for &n in &[500usize, 2000] {
        let x = gaussian(n, 64, 3);
        group.bench_with_input(BenchmarkId::new("gemm_xxt", n), &x, |b, x| {
            b.iter(|| black_box(x).dot(&x.t()))
        });
        group.bench_with_input(BenchmarkId::new("pairwise_sq_euclidean", n), &x, |b, x| {
            b.iter(|| linalg::pairwise_sq_euclidean(black_box(x), x))
        });
    }
    group.finish();
}

criterion_group!(benches, facade_overhead, distances_vs_gemm);
criterion_main!(benches);
