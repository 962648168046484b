//! Model files written by an older ndlearn keep working: every file of
//! `tests/fixtures/model_v1/` (format version 1, one per estimator registered when it was
//! written; see the README there) is loaded by the current `ndlearn predict` and must give
//! exactly the predictions stored next to it.

use std::path::{Path, PathBuf};
use std::process::Command;

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
        if got != want {
            failures.push(format!("{algo}: predictions differ from the version-1 run"));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 73, "checked {checked}");
}
