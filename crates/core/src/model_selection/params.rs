//! Hyperparameter grids and distributions without macros or strings-to-code: a parameter is a
//! name and numbers; a closure turns a [`ParamPoint`] into a configured estimator.
//!
//! Values are `f64` (integer and categorical hyperparameters are encoded as numbers and decoded
//! in the closure, e.g. [`ParamPoint::as_usize`]). Names are kept sorted, and the cartesian
//! product iterates with the *last* name varying fastest, which is scikit-learn's
//! `ParameterGrid` order, so candidate `i` here is candidate `i` of scikit-learn's `cv_results_`.

use crate::random::{self, Rng};
use crate::{Error, Result};
use rand::Rng as _;

/// One point of a grid: `name → value`, names sorted.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParamPoint {
    values: Vec<(String, f64)>,
}

impl ParamPoint {
    /// A point from `(name, value)` pairs (sorted by name; a repeated name keeps its last value).
    pub fn new(pairs: impl IntoIterator<Item = (String, f64)>) -> Self {
        let mut values: Vec<(String, f64)> = Vec::new();
        for (k, v) in pairs {
            match values.iter_mut().find(|(n, _)| *n == k) {
                Some(slot) => slot.1 = v,
                None => values.push((k, v)),
            }
        }
        values.sort_by(|a, b| a.0.cmp(&b.0));
        Self { values }
    }

    /// The value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// The value of `name`; [`Error::InvalidParam`] when absent.
    pub fn value(&self, name: &'static str) -> Result<f64> {
        self.get(name)
            .ok_or_else(|| Error::invalid_param(name, "not present in this parameter point"))
    }

    /// The value of `name` as a non-negative integer (errors when absent, negative, not
    /// integral or not finite).
    pub fn as_usize(&self, name: &'static str) -> Result<usize> {
        let v = self.value(name)?;
        if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= usize::MAX as f64 {
            Ok(v as usize)
        } else {
            Err(Error::invalid_param(
                name,
                format!("expected a non-negative integer, got {v}"),
            ))
        }
    }

    /// The `(name, value)` pairs, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.values.iter().map(|(n, v)| (n.as_str(), *v))
    }

    /// Number of parameters.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// `true` when the point has no parameter.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl std::fmt::Display for ParamPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("{")?;
        for (i, (n, v)) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}: {v}")?;
        }
        f.write_str("}")
    }
}

/// A cartesian product of named value lists (scikit-learn's `ParameterGrid` for one dict).
///
/// ```
/// use ndlearn_core::model_selection::ParamGrid;
///
/// let grid = ParamGrid::new().param("gamma", vec![0.1, 1.0]).param("C", vec![1.0, 10.0, 100.0]);
/// assert_eq!(grid.len(), 6);
/// let points = grid.points()?;
/// // Names sorted ("C" < "gamma"), the last one varies fastest.
/// assert_eq!(points[0].get("C"), Some(1.0));
/// assert_eq!(points[1].get("gamma"), Some(1.0));
/// assert_eq!(points[2].get("C"), Some(10.0));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParamGrid {
    entries: Vec<(String, Vec<f64>)>,
}

impl ParamGrid {
    /// An empty grid (one point with no parameter).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a parameter and its values (replacing an earlier list of the same name).
    pub fn param(mut self, name: impl Into<String>, values: Vec<f64>) -> Self {
        let name = name.into();
        self.entries.retain(|(n, _)| *n != name);
        self.entries.push((name, values));
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
        self
    }

    /// The `(name, values)` lists, sorted by name.
    pub fn entries(&self) -> &[(String, Vec<f64>)] {
        &self.entries
    }

    /// Number of points (the product of the list lengths; 1 for an empty grid), saturating.
    pub fn len(&self) -> usize {
        self.entries
            .iter()
            .fold(1usize, |acc, (_, v)| acc.saturating_mul(v.len()))
    }

    /// `true` when some list is empty (the grid has no point).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn validate(&self) -> Result<()> {
        if let Some((name, _)) = self.entries.iter().find(|(_, v)| v.is_empty()) {
            return Err(Error::invalid_param(
                "grid",
                format!("the value list of parameter `{name}` is empty"),
            ));
        }
        Ok(())
    }

    /// Point `index` (last name fastest); `None` past the end.
    pub fn point(&self, index: usize) -> Option<ParamPoint> {
        if index >= self.len() {
            return None;
        }
        let mut rest = index;
        let mut values = vec![(String::new(), 0.0); self.entries.len()];
        for (slot, (name, list)) in values.iter_mut().zip(&self.entries).rev() {
            *slot = (name.clone(), list[rest % list.len()]);
            rest /= list.len();
        }
        Some(ParamPoint { values })
    }

    /// All points in order. Errors when a value list is empty.
    pub fn points(&self) -> Result<Vec<ParamPoint>> {
        self.validate()?;
        Ok((0..self.len()).filter_map(|i| self.point(i)).collect())
    }
}

