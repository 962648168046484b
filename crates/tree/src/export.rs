//! Tree export: indented text (scikit-learn's `export_text`, character for character), Graphviz
//! dot (`export_graphviz`'s layout of labels) and a self-contained SVG picture (no Graphviz
//! needed).
//!
//! The fitted trees expose them as `export_text`, `export_graphviz` and `to_svg`
//! ([`crate::FittedDecisionTreeClassifier::export_text`], …); the functions here work on any
//! [`Tree`] given what its leaves hold ([`Leaves`]).
//!
//! ```
//! use ndlearn_core::Fit;
//! use ndlearn_tree::DecisionTreeClassifier;
//! use ndlearn_tree::export::ExportOptions;
//!
//! let iris = ndlearn_datasets::iris();
//! let fit = DecisionTreeClassifier::default()
//!     .max_depth(Some(1))
//!     .fit(iris.x(), iris.y_classes().expect("labels"))?;
//! let text = fit.export_text(&ExportOptions::default())?;
//! assert!(text.starts_with("|--- feature_3 <= 0.80\n|   |--- class: 0\n"));
//! let svg = fit.to_svg(&ExportOptions::default())?;
//! assert!(svg.starts_with("<svg") && svg.matches("<rect").count() == 3);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::fmt::Write as _;

use ndlearn_core::{Error, Float, Result};

use crate::common::argmax;
use crate::tree::Tree;

/// What the leaves of a tree hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leaves {
    /// Class fractions (a classifier); printed as the majority class.
    Classes,
    /// One value per output (a regressor).
    Values,
}

/// Options of the exports (scikit-learn's `export_text` parameters and defaults).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Feature names (default `feature_<j>`).
    pub feature_names: Option<Vec<String>>,
    /// Class names (default the class indices).
    pub class_names: Option<Vec<String>>,
    /// Deepest level printed in full; deeper branches are summarised (default 10; text only).
    pub max_depth: usize,
    /// Indentation width (default 3; text only).
    pub spacing: usize,
    /// Decimals of thresholds and values (default 2).
    pub decimals: usize,
    /// Print the weighted class counts of classifier leaves (default `false`).
    pub show_weights: bool,
    /// Name of the impurity shown by dot and SVG (e.g. `gini`; default `impurity`).
    pub impurity_name: String,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self {
            feature_names: None,
            class_names: None,
            max_depth: 10,
            spacing: 3,
            decimals: 2,
            show_weights: false,
            impurity_name: "impurity".into(),
        }
    }
}

impl ExportOptions {
    ndlearn_core::setters! {
        feature_names: Option<Vec<String>>,
        class_names: Option<Vec<String>>,
        max_depth: usize,
        spacing: usize,
        decimals: usize,
        show_weights: bool,
        impurity_name: String,
    }

    fn check<F: Float>(&self, tree: &Tree<F>, leaves: Leaves) -> Result<()> {
        if let Some(names) = &self.feature_names
            && names.len() != tree.n_features()
        {
            return Err(Error::invalid_param(
                "feature_names",
                format!("{} names for {} features", names.len(), tree.n_features()),
            ));
        }
        if let Some(names) = &self.class_names
            && leaves == Leaves::Classes
            && names.len() != tree.max_n_classes()
        {
            return Err(Error::invalid_param(
                "class_names",
                format!("{} names for {} classes", names.len(), tree.max_n_classes()),
            ));
        }
        if self.spacing == 0 {
            return Err(Error::invalid_param("spacing", "must be at least 1"));
        }
        Ok(())
    }

    fn feature(&self, j: usize) -> String {
        self.feature_names
            .as_ref()
            .map_or_else(|| format!("feature_{j}"), |n| n[j].clone())
    }

    fn class(&self, c: usize) -> String {
        self.class_names
            .as_ref()
            .map_or_else(|| c.to_string(), |n| n[c].clone())
    }
}

/// The value row shown for node `i`: class fractions, or the first entry of every output.
fn shown_value<F: Float>(tree: &Tree<F>, i: usize) -> Vec<f64> {
    let v = tree.node_value(i);
    let k = tree.max_n_classes();
    if tree.n_outputs() == 1 {
        v.to_vec()
    } else {
        (0..tree.n_outputs()).map(|o| v[o * k]).collect()
    }
}

fn list(v: &[f64], decimals: usize) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:.decimals$}")).collect();
    format!("[{}]", items.join(", "))
}

