//! Platt probabilities of `Svc` against scikit-learn's `SVC(probability=True)`
//! (`datasets/golden/svm/svm_proba.json`, `scripts/golden/svm_proba.py`). The cross-validation
//! folds come from different generators, and the fold assignment alone moves libsvm's log-loss
//! by about 1.5 % from seed to seed on these data; so the mean log-loss over ten seeds (training
//! rows and held-out rows) is compared with libsvm's mean over ten seeds, within 1 % relative (the
//! issue's criterion) or two standard errors of the difference of the means, whichever is
//! larger.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::metrics::log_loss;
use ndlearn_core::traits::{Fit, PredictProba};
use ndlearn_svm::{Svc, SvmKernel};
use ndlearn_testkit::Golden;

fn standardized(x: &Array2<f64>) -> Array2<f64> {
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let sd = x
        .std_axis(Axis(0), 0.0)
        .mapv(|s| if s == 0.0 { 1.0 } else { s });
    (x - &mean) / &sd
}

#[test]
fn platt_log_loss_within_one_percent_of_libsvm() {
    let g = Golden::load("svm", "svm_proba");
    assert_eq!(g.cases().len(), 4);
    for case in g.cases() {
        let data = ndlearn_datasets::by_name(case.string("dataset")).expect("embedded set");
        let x = standardized(&data.x().to_owned());
        let y = data.y_classes().expect("labels").to_owned();
        let train: Vec<usize> = (0..y.len()).filter(|i| i % 4 != 0).collect();
        let test: Vec<usize> = (0..y.len()).filter(|i| i % 4 == 0).collect();
        let kernel = match case.string("kernel") {
            "linear" => SvmKernel::Linear,
            _ => SvmKernel::Rbf,
        };
        let models: Vec<_> = (0..10u64)
            .map(|seed| {
                Svc::default()
                    .kernel(kernel.clone())
                    .c(case.scalar("C"))
                    .tol(1e-6)
                    .probability(true)
                    .random_state(seed)
                    .fit(&x.select(Axis(0), &train), &y.select(Axis(0), &train))
                    .expect("fits")
            })
            .collect();
        for (rows, key) in [(&train, "log_loss_train"), (&test, "log_loss_test")] {
            let yt: Array1<usize> = y.select(Axis(0), rows);
            let xt = x.select(Axis(0), rows);
            let ours: Vec<f64> = models
                .iter()
                .map(|m| log_loss(&yt, &m.predict_proba(&xt).expect("proba"), None).expect("loss"))
                .collect();
            let theirs = case.vector(key).to_vec();
            let (mo, vo) = mean_var(&ours);
            let (mt, vt) = mean_var(&theirs);
            let se = ((vo + vt) / 10.0).sqrt();
            let tol = (0.01 * mt).max(2.0 * se);
            assert!(
                (mo - mt).abs() <= tol,
                "{} {key}: mean {mo} (sd {}) vs libsvm {mt} (sd {}), tolerance {tol}",
                case.name(),
                vo.sqrt(),
                vt.sqrt()
            );
        }
    }
}

/// Mean and unbiased variance.
fn mean_var(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    (
        m,
        v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0),
    )
}
