//! Peak memory of `fit` (and of k-NN `predict`), ndlearn beside scikit-learn:
//! `cargo xtask bench --memory` (the `compare` binary's `--memory` mode).
//!
//! Every case runs in a fresh process on each side, so one case's allocations cannot hide in
//! another's high-water mark. The process loads the case's data set (written once by the parent
//! to [`SHARED_DIR`] as raw little-endian `f64`, so both sides fit the very same numbers), warms
//! its runtime (one 1024 × 1024 BLAS product on both sides, so OpenBLAS's threads and packing
//! buffers are part of the baseline; and on the Rust side one task per rayon worker), resets the kernel's high-water mark (`5` written to
//! `/proc/self/clear_refs`), reads its resident set size (the **baseline**: the Rust process
//! after loading the data; the Python process after importing numpy, scipy and scikit-learn and
//! loading the data), runs the measured call and reads the high-water mark (`VmHWM`). The
//! reported number is the peak above the baseline.
//!
//! Each case is measured twice per side, each time in a fresh process: the **first call** (the
//! baseline as defined above) and **warm** (the call first runs once on the first
//! [`WARM_ROWS`] rows, then the baseline is read). The first call's peak includes one-time
//! costs that are not the algorithm's memory: the pages of library and BLAS/LAPACK code it
//! touches for the first time (file-backed and shared; `pca_k10` measured 1.3 MiB of such
//! pages in its 2.0 MiB, `RssFile` against `RssAnon`), and on the Python side modules imported
//! lazily at the first fit. The warm peak is the call's working memory.
//!
//! Two exact numbers stand beside the peaks: the process's minor page faults during the warm
//! call (an upper bound on the pages it added, where `VmRSS` / `VmHWM` are per-CPU counters
//! folded in batches, [`RSS_RESOLUTION_NOTE`]) and the growth of `RssFile` over the first call
//! (the code pages it touched for the first time).
//!
//! | case | data | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `ols` | 500,000 × 100 (dense linear model) | `LinearRegression` | `LinearRegression()` |
//! | `ridge` | the same | `Ridge::new(1.0)` | `Ridge(1.0)` |
//! | `logistic` | 200,000 × 50, 2 classes | `LogisticRegression` (L-BFGS) | `LogisticRegression()` |
//! | `kmeans_k8` | 200,000 × 16, 8 shifted classes | `KMeans::new(8)` (one k-means++ start) | `KMeans(8, n_init=1)` |
//! | `gaussian_mixture_full_k8` | the same | `GaussianMixture::new(8)` | `GaussianMixture(8)` |
//! | `pca_k10` | 500,000 × 100, rank-30 signal + noise | `Pca::new(10)` | `PCA(10)` |
//! | `knn_k5_predict` | 200,000 × 16 fitted, 50,000 queries (5 classes) | `KNeighborsClassifier::new(5)`, predict only | `KNeighborsClassifier(5, n_jobs=2)` |
//! | `agglomerative_ward` | 20,000 × 16, 8 shifted classes | `Agglomerative::new(8)` | `AgglomerativeClustering(8)` |
//! | `tsne_bh` | 5,000 × 50, 10 classes | `Tsne::new(2)` (Barnes–Hut) | `TSNE(2)` |
//! | `svc_rbf_binary` | 20,000 × 50 (`make_classification`) | `Svc::default()` | `SVC()` |
//! | `random_forest_clf` | 150,000 × 50 (`make_classification`) | `RandomForestClassifier` (100 trees) | `RandomForestClassifier(n_jobs=2)` |
//! | `hist_gb_clf` | the same | `HistGradientBoostingClassifier` (100 iterations) | `HistGradientBoostingClassifier(max_iter=100, early_stopping=False)` |
//! | `mlp_clf` | the same | `MLPClassifier` (100 ReLU, Adam, 20 epochs) | `MLPClassifier` (the same settings) |
//!
//! `--quick` divides the rows by 5. Linux only (`/proc`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_cluster::{Agglomerative, GaussianMixture, KMeans};
use ndlearn_core::{Fit, FitUnsupervised, Predict};
use ndlearn_decomposition::{Pca, Tsne};
use ndlearn_linear::{LinearRegression, LogisticRegression, Ridge};
use ndlearn_neighbors::KNeighborsClassifier;
use ndlearn_svm::Svc;
use ndlearn_tree::{EarlyStoppingMode, HistGradientBoostingClassifier, RandomForestClassifier};
use serde::{Deserialize, Serialize};

