//! Property tests of the generators (few cases: the CI machine has 2 cores).

use ndlearn_datasets::{MakeBlobs, MakeCircles, MakeClassification, MakeMoons, MakeRegression};
use proptest::prelude::*;

fn counts(y: &[usize], k: usize) -> Vec<usize> {
    let mut c = vec![0; k];
    for &v in y {
        c[v] += 1;
    }
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn blobs_shapes_and_even_split(
        n in 1usize..200,
        p in 1usize..5,
        k in 1usize..6,
        seed in any::<u64>(),
    ) {
        let m = MakeBlobs::default().n_samples(n).n_features(p).centers(k).seed(seed);
        let b = m.generate().expect("valid options");
        prop_assert_eq!(b.x.dim(), (n, p));
        prop_assert_eq!(b.centers.dim(), (k, p));
        prop_assert!(b.y.iter().all(|&c| c < k));
        prop_assert!(b.centers.iter().all(|&c| (-10.0..10.0).contains(&c)));
        let expected: Vec<usize> = (0..k).map(|c| n / k + usize::from(c < n % k)).collect();
        prop_assert_eq!(counts(b.y.as_slice().expect("contiguous"), k), expected);
        prop_assert_eq!(b, m.generate().expect("valid options"));
    }

    #[test]
    fn classification_shapes_and_labels(
        n in 1usize..150,
        n_inf in 1usize..5,
        n_red in 0usize..3,
        n_rep in 0usize..3,
        n_noise in 0usize..3,
        n_classes in 1usize..5,
        n_cpc in 1usize..3,
        flip in prop_oneof![Just(0.0), 0.0f64..0.3],
        seed in any::<u64>(),
    ) {
        prop_assume!(n_classes * n_cpc <= 1 << n_inf);
        let p = n_inf + n_red + n_rep + n_noise;
        let m = MakeClassification::default()
            .n_samples(n)
            .n_features(p)
            .n_informative(n_inf)
            .n_redundant(n_red)
            .n_repeated(n_rep)
            .n_classes(n_classes)
            .n_clusters_per_class(n_cpc)
            .flip_y(flip)
            .seed(seed);
        let (x, y) = m.generate().expect("valid options");
        prop_assert_eq!(x.dim(), (n, p));
        prop_assert_eq!(y.len(), n);
        prop_assert!(y.iter().all(|&c| c < n_classes));
        prop_assert!(x.iter().all(|v| v.is_finite()));
        if flip == 0.0 {
            // Balanced: clusters differ by at most one sample, classes by at most n_cpc.
            let c = counts(y.as_slice().expect("contiguous"), n_classes);
            let (lo, hi) = (c.iter().min().copied().unwrap_or(0), c.iter().max().copied().unwrap_or(0));
            prop_assert!(hi - lo <= n_cpc, "class counts {:?}", c);
        }
        let (x2, y2) = m.generate().expect("valid options");
        prop_assert_eq!(x, x2);
        prop_assert_eq!(y, y2);
    }

    #[test]
    fn regression_is_an_exact_linear_model(
        n in 1usize..80,
        p in 1usize..12,
        n_inf in 0usize..15,
        bias in -50.0f64..50.0,
        shuffle in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let (x, y, coef) = MakeRegression::default()
            .n_samples(n)
            .n_features(p)
            .n_informative(n_inf)
            .bias(bias)
            .shuffle(shuffle)
            .seed(seed)
            .generate_with_coef()
            .expect("valid options");
        prop_assert_eq!(x.dim(), (n, p));
        prop_assert_eq!(coef.iter().filter(|&&w| w != 0.0).count(), n_inf.min(p));
        let fit = x.dot(&coef) + bias;
        for (a, b) in fit.iter().zip(&y) {
            prop_assert!((a - b).abs() < 1e-10 * (1.0 + b.abs()));
        }
    }

    #[test]
    fn moons_and_circles_split_in_half(
        n in 1usize..300,
        noise in prop_oneof![Just(0.0), 0.0f64..0.5],
        factor in 0.0f64..0.99,
        seed in any::<u64>(),
    ) {
        let (x, y) = MakeMoons::default().n_samples(n).noise(noise).seed(seed).generate().expect("valid");
        prop_assert_eq!(x.dim(), (n, 2));
        prop_assert_eq!(counts(y.as_slice().expect("contiguous"), 2), vec![n / 2, n - n / 2]);
        let (x, y) = MakeCircles::default()
            .n_samples(n)
            .noise(noise)
            .factor(factor)
            .seed(seed)
            .generate()
            .expect("valid");
        prop_assert_eq!(x.dim(), (n, 2));
        prop_assert_eq!(counts(y.as_slice().expect("contiguous"), 2), vec![n / 2, n - n / 2]);
        if noise == 0.0 {
            for (row, &c) in x.rows().into_iter().zip(&y) {
                let radius = if c == 0 { 1.0 } else { factor };
                prop_assert!((row[0].hypot(row[1]) - radius).abs() < 1e-12);
            }
        }
    }
}
