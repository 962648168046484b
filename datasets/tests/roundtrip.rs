//! End to end: embedded data sets written with `write_csv_to` and read back with `read_csv`.

use ndlearn_core::ndarray::{Array2, Axis, concatenate};
use ndlearn_datasets::{CsvOptions, NAMES, TargetColumn, by_name, read_csv, write_csv_to};

#[test]
fn embedded_sets_survive_a_csv_round_trip() {
    for name in NAMES {
        let d = by_name(name).expect("listed name");
        let target: Array2<f64> = match (d.y_classes(), d.y_values()) {
            (Some(y), _) => y.mapv(|c| c as f64).insert_axis(Axis(1)),
            (_, Some(v)) => v.clone().insert_axis(Axis(1)),
            _ => panic!("{name} has a target"),
        };
        let table = concatenate(Axis(1), &[d.x.view(), target.view()]).expect("same rows");
        let mut header = d.feature_names.clone();
        header.push("target".into());
        let mut buf = Vec::new();
        write_csv_to(&mut buf, &header, &table).expect("in-memory write");
        let back = read_csv(buf.as_slice(), &CsvOptions::default()).expect("own output parses");
        assert_eq!(back.feature_names, d.feature_names, "{name}");
        assert!(
            back.x
                .iter()
                .zip(d.x.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{name}: features not bit-identical"
        );
        // Auto detection: class indices come back as classes, diabetes as regression.
        assert_eq!(back.y_classes(), d.y_classes(), "{name}");
        assert_eq!(back.y_values(), d.y_values(), "{name}");
        let none = read_csv(
            buf.as_slice(),
            &CsvOptions::default().target(TargetColumn::None),
        )
        .expect("own output parses");
        assert_eq!(none.n_features(), d.n_features() + 1);
    }
}
