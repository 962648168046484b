//! A progress spinner on stderr, fed by the core observer hook
//! ([`ndlearn_core::observe`]): iteration, limit and objective of the running estimator.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use ndlearn_core::observe::{Control, Observer, Progress};

/// A spinner that shows the latest progress report; never asks to stop.
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    /// A spinner labelled `label` (drawn only when stderr is a terminal; indicatif hides it
    /// otherwise).
    pub fn new(label: &str) -> Self {
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix} {elapsed} {msg}") {
            bar.set_style(style);
        }
        bar.set_prefix(label.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Self { bar }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The spinner's message for one report.
pub fn describe(p: &Progress<'_>) -> String {
    let mut s = match p.max_iter {
        Some(m) => format!("{}: iteration {}/{}", p.estimator, p.iteration, m),
        None => format!("{}: iteration {}", p.estimator, p.iteration),
    };
    if let Some(f) = p.objective {
        s.push_str(&format!(", objective {f:.6e}"));
    }
    if let Some(c) = p.criterion {
        s.push_str(&format!(", criterion {c:.3e}"));
    }
    s
}

impl Observer for Bar {
    fn observe(&self, p: &Progress<'_>) -> Control {
        self.bar.set_message(describe(p));
        Control::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_names_iteration_and_objective() {
        let p = Progress::new("lbfgs", 3).max_iter(100).objective(0.5);
        assert_eq!(
            describe(&p),
            "lbfgs: iteration 3/100, objective 5.000000e-1"
        );
        let q = Progress::new("kmeans", 2).criterion(1e-3);
        assert_eq!(describe(&q), "kmeans: iteration 2, criterion 1.000e-3");
    }
}
