//! Text features: [`CountVectorizer`] (documents → token counts) and [`TfidfTransformer`]
//! (counts → TF-IDF weights).

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use std::collections::BTreeMap;

use ndarray::{Array1, Array2, ArrayRef2};

use super::map_rows;
use super::scalers::{Norm, row_norm};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::{check_fit_input, check_predict_input};
use crate::{Error, Float, Result};

// ---------------------------------------------------------------------------------------------
// TfidfTransformer

/// Row normalisation of a [`TfidfTransformer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum TfidfNorm {
    /// Unit Euclidean norm (the default).
    #[default]
    L2,
    /// Unit sum of absolute values.
    L1,
    /// No normalisation.
    None,
}

/// Turns a document-term count matrix (rows = documents, columns = terms) into TF-IDF weights —
/// scikit-learn's `TfidfTransformer` on dense input.
///
/// # Math
///
/// With `n` documents and `df_t` the number of documents whose count for term `t` is non-zero:
///
/// * `idf_t = ln((1 + n)/(1 + df_t)) + 1` with `smooth_idf` (the default), `ln(n/df_t) + 1`
///   without; `idf_add_one = false` drops the `+ 1`;
/// * `tf = count`, or `1 + ln(count)` for non-zero counts with `sublinear_tf`;
/// * `w = tf · idf_t`, then each row is scaled to unit `l2` (default) or `l1` norm (all-zero rows
///   stay zero).
///
/// The course notes' definition `w_ij = t_ij · log(D/d_i)` (catalog X-06; Spärck Jones, "A
/// statistical interpretation of term specificity and its application in retrieval", J.
/// Documentation 28(1), 1972; Salton & Buckley, "Term-weighting approaches in automatic text
/// retrieval", Information Processing & Management 24(5), 1988) is
/// `smooth_idf = false, idf_add_one = false, norm = None`; the defaults are scikit-learn's
/// "normalisation and smoothing" variant the course notes mention. The `+1` keeps terms
/// that occur in every document from being ignored entirely.
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `norm` | `L2` | `norm` (`'l2'`, `'l1'`, `None`) |
/// | `use_idf` | `true` | `use_idf` |
/// | `smooth_idf` | `true` | `smooth_idf` |
/// | `sublinear_tf` | `false` | `sublinear_tf` |
/// | `idf_add_one` | `true` | (always on in scikit-learn) |
///
/// Counts are usually non-negative integers, but any finite values are accepted as in
/// scikit-learn (a term "occurs" where its value is non-zero); with `sublinear_tf` negative values
/// are an error ([`Error::InvalidParam`]). Without smoothing, a term that occurs in no training
/// document has an infinite idf: an error at fit. Norms are computed without overflow. `O(n d)`.
///
/// ```
/// use ndlearn_core::preprocessing::{TfidfNorm, TfidfTransformer};
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let counts = array![[3.0, 0.0, 1.0], [2.0, 0.0, 0.0], [3.0, 2.0, 0.0]];
/// let tfidf = TfidfTransformer::default().norm(TfidfNorm::None).fit(&counts)?;
/// // term 0 occurs in all 3 documents: idf = ln(4/4) + 1 = 1; term 1 in one: ln(4/2) + 1.
/// assert_eq!(tfidf.idf()[0], 1.0);
/// assert!((tfidf.idf()[1] - (2.0f64.ln() + 1.0)).abs() < 1e-15);
/// let w = tfidf.transform(&counts)?;
/// assert_eq!(w[[0, 0]], 3.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TfidfTransformer {
    /// Row normalisation.
    pub norm: TfidfNorm,
    /// Multiply by the inverse document frequency.
    pub use_idf: bool,
    /// Add one to `n` and every `df` (as if one extra document contained every term).
    pub smooth_idf: bool,
    /// `tf = 1 + ln(count)` for non-zero counts.
    pub sublinear_tf: bool,
    /// Add 1 to the idf (scikit-learn always does).
    pub idf_add_one: bool,
}

impl Default for TfidfTransformer {
    fn default() -> Self {
        Self {
            norm: TfidfNorm::L2,
            use_idf: true,
            smooth_idf: true,
            sublinear_tf: false,
            idf_add_one: true,
        }
    }
}

