//! Decomposition: PCA's explained variance on scaled wine, and a 2-D t-SNE embedding.
//!
//! `cargo run --example decomposition`

use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

fn main() -> Result<()> {
    let d = ndlearn::datasets::wine();
    let x = StandardScaler::new().fit(d.x())?.transform(d.x())?;
    let pca = Pca::new(5).fit(&x)?;
    let ratio = pca.explained_variance_ratio();
    println!(
        "PCA: first 5 components explain {:.1} % ({ratio:.3})",
        100.0 * ratio.sum()
    );
    let emb = Tsne::default().seed(0).fit(&x)?;
    println!("t-SNE: {} rows embedded in 2-D", emb.embedding().nrows());
    Ok(())
}
