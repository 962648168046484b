//! # ndlearn-datasets
//!
//! Data for examples, tests and benchmarks of ndlearn, with no network access:
//!
//! * **Embedded real data sets** — the five small classics scikit-learn ships, compiled into the
//!   binary, parsed on first use and cached: [`iris`], [`wine`], [`breast_cancer`], [`digits`],
//!   [`diabetes`] (scaled as scikit-learn's default) and [`diabetes_raw`]; [`by_name`] looks
//!   them up by one of [`NAMES`]. See [`embedded`] and `datasets/README.md` for provenance.
//! * **A CSV loader** for your own files: [`load_csv`] / [`read_csv`] with [`CsvOptions`]
//!   (target column, task, delimiter), label-encoding of string classes, errors with line and
//!   column; [`write_csv`] writes a matrix back.
//! * **Seeded generators** after scikit-learn's `make_*` functions: [`MakeBlobs`],
//!   [`MakeClassification`], [`MakeRegression`], [`MakeLowRankMatrix`], [`MakeMoons`],
//!   [`MakeCircles`]. See [`generators`].
//!
//! ```
//! use ndlearn_datasets::{iris, MakeBlobs, read_csv, CsvOptions};
//!
//! // A real data set: &'static, parsed once.
//! let iris = iris();
//! assert_eq!(iris.x.dim(), (150, 4));
//! assert_eq!(iris.y_classes().map(|y| y.len()), Some(150));
//!
//! // A synthetic one: bitwise identical for a given seed.
//! let blobs = MakeBlobs::default().n_samples(60).centers(3).seed(7).generate()?;
//! assert_eq!(blobs.x.dim(), (60, 2));
//! assert_eq!(blobs, MakeBlobs::default().n_samples(60).centers(3).seed(7).generate()?);
//!
//! // A CSV file (here from memory): the last column is the target.
//! let data = read_csv("a,b,y\n1,2,yes\n3,4,no\n".as_bytes(), &CsvOptions::default())?;
//! assert_eq!(data.class_name(data.y_classes().map_or(0, |y| y[0])), Some("yes"));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! | here | scikit-learn |
//! |---|---|
//! | [`iris`], [`wine`], [`breast_cancer`], [`digits`] | `load_iris()`, `load_wine()`, `load_breast_cancer()`, `load_digits()` |
//! | [`diabetes`] / [`diabetes_raw`] | `load_diabetes()` / `load_diabetes(scaled=False)` |
//! | [`Dataset`] | the `Bunch` (`data`, `target`, `feature_names`, `target_names`) |
//! | [`MakeBlobs`] | `make_blobs` |
//! | [`MakeClassification`] | `make_classification` |
//! | [`MakeRegression`] | `make_regression` |
//! | [`MakeLowRankMatrix`] | `make_low_rank_matrix` |
//! | [`MakeMoons`], [`MakeCircles`] | `make_moons`, `make_circles` |
//!
//! ## Precision
//!
//! Everything is `f64`; [`Dataset::x_as`] converts to `f32` (or any [`ndlearn_core::Float`]).
//!
//! ## Determinism
//!
//! The generators take a `seed: u64` (scikit-learn's `random_state`, default 0) and draw from
//! [`ndlearn_core::random::stream`]; the same options give bitwise-identical arrays on every run
//! and thread count. The numbers differ from scikit-learn's for the same seed (another random
//! generator); the distributions and layouts are the same.

pub mod csv_io;
mod dataset;
pub mod embedded;
pub mod generators;

pub use csv_io::{CsvOptions, TargetColumn, TaskHint, load_csv, read_csv, write_csv, write_csv_to};
pub use dataset::{Dataset, Target};
pub use embedded::{NAMES, breast_cancer, by_name, diabetes, diabetes_raw, digits, iris, wine};
pub use generators::{
    Blobs, Centers, ClusterStd, MakeBlobs, MakeCircles, MakeClassification, MakeLowRankMatrix,
    MakeMoons, MakeRegression, PerFeature,
};