impl TfidfTransformer {
    crate::setters! {
        /// Sets `norm`.
        norm: TfidfNorm,
        /// Sets `use_idf`.
        use_idf: bool,
        /// Sets `smooth_idf`.
        smooth_idf: bool,
        /// Sets `sublinear_tf`.
        sublinear_tf: bool,
        /// Sets `idf_add_one`.
        idf_add_one: bool,
    }
}

impl crate::Estimator for TfidfTransformer {
    /// All combinations are valid.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

fn check_sublinear<F: Float>(x: &ArrayRef2<F>) -> Result<()> {
    for ((i, j), v) in x.indexed_iter() {
        if *v < F::zero() {
            return Err(Error::invalid_param(
                "x",
                format!("sublinear_tf needs non-negative counts; entry ({i}, {j}) is {v}"),
            ));
        }
    }
    Ok(())
}

impl<F: Float> FitUnsupervised<F> for TfidfTransformer {
    type Model = FittedTfidfTransformer<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "TfidfTransformer::fit")?;
        if self.sublinear_tf {
            check_sublinear(x)?;
        }
        let (n, d) = x.dim();
        let idf = if self.use_idf {
            let mut df = vec![0usize; d];
            for row in x.rows() {
                for (c, v) in df.iter_mut().zip(row.iter()) {
                    *c += usize::from(*v != F::zero());
                }
            }
            let s = usize::from(self.smooth_idf);
            if let Some(j) = df.iter().position(|&c| c + s == 0) {
                return Err(Error::invalid_param(
                    "x",
                    format!(
                        "term {j} occurs in no document, so its idf is infinite; use smooth_idf = true \
                         or drop the column"
                    ),
                ));
            }
            let one = if self.idf_add_one {
                F::one()
            } else {
                F::zero()
            };
            Some(
                df.iter()
                    .map(|&c| (F::cast(n + s) / F::cast(c + s)).ln() + one)
                    .collect::<Array1<F>>(),
            )
        } else {
            None
        };
        Ok(FittedTfidfTransformer {
            params: *self,
            n_features: d,
            idf,
        })
    }
}

