//! The conformance battery over a registry entry ([`Battery::entry`]): every check of the typed
//! battery through the entry's dynamic estimator, in f64 or f32, plus the checks of the
//! estimator contract that only the registry can see (capabilities declared by the entry).
//!
//! | check | requirement |
//! |---|---|
//! | [`Check::ValidatesFirst`] | a hyperparameter that `validate()` rejects makes `fit` return `InvalidParam` (on good data and on data with NaN: hyperparameters are checked before the data); a value `validate()` accepts is not rejected by `fit` as `InvalidParam` naming that parameter |
//! | [`Check::Probabilities`] | (`predict_proba`) rows in `[0, 1]` summing to 1, and their argmax is `predict`'s class |
//! | [`Check::DecisionScores`] | (`decision_function`) `n × 1` for two classes (its sign gives `predict`), `n × K` otherwise (its argmax gives `predict`); for outlier detectors the sign gives `±1` |
//! | [`Check::SampleWeights`] | (sample weights, not stochastic) integer weights give the model of repeated rows; unit weights the unweighted model |
//! | [`Check::PartialFit`] | (`partial_fit`) one call over all rows equals `fit` when declared exact, otherwise gives finite predictions |
//! | [`Check::FeatureImportances`] | (feature importances) one per feature, finite, non-negative |
//! | [`Check::Reproducible`] | two fits give identical model files |
//!
//! Declared missing-value support turns the NaN check around: NaN in the features must then
//! be accepted with finite outputs (infinity is still an error).

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::Error;
use ndlearn_core::registry::{
    self, Data as RData, DynEstimator, DynModel, Entry, Output as ROutput, PartialFitKind,
    Precision, Target as RTarget,
};
use serde_json::Value;

use super::{
    Battery, Check, CheckResult, Ctx, Data, Kind, Output, Report, Status, Subject, expect_err,
    fit_benign, run_check, show_err,
};

/// A registry entry with its default hyperparameters, in one precision.
pub(super) struct RegistrySubject<'a> {
    entry: &'a Entry,
    est: Box<dyn DynEstimator>,
    precision: Precision,
}

fn kind_of(k: registry::Kind) -> Kind {
    match k {
        registry::Kind::Classifier => Kind::Classifier,
        registry::Kind::Regressor => Kind::Regressor,
        registry::Kind::Clusterer => Kind::Clusterer,
        registry::Kind::Transformer => Kind::Transformer,
        registry::Kind::OutlierDetector => Kind::OutlierDetector,
    }
}

impl RegistrySubject<'_> {
    fn data(&self, x: &ArrayRef2<f64>) -> RData {
        match self.precision {
            Precision::F64 => RData::F64(x.to_owned()),
            Precision::F32 => RData::F32(x.mapv(|v| v as f32)),
        }
    }

    fn target(y: &super::Target) -> RTarget {
        match y {
            super::Target::None => RTarget::None,
            super::Target::Real(v) => RTarget::Values(v.clone()),
            super::Target::Labels(l) => RTarget::Labels(l.clone()),
        }
    }

    /// Relative tolerance of comparisons in this precision.
    fn rtol(&self) -> f64 {
        match self.precision {
            Precision::F64 => 1e-9,
            Precision::F32 => 1e-4,
        }
    }
}

fn convert(out: ROutput) -> Output {
    match out {
        ROutput::Labels(l) => Output::Labels(l),
        ROutput::Values(v) => Output::Real(v),
        ROutput::Matrix(m) => Output::Matrix(m),
        ROutput::Signed(v) => Output::Signed(v),
        ROutput::Indicators(m) => Output::Matrix(m.mapv(|b| f64::from(u8::from(b)))),
        other => Output::Matrix(Array2::from_elem((other.len(), 0), 0.0)),
    }
}

