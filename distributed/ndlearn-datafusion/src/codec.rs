//! The byte form of the ndlearn aggregate functions, for engines that ship plans to executors
//! (Ballista's logical and physical extension codecs call these): the statistics type, the
//! argument layout and the function's spec (as the bytes of its zero statistics, which carry
//! every dimension and parameter), so an executor rebuilds the same function, centres and
//! coefficients included.

use crate::aggregate::StatsAggregate;
use crate::block::{Features, Layout};
use datafusion::error::{DataFusionError, Result as DfResult};
use datafusion::logical_expr::AggregateUDF;
use ndlearn_core::stats::mergeable::{
    ClassMoments, ClassScatter, CrossMoments, GlmSpec, GlmStats, KMeansSample, KMeansSpec,
    KMeansStats, Mergeable, SoftmaxStats,
};
use std::any::Any;

/// The statistics types an aggregate function can compute, with their tag and how to recover
/// the spec from zero statistics.
trait Shipped: Mergeable<f64> + 'static
where
    Self::Spec: 'static,
{
    const TAG: u8;
    fn spec_of(zero: &Self) -> Self::Spec;
}

impl Shipped for CrossMoments<f64> {
    const TAG: u8 = 1;
    fn spec_of(zero: &Self) -> Self::Spec {
        zero.spec()
    }
}

impl Shipped for ClassMoments<f64> {
    const TAG: u8 = 2;
    fn spec_of(zero: &Self) -> Self::Spec {
        zero.spec()
    }
}

impl Shipped for KMeansStats<f64> {
    const TAG: u8 = 3;
    fn spec_of(zero: &Self) -> Self::Spec {
        KMeansSpec {
            centers: zero.at.clone(),
        }
    }
}

impl Shipped for GlmStats<f64> {
    const TAG: u8 = 4;
    fn spec_of(zero: &Self) -> Self::Spec {
        GlmSpec { ..zero.at.clone() }
    }
}

impl Shipped for KMeansSample<f64> {
    const TAG: u8 = 5;
    fn spec_of(zero: &Self) -> Self::Spec {
        zero.at.clone()
    }
}

impl Shipped for ClassScatter<f64> {
    const TAG: u8 = 7;
    fn spec_of(zero: &Self) -> Self::Spec {
        zero.spec()
    }
}

impl Shipped for SoftmaxStats<f64> {
    const TAG: u8 = 6;
    fn spec_of(zero: &Self) -> Self::Spec {
        zero.at.clone()
    }
}

/// The bytes of an ndlearn aggregate function, or `None` for another function.
pub fn encode_udaf(node: &AggregateUDF) -> Option<Vec<u8>> {
    let any: &dyn Any = node.inner().as_ref();
    encode_as::<CrossMoments<f64>>(any)
        .or_else(|| encode_as::<ClassMoments<f64>>(any))
        .or_else(|| encode_as::<KMeansStats<f64>>(any))
        .or_else(|| encode_as::<GlmStats<f64>>(any))
        .or_else(|| encode_as::<KMeansSample<f64>>(any))
        .or_else(|| encode_as::<SoftmaxStats<f64>>(any))
        .or_else(|| encode_as::<ClassScatter<f64>>(any))
}

fn encode_as<S: Shipped>(any: &dyn Any) -> Option<Vec<u8>> {
    let agg = any.downcast_ref::<StatsAggregate<S>>()?;
    let l = agg.layout();
    let (kind, width) = match l.features {
        Features::Columns(d) => (0u8, d),
        Features::List(d) => (1u8, d),
    };
    let mut out = vec![
        b'N',
        b'D',
        b'A',
        1,
        S::TAG,
        kind,
        u8::from(l.labels),
        u8::from(l.weights),
    ];
    out.extend_from_slice(&(width as u64).to_le_bytes());
    out.extend_from_slice(&(l.targets as u64).to_le_bytes());
    out.extend_from_slice(&agg.zero_bytes().len().to_le_bytes());
    out.extend_from_slice(agg.zero_bytes());
    Some(out)
}