/// A fitted [`TfidfTransformer`]: the idf of every term.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedTfidfTransformer<F> {
    params: TfidfTransformer,
    n_features: usize,
    idf: Option<Array1<F>>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedTfidfTransformer<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedTfidfTransformer<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &TfidfTransformer {
        &self.params
    }
    /// Inverse document frequency of each term (all ones when `use_idf = false`).
    pub fn idf(&self) -> Array1<F> {
        self.idf
            .clone()
            .unwrap_or_else(|| Array1::ones(self.n_features))
    }
    /// Number of terms (input columns).
    pub fn n_features(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> Transform<F> for FittedTfidfTransformer<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.n_features, "TfidfTransformer::transform")?;
        let p = self.params;
        if p.sublinear_tf {
            check_sublinear(x)?;
        }
        let idf = self.idf();
        let norm = match p.norm {
            TfidfNorm::L2 => Some(Norm::L2),
            TfidfNorm::L1 => Some(Norm::L1),
            TfidfNorm::None => None,
        };
        Ok(map_rows(x, self.n_features, |row, out| {
            for j in 0..row.len() {
                let c = row[j];
                let tf = if p.sublinear_tf && c != F::zero() {
                    c.ln() + F::one()
                } else {
                    c
                };
                out[j] = tf * idf[j];
            }
            if let Some(norm) = norm {
                let r = row_norm(out, norm);
                if r != F::zero() {
                    out.iter_mut().for_each(|v| *v /= r);
                }
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// CountVectorizer

/// Splits a document into tokens the way scikit-learn's default `token_pattern`
/// `(?u)\b\w\w+\b` does: maximal runs of word characters (letters, digits, `_`) of length ≥ 2,
/// lowercased first if asked.
///
/// "Word character" is Rust's `char::is_alphanumeric` or `_`; Python's `\w` is `str.isalnum`
/// or `_`. The two agree on letters and digits of every script except a few rare combining
/// marks.
///
/// ```
/// use ndlearn_core::preprocessing::tokenize;
///
/// assert_eq!(tokenize("The cat's snake_case, a 42!", true), ["the", "cat", "snake_case", "42"]);
/// ```
pub fn tokenize(doc: &str, lowercase: bool) -> Vec<String> {
    let text = if lowercase {
        doc.to_lowercase()
    } else {
        doc.to_string()
    };
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut len = 0usize;
    let mut flush = |cur: &mut String, len: &mut usize| {
        if *len >= 2 {
            tokens.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
        *len = 0;
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            cur.push(c);
            len += 1;
        } else {
            flush(&mut cur, &mut len);
        }
    }
    flush(&mut cur, &mut len);
    tokens
}

/// Learns a vocabulary from documents and counts each term per document — a minimal
/// scikit-learn `CountVectorizer` with its default tokenisation ([`tokenize`]), dense output.
///
/// The vocabulary is every distinct token of the training documents, sorted (Unicode code
/// point order, as Python's `sorted`); column `c` counts term `vocabulary[c]`. Tokens unknown at
/// transform are ignored. Not implemented: n-grams, stop words, `min_df`/`max_df`/`max_features`,
/// accent stripping, custom token patterns, sparse output.
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `lowercase` | `true` | `lowercase` |
/// | `binary` | `false` | `binary` (counts clipped to 1) |
///
/// Errors: [`Error::TooFewSamples`] for no documents; [`Error::InvalidParam`] when the
/// documents contain no token (empty vocabulary, as scikit-learn).
///
/// ```
/// use ndlearn_core::preprocessing::CountVectorizer;
///
/// let docs = ["The cat sat.", "The cat, the hat!"];
/// let cv = CountVectorizer::default().fit(&docs)?;
/// assert_eq!(cv.vocabulary(), ["cat", "hat", "sat", "the"]);
/// let counts = cv.transform::<f64, _>(&docs);
/// assert_eq!(counts.row(1).to_vec(), vec![1.0, 1.0, 0.0, 2.0]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CountVectorizer {
    /// Lowercase documents before tokenising.
    pub lowercase: bool,
    /// Record presence (1) instead of counts.
    pub binary: bool,
}

impl Default for CountVectorizer {
    fn default() -> Self {
        Self {
            lowercase: true,
            binary: false,
        }
    }
}

impl CountVectorizer {
    crate::setters! {
        /// Sets `lowercase`.
        lowercase: bool,
        /// Sets `binary`.
        binary: bool,
    }

    /// Learns the sorted vocabulary.
    pub fn fit<S: AsRef<str>>(&self, docs: &[S]) -> Result<FittedCountVectorizer> {
        if docs.is_empty() {
            return Err(Error::TooFewSamples {
                context: "CountVectorizer::fit",
                needed: 1,
                found: 0,
            });
        }
        let mut vocab: Vec<String> = docs
            .iter()
            .flat_map(|d| tokenize(d.as_ref(), self.lowercase))
            .collect();
        vocab.sort();
        vocab.dedup();
        if vocab.is_empty() {
            return Err(Error::invalid_param(
                "docs",
                "empty vocabulary: the documents contain no token of two or more word characters",
            ));
        }
        let index = vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i))
            .collect();
        Ok(FittedCountVectorizer {
            params: *self,
            vocabulary: vocab,
            index,
        })
    }

    /// Fits and counts the same documents.
    pub fn fit_transform<F: Float, S: AsRef<str>>(
        &self,
        docs: &[S],
    ) -> Result<(FittedCountVectorizer, Array2<F>)> {
        let fitted = self.fit(docs)?;
        let counts = fitted.transform(docs);
        Ok((fitted, counts))
    }
}

/// A fitted [`CountVectorizer`]: the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedCountVectorizer {
    params: CountVectorizer,
    vocabulary: Vec<String>,
    index: BTreeMap<String, usize>,
}

