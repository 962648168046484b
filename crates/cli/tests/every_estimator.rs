//! Every registered estimator, through the model-file path of `ndlearn fit` / `predict`: fitted
//! on an embedded data set of its kind, written as a model file (text), read back and restored,
//! it predicts bit-identically (labels, values, matrices and probabilities), in f64 and f32.

use std::path::PathBuf;

use ndlearn_cli::data::{self, TargetArg};
use ndlearn_cli::model_file::ModelFile;
use ndlearn_core::registry::{Data, Entry, Kind, Output};

fn csv(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/data")
        .join(format!("{name}.csv"))
}

fn bits(o: &Output) -> Vec<u64> {
    match o {
        Output::Labels(l) => l.iter().map(|&k| k as u64).collect(),
        Output::Values(v) => v.iter().map(|x| x.to_bits()).collect(),
        Output::Matrix(m) => m.iter().map(|x| x.to_bits()).collect(),
        Output::Signed(s) => s.iter().map(|&k| k as u64).collect(),
        Output::Indicators(m) => m.iter().map(|&b| u64::from(b)).collect(),
        other => panic!("an output this test does not know: {other:?}"),
    }
}

/// Fits `entry` on the first data set of its kind it accepts and checks the round trip.
/// Returns the data set used.
fn round_trip(entry: &Entry, f32: bool) -> Result<&'static str, String> {
    let candidates: &[&'static str] = match entry.kind() {
        Kind::Regressor => &["diabetes"],
        _ => &["iris", "wine", "digits", "breast_cancer"],
    };
    let mut refusals = Vec::new();
    for &name in candidates {
        let table =
            data::load(&csv(name), &TargetArg::Default, entry.kind()).map_err(|e| e.message)?;
        let (y, labels) = data::fit_target(&table.target, entry.kind());
        let est = entry.build(&[]).map_err(|e| e.to_string())?;
        let x: Data = table.data(f32);
        let model = match est.fit(&x, &y) {
            Ok(m) => m,
            Err(e) => {
                refusals.push(format!("{name}: {e}"));
                continue;
            }
        };
        let file = ModelFile::new(
            entry,
            model.precision(),
            est.params(),
            table.feature_names.clone(),
            model.to_json().map_err(|e| e.to_string())?,
        )
        .with_target(table.target_name.clone())
        .with_labels(labels);
        let text = serde_json::to_string(&file).map_err(|e| e.to_string())?;
        let back = ModelFile::parse(&text, "test")
            .and_then(|f| f.restore(entry, "test"))
            .map_err(|e| format!("{}: {}", entry.name(), e.message))?;
        assert_eq!(back.precision(), model.precision(), "{}", entry.name());
        match (model.predict(&x), back.predict(&x)) {
            (Ok(a), Ok(b)) => assert_eq!(bits(&a), bits(&b), "{} predictions", entry.name()),
            (Err(_), Err(_)) => {}
            (a, b) => panic!(
                "{}: predict {:?} vs restored {:?}",
                entry.name(),
                a.is_ok(),
                b.is_ok()
            ),
        }
        match (model.predict_proba(&x), back.predict_proba(&x)) {
            (Some(Ok(a)), Some(Ok(b))) => {
                let a: Vec<u64> = a.iter().map(|v| v.to_bits()).collect();
                let b: Vec<u64> = b.iter().map(|v| v.to_bits()).collect();
                assert_eq!(a, b, "{} probabilities", entry.name());
            }
            (None, None) | (Some(Err(_)), Some(Err(_))) => {}
            _ => panic!(
                "{}: predict_proba differs after the round trip",
                entry.name()
            ),
        }
        return Ok(name);
    }
    Err(format!(
        "{} fitted none of its data sets: {}",
        entry.name(),
        refusals.join("; ")
    ))
}

#[test]
fn every_registered_estimator_round_trips_bit_identically() {
    let entries = ndlearn_cli::entries();
    assert!(entries.len() >= 21);
    let mut failures = Vec::new();
    for e in &entries {
        for f32 in [false, true] {
            if let Err(msg) = round_trip(e, f32) {
                failures.push(format!("{msg} (f32: {f32})"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_cli_lists_every_crate_registry() {
    let mut expected: Vec<&str> = ndlearn_core::preprocessing::registry()
        .iter()
        .chain(ndlearn_linear::registry().iter())
        .chain(ndlearn_bayes::registry().iter())
        .chain(ndlearn_neighbors::registry().iter())
        .chain(ndlearn_cluster::registry().iter())
        .chain(ndlearn_decomposition::registry().iter())
        .chain(ndlearn_svm::registry().iter())
        .chain(ndlearn_tree::registry().iter())
        .chain(ndlearn_neural::registry().iter())
        .map(|e| e.name())
        .collect();
    expected.sort_unstable();
    let listed: Vec<&str> = ndlearn_cli::entries().iter().map(|e| e.name()).collect();
    assert_eq!(listed, expected);
    let mut dedup = listed.clone();
    dedup.dedup();
    assert_eq!(dedup, listed, "registry names are unique");
}
