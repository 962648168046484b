use super::*;
use crate::traits::{Estimator, FitWeighted};
use ndarray::{ArrayRef1, array};

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Mode {
    #[default]
    Mean,
    Median,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Shape {
    Flat,
    Bump {
        #[serde(default = "one")]
        width: f64,
        height: f64,
    },
}

fn one() -> f64 {
    1.0
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Centre {
    shift: f64,
    rounds: usize,
    mode: Mode,
    scale: bool,
    cap: Option<f64>,
    #[serde(rename = "C", alias = "c")]
    c: f64,
    #[serde(rename = "random_state", alias = "seed")]
    seed: u64,
    shape: Shape,
}
impl Default for Centre {
    fn default() -> Self {
        Self {
            shift: 0.0,
            rounds: 1,
            mode: Mode::Mean,
            scale: false,
            cap: None,
            c: 1.0,
            seed: 0,
            shape: Shape::Flat,
        }
    }
}
impl Estimator for Centre {
    fn validate(&self) -> Result<()> {
        crate::validate::check_positive("C", self.c)?;
        crate::validate::check_at_least("rounds", self.rounds, 1)
    }
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct FittedCentre<F> {
    centre: Vec<F>,
    n_features: usize,
    shift: f64,
}
impl<F: Float> CheckModel for FittedCentre<F> {
    fn check_model(&self) -> Result<()> {
        let c = crate::validate::ModelCheck::new("FittedCentre");
        c.len("centre", self.centre.len(), self.n_features)?;
        c.finite_slice("centre", &self.centre)?;
        c.finite_value("shift", self.shift)
    }
}
impl<F> NFeaturesIn for FittedCentre<F> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> FitUnsupervised<F> for Centre {
    type Model = FittedCentre<F>;
    fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedCentre<F>> {
        self.validate()?;
        crate::validate::check_fit_input(x, 1, "Centre::fit")?;
        let c = x.mean_axis(ndarray::Axis(0)).ok_or(Error::TooFewSamples {
            context: "Centre::fit",
            needed: 1,
            found: 0,
        })?;
        Ok(FittedCentre {
            centre: c.to_vec(),
            n_features: x.ncols(),
            shift: self.shift,
        })
    }
}
impl<F: Float> Transform<F> for FittedCentre<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::validate::check_predict_input(x, self.n_features, "Centre::transform")?;
        let mut z = x.to_owned();
        for mut r in z.rows_mut() {
            for (v, c) in r.iter_mut().zip(&self.centre) {
                *v = *v - *c + F::cast(self.shift);
            }
        }
        Ok(z)
    }
}
impl<F: Float> InverseTransform<F> for FittedCentre<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        let mut x = z.to_owned();
        for mut r in x.rows_mut() {
            for (v, c) in r.iter_mut().zip(&self.centre) {
                *v = *v + *c - F::cast(self.shift);
            }
        }
        Ok(x)
    }
}

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Majority;
impl Estimator for Majority {
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct FittedMajority {
    label: usize,
    n_classes: usize,
    n_features: usize,
    counts: Vec<f64>,
}
impl CheckModel for FittedMajority {
    fn check_model(&self) -> Result<()> {
        let c = crate::validate::ModelCheck::new("FittedMajority");
        c.len("counts", self.counts.len(), self.n_classes)?;
        c.indices_below("label", &[self.label], self.n_classes)
    }
}
impl NFeaturesIn for FittedMajority {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}
impl<F: Float> Fit<F> for Majority {
    type Target = ArrayRef1<usize>;
    type Model = FittedMajority;
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedMajority> {
        self.fit_weighted(x, y, None)
    }
}
impl<F: Float> FitWeighted<F> for Majority {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        w: Option<&ArrayRef1<F>>,
    ) -> Result<FittedMajority> {
        crate::validate::check_fit_input(x, 1, "Majority::fit")?;
        let k = y.iter().copied().max().map_or(0, |m| m + 1);
        let mut counts = vec![0.0; k];
        for (i, &l) in y.iter().enumerate() {
            counts[l] += w.map_or(1.0, |w| w[i].to_f64_lossless());
        }
        let label = crate::numeric::argmax(counts.iter().copied());
        Ok(FittedMajority {
            label,
            n_classes: k,
            n_features: x.ncols(),
            counts,
        })
    }
}
impl<F: Float> Predict<F> for FittedMajority {
    type Output = Array1<usize>;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        crate::validate::check_predict_input(x, self.n_features, "Majority::predict")?;
        Ok(Array1::from_elem(x.nrows(), self.label))
    }
}
impl<F: Float> PredictProba<F> for FittedMajority {
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let mut p = Array2::zeros((x.nrows(), self.n_classes));
        p.column_mut(self.label).fill(F::one());
        Ok(p)
    }
}
impl<F: Float> PartialFit<F> for Majority {
    type Target = ArrayRef1<usize>;
    type Model = FittedMajority;
    fn partial_fit(
        &self,
        model: Option<FittedMajority>,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
    ) -> Result<FittedMajority> {
        let batch = self.fit_weighted(x, y, None)?;
        Ok(match model {
            None => batch,
            Some(mut m) => {
                let k = m.counts.len().max(batch.counts.len());
                m.counts.resize(k, 0.0);
                for (a, b) in m.counts.iter_mut().zip(&batch.counts) {
                    *a += b;
                }
                m.label = crate::numeric::argmax(m.counts.iter().copied());
                m.n_classes = k;
                m
            }
        })
    }
}