use crate::suites_linear::SHARED_DIR;

/// How a case's data set is drawn (by the Rust side; the Python side reads the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draw {
    /// `X` standard normal, `y = X w + 0.5 + ε` (the linear suite's dense problem).
    Linear,
    /// `X` standard normal, `y = [X w + ε > 0]` (the linear suite's binary classes).
    Logistic,
    /// `k` shifted Gaussian classes (the classify suite's design).
    Shifted(usize),
    /// A rank-30 signal plus unit noise (the decomposition suite's PCA data).
    LowRank,
    /// 10 Gaussian classes with centres `4 ·` standard normal (the t-SNE data).
    TsneClasses,
    /// `make_classification`: 10 informative, 10 redundant features, 2 classes.
    MakeClassification,
}

/// One measured case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryCase {
    /// Case name (the `algo` column).
    pub name: &'static str,
    /// Data set file stem (cases with the same stem share one file).
    pub data: &'static str,
    /// How the data are drawn.
    pub draw: Draw,
    /// Seed of the draw.
    pub seed: u64,
    /// Rows of the data set.
    pub n: usize,
    /// Features.
    pub d: usize,
    /// Rows the model is fitted on (the first ones); the others are the queries of a predict
    /// case.
    pub n_fit: usize,
    /// Whether the measured call is `predict` of the queries (the model fitted before the
    /// baseline) rather than `fit`.
    pub predict: bool,
}

/// A data set of the cases: file stem, draw, seed, (rows, features).
type DataSpec = (&'static str, Draw, u64, (usize, usize));

/// The cases, in run order (`quick`: rows divided by 5). Cases that share a data set share its
/// spec (and so its file).
pub fn cases(quick: bool) -> Vec<MemoryCase> {
    let s = if quick { 5 } else { 1 };
    let case = |name, (data, draw, seed, (n, d)): DataSpec| MemoryCase {
        name,
        data,
        draw,
        seed,
        n: n / s,
        d,
        n_fit: n / s,
        predict: false,
    };
    let linear = ("linear", Draw::Linear, 91, (500_000, 100));
    let shifted8 = ("shifted8", Draw::Shifted(8), 94, (200_000, 16));
    let classes50 = ("classes50", Draw::MakeClassification, 99, (150_000, 50));
    let mut knn = case(
        "knn_k5_predict",
        ("knn", Draw::Shifted(5), 93, (250_000, 16)),
    );
    knn.n_fit = 200_000 / s;
    knn.predict = true;
    vec![
        case("ols", linear),
        case("ridge", linear),
        case("logistic", ("logistic", Draw::Logistic, 92, (200_000, 50))),
        case("kmeans_k8", shifted8),
        case("gaussian_mixture_full_k8", shifted8),
        case("pca_k10", ("low_rank", Draw::LowRank, 95, (500_000, 100))),
        knn,
        case(
            "agglomerative_ward",
            ("ward", Draw::Shifted(8), 96, (20_000, 16)),
        ),
        case("tsne_bh", ("tsne", Draw::TsneClasses, 97, (5_000, 50))),
        case(
            "svc_rbf_binary",
            ("svc", Draw::MakeClassification, 98, (20_000, 50)),
        ),
        case("random_forest_clf", classes50),
        case("hist_gb_clf", classes50),
        case("mlp_clf", classes50),
    ]
}

impl MemoryCase {
    /// The data file: `SHARED_DIR/memory_<data>_<n>x<d>.f64` (`x` row-major, then `y`).
    pub fn path(&self) -> PathBuf {
        Path::new(SHARED_DIR).join(format!("memory_{}_{}x{}.f64", self.data, self.n, self.d))
    }

    /// Size of the input `X` in bytes.
    pub fn input_bytes(&self) -> usize {
        self.n * self.d * 8
    }

    /// Draws the data set and writes its file, unless a file of the right size is there.
    ///
    /// # Errors
    /// A generator error or an I/O error.
    pub fn prepare(&self) -> Result<PathBuf, String> {
        let path = self.path();
        let want = ((self.n * self.d + self.n) * 8) as u64;
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == want) {
            return Ok(path);
        }
        let (n, d) = (self.n, self.d);
        let (x, y): (Array2<f64>, Array1<f64>) = match self.draw {
            Draw::Linear => crate::suites_linear::problem(n, d, false, self.seed),
            Draw::Logistic => {
                let (x, y) = crate::suites_linear::classes(n, d, 2, self.seed);
                (x, y.mapv(|c| c as f64))
            }
            Draw::Shifted(k) => {
                let (x, y) = crate::suites_classify::shifted_classes(n, d, k, self.seed);
                (x, y.mapv(|c| c as f64))
            }
            Draw::LowRank => (
                crate::suites_decomposition::low_rank(n, d, self.seed),
                Array1::zeros(n),
            ),
            Draw::TsneClasses => (
                crate::suites_decomposition::classes(n, d, self.seed),
                Array1::from_shape_fn(n, |i| (i % 10) as f64),
            ),
            Draw::MakeClassification => {
                let (x, y) = ndlearn_datasets::MakeClassification::default()
                    .n_samples(n)
                    .n_features(d)
                    .n_informative(10)
                    .n_redundant(10)
                    .n_classes(2)
                    .seed(self.seed)
                    .generate()
                    .map_err(|e| e.to_string())?;
                (x, y.mapv(|c| c as f64))
            }
        };
        // the shared-file writer of the suites (same format and name: `memory_<data>_<n>x<d>`)
        crate::suites_linear::share_with_reference(&format!("memory_{}", self.data), &x, &y);
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == want) {
            Ok(path)
        } else {
            Err(format!("could not write {}", path.display()))
        }
    }

    /// The request the Python side reads (`run.py --memory-case JSON`).
    pub fn request(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "path": self.path(),
            "n": self.n,
            "d": self.d,
            "n_fit": self.n_fit,
            "predict": self.predict,
            "warm_rows": WARM_ROWS,
        })
    }
}

