//! Output sizes of convolution and pooling layers.
//!
//! A window of size `F` slid with stride `S` over an input of size `I` padded by `P` on each
//! side fits
//!
//! ```text
//! O = ⌊(I − F + 2P) / S⌋ + 1
//! ```
//!
//! times (per spatial dimension). A `3 × 3` convolution with padding 1 and stride 1 keeps the
//! size (`O = I`); a `2 × 2` pooling with stride 2 halves it (`O = ⌊I/2⌋`). Positions where the
//! window would stick out of the padded input are dropped (the floor), as in PyTorch's and
//! Keras' `"valid"` arithmetic.
//!
//! ```
//! use ndlearn_neural::conv::output_size;
//!
//! assert_eq!(output_size(32, 3, 1, 1)?, 32);   // "same" 3×3 convolution
//! assert_eq!(output_size(32, 2, 0, 2)?, 16);   // 2×2 max pooling, stride 2
//! assert_eq!(output_size(7, 3, 0, 2)?, 3);     // ⌊(7 − 3)/2⌋ + 1
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndlearn_core::{Error, Result};

/// `⌊(input − window + 2·padding) / stride⌋ + 1`.
///
/// # Errors
/// [`Error::InvalidParam`] for a zero window or stride, or a window larger than the padded
/// input.
pub fn output_size(input: usize, window: usize, padding: usize, stride: usize) -> Result<usize> {
    if window == 0 || stride == 0 {
        return Err(Error::invalid_param(
            if window == 0 { "window" } else { "stride" },
            "must be at least 1",
        ));
    }
    let padded = input + 2 * padding;
    if window > padded {
        return Err(Error::invalid_param(
            "window",
            format!("a window of {window} does not fit an input of {input} padded by {padding}"),
        ));
    }
    Ok((padded - window) / stride + 1)
}

/// [`output_size`] for each spatial dimension (e.g. `[height, width]`) with the same window,
/// padding and stride.
///
/// # Errors
/// As [`output_size`].
pub fn output_shape<const D: usize>(
    input: [usize; D],
    window: usize,
    padding: usize,
    stride: usize,
) -> Result<[usize; D]> {
    let mut out = [0; D];
    for (o, &i) in out.iter_mut().zip(&input) {
        *o = output_size(i, window, padding, stride)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_convolution_and_halving_pool() {
        for i in [1usize, 5, 28, 224] {
            assert_eq!(output_size(i, 3, 1, 1).expect("valid"), i);
            assert_eq!(output_size(i.max(2), 2, 0, 2).expect("valid"), i.max(2) / 2);
        }
        assert_eq!(output_shape([28, 28], 5, 0, 1).expect("valid"), [24, 24]);
        assert_eq!(
            output_shape([224, 224], 7, 3, 2).expect("valid"),
            [112, 112]
        );
    }

    #[test]
    fn invalid_windows_are_errors() {
        assert!(output_size(5, 0, 0, 1).is_err());
        assert!(output_size(5, 3, 0, 0).is_err());
        assert!(output_size(2, 5, 1, 1).is_err());
    }
}
