//! k-means through `ndlearn` with only the `cluster` feature: fit three blobs, check the
//! clusters are found.

use ndlearn::cluster::KMeans;
use ndlearn::ndarray::Array2;
use ndlearn::{FitUnsupervised, Predict};

fn main() -> ndlearn::Result<()> {
    // Three tight groups of 20 points around (0, 0), (10, 0) and (0, 10).
    let centres = [[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]];
    let x = Array2::from_shape_fn((60, 2), |(i, j)| {
        centres[i / 20][j] + 0.1 * ((i * 7 + j * 3) % 11) as f64 / 11.0
    });
    let model = KMeans::new(3).fit(&x)?;
    let labels = model.predict(&x)?;
    for g in 0..3 {
        let first = labels[g * 20];
        assert!(labels.slice(ndlearn::ndarray::s![g * 20..(g + 1) * 20]).iter().all(|&l| l == first));
    }
    assert_ne!(labels[0], labels[20]);
    assert_ne!(labels[20], labels[40]);
    println!("k-means found the 3 groups (inertia {:.4})", model.inertia());
    Ok(())
}