/// What one side measured for one case (one JSON line on the child's stdout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Case name.
    pub name: String,
    /// `ndlearn` or `scikit-learn`.
    pub implementation: String,
    /// Resident set size after loading the data (KiB).
    pub baseline_kib: u64,
    /// High-water mark of the resident set during the measured call (KiB).
    pub peak_kib: u64,
    /// Wall time of the measured call.
    pub seconds: f64,
    /// Whether the call ran once on a few rows before the baseline was read (see
    /// [`measure_ours`]); `false`: the first call in the process.
    #[serde(default)]
    pub warm: bool,
    /// Minor page faults of the whole process during the measured call (`minflt` of
    /// `/proc/self/stat`): an exact count where `VmRSS` / `VmHWM` are approximate (see
    /// [`RSS_RESOLUTION_NOTE`]). A fault maps one 4 KiB page, or 2 MiB when transparent huge
    /// pages back the region.
    #[serde(default)]
    pub minor_faults: u64,
    /// Growth of the file-backed resident set (`RssFile`) over the call, KiB: library and
    /// BLAS/LAPACK code paged in for the first time (see the module docs).
    #[serde(default)]
    pub file_kib: u64,
}

impl Measurement {
    /// Peak above the baseline, in MiB.
    pub fn above_baseline_mib(&self) -> f64 {
        self.peak_kib.saturating_sub(self.baseline_kib) as f64 / 1024.0
    }
}

/// A `kB` field of `/proc/self/status` (`VmRSS`, `VmHWM`).
fn status_kib(key: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("memory measurement needs Linux's /proc/self/status: {e}"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| format!("no {key} in /proc/self/status"))
}

/// The process's minor page faults so far (field 10 of `/proc/self/stat`, all threads).
fn minor_faults() -> Result<u64, String> {
    let stat = std::fs::read_to_string("/proc/self/stat")
        .map_err(|e| format!("memory measurement needs Linux's /proc/self/stat: {e}"))?;
    // the command name (field 2) is in parentheses and may hold spaces: count after its `)`
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7))
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| "no minflt in /proc/self/stat".to_string())
}

