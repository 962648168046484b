//! Clustering: k-means and DBSCAN on scaled iris, compared with the species by adjusted Rand
//! index.
//!
//! `cargo run --example cluster`

use ndlearn::metrics::adjusted_rand_score;
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

fn main() -> Result<()> {
    let d = ndlearn::datasets::iris();
    let x = StandardScaler::new().fit(d.x())?.transform(d.x())?;
    let truth = d.y_classes().expect("labels");
    let km = KMeans::new(3).seed(0).fit(&x)?;
    println!(
        "k-means: inertia {:.2}, ARI {:.3}",
        km.inertia(),
        adjusted_rand_score(truth, km.labels())?
    );
    let db = Dbscan::new(0.6, 5).fit(&x)?;
    let noise = db.labels().iter().filter(|l| l.is_none()).count();
    println!("DBSCAN eps 0.6: {noise} noise points of {}", x.nrows());
    Ok(())
}
