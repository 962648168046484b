//! `ndlearn_core::metrics` against scikit-learn 1.9.1 (`datasets/golden/core/metrics.json`,
//! written by `scripts/golden/core_metrics.py`).
//!
//! Tolerance `1e-12` relative (plus `1e-14` absolute for values at 0) wherever both sides do
//! the same arithmetic up to rounding order. Two families get `1e-11` although they pass at
//! `1e-12` today, because their rounding depends on more than summation order: adjusted mutual
//! information (the expected MI sums `exp` of differences of log-factorials of size `N ln N`,
//! computed by a different `ln Γ` on each side) and the silhouette / Davies–Bouldin indices
//! (Euclidean distances through BLAS GEMM, whose kernels vary by CPU).

use ndarray::{Array1, Array2};
use ndlearn_core::distance::Metric;
use ndlearn_core::metrics::*;
use ndlearn_testkit::golden::Case;
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};

const RTOL: f64 = 1e-12;
const ATOL: f64 = 1e-14;

fn golden() -> Golden {
    Golden::load("core", "metrics")
}

fn scalar(case: &Case, field: &str, got: f64) {
    assert_close_scalar(
        got,
        case.scalar(field),
        RTOL,
        ATOL,
        &format!("{} {field}", case.name()),
    );
}

fn vector(case: &Case, field: &str, got: &Array1<f64>) {
    assert_close(
        got,
        &case.vector(field),
        RTOL,
        ATOL,
        &format!("{} {field}", case.name()),
    );
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("weights").then(|| case.vector("weights"))
}

fn average(tag: &str) -> Average {
    match tag {
        "macro" => Average::Macro,
        "micro" => Average::Micro,
        "weighted" => Average::Weighted,
        "binary" => Average::Binary { pos_label: 1 },
        other => panic!("unknown average {other}"),
    }
}