/// How [`RandomizedSearchCV`](super::RandomizedSearchCV) draws one parameter.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ParamDistribution {
    /// One of the listed values, uniformly.
    Values(Vec<f64>),
    /// Uniform on `[low, high)`.
    Uniform {
        /// Lower end.
        low: f64,
        /// Upper end (> `low`).
        high: f64,
    },
    /// Log-uniform on `[low, high)` (`exp` of a uniform on `[ln low, ln high)`), for scales
    /// such as a regularisation strength.
    LogUniform {
        /// Lower end (> 0).
        low: f64,
        /// Upper end (> `low`).
        high: f64,
    },
    /// An integer in `low..high`, uniformly (as `scipy.stats.randint(low, high)`).
    IntUniform {
        /// Smallest value.
        low: i64,
        /// One past the largest value (> `low`).
        high: i64,
    },
}

impl ParamDistribution {
    fn validate(&self, name: &str) -> Result<()> {
        let bad = |why: String| {
            Err(Error::invalid_param(
                "distributions",
                format!("`{name}`: {why}"),
            ))
        };
        match self {
            Self::Values(v) if v.is_empty() => bad("empty value list".into()),
            Self::Uniform { low, high } if !(low.is_finite() && high.is_finite() && low < high) => {
                bad(format!("needs finite low < high, got [{low}, {high})"))
            }
            Self::LogUniform { low, high }
                if !(low.is_finite() && high.is_finite() && *low > 0.0 && low < high) =>
            {
                bad(format!("needs finite 0 < low < high, got [{low}, {high})"))
            }
            Self::IntUniform { low, high } if low >= high => {
                bad(format!("needs low < high, got {low}..{high}"))
            }
            _ => Ok(()),
        }
    }

    fn sample(&self, rng: &mut Rng) -> f64 {
        match self {
            Self::Values(v) => v[rng.random_range(0..v.len())],
            Self::Uniform { low, high } => random::uniform(rng, *low, *high),
            Self::LogUniform { low, high } => random::uniform(rng, low.ln(), high.ln()).exp(),
            Self::IntUniform { low, high } => rng.random_range(*low..*high) as f64,
        }
    }
}

/// Named distributions to sample candidates from (scikit-learn's `ParameterSampler`).
///
/// When every parameter is a value list, `n_iter` *distinct* grid points are drawn without
/// replacement (all of them, in random order, when the grid is smaller), as scikit-learn does;
/// otherwise each draw samples every parameter independently (names in sorted order).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ParamSpace {
    entries: Vec<(String, ParamDistribution)>,
}

impl ParamSpace {
    /// An empty space.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a parameter.
    pub fn param(mut self, name: impl Into<String>, dist: ParamDistribution) -> Self {
        let name = name.into();
        self.entries.retain(|(n, _)| *n != name);
        self.entries.push((name, dist));
        self.entries.sort_by(|a, b| a.0.cmp(&b.0));
        self
    }

    /// Adds (or replaces) a parameter drawn from a value list.
    pub fn values(self, name: impl Into<String>, values: Vec<f64>) -> Self {
        self.param(name, ParamDistribution::Values(values))
    }

    /// The `(name, distribution)` pairs, sorted by name.
    pub fn entries(&self) -> &[(String, ParamDistribution)] {
        &self.entries
    }