impl Subject for RegistrySubject<'_> {
    type Model = Box<dyn DynModel>;
    fn kind(&self) -> Kind {
        kind_of(self.entry.kind())
    }
    fn fit(
        &self,
        x: &ArrayRef2<f64>,
        y: &super::Target,
    ) -> ndlearn_core::Result<Box<dyn DynModel>> {
        self.est.fit(&self.data(x), &Self::target(y))
    }
    fn apply(&self, model: &Box<dyn DynModel>, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output> {
        model.predict(&self.data(x)).map(convert)
    }
    fn to_json(&self, model: &Box<dyn DynModel>) -> Result<String, String> {
        model
            .to_json()
            .map_err(|e| e.to_string())
            .and_then(|v| serde_json::to_string(&v).map_err(|e| e.to_string()))
    }
    fn load_json(&self, text: &str) -> Result<Box<dyn DynModel>, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        self.entry
            .load(self.precision, v)
            .map_err(|e| e.to_string())
    }
    fn allows_nan(&self) -> bool {
        self.entry.capabilities().missing_values
    }
    fn refuses_unseen(&self) -> bool {
        self.entry.capabilities().refuses_unseen
    }
    fn prepare(&self, mut data: Data) -> Data {
        let caps = self.entry.capabilities();
        if caps.categorical_input {
            data.x.mapv_inplace(|v| (v.abs() * 1.5).round() % 5.0);
        } else if caps.non_negative_input {
            data.x.mapv_inplace(f64::abs);
        }
        data
    }
}

impl Battery {
    /// Runs the battery on a registry entry with its default hyperparameters, fitting in
    /// `precision`: every check of the typed battery (through the dynamic estimator) plus the
    /// registry checks of [the module docs](self). Thread invariance compares 1, 2 and 3
    /// threads unless [`Battery::threads`] set other counts.
    ///
    /// # Panics
    /// If the entry's defaults do not build (a registration bug).
    pub fn entry(&self, entry: &Entry, precision: Precision) -> Report {
        let est = entry.build(&[]).unwrap_or_else(|e| {
            panic!(
                "{}: the default hyperparameters do not build: {e}",
                entry.name()
            )
        });
        let subject = RegistrySubject {
            entry,
            est,
            precision,
        };
        let kind = subject.kind();
        let data = subject.prepare(Data::benign(kind, false));
        let threads = if self.threads == [1, 2] {
            vec![1, 2, 3]
        } else {
            self.threads.clone()
        };
        let mut results = Vec::with_capacity(Check::ALL.len());
        for check in Check::ALL {
            if self.skipped.contains(&check) {
                results.push(CheckResult {
                    check,
                    status: Status::Skipped,
                    messages: vec!["skipped by the caller".into()],
                });
                continue;
            }
            let mut ctx = Ctx::default();
            let applies = if check.is_registry_only() {
                registry_check(check, &subject, &data, &mut ctx)
            } else if check.applies_to(kind) {
                run_check(check, &subject, &data, &threads, &mut ctx);
                true
            } else {
                false
            };
            if applies {
                results.push(ctx.finish(check));
            } else {
                results.push(CheckResult {
                    check,
                    status: Status::Skipped,
                    messages: vec![format!("not applicable to {}", entry.name())],
                });
            }
        }
        Report {
            name: format!("{} ({:?})", entry.name(), precision),
            kind: kind.name(),
            results,
        }
    }
}

/// The first failing position of two outputs compared with a tolerance (labels exactly).
fn close(a: &Output, b: &Output, rtol: f64) -> Option<String> {
    let cmp = |x: &[f64], y: &[f64]| -> Option<String> {
        if x.len() != y.len() {
            return Some(format!("{} vs {} values", x.len(), y.len()));
        }
        let scale = y.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        x.iter()
            .zip(y)
            .position(|(p, q)| (p - q).abs() > rtol * scale)
            .map(|i| format!("entry {i}: {} vs {}", x[i], y[i]))
    };
    match (a, b) {
        (Output::Real(x), Output::Real(y)) => cmp(&x.to_vec(), &y.to_vec()),
        (Output::Matrix(x), Output::Matrix(y)) => {
            if x.dim() != y.dim() {
                return Some(format!("shapes {:?} vs {:?}", x.dim(), y.dim()));
            }
            cmp(
                &x.iter().copied().collect::<Vec<_>>(),
                &y.iter().copied().collect::<Vec<_>>(),
            )
        }
        _ => a.bitwise_diff(b),
    }
}