/// A toy outlier detector: score = −|x₀ − mean|, offset = −1.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Distance;
impl Estimator for Distance {
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct FittedDistance {
    mean: f64,
    d: usize,
}
impl CheckModel for FittedDistance {
    fn check_model(&self) -> Result<()> {
        crate::validate::ModelCheck::new("FittedDistance").finite_value("mean", self.mean)
    }
}
impl NFeaturesIn for FittedDistance {
    fn n_features_in(&self) -> usize {
        self.d
    }
}
impl<F: Float> FitUnsupervised<F> for Distance {
    type Model = FittedDistance;
    fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedDistance> {
        crate::validate::check_fit_input(x, 1, "Distance::fit")?;
        let m = x.column(0).iter().map(|v| v.to_f64_lossless()).sum::<f64>() / x.nrows() as f64;
        Ok(FittedDistance {
            mean: m,
            d: x.ncols(),
        })
    }
}
impl<F: Float> Predict<F> for FittedDistance {
    type Output = Array1<i64>;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<i64>> {
        Ok(OutlierDetector::decision_function(self, x)?
            .mapv(|d| if d >= F::zero() { 1 } else { -1 }))
    }
}
impl<F: Float> OutlierDetector<F> for FittedDistance {
    fn score_samples(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        crate::validate::check_predict_input(x, self.d, "Distance::score_samples")?;
        Ok(x.column(0).mapv(|v| -(v - F::cast(self.mean)).abs()))
    }
    fn offset(&self) -> F {
        -F::one()
    }
}

fn centre() -> Entry {
    Entry::invertible_transformer::<Centre>("centre", "subtracts the mean")
        .sklearn("CentreTransformer")
        .param_alias("steps", "rounds")
        .into()
}

#[test]
fn params_types_defaults_choices_and_aliases() {
    let e = centre();
    let p = e.params().expect("params");
    let by = |n: &str| p.iter().find(|q| q.name == n).expect("present").clone();
    assert_eq!(by("shift").ty, ParamType::Float);
    assert_eq!(by("rounds").ty, ParamType::Int);
    assert_eq!(by("rounds").aliases, vec!["steps".to_string()]);
    assert_eq!(by("scale").ty, ParamType::Bool);
    assert_eq!(by("cap").ty, ParamType::Json);
    assert_eq!(by("C").aliases, vec!["c".to_string()]);
    assert_eq!(by("random_state").aliases, vec!["seed".to_string()]);
    let mode = by("mode");
    assert_eq!(mode.ty, ParamType::Choice);
    assert_eq!(mode.choices, vec!["mean".to_string(), "median".to_string()]);
    assert_eq!(
        by("shape").choices,
        vec!["flat".to_string(), "bump".to_string()]
    );
    assert_eq!(p.len(), 8);
    assert!(e.has_inverse() && !e.has_proba());
    assert_eq!(e.aliases(), &["centre_transformer".to_string()]);
    assert_eq!(e.sklearn_class(), Some("CentreTransformer"));
}

#[test]
fn build_by_scikit_learn_names_rust_names_case_and_json() {
    let e = centre();
    let build = |o: &[(&str, &str)]| {
        let o: Vec<(String, String)> = o
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        e.build(&o)
    };
    let est = build(&[
        ("C", "0.5"),
        ("seed", "7"),
        ("steps", "3"),
        ("MODE", "Median"),
    ])
    .expect("aliases and case");
    let p = est.params();
    assert_eq!(p["C"], 0.5);
    assert_eq!(p["random_state"], 7);
    assert_eq!(p["rounds"], 3);
    assert_eq!(p["mode"], "median");
    assert_eq!(build(&[("c", "2")]).expect("rust name").params()["C"], 2.0);
    // JSON for any parameter, and the flat keys of a struct variant.
    let est = build(&[("shape", "bump"), ("height", "2.5")]).expect("flat");
    assert_eq!(
        est.params()["shape"],
        serde_json::json!({"bump": {"width": 1.0, "height": 2.5}})
    );
    let est = build(&[("shape", r#"{"bump": {"width": 3, "height": 1}}"#)]).expect("json");
    assert_eq!(est.params()["shape"]["bump"]["width"], 3.0);
    let est = build(&[("cap", "2")]).expect("cap");
    assert_eq!(est.params()["cap"], 2.0);
    // A struct variant whose required field is missing is an error naming it.
    let msg = match build(&[("shape", "bump")]) {
        Err(Error::InvalidParam { reason, .. }) => reason,
        other => panic!("{:?}", other.map(|e| e.params())),
    };
    assert!(msg.contains("height"), "{msg}");
    // validate() runs at build.
    assert!(matches!(
        build(&[("C", "-1")]),
        Err(Error::InvalidParam { .. })
    ));
}

#[test]
fn bad_overrides_are_typed_errors_listing_valid_values() {
    let e = centre();
    let msg = |o: &[(&str, &str)]| {
        let o: Vec<(String, String)> = o
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        match e.build(&o) {
            Err(Error::InvalidParam { reason, .. }) => reason,
            Err(other) => panic!("wrong error {other}"),
            Ok(_) => panic!("accepted"),
        }
    };
    assert!(msg(&[("alpha", "1")]).contains("valid: shift, rounds, mode, scale, cap, C"));
    assert!(msg(&[("shift", "abc")]).contains("not a number"));
    assert!(msg(&[("rounds", "1.5")]).contains("not an integer"));
    assert!(msg(&[("scale", "maybe")]).contains("boolean"));
    assert!(msg(&[("mode", "mode")]).contains("mean, median"));
    assert!(msg(&[("height", "1")]).contains("no parameter `height`"));
}

#[test]
fn transformer_fit_save_load_roundtrip() {
    let e = centre();
    let est = e
        .build(&[
            ("shift".into(), "1.5".into()),
            ("mode".into(), "median".into()),
            ("cap".into(), "2".into()),
        ])
        .expect("valid overrides");
    let x = array![[1.0, 2.0], [3.0, 6.0]];
    for data in [Data::F64(x.clone()), Data::F32(x.mapv(|v| v as f32))] {
        let m = est.fit(&data, &Target::None).expect("fit");
        let z = m.transform(&data).expect("has transform").expect("ok");
        assert_eq!(z, array![[0.5, -0.5], [2.5, 3.5]]);
        let back = m
            .inverse_transform(&Data::F64(z))
            .expect("has")
            .expect("ok");
        assert_eq!(back, x);
        assert_eq!(m.n_features_in(), 2);
        let json = m.to_json().expect("json");
        let loaded = e.load(m.precision(), json).expect("loads");
        assert_eq!(
            loaded.predict(&data).expect("ok"),
            m.predict(&data).expect("ok")
        );
        assert!(m.predict_proba(&data).is_none());
        assert!(m.decision_function(&data).is_none());
        assert!(m.feature_importances().is_none());
        assert!(
            est.fit_weighted(&data, &Target::None, Some(&array![1.0, 2.0]))
                .is_err()
        );
        assert!(est.partial_fit(None, &data, &Target::None).is_err());
    }
}

#[test]
fn classifier_with_proba_weights_and_partial_fit() {
    let e: Entry = Entry::probabilistic_classifier::<Majority>("majority", "predicts the mode")
        .weighted()
        .partial_fit(true)
        .into();
    let caps = e.capabilities();
    assert!(caps.predict_proba && caps.sample_weight);
    assert_eq!(caps.partial_fit, Some(PartialFitKind::Exact));
    let est = e.build(&[]).expect("defaults");
    let x = Data::F64(array![[0.0], [1.0], [2.0]]);
    assert!(est.fit(&x, &Target::None).is_err());
    let y = Target::Labels(array![1, 1, 0]);
    let m = est.fit(&x, &y).expect("fit");
    assert_eq!(m.predict(&x).expect("ok"), Output::Labels(array![1, 1, 1]));
    let p = m.predict_proba(&x).expect("has proba").expect("ok");
    assert_eq!(p.row(0).to_vec(), vec![0.0, 1.0]);
    assert!(m.predict(&Data::F64(array![[0.0, 1.0]])).is_err());
    // Weights move the majority.
    let mw = est
        .fit_weighted(&x, &y, Some(&array![1.0, 1.0, 5.0]))
        .expect("weighted");
    assert_eq!(mw.predict(&x).expect("ok"), Output::Labels(array![0, 0, 0]));
    // partial_fit in two batches equals one fit; the f32 model continues in f32.
    let a = est
        .partial_fit(
            None,
            &Data::F64(array![[0.0], [1.0]]),
            &Target::Labels(array![1, 0]),
        )
        .expect("first");
    let b = est
        .partial_fit(
            Some(a),
            &Data::F64(array![[2.0]]),
            &Target::Labels(array![0]),
        )
        .expect("second");
    assert_eq!(b.predict(&x).expect("ok"), Output::Labels(array![0, 0, 0]));
    let plain: Entry = Entry::classifier::<Majority>("majority", "predicts the mode").into();
    let m2 = plain
        .build(&[])
        .expect("ok")
        .fit(&x, &Target::Labels(array![0, 1, 1]))
        .expect("fit");
    assert!(m2.predict_proba(&x).is_none());
    // A model of another entry cannot be continued.
    let other = centre()
        .build(&[])
        .expect("ok")
        .fit(&x, &Target::None)
        .expect("fit");
    assert!(est.partial_fit(Some(other), &x, &y).is_err());
}

#[test]
fn outlier_detector_entry() {
    let e: Entry = Entry::outlier_detector::<Distance>("distance", "far from the mean").into();
    assert_eq!(e.kind(), Kind::OutlierDetector);
    let est = e.build(&[]).expect("defaults");
    let x = Data::F64(array![[0.0], [1.0], [2.0], [9.0]]);
    let m = est.fit(&x, &Target::None).expect("fit");
    // mean 3: distances 3, 2, 1, 6; decision = 1 − distance.
    assert_eq!(
        m.predict(&x).expect("ok"),
        Output::Signed(array![-1, -1, 1, -1])
    );
    let d = m.decision_function(&x).expect("has").expect("ok");
    assert_eq!(d.column(0).to_vec(), vec![-2.0, -1.0, 0.0, -5.0]);
    let s = m.score_samples(&x).expect("has").expect("ok");
    assert_eq!(s.to_vec(), vec![-3.0, -2.0, -1.0, -6.0]);
    assert!(e.capabilities().score_samples);
}

#[test]
fn find_by_name_alias_and_suggestions() {
    let entries = vec![
        centre(),
        Entry::classifier::<Majority>("majority", "b")
            .sklearn("MajorityClassifier")
            .into(),
    ];
    assert_eq!(find(&entries, "centre").expect("exists").name(), "centre");
    assert_eq!(
        find(&entries, "majority_classifier").expect("alias").name(),
        "majority"
    );
    match find(&entries, "center") {
        Err(Error::InvalidParam { reason, .. }) => {
            assert!(reason.contains("did you mean centre"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
}