/// What the table's MiB can resolve. Since Linux 6.2 the resident-set counters behind `VmRSS`
/// and `VmHWM` are per-CPU counters folded into the total in batches of `max(32, 2 × CPUs)`
/// pages per CPU, so a reading can be off by that much per CPU (0.25 MiB on 2 CPUs) even when
/// the call touched no new page. The fault count is exact.
pub const RSS_RESOLUTION_NOTE: &str = "VmRSS and VmHWM come from per-CPU counters folded in \
     batches of max(32, 2 × CPUs) pages per CPU (Linux ≥ 6.2): differences below that (0.25 MiB \
     on 2 CPUs) are within their resolution. The warm faults column is exact: minor page faults \
     of the whole process during the measured call (`minflt` of /proc/self/stat), 4 KiB each, \
     or 2 MiB where transparent huge pages back the memory.";

/// Resets the kernel's high-water mark of the resident set to the current resident set.
fn reset_peak() -> Result<(), String> {
    std::fs::write("/proc/self/clear_refs", "5")
        .map_err(|e| format!("could not reset the peak RSS (/proc/self/clear_refs): {e}"))
}

/// Runs `f` between a baseline and a high-water-mark reading; the value of `f` is alive when
/// the mark is read.
fn measured<T>(
    name: &str,
    f: impl FnOnce() -> ndlearn_core::Result<T>,
) -> Result<Measurement, String> {
    reset_peak()?;
    let baseline_kib = status_kib("VmRSS")?;
    let file_before = status_kib("RssFile")?;
    let faults_before = minor_faults()?;
    let t = Instant::now();
    let value = f().map_err(|e| format!("{name}: {e}"))?;
    let seconds = t.elapsed().as_secs_f64();
    let peak_kib = status_kib("VmHWM")?;
    let faults = minor_faults()?.saturating_sub(faults_before);
    let file_kib = status_kib("RssFile")?.saturating_sub(file_before);
    drop(value);
    Ok(Measurement {
        name: name.into(),
        implementation: "ndlearn".into(),
        baseline_kib,
        peak_kib,
        seconds,
        warm: false,
        minor_faults: faults,
        file_kib,
    })
}

/// Reads a case's data file: `x` (`n × d`) and `y`, in 1 MiB pieces (no second copy of the
/// file in memory, so a heap profiler's peak is the measured call's).
fn load(case: &MemoryCase) -> Result<(Array2<f64>, Array1<f64>), String> {
    use std::io::Read as _;
    let path = case.path();
    let (n, d) = (case.n, case.d);
    let mut file = std::fs::File::open(&path)
        .map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let mut read = |count: usize| -> Result<Vec<f64>, String> {
        let mut out = Vec::with_capacity(count);
        let mut piece = vec![0u8; 1 << 20];
        while out.len() < count {
            let want = ((count - out.len()) * 8).min(piece.len());
            file.read_exact(&mut piece[..want])
                .map_err(|e| format!("{} is too short: {e}", path.display()))?;
            out.extend(
                piece[..want]
                    .chunks_exact(8)
                    .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])),
            );
        }
        Ok(out)
    };
    let x = Array2::from_shape_vec((n, d), read(n * d)?).map_err(|e| e.to_string())?;
    let y = Array1::from(read(n)?);
    Ok((x, y))
}

/// The fixed costs of the runtime, paid before the baseline as the Python side pays its own:
/// one BLAS product large enough to start OpenBLAS's threads and fill its packing buffers, and
/// one task per rayon worker (the pool's threads, their stacks and their allocator arenas).
fn warm_up_runtime() -> f64 {
    let a = Array2::from_shape_fn((1024, 1024), |(i, j)| ((i * 7 + j) % 13) as f64);
    let blas = a.dot(&a).sum();
    let workers = ndlearn_core::par::current_num_threads();
    let tasks: Vec<f64> = ndlearn_core::par::map_tasks(4 * workers, |t| {
        let v = vec![t as f64; 4096];
        v.iter().sum()
    });
    blas + tasks.iter().sum::<f64>()
}

/// Rows of the warm-up call of a warm measurement (the first ones; queries for a predict case:
/// a tenth of it).
pub const WARM_ROWS: usize = 2_000;