/// Levels of the subtree under node `i` (1 for a leaf); an explicit stack, so a tree of any
/// depth (a degenerate chain, a hand-edited model file) cannot overflow the call stack.
fn subtree_depth<F: Float>(tree: &Tree<F>, i: usize) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(i, 1usize)];
    while let Some((j, level)) = stack.pop() {
        deepest = deepest.max(level);
        if !tree.is_leaf(j) {
            stack.push((tree.children_left()[j] as usize, level + 1));
            stack.push((tree.children_right()[j] as usize, level + 1));
        }
    }
    deepest
}

/// The tree as indented text, in scikit-learn's `export_text` format.
///
/// # Errors
/// Names of the wrong length, `spacing = 0`.
pub fn export_text<F: Float>(
    tree: &Tree<F>,
    leaves: Leaves,
    opts: &ExportOptions,
) -> Result<String> {
    opts.check(tree, leaves)?;
    let mut out = String::new();
    if tree.node_count() > 0 {
        text_node(tree, leaves, opts, 0, 1, &mut out);
    }
    Ok(out)
}

fn text_leaf<F: Float>(
    tree: &Tree<F>,
    leaves: Leaves,
    opts: &ExportOptions,
    i: usize,
    indent: &str,
    out: &mut String,
) {
    let v = shown_value(tree, i);
    let d = opts.decimals;
    let body = match leaves {
        Leaves::Classes => {
            let class = if tree.max_n_classes() != 1 && tree.n_outputs() == 1 {
                opts.class(argmax(v.iter().copied()))
            } else {
                argmax(v.iter().copied()).to_string()
            };
            if opts.show_weights {
                let w = tree.weighted_n_node_samples()[i];
                let counts: Vec<f64> = v.iter().map(|f| f * w).collect();
                format!(" weights: {} class: {class}", list(&counts, d))
            } else {
                format!(" class: {class}")
            }
        }
        Leaves::Values => format!(" value: {}", list(&v, d)),
    };
    let _ = writeln!(out, "{indent}{body}");
}

/// One step of the depth-first text walk: a node to print at a depth, or a ready line.
enum TextStep {
    Node(usize, usize),
    Line(String),
}

/// Writes the subtree under node `i` at `depth` (scikit-learn's `export_text` walk, depth
/// first, left before right) with an explicit stack instead of recursion.
fn text_node<F: Float>(
    tree: &Tree<F>,
    leaves: Leaves,
    opts: &ExportOptions,
    i: usize,
    depth: usize,
    out: &mut String,
) {
    let unit = format!("|{}", " ".repeat(opts.spacing));
    let mut stack = vec![TextStep::Node(i, depth)];
    while let Some(step) = stack.pop() {
        let (i, depth) = match step {
            TextStep::Line(line) => {
                let _ = writeln!(out, "{line}");
                continue;
            }
            TextStep::Node(i, depth) => (i, depth),
        };
        let mut indent = unit.repeat(depth);
        indent.truncate(indent.len() - opts.spacing);
        indent.push_str(&"-".repeat(opts.spacing));
        if depth <= opts.max_depth + 1 {
            if tree.is_leaf(i) {
                text_leaf(tree, leaves, opts, i, &indent, out);
            } else {
                let name = opts.feature(tree.feature()[i] as usize);
                let t = tree.threshold()[i].to_f64_lossless();
                let t = format!("{t:.*}", opts.decimals);
                let _ = writeln!(out, "{indent} {name} <= {t}");
                // popped in reverse: the left subtree, the `>` line, the right subtree
                stack.push(TextStep::Node(tree.children_right()[i] as usize, depth + 1));
                stack.push(TextStep::Line(format!("{indent} {name} >  {t}")));
                stack.push(TextStep::Node(tree.children_left()[i] as usize, depth + 1));
            }
        } else {
            let sd = subtree_depth(tree, i);
            if sd == 1 {
                text_leaf(tree, leaves, opts, i, &indent, out);
            } else {
                let _ = writeln!(out, "{indent} truncated branch of depth {sd}");
            }
        }
    }
}