/// The ndlearn aggregate function named `name` from [`encode_udaf`]'s bytes, or `None` when the
/// bytes are not an ndlearn function's.
///
/// # Errors
/// Bytes that claim to be an ndlearn function but do not decode.
pub fn decode_udaf(name: &str, buf: &[u8]) -> DfResult<Option<AggregateUDF>> {
    if buf.len() < 8 || &buf[..4] != b"NDA\x01" {
        return Ok(None);
    }
    let bad = |what: &str| DataFusionError::Internal(format!("ndlearn aggregate {name}: {what}"));
    let word = |at: usize| -> DfResult<u64> {
        buf.get(at..at + 8)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .map(u64::from_le_bytes)
            .ok_or_else(|| bad("truncated"))
    };
    let width = usize::try_from(word(8)?).map_err(|_| bad("width"))?;
    let targets = usize::try_from(word(16)?).map_err(|_| bad("targets"))?;
    let len = usize::try_from(word(24)?).map_err(|_| bad("length"))?;
    let zero = buf
        .get(32..)
        .filter(|z| z.len() == len)
        .ok_or_else(|| bad("length"))?;
    let layout = Layout {
        features: match buf[5] {
            0 => Features::Columns(width),
            1 => Features::List(width),
            _ => return Err(bad("feature kind")),
        },
        targets,
        labels: buf[6] == 1,
        weights: buf[7] == 1,
    };
    let udaf = match buf[4] {
        1 => rebuild::<CrossMoments<f64>>(name, layout, zero),
        2 => rebuild::<ClassMoments<f64>>(name, layout, zero),
        3 => rebuild::<KMeansStats<f64>>(name, layout, zero),
        4 => rebuild::<GlmStats<f64>>(name, layout, zero),
        5 => rebuild::<KMeansSample<f64>>(name, layout, zero),
        6 => rebuild::<SoftmaxStats<f64>>(name, layout, zero),
        7 => rebuild::<ClassScatter<f64>>(name, layout, zero),
        _ => return Err(bad("statistics type")),
    }
    .map_err(|e| bad(&e.to_string()))?;
    Ok(Some(udaf))
}

fn rebuild<S: Shipped>(
    name: &str,
    layout: Layout,
    zero: &[u8],
) -> ndlearn_core::Result<AggregateUDF> {
    let z = S::decode(zero)?;
    Ok(StatsAggregate::<S>::new(name, S::spec_of(&z), layout).udaf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2, array};
    use ndlearn_core::loss::Loss;
    use ndlearn_core::stats::mergeable::{ClassSpec, CrossSpec, SampleSpec, SoftmaxSpec};

    /// Encodes the function, decodes it, and checks the spec (zero statistics), the layout and
    /// the name survive.
    fn round_trip<S: Shipped>(spec: S::Spec, layout: Layout) {
        let agg = StatsAggregate::<S>::new("ndlearn_test", spec, layout);
        let zero = agg.zero_bytes().to_vec();
        let udaf = agg.udaf();
        let bytes = encode_udaf(&udaf).expect("an ndlearn function");
        let back = decode_udaf("ndlearn_test", &bytes)
            .expect("decodes")
            .expect("an ndlearn function");
        let inner: &dyn Any = back.inner().as_ref();
        let again = inner
            .downcast_ref::<StatsAggregate<S>>()
            .expect("the same statistics type");
        assert_eq!(again.zero_bytes(), zero.as_slice());
        assert_eq!(again.layout(), &layout);
        assert_eq!(back.name(), "ndlearn_test");
        // a damaged buffer is an error, not a panic
        assert!(decode_udaf("ndlearn_test", &bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn every_statistics_type_survives_the_codec() {
        let plain = Layout {
            features: Features::Columns(2),
            targets: 0,
            labels: false,
            weights: false,
        };
        let labelled = Layout {
            labels: true,
            weights: true,
            ..plain
        };
        round_trip::<CrossMoments<f64>>(
            CrossSpec {
                n_features: 2,
                n_targets: 1,
                centred: true,
                gram: true,
            },
            Layout {
                features: Features::List(2),
                targets: 1,
                ..plain
            },
        );
        let classes = ClassSpec {
            n_classes: 3,
            n_features: 2,
        };
        round_trip::<ClassMoments<f64>>(classes, labelled);
        round_trip::<ClassScatter<f64>>(classes, labelled);
        let centers = array![[0.0, 1.0], [2.0, -1.5]];
        round_trip::<KMeansStats<f64>>(
            KMeansSpec {
                centers: centers.clone(),
            },
            plain,
        );
        round_trip::<KMeansSample<f64>>(
            SampleSpec {
                centers,
                cost: 3.5,
                oversampling: 4.0,
                seed: 7,
                round: 2,
            },
            Layout {
                labels: true,
                ..plain
            },
        );
        round_trip::<GlmStats<f64>>(
            GlmSpec {
                loss: Loss::LogLoss,
                coef: array![0.5, -0.25],
                intercept: 0.125,
                hessian: false,
            },
            Layout {
                targets: 1,
                weights: true,
                ..plain
            },
        );
        round_trip::<SoftmaxStats<f64>>(
            SoftmaxSpec {
                coef: Array2::from_shape_fn((3, 2), |(c, j)| c as f64 - 0.5 * j as f64),
                intercept: Array1::from_vec(vec![0.1, 0.0, -0.1]),
                hessian: false,
            },
            labelled,
        );
        // another engine's function is not ours
        assert!(
            decode_udaf("x", b"something else")
                .expect("not an error")
                .is_none()
        );
    }
}
