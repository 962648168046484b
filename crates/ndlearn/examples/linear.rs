//! Linear models: ridge and lasso on diabetes, a regularisation path, held-out R².
//!
//! `cargo run --example linear`

use ndlearn::linear::{Lasso, Ridge};
use ndlearn::model_selection::{KFold, Scorer, cross_val_score};
use ndlearn::prelude::*;

fn main() -> Result<()> {
    let d = ndlearn::datasets::diabetes();
    let (x, y) = (d.x(), d.y_values().expect("values"));
    let r2 = Scorer::R2.for_regressor()?;
    for alpha in [0.01, 0.1, 1.0] {
        let s = cross_val_score(&Ridge::default().alpha(alpha), x, y, &KFold::new(5), r2)?;
        println!(
            "ridge alpha = {alpha:<5} 5-fold R² {:.4}",
            s.mean().unwrap_or(f64::NAN)
        );
    }
    let lasso = Lasso::default().alpha(0.5).fit(x, y)?;
    let kept = lasso.coef().iter().filter(|c| **c != 0.0).count();
    println!("lasso alpha = 0.5 keeps {kept} of {} features", x.ncols());
    Ok(())
}
