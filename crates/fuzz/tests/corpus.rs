//! Replays the fuzz corpus (`crates/fuzz/corpus/<target>/`): every input a fuzzing run ever
//! found a problem with stays a regression test, and the seed inputs keep each target's main
//! paths covered. An input passes when its target returns (accepted or rejected) without a
//! panic.

use std::panic::AssertUnwindSafe;
use std::path::PathBuf;

use ndlearn_fuzz::Target;

fn replay(t: Target) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(t.name());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| !n.starts_with('.'))
    });
    files.sort();
    assert!(
        !files.is_empty(),
        "{}: no corpus in {}",
        t.name(),
        dir.display()
    );
    let mut failures = Vec::new();
    for f in &files {
        let input = std::fs::read(f).unwrap_or_default();
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| t.run(&input)));
        if let Err(p) = r {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            failures.push(format!("{}: {msg}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {} inputs fail:\n{}",
        failures.len(),
        files.len(),
        t.name(),
        failures.join("\n")
    );
}

#[test]
fn csv_corpus_replays() {
    replay(Target::Csv);
}

#[test]
fn model_file_corpus_replays() {
    replay(Target::ModelFile);
}

#[test]
fn param_corpus_replays() {
    replay(Target::Param);
}

#[test]
fn fit_predict_corpus_replays() {
    replay(Target::FitPredict);
}