    /// `n_iter` points drawn from the stream `random::rng(seed)`.
    pub fn sample(&self, n_iter: usize, seed: u64) -> Result<Vec<ParamPoint>> {
        if n_iter == 0 {
            return Err(Error::invalid_param("n_iter", "must be >= 1"));
        }
        for (name, d) in &self.entries {
            d.validate(name)?;
        }
        let mut rng = random::rng(seed);
        let lists: Option<Vec<(String, Vec<f64>)>> = self
            .entries
            .iter()
            .map(|(n, d)| match d {
                ParamDistribution::Values(v) => Some((n.clone(), v.clone())),
                _ => None,
            })
            .collect();
        if let Some(lists) = lists {
            let grid = ParamGrid { entries: lists };
            let size = grid.len();
            let picks = random::sample_without_replacement(&mut rng, size, n_iter.min(size))?;
            return Ok(picks.into_iter().filter_map(|i| grid.point(i)).collect());
        }
        Ok((0..n_iter)
            .map(|_| ParamPoint {
                values: self
                    .entries
                    .iter()
                    .map(|(n, d)| (n.clone(), d.sample(&mut rng)))
                    .collect(),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_order_and_errors() {
        let g = ParamGrid::new()
            .param("b", vec![1.0, 2.0])
            .param("a", vec![10.0, 20.0, 30.0]);
        let pts = g.points().expect("valid");
        assert_eq!(pts.len(), 6);
        let pairs: Vec<(f64, f64)> = pts
            .iter()
            .map(|p| (p.get("a").unwrap_or(0.0), p.get("b").unwrap_or(0.0)))
            .collect();
        assert_eq!(
            pairs,
            vec![
                (10.0, 1.0),
                (10.0, 2.0),
                (20.0, 1.0),
                (20.0, 2.0),
                (30.0, 1.0),
                (30.0, 2.0)
            ]
        );
        assert!(g.point(6).is_none());
        assert_eq!(pts[3].to_string(), "{a: 20, b: 2}");
        assert_eq!(ParamGrid::new().points().expect("one empty point").len(), 1);
        let empty = ParamGrid::new().param("a", vec![]);
        assert!(empty.is_empty());
        assert!(empty.points().is_err());
        // Replacing a list.
        assert_eq!(g.clone().param("a", vec![1.0]).len(), 2);
    }

    #[test]
    fn point_accessors() {
        let p = ParamPoint::new([("k".to_string(), 3.0), ("alpha".to_string(), 0.5)]);
        assert_eq!(
            p.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            vec!["alpha", "k"]
        );
        assert_eq!(p.as_usize("k").ok(), Some(3));
        assert!(p.as_usize("alpha").is_err());
        assert!(p.value("missing").is_err());
        assert_eq!(p.len(), 2);
        assert!(!p.is_empty());
    }

    #[test]
    fn space_sampling() {
        let grid_like = ParamSpace::new()
            .values("a", vec![1.0, 2.0])
            .values("b", vec![3.0, 4.0]);
        let mut s = grid_like.sample(10, 1).expect("valid");
        assert_eq!(s.len(), 4); // clipped to the grid size, no repeats
        s.sort_by_key(ToString::to_string);
        s.dedup();
        assert_eq!(s.len(), 4);
        let mixed = ParamSpace::new()
            .param(
                "c",
                ParamDistribution::LogUniform {
                    low: 1e-3,
                    high: 1e3,
                },
            )
            .param("k", ParamDistribution::IntUniform { low: 1, high: 4 })
            .param(
                "u",
                ParamDistribution::Uniform {
                    low: -1.0,
                    high: 1.0,
                },
            );
        let pts = mixed.sample(50, 2).expect("valid");
        assert_eq!(pts.len(), 50);
        for p in &pts {
            let c = p.get("c").unwrap_or(0.0);
            let k = p.as_usize("k").unwrap_or(0);
            let u = p.get("u").unwrap_or(9.0);
            assert!((1e-3..1e3).contains(&c) && (1..4).contains(&k) && (-1.0..1.0).contains(&u));
        }
        assert_eq!(pts, mixed.sample(50, 2).expect("valid"));
        assert!(mixed.sample(0, 2).is_err());
        let bad = ParamSpace::new().param(
            "c",
            ParamDistribution::LogUniform {
                low: 0.0,
                high: 1.0,
            },
        );
        assert!(bad.sample(3, 0).is_err());
        let bad = ParamSpace::new().param("k", ParamDistribution::IntUniform { low: 2, high: 2 });
        assert!(bad.sample(3, 0).is_err());
        assert!(ParamSpace::new().values("a", vec![]).sample(1, 0).is_err());
    }
}

/// A copy of `est` with the values of `point` set by name through its serde form (the names of
/// the registry and of scikit-learn: `alpha`, `C`, `max_depth`): a boolean parameter takes
/// `0`/`1`, an integer one an integral value, an optional one a number. Enum-valued parameters
/// are set in a builder closure instead. For a [`Pipeline`](crate::pipeline::Pipeline), whose
/// names carry a step prefix, use [`Pipeline::with_params`](crate::pipeline::Pipeline::with_params).
///
/// ```
/// use ndlearn_core::model_selection::{ParamPoint, with_params};
/// use ndlearn_core::preprocessing::StandardScaler;
///
/// let p = ParamPoint::new([("with_mean".to_string(), 0.0)]);
/// assert!(!with_params(&StandardScaler::new(), &p)?.with_mean);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidParam`] for an unknown name, a value of the wrong kind, or a result the
/// estimator's serde form rejects.
#[cfg(feature = "serde")]
pub fn with_params<T>(est: &T, point: &ParamPoint) -> Result<T>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let ser = |e: serde_json::Error| Error::invalid_param("params", e.to_string());
    let mut v = serde_json::to_value(est).map_err(ser)?;
    let Some(obj) = v.as_object_mut() else {
        return Err(Error::invalid_param(
            "params",
            "the estimator has no named parameters",
        ));
    };
    for (name, value) in point.iter() {
        set_json_param(obj, name, value, "the estimator")?;
    }
    serde_json::from_value(v).map_err(ser)
}

/// Sets `name = value` in a serde object, converting the number to the kind of the current
/// value (see [`with_params`]).
#[cfg(feature = "serde")]
pub(crate) fn set_json_param(
    obj: &mut serde_json::Map<String, serde_json::Value>,
    name: &str,
    value: f64,
    owner: &str,
) -> Result<()> {
    use serde_json::Value;
    let bad = |why: String| Error::invalid_param("params", why);
    let Some(slot) = obj.get_mut(name) else {
        let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        return Err(bad(format!(
            "{owner} has no parameter `{name}`; valid: {}",
            keys.join(", ")
        )));
    };
    let integral = value.is_finite() && value.fract() == 0.0 && value.abs() < 9.0e15;
    let as_int = || {
        if value >= 0.0 {
            Value::from(value as u64)
        } else {
            Value::from(value as i64)
        }
    };
    let new = match &*slot {
        Value::Bool(_) if value == 0.0 || value == 1.0 => Value::Bool(value == 1.0),
        Value::Bool(_) => return Err(bad(format!("`{name}` is boolean: use 0 or 1, not {value}"))),
        Value::Number(n) if n.is_f64() => Value::from(value),
        Value::Number(_) if integral => as_int(),
        Value::Number(_) => {
            return Err(bad(format!(
                "`{name}` is an integer: {value} is not integral"
            )));
        }
        Value::Null if integral => as_int(),
        Value::Null => Value::from(value),
        _ => {
            return Err(bad(format!(
                "`{name}` of {owner} is not numeric (an enum or a list): set it in the builder \
                 closure instead"
            )));
        }
    };
    *slot = new;
    Ok(())
}

#[cfg(all(test, feature = "serde"))]
mod with_params_tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Est {
        alpha: f64,
        max_iter: usize,
        shift: i32,
        fit_intercept: bool,
        tol: Option<f64>,
        depth: Option<usize>,
        solver: String,
    }

    fn est() -> Est {
        Est {
            alpha: 1.0,
            max_iter: 100,
            shift: 0,
            fit_intercept: true,
            tol: None,
            depth: None,
            solver: "auto".into(),
        }
    }

    fn point(pairs: &[(&str, f64)]) -> ParamPoint {
        ParamPoint::new(pairs.iter().map(|(k, v)| (k.to_string(), *v)))
    }

    #[test]
    fn numbers_take_the_kind_of_the_current_value() -> Result<()> {
        let p = point(&[
            ("alpha", 2.0),
            ("max_iter", 7.0),
            ("shift", -3.0),
            ("fit_intercept", 0.0),
            ("tol", 1e-3),
            ("depth", 4.0),
        ]);
        let e = with_params(&est(), &p)?;
        assert_eq!(
            (e.alpha, e.max_iter, e.shift, e.fit_intercept),
            (2.0, 7, -3, false)
        );
        assert_eq!((e.tol, e.depth), (Some(1e-3), Some(4)));
        for bad in [
            ("max_iter", 2.5),
            ("fit_intercept", 0.5),
            ("solver", 1.0),
            ("nope", 1.0),
        ] {
            assert!(with_params(&est(), &point(&[bad])).is_err(), "{bad:?}");
        }
        // A negative count is rejected by the type itself.
        assert!(with_params(&est(), &point(&[("max_iter", -1.0)])).is_err());
        Ok(())
    }
}