/// Candidate invalid values for a hyperparameter of the given default.
fn bad_values(default: &Value) -> Vec<Value> {
    match default {
        Value::Number(n) if n.is_u64() || n.is_i64() => vec![Value::from(0)],
        Value::Number(_) => vec![Value::from(-1.0), Value::from(0.0), Value::from(-1e300)],
        _ => Vec::new(),
    }
}

/// Runs one registry-only check; `false` when it does not apply to the entry.
fn registry_check(check: Check, s: &RegistrySubject<'_>, data: &Data, ctx: &mut Ctx) -> bool {
    let caps = s.entry.capabilities();
    let rtol = s.rtol();
    match check {
        Check::ValidatesFirst => {
            let Ok(params) = s.entry.params() else {
                return false;
            };
            let defaults = s.entry.defaults().unwrap_or(Value::Null);
            let nan_x = {
                let mut x = data.x.clone();
                x[[3, 0]] = f64::NAN;
                x
            };
            for p in params {
                for bad in bad_values(&p.default) {
                    let mut json = defaults.clone();
                    if let Some(o) = json.as_object_mut() {
                        o.insert(p.name.clone(), bad.clone());
                    }
                    let Ok(est) = s.entry.build_json_unchecked(json) else {
                        continue;
                    };
                    let label = format!("{} = {bad}", p.name);
                    ctx.step(&label, || match est.validate() {
                        Err(Error::InvalidParam { .. }) => {
                            for (what, x) in [("good data", &data.x), ("data with NaN", &nan_x)] {
                                match est.fit(&s.data(x), &RegistrySubject::target(&data.y)) {
                                    Err(Error::InvalidParam { .. }) => {}
                                    Err(e) => {
                                        return Err(format!(
                                            "validate() rejects it, but fit on {what} returned {} first",
                                            show_err(&e)
                                        ));
                                    }
                                    Ok(_) => {
                                        return Err(format!(
                                            "validate() rejects it, but fit on {what} succeeded"
                                        ));
                                    }
                                }
                            }
                            Ok(None)
                        }
                        Err(e) => Err(format!("validate() returned {}", show_err(&e))),
                        Ok(()) => match est.fit(&s.data(&data.x), &RegistrySubject::target(&data.y)) {
                            Err(Error::InvalidParam { name, reason }) if name == p.name => Err(format!(
                                "validate() accepts it, but fit rejects it: {reason} (check it in validate)"
                            )),
                            _ => Ok(None),
                        },
                    });
                }
            }
            true
        }
        Check::Probabilities => {
            if !caps.predict_proba {
                return false;
            }
            ctx.step("probabilities are distributions with predict's argmax", || {
                let model = fit_benign(s, data)?;
                let xd = s.data(&data.x);
                let p = model
                    .predict_proba(&xd)
                    .ok_or("the entry declares predict_proba but the model has none")?
                    .map_err(|e| format!("predict_proba failed: {}", show_err(&e)))?;
                let pred = match model.predict(&xd).map_err(|e| show_err(&e))? {
                    ROutput::Labels(l) => l,
                    other => return Err(format!("predict returned {other:?}, not labels")),
                };
                let tol = if s.precision == Precision::F32 { 1e-5 } else { 1e-12 };
                for (i, row) in p.rows().into_iter().enumerate() {
                    if let Some(v) = row.iter().find(|v| !(**v >= -tol && **v <= 1.0 + tol)) {
                        return Err(format!("row {i} has probability {v}"));
                    }
                    let sum: f64 = row.sum();
                    if (sum - 1.0).abs() > tol * row.len() as f64 * 10.0 {
                        return Err(format!("row {i} sums to {sum}"));
                    }
                    let best = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
                    if row[pred[i]] < best - 1e3 * tol.max(1e-9) {
                        return Err(format!(
                            "row {i}: predict says {} (p = {}) but the largest probability is {best}",
                            pred[i], row[pred[i]]
                        ));
                    }
                }
                Ok(None)
            });
            true
        }
        Check::DecisionScores => {
            if !caps.decision_function {
                return false;
            }
            let binary = if s.entry.kind() == registry::Kind::Classifier {
                let keep: Vec<usize> = match &data.y {
                    super::Target::Labels(l) => (0..l.len()).filter(|&i| l[i] < 2).collect(),
                    _ => Vec::new(),
                };
                Some(data.rows(&keep))
            } else {
                None
            };
            let mut cases = vec![("the benign data", data.clone())];
            if let Some(b) = binary {
                cases.push(("two classes", b));
            }
            for (what, d) in cases {
                ctx.step(
                    &format!("decision scores agree with predict on {what}"),
                    || {
                        let model = fit_benign(s, &d)?;
                        let xd = s.data(&d.x);
                        let z = model
                            .decision_function(&xd)
                            .ok_or("the entry declares decision_function but the model has none")?
                            .map_err(|e| format!("decision_function failed: {}", show_err(&e)))?;
                        if z.nrows() != d.x.nrows() {
                            return Err(format!(
                                "{} rows of scores for {} rows",
                                z.nrows(),
                                d.x.nrows()
                            ));
                        }
                        let out = model.predict(&xd).map_err(|e| show_err(&e))?;
                        let scale = z.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                        let margin = 1e-6 * scale;
                        match out {
                            ROutput::Labels(pred) => {
                                let k = pred.iter().copied().max().unwrap_or(0) + 1;
                                if z.ncols() == 1 {
                                    for (i, &v) in z.column(0).iter().enumerate() {
                                        let want = usize::from(v > 0.0);
                                        if v.abs() > margin && pred[i] != want {
                                            return Err(format!(
                                                "row {i}: score {v} but class {}",
                                                pred[i]
                                            ));
                                        }
                                    }
                                } else {
                                    if z.ncols() < k {
                                        return Err(format!(
                                            "{} score columns for {k} classes",
                                            z.ncols()
                                        ));
                                    }
                                    for (i, row) in z.rows().into_iter().enumerate() {
                                        let best =
                                            row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
                                        let second = row
                                            .iter()
                                            .filter(|&&v| v < best)
                                            .fold(f64::NEG_INFINITY, |m, &v| m.max(v));
                                        if best - second > margin && row[pred[i]] < best {
                                            return Err(format!(
                                                "row {i}: class {} scores {} below the best {best}",
                                                pred[i], row[pred[i]]
                                            ));
                                        }
                                    }
                                }
                            }
                            ROutput::Signed(pred) => {
                                for (i, &v) in z.column(0).iter().enumerate() {
                                    let want = if v >= 0.0 { 1 } else { -1 };
                                    if v.abs() > margin && pred[i] != want {
                                        return Err(format!(
                                            "row {i}: decision {v} but label {}",
                                            pred[i]
                                        ));
                                    }
                                }
                            }
                            other => return Err(format!("predict returned {other:?}")),
                        }
                        Ok(None)
                    },
                );
            }
            true
        }
        Check::SampleWeights => {
            if !caps.sample_weight {
                return false;
            }
            let n = data.x.nrows();
            let w: Array1<f64> = (0..n).map(|i| (1 + i % 3) as f64).collect();
            let rows: Vec<usize> = (0..n)
                .flat_map(|i| std::iter::repeat_n(i, 1 + i % 3))
                .collect();
            let y = RegistrySubject::target(&data.y);
            ctx.step("unit weights give the unweighted model", || {
                let a = s.est.fit(&s.data(&data.x), &y).map_err(|e| show_err(&e))?;
                let b = s
                    .est
                    .fit_weighted(&s.data(&data.x), &y, Some(&Array1::ones(n)))
                    .map_err(|e| show_err(&e))?;
                let pa = convert(a.predict(&s.data(&data.x)).map_err(|e| show_err(&e))?);
                let pb = convert(b.predict(&s.data(&data.x)).map_err(|e| show_err(&e))?);
                close(&pb, &pa, rtol).map_or(Ok(None), |d| Err(format!("predictions differ: {d}")))
            });
            if caps.stochastic || caps.weights_not_repetition {
                ctx.step("integer weights vs repeated rows", || {
                    Ok(Some(if caps.stochastic {
                        "stochastic fit: not compared".into()
                    } else {
                        "weights scale per-sample bounds, defaults count rows: not compared".into()
                    }))
                });
            } else {
                ctx.step("integer weights equal repeated rows", || {
                    let dup = data.rows(&rows);
                    let a = s
                        .est
                        .fit_weighted(&s.data(&data.x), &y, Some(&w))
                        .map_err(|e| format!("weighted fit: {}", show_err(&e)))?;
                    let b = s
                        .est
                        .fit(&s.data(&dup.x), &RegistrySubject::target(&dup.y))
                        .map_err(|e| format!("fit on repeated rows: {}", show_err(&e)))?;
                    let pa = convert(a.predict(&s.data(&data.x)).map_err(|e| show_err(&e))?);
                    let pb = convert(b.predict(&s.data(&data.x)).map_err(|e| show_err(&e))?);
                    close(&pa, &pb, rtol.max(1e-6))
                        .map_or(Ok(None), |d| Err(format!("predictions differ: {d}")))
                });
            }
            true
        }
        Check::PartialFit => {
            let Some(how) = caps.partial_fit else {
                return false;
            };
            ctx.step("partial_fit over all rows", || {
                let xd = s.data(&data.x);
                let y = RegistrySubject::target(&data.y);
                let p = s
                    .est
                    .partial_fit(None, &xd, &y)
                    .map_err(|e| format!("partial_fit failed: {}", show_err(&e)))?;
                let pp = super::check_output(s, &p, &data.x, "the data")?;
                if how == PartialFitKind::Exact && !caps.stochastic {
                    let f = fit_benign(s, data)?;
                    let pf = super::check_output(s, &f, &data.x, "the data")?;
                    if let Some(d) = close(&pp, &pf, rtol.max(1e-7)) {
                        return Err(format!("one partial_fit differs from fit: {d}"));
                    }
                }
                Ok(None)
            });
            true
        }
        Check::FeatureImportances => {
            if !caps.feature_importances {
                return false;
            }
            ctx.step("one finite, non-negative importance per feature", || {
                let model = fit_benign(s, data)?;
                let imp = model
                    .feature_importances()
                    .ok_or("the entry declares feature importances but the model has none")?;
                if imp.len() != data.x.ncols() {
                    return Err(format!(
                        "{} importances for {} features",
                        imp.len(),
                        data.x.ncols()
                    ));
                }
                if let Some((j, v)) = imp
                    .iter()
                    .enumerate()
                    .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
                {
                    return Err(format!("importance {j} is {v}"));
                }
                Ok(None)
            });
            true
        }
        Check::Reproducible => {
            ctx.step("two fits give the same model file", || {
                let run = || -> Result<String, String> {
                    let m = fit_benign(s, data)?;
                    s.to_json(&m)
                };
                let (a, b) = (run()?, run()?);
                if a != b {
                    return Err(format!(
                        "model files differ: {}",
                        super::first_text_difference(&a, &b)
                    ));
                }
                Ok(None)
            });
            true
        }
        _ => false,
    }
}

/// Runs the NaN check of an entry that declares missing values: NaN is accepted at fit and at
/// predict with finite outputs; infinity is still an error.
pub(super) fn missing_values_check<S: Subject>(s: &S, data: &Data, ctx: &mut Ctx) {
    let (_, d) = data.x.dim();
    ctx.step("NaN in X at fit (declared missing values)", || {
        let mut x = data.x.clone();
        x[[5, 1]] = f64::NAN;
        let model = s.fit(&x, &data.y).map_err(|e| {
            format!(
                "fit with NaN (declared missing values) failed: {}",
                show_err(&e)
            )
        })?;
        super::check_output(s, &model, &x, "the data with NaN")?;
        Ok(None)
    });
    ctx.step("NaN in X at predict (declared missing values)", || {
        let model = fit_benign(s, data)?;
        let mut x = data.x.clone();
        x[[2, d - 1]] = f64::NAN;
        super::check_output(s, &model, &x, "the data with NaN")?;
        Ok(None)
    });
    ctx.step("infinity in X at fit", || {
        let mut x = data.x.clone();
        x[[5, 1]] = f64::INFINITY;
        expect_err(s.fit(&x, &data.y), &["NonFinite"])
    });
}