#[test]
fn classification_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("clf_");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let (y, p) = (case.labels("y_true"), case.labels("y_pred"));
        let w = weights(case);
        let w = w.as_deref();
        assert_eq!(unique_labels(&y, &p), case.usize_vector("labels"));
        let cm = confusion_matrix(&y, &p, None, w).expect("valid");
        assert_close(&cm, &case.matrix("confusion"), RTOL, ATOL, case.name());
        for (tag, how) in [
            ("true", Normalize::Truth),
            ("pred", Normalize::Pred),
            ("all", Normalize::All),
        ] {
            let field = format!("confusion_norm_{tag}");
            assert_close(
                &normalize_confusion_matrix(&cm, how),
                &case.matrix(&field),
                RTOL,
                ATOL,
                &field,
            );
        }
        scalar(case, "accuracy", accuracy_score(&y, &p, w).expect("valid"));
        scalar(
            case,
            "accuracy_count",
            accuracy_count(&y, &p, w).expect("valid"),
        );
        scalar(case, "zero_one", zero_one_loss(&y, &p, w).expect("valid"));
        scalar(
            case,
            "zero_one_count",
            zero_one_loss_count(&y, &p, w).expect("valid"),
        );
        for tag in ["macro", "micro", "weighted", "binary"] {
            if !case.has(&format!("precision_{tag}")) {
                continue;
            }
            let avg = average(tag);
            scalar(
                case,
                &format!("precision_{tag}"),
                precision_score(&y, &p, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("recall_{tag}"),
                recall_score(&y, &p, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("f1_{tag}"),
                f1_score(&y, &p, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("fbeta05_{tag}"),
                fbeta_score(&y, &p, 0.5, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("fbeta2_{tag}"),
                fbeta_score(&y, &p, 2.0, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("fpr_{tag}"),
                false_positive_rate(&y, &p, avg, w).expect("valid"),
            );
            scalar(
                case,
                &format!("specificity_{tag}"),
                specificity_score(&y, &p, avg, w).expect("valid"),
            );
            let all = precision_recall_fscore(&y, &p, 2.0, avg, w).expect("valid");
            scalar(case, &format!("precision_{tag}"), all.precision);
            scalar(case, &format!("recall_{tag}"), all.recall);
            scalar(case, &format!("fbeta2_{tag}"), all.fscore);
        }
        let pc = precision_recall_fscore_support(&y, &p, 1.0, None, w).expect("valid");
        vector(case, "pc_precision", &pc.precision);
        vector(case, "pc_recall", &pc.recall);
        vector(case, "pc_f1", &pc.fscore);
        vector(case, "pc_support", &pc.support);
        vector(case, "pc_fpr", &pc.false_positive_rate);
        vector(case, "pc_specificity", &pc.specificity);
        scalar(
            case,
            "balanced_accuracy",
            balanced_accuracy_score(&y, &p, false, w).expect("valid"),
        );
        if case.has("balanced_accuracy_adjusted") {
            let v = balanced_accuracy_score(&y, &p, true, w).expect("valid");
            scalar(case, "balanced_accuracy_adjusted", v);
        }
        scalar(case, "mcc", matthews_corrcoef(&y, &p, w).expect("valid"));
        for (field, kw) in [
            ("kappa", KappaWeights::Unweighted),
            ("kappa_linear", KappaWeights::Linear),
            ("kappa_quadratic", KappaWeights::Quadratic),
        ] {
            scalar(
                case,
                field,
                cohen_kappa_score(&y, &p, kw, w).expect("valid"),
            );
        }
        let report = classification_report(&y, &p, w).expect("valid");
        vector(case, "pc_f1", &report.per_class.fscore);
        scalar(case, "accuracy", report.accuracy);
        scalar(case, "f1_macro", report.macro_avg.fscore);
        scalar(case, "precision_weighted", report.weighted_avg.precision);
    }
}

#[test]
fn probabilistic_losses_match_sklearn() {
    let g = golden();
    let c = g.case("prob_multiclass");
    let (y, proba, w) = (c.labels("y_true"), c.matrix("proba"), c.vector("weights"));
    let dec = c.matrix("decision");
    scalar(c, "log_loss", log_loss(&y, &proba, None).expect("valid"));
    scalar(
        c,
        "log_loss_weighted",
        log_loss(&y, &proba, Some(&w)).expect("valid"),
    );
    scalar(
        c,
        "brier",
        brier_score_loss_multiclass(&y, &proba, None).expect("valid"),
    );
    scalar(
        c,
        "brier_weighted",
        brier_score_loss_multiclass(&y, &proba, Some(&w)).expect("valid"),
    );
    scalar(
        c,
        "hinge",
        hinge_loss_multiclass(&y, &dec, None).expect("valid"),
    );
    scalar(
        c,
        "hinge_weighted",
        hinge_loss_multiclass(&y, &dec, Some(&w)).expect("valid"),
    );
    // f32 input: row 0 has probability 0 on its true class and costs −ln ε of f32 instead of
    // f64; every other row agrees to f32 rounding.
    let l32 = log_loss(&y, &proba.mapv(|v| v as f32), None).expect("valid");
    let shift = (f64::EPSILON.ln() - f64::from(f32::EPSILON).ln()) / y.len() as f64;
    assert!((l32 - (c.scalar("log_loss") + shift)).abs() < 1e-6, "{l32}");

    let c = g.case("prob_binary");
    let (y, p1, dec, w) = (
        c.labels("y_true"),
        c.vector("p1"),
        c.vector("decision"),
        c.vector("weights"),
    );
    scalar(
        c,
        "log_loss",
        log_loss_binary(&y, &p1, None).expect("valid"),
    );
    scalar(
        c,
        "log_loss_weighted",
        log_loss_binary(&y, &p1, Some(&w)).expect("valid"),
    );
    let both = Array2::from_shape_fn(
        (p1.len(), 2),
        |(i, j)| if j == 1 { p1[i] } else { 1.0 - p1[i] },
    );
    scalar(
        c,
        "log_loss_2col",
        log_loss(&y, &both, None).expect("valid"),
    );
    scalar(c, "brier", brier_score_loss(&y, &p1, None).expect("valid"));
    scalar(
        c,
        "brier_weighted",
        brier_score_loss(&y, &p1, Some(&w)).expect("valid"),
    );
    scalar(
        c,
        "brier_2col",
        brier_score_loss_multiclass(&y, &both, None).expect("valid"),
    );
    scalar(c, "hinge", hinge_loss(&y, &dec, None).expect("valid"));
    scalar(
        c,
        "hinge_weighted",
        hinge_loss(&y, &dec, Some(&w)).expect("valid"),
    );
}

#[test]
fn curves_and_ranking_scores_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("rank_");
    assert_eq!(cases.len(), 4);
    for case in cases {
        let (y, s) = (case.labels("y_true"), case.vector("y_score"));
        let w = weights(case);
        let w = w.as_deref();
        for (tag, drop) in [("drop", true), ("full", false)] {
            let roc = roc_curve(&y, &s, w, drop).expect("valid");
            vector(case, &format!("roc_{tag}_fpr"), &roc.fpr);
            vector(case, &format!("roc_{tag}_tpr"), &roc.tpr);
            assert_eq!(roc.thresholds[0], f64::INFINITY);
            let rest = roc.thresholds.slice(ndarray::s![1..]).to_owned();
            vector(case, &format!("roc_{tag}_thr_rest"), &rest);
            let pr = precision_recall_curve(&y, &s, w, drop).expect("valid");
            vector(case, &format!("pr_{tag}_precision"), &pr.precision);
            vector(case, &format!("pr_{tag}_recall"), &pr.recall);
            vector(case, &format!("pr_{tag}_thr"), &pr.thresholds);
            let det = det_curve(&y, &s, w, drop).expect("valid");
            vector(case, &format!("det_{tag}_fpr"), &det.fpr);
            vector(case, &format!("det_{tag}_fnr"), &det.fnr);
            let thr = det
                .thresholds
                .mapv(|t| if t.is_infinite() { 1e300 } else { t });
            vector(case, &format!("det_{tag}_thr"), &thr);
        }
        scalar(case, "roc_auc", roc_auc_score(&y, &s, w).expect("valid"));
        scalar(
            case,
            "average_precision",
            average_precision_score(&y, &s, w).expect("valid"),
        );
        let t = confusion_matrix_at_thresholds(&y, &s, w).expect("valid");
        vector(case, "cmt_tns", &t.tns);
        vector(case, "cmt_fps", &t.fps);
        vector(case, "cmt_fns", &t.fns);
        vector(case, "cmt_tps", &t.tps);
        vector(case, "cmt_thr", &t.thresholds);
        // f32 scores give the same curve counts when the values are representable ties.
        let a32 = roc_auc_score(
            &y,
            &s.mapv(|v| v as f32),
            w.map(|w| w.mapv(|v| v as f32)).as_deref(),
        )
        .expect("valid");
        assert!(
            (a32 - case.scalar("roc_auc")).abs() < 1e-6,
            "{} f32 {a32}",
            case.name()
        );
    }

    let c = g.case("ovr_multiclass");
    let (y, proba, w) = (c.labels("y_true"), c.matrix("proba"), c.vector("weights"));
    for tag in ["macro", "weighted", "micro"] {
        let avg = average(tag);
        scalar(
            c,
            &format!("roc_auc_{tag}"),
            roc_auc_score_ovr(&y, &proba, avg, None).expect("valid"),
        );
        scalar(
            c,
            &format!("roc_auc_{tag}_weighted"),
            roc_auc_score_ovr(&y, &proba, avg, Some(&w)).expect("valid"),
        );
        scalar(
            c,
            &format!("ap_{tag}"),
            average_precision_score_ovr(&y, &proba, avg, None).expect("valid"),
        );
        scalar(
            c,
            &format!("ap_{tag}_weighted"),
            average_precision_score_ovr(&y, &proba, avg, Some(&w)).expect("valid"),
        );
    }
    let per = c.vector("roc_auc_per_class");
    for (k, &want) in per.iter().enumerate() {
        let got =
            roc_auc_score_ovr(&y, &proba, Average::Binary { pos_label: k }, None).expect("valid");
        assert_close_scalar(got, want, RTOL, ATOL, "ovr per class");
    }

    for name in ["auc_increasing", "auc_decreasing"] {
        let c = g.case(name);
        scalar(
            c,
            "auc",
            auc(&c.vector("x"), &c.vector("y")).expect("valid"),
        );
    }
}

#[test]
fn regression_matches_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("reg_") {
        if case.name() == "reg_multioutput" {
            continue;
        }
        let (t, p) = (case.vector("y_true"), case.vector("y_pred"));
        let w = weights(case);
        let w = w.as_deref();
        scalar(case, "rss", rss(&t, &p, w).expect("valid"));
        scalar(case, "mse", mean_squared_error(&t, &p, w).expect("valid"));
        scalar(
            case,
            "rmse",
            root_mean_squared_error(&t, &p, w).expect("valid"),
        );
        scalar(case, "mae", mean_absolute_error(&t, &p, w).expect("valid"));
        scalar(
            case,
            "medae",
            median_absolute_error(&t, &p, w).expect("valid"),
        );
        scalar(
            case,
            "mape",
            mean_absolute_percentage_error(&t, &p, w).expect("valid"),
        );
        scalar(case, "r2", r2_score(&t, &p, w).expect("valid"));
        scalar(
            case,
            "ev",
            explained_variance_score(&t, &p, w).expect("valid"),
        );
        if case.has("max_error") {
            scalar(case, "max_error", max_error(&t, &p).expect("valid"));
        }
    }
    let c = g.case("reg_multioutput");
    let (t, p, w, ow) = (
        c.matrix("y_true"),
        c.matrix("y_pred"),
        c.vector("weights"),
        c.vector("output_weights"),
    );
    let metrics = [
        ("mse", RegressionMetric::MeanSquaredError),
        ("rmse", RegressionMetric::RootMeanSquaredError),
        ("mae", RegressionMetric::MeanAbsoluteError),
        ("medae", RegressionMetric::MedianAbsoluteError),
        ("mape", RegressionMetric::MeanAbsolutePercentageError),
        ("r2", RegressionMetric::R2),
        ("ev", RegressionMetric::ExplainedVariance),
    ];
    for (name, m) in metrics {
        for (tag, sw) in [("", None), ("_sw", Some(&*w))] {
            let raw = regression_raw_values(m, &t, &p, sw).expect("valid");
            vector(c, &format!("{name}{tag}_raw"), &raw);
            let uni =
                regression_multioutput(m, &t, &p, sw, &MultiOutput::UniformAverage).expect("valid");
            scalar(c, &format!("{name}{tag}_uniform"), uni);
            let cus = regression_multioutput(m, &t, &p, sw, &MultiOutput::Weights(ow.to_vec()))
                .expect("valid");
            scalar(c, &format!("{name}{tag}_custom"), cus);
            let field = format!("{name}{tag}_varw");
            if c.has(&field) {
                let v = regression_multioutput(m, &t, &p, sw, &MultiOutput::VarianceWeighted)
                    .expect("valid");
                scalar(c, &field, v);
            }
        }
    }
}

#[test]
fn clustering_comparisons_match_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("clu_");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let (a, b) = (case.labels("labels_true"), case.labels("labels_pred"));
        let cont = contingency_matrix(&a, &b)
            .expect("valid")
            .mapv(|v| v as f64);
        assert_close(&cont, &case.matrix("contingency"), 0.0, 0.0, case.name());
        let pc = pair_confusion_matrix(&a, &b).expect("valid");
        assert_close(&pc, &case.matrix("pair_confusion"), 0.0, 0.0, case.name());
        scalar(case, "rand", rand_score(&a, &b).expect("valid"));
        scalar(case, "ari", adjusted_rand_score(&a, &b).expect("valid"));
        scalar(case, "mi", mutual_info_score(&a, &b).expect("valid"));
        scalar(case, "fmi", fowlkes_mallows_score(&a, &b).expect("valid"));
        scalar(case, "entropy_true", entropy(&a).expect("valid"));
        for (tag, m) in [
            ("min", AverageMethod::Min),
            ("geometric", AverageMethod::Geometric),
            ("arithmetic", AverageMethod::Arithmetic),
            ("max", AverageMethod::Max),
        ] {
            scalar(
                case,
                &format!("nmi_{tag}"),
                normalized_mutual_info_score(&a, &b, m).expect("valid"),
            );
            let ami = adjusted_mutual_info_score(&a, &b, m).expect("valid");
            let field = format!("ami_{tag}");
            assert_close_scalar(
                ami,
                case.scalar(&field),
                1e-11,
                1e-14,
                &format!("{} {field}", case.name()),
            );
        }
        let v = homogeneity_completeness_v_measure(&a, &b, 1.0).expect("valid");
        scalar(case, "homogeneity", v.homogeneity);
        scalar(case, "completeness", v.completeness);
        scalar(case, "v_measure", v.v_measure);
        scalar(
            case,
            "homogeneity",
            homogeneity_score(&a, &b).expect("valid"),
        );
        scalar(
            case,
            "completeness",
            completeness_score(&a, &b).expect("valid"),
        );
        scalar(
            case,
            "v_measure_beta05",
            v_measure_score(&a, &b, 0.5).expect("valid"),
        );
    }
}

