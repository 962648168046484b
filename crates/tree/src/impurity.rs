//! Impurity functions and split criteria on class counts, as public functions (the quantities
//! the trees optimise, for teaching and for custom split rules).
//!
//! For a node `t` with class counts `n_c` (any non-negative weights) and fractions
//! `p_c = n_c / Σ n`:
//!
//! ```text
//! gini(t)            = 1 − Σ_c p_c²                 ∈ [0, 1 − 1/K]
//! entropy(t)         = −Σ_c p_c log₂ p_c            ∈ [0, log₂ K]   (bits; 0 log 0 = 0)
//! misclassification  = 1 − max_c p_c               ∈ [0, 1 − 1/K]
//! gain Δ             = I(parent) − Σ_j (N_j/N) I(child_j)
//! information gain   = Δ with I = entropy
//! GINI_split         = Σ_j (N_j/N) gini(child_j)
//! split info         = −Σ_j (N_j/N) log₂(N_j/N)
//! gain ratio         = information gain / split info   (C4.5)
//! ```
//!
//! An empty node (all counts 0) has impurity 0. Children with no weight are skipped.
//!
//! ```
//! use ndlearn_tree::impurity::{gini, entropy, gain_ratio};
//!
//! assert!((gini(&[5.0, 5.0]) - 0.5).abs() < 1e-15);
//! assert!((entropy(&[5.0, 5.0]) - 1.0).abs() < 1e-15);
//! // A perfect binary split of a balanced node: gain 1 bit, split info 1 bit.
//! assert!((gain_ratio(&[4.0, 4.0], &[&[4.0, 0.0], &[0.0, 4.0]]) - 1.0).abs() < 1e-15);
//! ```

fn total(counts: &[f64]) -> f64 {
    counts.iter().sum()
}

/// Gini impurity `1 − Σ p_c²` of class counts.
pub fn gini(counts: &[f64]) -> f64 {
    let n = total(counts);
    if n <= 0.0 {
        return 0.0;
    }
    1.0 - counts.iter().map(|c| (c / n) * (c / n)).sum::<f64>()
}

/// Shannon entropy `−Σ p_c log₂ p_c` (bits) of class counts.
pub fn entropy(counts: &[f64]) -> f64 {
    let n = total(counts);
    if n <= 0.0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0.0)
        .map(|&c| {
            let p = c / n;
            -p * p.log2()
        })
        .sum()
}

/// Misclassification error `1 − max_c p_c` of class counts.
pub fn misclassification_error(counts: &[f64]) -> f64 {
    let n = total(counts);
    if n <= 0.0 {
        return 0.0;
    }
    1.0 - counts.iter().fold(0.0f64, |m, &c| m.max(c)) / n
}

/// The gain `I(parent) − Σ_j (N_j/N) I(child_j)` for any impurity `I`, with `N` the parent's
/// total and `N_j` each child's.
pub fn gain(parent: &[f64], children: &[&[f64]], impurity: impl Fn(&[f64]) -> f64) -> f64 {
    let n = total(parent);
    if n <= 0.0 {
        return 0.0;
    }
    impurity(parent)
        - children
            .iter()
            .map(|c| total(c) / n * impurity(c))
            .sum::<f64>()
}

/// Information gain: [`gain`] with the entropy.
pub fn information_gain(parent: &[f64], children: &[&[f64]]) -> f64 {
    gain(parent, children, entropy)
}

/// `GINI_split = Σ_j (N_j/N) gini(child_j)` (to be minimised; `N = Σ_j N_j`).
pub fn gini_split(children: &[&[f64]]) -> f64 {
    let n: f64 = children.iter().map(|c| total(c)).sum();
    if n <= 0.0 {
        return 0.0;
    }
    children.iter().map(|c| total(c) / n * gini(c)).sum()
}

/// Split information `−Σ_j (N_j/N) log₂(N_j/N)` (bits; `N = Σ_j N_j`).
pub fn split_info(children: &[&[f64]]) -> f64 {
    let sizes: Vec<f64> = children.iter().map(|c| total(c)).collect();
    entropy(&sizes)
}

/// Gain ratio: information gain over split information (0 when the split information is 0,
/// i.e. all rows in one child).
pub fn gain_ratio(parent: &[f64], children: &[&[f64]]) -> f64 {
    let si = split_info(children);
    if si <= 0.0 {
        return 0.0;
    }
    information_gain(parent, children) / si
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gini_bounds_tv27() {
        // TV27: minimum 0, maximum 1 − 1/K: 0.5, 0.6667, 0.75 for K = 2, 3, 4.
        assert_eq!(gini(&[7.0, 0.0, 0.0]), 0.0);
        for (k, max) in [(2usize, 0.5), (3, 2.0 / 3.0), (4, 0.75)] {
            assert!((gini(&vec![3.0; k]) - max).abs() < 1e-15, "K = {k}");
            assert!((misclassification_error(&vec![3.0; k]) - max).abs() < 1e-15);
            assert!((entropy(&vec![3.0; k]) - (k as f64).log2()).abs() < 1e-15);
        }
        assert_eq!(gini(&[0.0, 0.0]), 0.0);
    }

    #[test]
    fn split_criteria_by_hand() {
        // Parent (6, 6); children (5, 1) and (1, 5).
        let parent = [6.0, 6.0];
        let l = [5.0, 1.0];
        let r = [1.0, 5.0];
        let g_child = 1.0 - (25.0 + 1.0) / 36.0;
        assert!((gini_split(&[&l, &r]) - g_child).abs() < 1e-15);
        assert!((gain(&parent, &[&l, &r], gini) - (0.5 - g_child)).abs() < 1e-15);
        let h = -(5.0f64 / 6.0 * (5.0f64 / 6.0).log2() + 1.0 / 6.0 * (1.0f64 / 6.0).log2());
        assert!((information_gain(&parent, &[&l, &r]) - (1.0 - h)).abs() < 1e-15);
        assert!((split_info(&[&l, &r]) - 1.0).abs() < 1e-15);
        assert!((gain_ratio(&parent, &[&l, &r]) - (1.0 - h)).abs() < 1e-15);
        // Many small pure children: high information gain, penalised by the split info.
        let singles: Vec<[f64; 2]> = (0..12)
            .map(|i| if i < 6 { [1.0, 0.0] } else { [0.0, 1.0] })
            .collect();
        let refs: Vec<&[f64]> = singles.iter().map(|c| c.as_slice()).collect();
        assert!((information_gain(&parent, &refs) - 1.0).abs() < 1e-15);
        assert!((gain_ratio(&parent, &refs) - 1.0 / 12f64.log2()).abs() < 1e-15);
        assert_eq!(gain_ratio(&parent, &[&parent]), 0.0);
    }
}