/// Runs case `name`'s measured call on `x` / `y` / `labels` (a fit; the model is returned so
/// it is alive when the high-water mark is read).
fn run_case(
    name: &str,
    x: &ArrayRef2<f64>,
    y: &ArrayRef1<f64>,
    labels: &ArrayRef1<usize>,
) -> ndlearn_core::Result<Box<dyn std::any::Any>> {
    fn boxed<T: 'static>(
        r: ndlearn_core::Result<T>,
    ) -> ndlearn_core::Result<Box<dyn std::any::Any>> {
        r.map(|v| Box::new(v) as Box<dyn std::any::Any>)
    }
    match name {
        "ols" => boxed(LinearRegression::default().fit(x, y)),
        "ridge" => boxed(Ridge::new(1.0).fit(x, y)),
        "logistic" => boxed(LogisticRegression::default().fit(x, labels)),
        "kmeans_k8" => boxed(KMeans::new(8).seed(0).fit(x)),
        "gaussian_mixture_full_k8" => boxed(GaussianMixture::new(8).fit(x)),
        "pca_k10" => boxed(Pca::new(10).fit(x)),
        "agglomerative_ward" => boxed(Agglomerative::new(8).fit(x)),
        "tsne_bh" => boxed(Tsne::new(2).fit(x)),
        "svc_rbf_binary" => boxed(Svc::default().fit(x, labels)),
        "random_forest_clf" => boxed(RandomForestClassifier::default().fit(x, labels)),
        "hist_gb_clf" => boxed(
            HistGradientBoostingClassifier::default()
                .max_iter(100)
                .early_stopping(EarlyStoppingMode::Off)
                .fit(x, labels),
        ),
        "mlp_clf" => boxed(crate::suites_neural::classifier(20).fit(x, labels)),
        other => Err(ndlearn_core::Error::invalid_param(
            "case",
            format!("memory case `{other}` has no ndlearn side"),
        )),
    }
}

/// Measures one case in this process (the child side of `compare --memory`). With `warm`, the
/// call first runs once on the first [`WARM_ROWS`] rows (a predict case: on a tenth as many
/// queries), before the baseline is read: the code of the library and of BLAS/LAPACK is then
/// paged in and one-time initialisations are done, so the peak is the call's working memory.
///
/// # Errors
/// An unknown case, a missing data file, or the estimator's error.
pub fn measure_ours(name: &str, quick: bool, warm: bool) -> Result<Measurement, String> {
    let case = cases(quick)
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("unknown memory case `{name}`"))?;
    let (x, y) = load(&case)?;
    let labels = y.mapv(|v| v as usize);
    std::hint::black_box(warm_up_runtime());
    let mut m = if case.predict {
        let train = x.slice(ndarray::s![..case.n_fit, ..]).to_owned();
        let queries = x.slice(ndarray::s![case.n_fit.., ..]).to_owned();
        let train_y = labels.slice(ndarray::s![..case.n_fit]).to_owned();
        drop((x, y, labels));
        let model = KNeighborsClassifier::new(5)
            .fit(&train, &train_y)
            .map_err(|e| e.to_string())?;
        if warm {
            let k = (WARM_ROWS / 10).min(queries.nrows());
            drop(
                model
                    .predict(&queries.slice(ndarray::s![..k, ..]))
                    .map_err(|e| e.to_string())?,
            );
        }
        measured(name, || model.predict(&queries))?
    } else {
        if warm {
            let k = WARM_ROWS.min(x.nrows());
            let s = ndarray::s![..k];
            drop(
                run_case(
                    name,
                    &x.slice(ndarray::s![..k, ..]),
                    &y.slice(s),
                    &labels.slice(s),
                )
                .map_err(|e| e.to_string())?,
            );
        }
        measured(name, || run_case(name, &x, &y, &labels))?
    };
    m.warm = warm;
    Ok(m)
}

/// One case's four measurements: each side's first call in a fresh process and its warm call
/// (after a [`WARM_ROWS`] warm-up; see [`measure_ours`]).
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryRow {
    /// The case.
    pub case: MemoryCase,
    /// ndlearn, first call.
    pub ours: Option<Measurement>,
    /// scikit-learn, first call.
    pub theirs: Option<Measurement>,
    /// ndlearn, warm call.
    pub ours_warm: Option<Measurement>,
    /// scikit-learn, warm call.
    pub theirs_warm: Option<Measurement>,
}

