//! [`StatsAggregate`]: one DataFusion aggregate function over any mergeable statistics.

use crate::block::{Batch, Layout};
use crate::error::{DistError, to_engine};
use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::ScalarValue;
use datafusion::error::Result as DfResult;
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::{
    Accumulator, AggregateUDF, AggregateUDFImpl, Signature, Volatility,
};
use ndlearn_core::stats::mergeable::Mergeable;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::Arc;

/// An aggregate function computing the statistics `S` of its argument rows; its value (and its
/// partial state between partitions) is the statistics' byte form
/// ([`Mergeable::encode`]), a `Binary` scalar.
///
/// The spec (dimensions, classes, and per-iteration parameters such as k-means centres or GLM
/// coefficients) is carried in the function: a new pass at new parameters is a new function
/// value, never an SQL literal.
pub struct StatsAggregate<S: Mergeable<f64>> {
    name: String,
    spec: S::Spec,
    layout: Layout,
    signature: Signature,
    /// `zero(spec)` as bytes: identifies the spec for equality and hashing.
    key: Vec<u8>,
    _stats: PhantomData<fn() -> S>,
}

impl<S: Mergeable<f64> + 'static> StatsAggregate<S> {
    /// The function `name` over arguments laid out as `layout`, computing `S` at `spec`.
    pub fn new(name: impl Into<String>, spec: S::Spec, layout: Layout) -> Self {
        let key = S::zero(&spec).encode();
        Self {
            name: name.into(),
            signature: Signature::any(layout.n_args(), Volatility::Immutable),
            spec,
            layout,
            key,
            _stats: PhantomData,
        }
    }

    /// As a DataFusion [`AggregateUDF`] (call it with `.call(vec![col(..), ...])`).
    pub fn udaf(self) -> AggregateUDF {
        AggregateUDF::from(self)
    }

    /// The argument layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The bytes of the statistics at no rows (they carry the spec).
    pub fn zero_bytes(&self) -> &[u8] {
        &self.key
    }
}

impl<S: Mergeable<f64>> fmt::Debug for StatsAggregate<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StatsAggregate")
            .field("name", &self.name)
            .field("layout", &self.layout)
            .field("stats", &std::any::type_name::<S>())
            .finish()
    }
}

impl<S: Mergeable<f64>> PartialEq for StatsAggregate<S> {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.layout == other.layout && self.key == other.key
    }
}

impl<S: Mergeable<f64>> Eq for StatsAggregate<S> {}

impl<S: Mergeable<f64>> Hash for StatsAggregate<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.layout.hash(state);
        self.key.hash(state);
    }
}

impl<S: Mergeable<f64> + 'static> AggregateUDFImpl for StatsAggregate<S>
where
    S::Spec: 'static,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, _arg_types: &[DataType]) -> DfResult<DataType> {
        Ok(DataType::Binary)
    }

    fn accumulator(&self, _acc_args: AccumulatorArgs<'_>) -> DfResult<Box<dyn Accumulator>> {
        let zero = S::zero(&self.spec);
        Ok(Box::new(StatsAccumulator::<S> {
            stats: zero.clone(),
            zero,
            parts: Vec::new(),
            layout: self.layout,
            bytes: self.key.len(),
        }))
    }

    fn state_fields(&self, args: StateFieldsArgs<'_>) -> DfResult<Vec<FieldRef>> {
        Ok(vec![Arc::new(Field::new(
            format!("{}[stats]", args.name),
            DataType::Binary,
            true,
        ))])
    }
}

/// The accumulator of a [`StatsAggregate`]: statistics updated with every batch, merged with
/// the partial states of other partitions.
///
/// The engine hands partial states over in the order the partitions finish, which varies from
/// run to run; merging in that order would change the last bits of the result (merges
/// commute only up to rounding). So the states are kept as they arrive (memory: one copy of
/// the statistics per partition) and merged, with the accumulator's own rows, in a canonical
/// order (by their bytes) when the result is asked for: when the partitions themselves are the
/// same in every run, so are the bits of the result.
pub struct StatsAccumulator<S: Mergeable<f64>> {
    /// Statistics of the rows this accumulator read (and, once settled, of every part).
    stats: S,
    /// The statistics of no rows (the start of the canonical fold).
    zero: S,
    /// Partial states of other partitions, not yet merged.
    parts: Vec<S>,
    layout: Layout,
    /// Size of the statistics' byte form (fixed by the spec).
    bytes: usize,
}

impl<S: Mergeable<f64>> fmt::Debug for StatsAccumulator<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StatsAccumulator")
            .field("rows", &self.stats.n_rows())
            .finish()
    }
}

impl<S: Mergeable<f64> + 'static> Accumulator for StatsAccumulator<S> {
    fn update_batch(&mut self, values: &[ArrayRef]) -> DfResult<()> {
        let batch = Batch::read(&self.layout, values).map_err(to_engine)?;
        let block = batch.block().map_err(to_engine)?;
        self.stats
            .update(&block)
            .map_err(|e| to_engine(DistError::Ndlearn(e)))
    }

    fn evaluate(&mut self) -> DfResult<ScalarValue> {
        Ok(ScalarValue::Binary(Some(self.settled()?.encode())))
    }

    fn size(&self) -> usize {
        // own statistics, zero, and the kept parts
        std::mem::size_of_val(self) + self.bytes * (2 + self.parts.len())
    }

    fn state(&mut self) -> DfResult<Vec<ScalarValue>> {
        Ok(vec![self.evaluate()?])
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> DfResult<()> {
        let Some(col) = states.first() else {
            return Ok(());
        };
        let bin = col.as_binary::<i32>();
        for i in 0..bin.len() {
            if bin.is_null(i) {
                continue;
            }
            let part = S::decode(bin.value(i)).map_err(|e| to_engine(DistError::Ndlearn(e)))?;
            if part.n_rows() > 0 {
                self.parts.push(part);
            }
        }
        Ok(())
    }
}

impl<S: Mergeable<f64>> StatsAccumulator<S> {
    /// The own statistics merged with the kept partial states, in the order of their bytes
    /// (neither is changed, so asking again, or after more input, gives the canonical result
    /// of everything seen).
    fn settled(&self) -> DfResult<S> {
        if self.parts.is_empty() {
            return Ok(self.stats.clone());
        }
        let mut all: Vec<&S> = self.parts.iter().collect();
        if self.stats.n_rows() > 0 {
            all.push(&self.stats);
        }
        all.sort_by_cached_key(|p| p.encode());
        let mut merged = self.zero.clone();
        for p in all {
            merged
                .merge(p)
                .map_err(|e| to_engine(DistError::Ndlearn(e)))?;
        }
        Ok(merged)
    }
}