#[test]
fn cluster_validity_matches_sklearn() {
    const SIL: f64 = 1e-11;
    let g = golden();
    let cases = g.cases_with_prefix("sil_");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let name = case.name();
        let (x, labels) = (case.matrix("x"), case.labels("labels"));
        let s = silhouette_samples(&x, &labels, &Metric::Euclidean).expect("valid");
        assert_close(&s, &case.vector("silhouette_samples"), SIL, 1e-13, name);
        let score = silhouette_score(&x, &labels, &Metric::Euclidean).expect("valid");
        assert_close_scalar(score, case.scalar("silhouette"), SIL, 1e-13, name);
        let db = davies_bouldin_score(&x, &labels).expect("valid");
        assert_close_scalar(db, case.scalar("davies_bouldin"), SIL, 1e-13, name);
        scalar(
            case,
            "calinski_harabasz",
            calinski_harabasz_score(&x, &labels).expect("valid"),
        );
        for (tag, metric) in [
            ("manhattan", Metric::Manhattan),
            ("chebyshev", Metric::Chebyshev),
            ("cosine", Metric::Cosine),
        ] {
            let field = format!("silhouette_samples_{tag}");
            if case.has(&field) {
                let s = silhouette_samples(&x, &labels, &metric).expect("valid");
                assert_close(&s, &case.vector(&field), SIL, 1e-13, &field);
            }
        }
        if case.has("precomputed_manhattan_silhouette_samples") {
            let d = ndlearn_core::distance::pairwise_distances(&x, &x, &Metric::Manhattan)
                .expect("valid");
            let s = silhouette_samples_precomputed(&d, &labels).expect("valid");
            assert_close(
                &s,
                &case.vector("precomputed_manhattan_silhouette_samples"),
                SIL,
                1e-13,
                name,
            );
        }
        if case.has("inertia") {
            let (centers, w) = (case.matrix("centers"), case.vector("weights"));
            scalar(
                case,
                "inertia",
                inertia(&x, &labels, &centers, None).expect("valid"),
            );
            scalar(
                case,
                "inertia_weighted",
                inertia(&x, &labels, &centers, Some(&w)).expect("valid"),
            );
        }
        // f32 data: close to the f64 silhouette.
        let s32 =
            silhouette_score(&x.mapv(|v| v as f32), &labels, &Metric::Euclidean).expect("valid");
        assert!(
            (s32 - case.scalar("silhouette")).abs() < 1e-5,
            "{name} f32 {s32}"
        );
    }
}

#[test]
fn trustworthiness_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("emb_");
    assert_eq!(cases.len(), 2);
    for case in cases {
        let (x, e) = (case.matrix("x"), case.matrix("x_embedded"));
        for k in [1, 5, 12] {
            let t = trustworthiness(&x, &e, k, &Metric::Euclidean).expect("valid");
            scalar(case, &format!("trust_k{k}"), t);
        }
        let t = trustworthiness(&x, &e, 5, &Metric::Manhattan).expect("valid");
        scalar(case, "trust_k5_manhattan", t);
    }
}