/// The Markdown table of the measurements.
pub fn table(rows: &[MemoryRow]) -> String {
    let mib = |m: &Option<Measurement>| {
        m.as_ref().map_or_else(
            || "–".to_string(),
            |m| format!("{:.1}", m.above_baseline_mib()),
        )
    };
    let ratio = |a: &Option<Measurement>, b: &Option<Measurement>| match (a, b) {
        (Some(a), Some(b)) if b.above_baseline_mib() > 0.0 => {
            format!("{:.2}", a.above_baseline_mib() / b.above_baseline_mib())
        }
        _ => "–".into(),
    };
    let mut out = String::from(
        "| case | data (rows × features) | input X (MiB) | ndlearn, first call (MiB) | \
         scikit-learn, first call (MiB) | ratio | ndlearn, warm (MiB) | scikit-learn, warm (MiB) | \
         ratio, warm | warm faults, ndlearn / scikit-learn (pages) | first call's code pages, \
         ndlearn / scikit-learn (MiB) | ndlearn warm / input | ndlearn baseline (MiB) | \
         scikit-learn baseline (MiB) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for row in rows {
        let case = &row.case;
        let input = case.input_bytes() as f64 / (1024.0 * 1024.0);
        let per_input = row.ours_warm.as_ref().map_or_else(
            || "–".into(),
            |m| format!("{:.2}", m.above_baseline_mib() / input),
        );
        let base = |m: &Option<Measurement>| {
            m.as_ref().map_or_else(
                || "–".into(),
                |m| format!("{:.0}", m.baseline_kib as f64 / 1024.0),
            )
        };
        let dims = if case.predict {
            format!(
                "{} × {} fitted, {} queries",
                case.n_fit,
                case.d,
                case.n - case.n_fit
            )
        } else {
            format!("{} × {}", case.n, case.d)
        };
        let faults = |m: &Option<Measurement>| {
            m.as_ref()
                .map_or_else(|| "–".into(), |m| m.minor_faults.to_string())
        };
        let code = |m: &Option<Measurement>| {
            m.as_ref().map_or_else(
                || "–".into(),
                |m| format!("{:.1}", m.file_kib as f64 / 1024.0),
            )
        };
        out.push_str(&format!(
            "| `{}` | {dims} | {input:.1} | {} | {} | {} | {} | {} | {} | {} / {} | {} / {} | {per_input} | {} | {} |\n",
            case.name,
            mib(&row.ours),
            mib(&row.theirs),
            ratio(&row.ours, &row.theirs),
            mib(&row.ours_warm),
            mib(&row.theirs_warm),
            ratio(&row.ours_warm, &row.theirs_warm),
            faults(&row.ours_warm),
            faults(&row.theirs_warm),
            code(&row.ours),
            code(&row.theirs),
            base(&row.ours),
            base(&row.theirs),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn status_fields_parse_and_the_peak_resets() -> Result<(), String> {
        let rss = status_kib("VmRSS")?;
        assert!(rss > 0);
        // A 64 MiB touched allocation raises the mark; after it is freed and the mark reset,
        // the mark is back near the resident set.
        let big = vec![1u8; 64 << 20];
        std::hint::black_box(&big);
        drop(big);
        let raised = status_kib("VmHWM")?;
        assert!(raised >= rss + 60 * 1024, "{raised} vs {rss}");
        reset_peak()?;
        let after = status_kib("VmHWM")?;
        assert!(after < raised - 32 * 1024, "{after} vs {raised}");
        // touching 16 MiB of fresh memory faults at least its 4 KiB pages (or its 2 MiB huge
        // pages): the fault counter moves
        let before = minor_faults()?;
        let fresh = vec![1u8; 16 << 20];
        std::hint::black_box(&fresh);
        assert!(minor_faults()? >= before + 8, "{before}");
        Ok(())
    }

    #[test]
    fn case_names_are_unique_and_predict_cases_keep_queries() {
        let all = cases(false);
        let mut names: Vec<_> = all.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for c in &all {
            assert_eq!(c.predict, c.n_fit < c.n, "{}", c.name);
        }
        // cases sharing a file agree on its shape and draw
        for a in &all {
            for b in all.iter().filter(|b| b.data == a.data) {
                assert_eq!((a.n, a.d, a.draw, a.seed), (b.n, b.d, b.draw, b.seed));
            }
        }
    }
}