impl FittedCountVectorizer {
    /// The sorted vocabulary (column `c` counts `vocabulary()[c]`; scikit-learn's
    /// `get_feature_names_out`).
    pub fn vocabulary(&self) -> &[String] {
        &self.vocabulary
    }
    /// Column of a term, if it is in the vocabulary.
    pub fn index_of(&self, term: &str) -> Option<usize> {
        self.index.get(term).copied()
    }
    /// Number of terms.
    pub fn n_terms(&self) -> usize {
        self.vocabulary.len()
    }
    /// The `n_docs × n_terms` count matrix of `docs` (unknown tokens ignored).
    pub fn transform<F: Float, S: AsRef<str>>(&self, docs: &[S]) -> Array2<F> {
        let mut out = Array2::zeros((docs.len(), self.vocabulary.len()));
        for (i, d) in docs.iter().enumerate() {
            for tok in tokenize(d.as_ref(), self.params.lowercase) {
                if let Some(&c) = self.index.get(&tok) {
                    if self.params.binary {
                        out[[i, c]] = F::one();
                    } else {
                        out[[i, c]] += F::one();
                    }
                }
            }
        }
        out
    }
}

impl<F: Float> CheckModel for FittedTfidfTransformer<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedTfidfTransformer");
        c.params(&self.params)?;
        c.at_least("n_features", self.n_features, 1)?;
        if let Some(idf) = &self.idf {
            c.len("idf", idf.len(), self.n_features)?;
            c.finite("idf", idf)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn tokenizer_rules() {
        assert_eq!(tokenize("a bb ccc", true), ["bb", "ccc"]);
        assert_eq!(
            tokenize("Hello-World x_y __ é1", true),
            ["hello", "world", "x_y", "__", "é1"]
        );
        assert_eq!(tokenize("ÀB", false), ["ÀB"]);
        assert!(tokenize("a b ! ?", true).is_empty());
    }

    #[test]
    fn count_vectorizer_counts() {
        let docs = ["aa bb aa", "BB cc", "zz"];
        let cv = CountVectorizer::default().fit(&docs).expect("fit");
        assert_eq!(cv.vocabulary(), ["aa", "bb", "cc", "zz"]);
        let c: Array2<f64> = cv.transform(&["aa aa aa qq", "cc"]);
        assert_eq!(c, array![[3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]]);
        let b: Array2<f64> = CountVectorizer::default()
            .binary(true)
            .fit_transform(&docs)
            .expect("fit")
            .1;
        assert_eq!(b.row(0).to_vec(), vec![1.0, 1.0, 0.0, 0.0]);
        assert_eq!(cv.index_of("cc"), Some(2));
        assert!(CountVectorizer::default().fit::<&str>(&[]).is_err());
        assert!(CountVectorizer::default().fit(&["a ! b"]).is_err());
    }

    #[test]
    fn tfidf_by_hand() {
        // Notes' definition: w = t · ln(D/d).
        let x: Array2<f64> = array![[2.0, 1.0], [0.0, 1.0]];
        let notes = TfidfTransformer::default()
            .smooth_idf(false)
            .idf_add_one(false)
            .norm(TfidfNorm::None)
            .fit(&x)
            .expect("fit");
        let w = notes.transform(&x).expect("t");
        assert_eq!(w, array![[2.0 * 2.0f64.ln(), 0.0], [0.0, 0.0]]);
        // Default: smooth, +1, l2.
        let d = TfidfTransformer::default().fit(&x).expect("fit");
        let i0 = (3.0f64 / 2.0).ln() + 1.0;
        assert_eq!(d.idf().to_vec(), vec![i0, 1.0]);
        let w = d.transform(&x).expect("t");
        let r = ((2.0 * i0).powi(2) + 1.0).sqrt();
        assert!((w[[0, 0]] - 2.0 * i0 / r).abs() < 1e-15);
        assert_eq!(w[[1, 1]], 1.0);
        // Sublinear: 1 + ln 2 for the count 2; negative counts rejected.
        let s = TfidfTransformer::default()
            .sublinear_tf(true)
            .use_idf(false)
            .norm(TfidfNorm::L1)
            .fit(&x)
            .expect("fit");
        let w = s.transform(&x).expect("t");
        let a = 1.0 + 2.0f64.ln();
        assert!((w[[0, 0]] - a / (a + 1.0)).abs() < 1e-15);
        assert!(s.transform(&array![[-1.0, 0.0]]).is_err());
        // A term in no document without smoothing.
        assert!(
            TfidfTransformer::default()
                .smooth_idf(false)
                .fit(&array![[1.0, 0.0]])
                .is_err()
        );
        assert!(d.transform(&array![[1.0]]).is_err());
    }
}