/// The lines describing node `i` (split, impurity, samples, value, class).
fn node_lines<F: Float>(
    tree: &Tree<F>,
    leaves: Leaves,
    opts: &ExportOptions,
    i: usize,
) -> Vec<String> {
    let d = opts.decimals;
    let mut lines = Vec::new();
    if !tree.is_leaf(i) {
        let t = tree.threshold()[i].to_f64_lossless();
        lines.push(format!(
            "{} <= {t:.d$}",
            opts.feature(tree.feature()[i] as usize)
        ));
    }
    lines.push(format!(
        "{} = {:.d$}",
        opts.impurity_name,
        tree.impurity()[i]
    ));
    lines.push(format!("samples = {}", tree.n_node_samples()[i]));
    let v = shown_value(tree, i);
    match leaves {
        Leaves::Classes => {
            let w = tree.weighted_n_node_samples()[i];
            let counts: Vec<f64> = v.iter().map(|f| f * w).collect();
            lines.push(format!("value = {}", list(&counts, d)));
            lines.push(format!("class = {}", opts.class(argmax(v.iter().copied()))));
        }
        Leaves::Values => lines.push(format!("value = {}", list(&v, d))),
    }
    lines
}

/// The tree in Graphviz dot (boxes with the split, impurity, samples, value and class; edges
/// from the root labelled `True` / `False` as scikit-learn's `export_graphviz`).
///
/// # Errors
/// Names of the wrong length.
pub fn export_graphviz<F: Float>(
    tree: &Tree<F>,
    leaves: Leaves,
    opts: &ExportOptions,
) -> Result<String> {
    opts.check(tree, leaves)?;
    let mut out = String::from(
        "digraph Tree {\nnode [shape=box, style=\"rounded\", fontname=\"helvetica\"] ;\nedge [fontname=\"helvetica\"] ;\n",
    );
    for i in 0..tree.node_count() {
        let label = node_lines(tree, leaves, opts, i)
            .iter()
            .map(|l| l.replace('\\', "\\\\").replace('"', "\\\""))
            .collect::<Vec<_>>()
            .join("\\n");
        let _ = writeln!(out, "{i} [label=\"{label}\"] ;");
    }
    for i in (0..tree.node_count()).filter(|&i| !tree.is_leaf(i)) {
        let (l, r) = (tree.children_left()[i], tree.children_right()[i]);
        if i == 0 {
            let _ = writeln!(
                out,
                "{i} -> {l} [labeldistance=2.5, labelangle=45, headlabel=\"True\"] ;"
            );
            let _ = writeln!(
                out,
                "{i} -> {r} [labeldistance=2.5, labelangle=-45, headlabel=\"False\"] ;"
            );
        } else {
            let _ = writeln!(out, "{i} -> {l} ;");
            let _ = writeln!(out, "{i} -> {r} ;");
        }
    }
    out.push_str("}\n");
    Ok(out)
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The tree drawn as a standalone SVG document: one rounded box per node (the dot labels),
/// leaves side by side in order, every parent centred over its children, edges as lines.
///
/// # Errors
/// Names of the wrong length.
pub fn to_svg<F: Float>(tree: &Tree<F>, leaves: Leaves, opts: &ExportOptions) -> Result<String> {
    opts.check(tree, leaves)?;
    const W: f64 = 170.0;
    const GAP: f64 = 20.0;
    const LINE: f64 = 15.0;
    const VGAP: f64 = 40.0;
    let n = tree.node_count();
    let labels: Vec<Vec<String>> = (0..n).map(|i| node_lines(tree, leaves, opts, i)).collect();
    let box_h = labels.iter().map(Vec::len).max().unwrap_or(1) as f64 * LINE + 10.0;
    // x: leaves in order, parents at the middle of their children.
    let mut x = vec![0.0f64; n];
    let mut depth = vec![0usize; n];
    let mut next_leaf = 0.0;
    // Depth first with an explicit stack (any depth): a leaf takes the next slot when first
    // seen, a parent is centred over its children when seen the second time (after both).
    if n > 0 {
        let mut stack = vec![(0usize, 0usize, false)];
        while let Some((i, d, children_done)) = stack.pop() {
            depth[i] = d;
            if tree.is_leaf(i) {
                x[i] = next_leaf;
                next_leaf += 1.0;
                continue;
            }
            let (l, r) = (
                tree.children_left()[i] as usize,
                tree.children_right()[i] as usize,
            );
            if children_done {
                x[i] = (x[l] + x[r]) / 2.0;
            } else {
                stack.push((i, d, true));
                stack.push((r, d + 1, false));
                stack.push((l, d + 1, false));
            }
        }
    }
    let levels = depth.iter().copied().max().map_or(0, |m| m + 1);
    let width = next_leaf.max(1.0) * (W + GAP) + GAP;
    let height = levels as f64 * (box_h + VGAP) + GAP;
    let cx = |i: usize| GAP + x[i] * (W + GAP) + W / 2.0;
    let top = |i: usize| GAP + depth[i] as f64 * (box_h + VGAP);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"helvetica, sans-serif\" font-size=\"11\">"
    );
    for i in (0..n).filter(|&i| !tree.is_leaf(i)) {
        for (c, word) in [
            (tree.children_left()[i] as usize, "True"),
            (tree.children_right()[i] as usize, "False"),
        ] {
            let _ = writeln!(
                out,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#555\"><title>{word}</title></line>",
                cx(i),
                top(i) + box_h,
                cx(c),
                top(c)
            );
        }
    }
    for (i, lines) in labels.iter().enumerate() {
        let fill = if tree.is_leaf(i) {
            "#eef5e9"
        } else {
            "#e8eef7"
        };
        let _ = writeln!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{W:.0}\" height=\"{box_h:.0}\" rx=\"6\" fill=\"{fill}\" stroke=\"#333\"/>",
            cx(i) - W / 2.0,
            top(i)
        );
        for (k, line) in lines.iter().enumerate() {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                cx(i),
                top(i) + 15.0 + k as f64 * LINE,
                xml_escape(line)
            );
        }
    }
    out.push_str("</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DecisionTreeClassifier;
    use ndarray::array;
    use ndlearn_core::Fit;

    #[test]
    fn exports_walk_trees_of_any_depth_without_recursion() {
        // on a thread with a small stack: a recursive walk of 20,000 levels would overflow it
        let run = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let tree = Tree::<f64>::chain(20_000);
                let opts = ExportOptions::default();
                let text = export_text(&tree, Leaves::Classes, &opts).expect("text");
                // the default max_depth (10) shows ten levels, then the rest as one branch
                assert!(
                    text.contains("truncated branch of depth 19990"),
                    "{}",
                    &text[..400]
                );
                let deep = ExportOptions {
                    max_depth: usize::MAX - 1,
                    ..ExportOptions::default()
                };
                let small = Tree::<f64>::chain(300);
                let full = export_text(&small, Leaves::Classes, &deep).expect("full text");
                assert_eq!(
                    full.lines().count(),
                    3 * 300 + 1,
                    "two lines per split, one per leaf"
                );
                assert!(full.lines().last().is_some_and(|l| l.contains("class: 1")));
                let svg = to_svg(&tree, Leaves::Classes, &opts).expect("svg");
                assert_eq!(svg.matches("<rect").count(), tree.node_count());
                let dot = export_graphviz(&tree, Leaves::Classes, &opts).expect("dot");
                assert_eq!(dot.matches(" -> ").count(), tree.node_count() - 1);
            })
            .expect("thread");
        run.join().expect("no stack overflow");
    }

    #[test]
    fn dot_and_svg_have_one_box_per_node() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![0usize, 0, 1, 1];
        let fit = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        let opts = ExportOptions::default()
            .feature_names(Some(vec!["a<b".into()]))
            .impurity_name("gini".into());
        let dot = fit.export_graphviz(&opts).expect("dot");
        assert!(dot.contains("0 [label=\"a<b <= 1.50\\ngini = 0.50\\nsamples = 4\\nvalue = [2.00, 2.00]\\nclass = 0\"] ;"));
        assert!(dot.contains("0 -> 1 [labeldistance=2.5, labelangle=45, headlabel=\"True\"] ;"));
        assert!(dot.ends_with("}\n"));
        let svg = fit.to_svg(&opts).expect("svg");
        assert_eq!(svg.matches("<rect").count(), 3);
        assert_eq!(svg.matches("<line").count(), 2);
        assert!(svg.contains("a&lt;b &lt;= 1.50") && !svg.contains("a<b"));
        assert!(
            fit.export_text(&ExportOptions::default().feature_names(Some(vec![])))
                .is_err()
        );
        assert!(
            fit.export_text(&ExportOptions::default().spacing(0))
                .is_err()
        );
        assert!(
            fit.export_text(&ExportOptions::default().class_names(Some(vec!["x".into()])))
                .is_err()
        );
    }
}
