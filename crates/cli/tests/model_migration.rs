//! Model files written by an older ndlearn keep working: every file of
//! `tests/fixtures/model_v1/` (format version 1, one per estimator registered when it was
//! written; see the README there) is loaded by the current `ndlearn predict` and must give
//! the predictions stored next to it: labels and text exactly, numbers to the last few bits.
//!
//! Why not every number exactly: the stored predictions were computed on one machine, and the
//! prediction arithmetic (matrix–vector products of the loaded parameters with the data) goes
//! through OpenBLAS, whose kernels for other CPUs sum in another order. The embedded data sets
//! have at most 64 features of moderate scale, so the rounding differences are of order
//! `64 ε Σ|xⱼ wⱼ|`, far below [`REL`] relative to `max(1, |value|)`; a wrong parameter, a lost
//! scaler or a changed label moves a value by many orders more. (Checked under
//! `OPENBLAS_CORETYPE` Haswell, Zen, Sandybridge, Nehalem and Prescott.)

use std::path::{Path, PathBuf};
use std::process::Command;

/// Relative tolerance of a numeric prediction against the stored one (see the module docs).
const REL: f64 = 1e-9;

/// The lines of `got` that differ from `want`: fields equal as text, or both numbers within
/// [`REL`] of `max(1, |value|)`.
fn differing_lines(got: &str, want: &str) -> Vec<usize> {
    let (g, w): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    if g.len() != w.len() {
        return vec![g.len().min(w.len())];
    }
    let same_field = |a: &str, b: &str| {
        a == b
            || match (a.trim().parse::<f64>(), b.trim().parse::<f64>()) {
                (Ok(x), Ok(y)) => (x - y).abs() <= REL * x.abs().max(y.abs()).max(1.0),
                _ => false,
            }
    };
    g.iter()
        .zip(&w)
        .enumerate()
        .filter(|(_, (a, b))| {
            let (fa, fb): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), b.split(',').collect());
            fa.len() != fb.len() || fa.iter().zip(&fb).any(|(x, y)| !same_field(x, y))
        })
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn numbers_may_differ_in_the_last_bits_only() {
    assert!(differing_lines("1\n0.30000000000000004\n", "1\n0.3\n").is_empty());
    assert_eq!(differing_lines("1\n2\n", "1\n3\n"), vec![1]);
    assert_eq!(differing_lines("0.5,1\n", "0.5000001,1\n"), vec![0]);
    assert_eq!(differing_lines("a,1\n", "b,1\n"), vec![0]);
    assert_eq!(differing_lines("1\n", "1\n2\n"), vec![1]);
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/model_v1")
}

#[test]
fn every_version_1_model_file_still_loads_and_predicts_the_same() {
    let dir = fixtures();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
    let out_dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        let (algo, data) = line.split_once('\t').expect("algo<TAB>data");
        let model = dir.join(format!("{algo}.json"));
        let out = out_dir.path().join(format!("{algo}.csv"));
        let run = Command::new(env!("CARGO_BIN_EXE_ndlearn"))
            .args([
                "predict",
                "--model",
                model.to_str().expect("utf-8 path"),
                "--data",
                dir.join(format!("{data}.csv"))
                    .to_str()
                    .expect("utf-8 path"),
                "--out",
                out.to_str().expect("utf-8 path"),
            ])
            .output()
            .expect("the binary runs");
        if !run.status.success() {
            failures.push(format!(
                "{algo}: {}",
                String::from_utf8_lossy(&run.stderr).trim()
            ));
            continue;
        }
        let got = std::fs::read_to_string(&out).expect("predictions written");
        let mut want =
            std::fs::read_to_string(dir.join(format!("{algo}.pred.csv"))).expect("stored");
        if algo == "dbscan" {
            // The one intended change of output: version 1 wrote noise as the label
            // `n_clusters`, now it is scikit-learn's −1.
            let file: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&model).expect("model file"))
                    .expect("json");
            let noise = file["model"]["n_clusters"]
                .as_u64()
                .expect("n_clusters")
                .to_string();
            want = want
                .lines()
                .map(|l| {
                    if l == noise {
                        "-1".to_string()
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
        }
        let bad = differing_lines(&got, &want);
        if let Some(first) = bad.first() {
            failures.push(format!(
                "{algo}: {} prediction lines differ from the version-1 run (first: line {})",
                bad.len(),
                first + 1
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 73, "checked {checked}");
}
