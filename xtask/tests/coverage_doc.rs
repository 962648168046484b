//! `docs/coverage.md` must list every catalog item CL-001 … CL-206 exactly once, and its summary
//! table must agree with the rows.

use std::collections::BTreeMap;
use std::path::Path;

fn coverage() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/coverage.md");
    std::fs::read_to_string(&path).expect("docs/coverage.md is readable")
}

/// Status column of every `| CL-nnn |` row, keyed by id.
fn rows(doc: &str) -> BTreeMap<u32, Vec<String>> {
    let mut out: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for line in doc.lines() {
        let Some(rest) = line.strip_prefix("| CL-") else {
            continue;
        };
        let id: u32 = rest[..3].parse().expect("three-digit id");
        let status = line
            .split(" | ")
            .nth(3)
            .expect("status column")
            .trim_matches('`');
        out.entry(id).or_default().push(status.to_string());
    }
    out
}

#[test]
fn every_catalog_item_listed_once() {
    let rows = rows(&coverage());
    for id in 1..=206 {
        let n = rows.get(&id).map_or(0, Vec::len);
        assert_eq!(n, 1, "CL-{id:03} appears {n} times in docs/coverage.md");
    }
    assert_eq!(rows.len(), 206, "unexpected ids beyond CL-206");
}

#[test]
fn summary_matches_rows() {
    let doc = coverage();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for statuses in rows(&doc).values() {
        let s = &statuses[0];
        let key = if s.starts_with("theory-only") {
            "theory-only".to_string()
        } else {
            s.clone()
        };
        *counts.entry(key).or_default() += 1;
    }
    let summary = doc
        .split("Checklist items CL-001 … CL-206:")
        .nth(1)
        .expect("summary section");
    let mut listed: BTreeMap<String, usize> = BTreeMap::new();
    for line in summary
        .lines()
        .skip_while(|l| !l.starts_with("| status"))
        .skip(2)
    {
        if !line.starts_with("| `") {
            break;
        }
        let cells: Vec<&str> = line.split(" | ").collect();
        let status = cells[0]
            .trim_start_matches("| ")
            .trim_matches('`')
            .to_string();
        let n: usize = cells[1]
            .trim_end_matches(" |")
            .trim()
            .parse()
            .expect("count");
        listed.insert(status, n);
    }
    assert_eq!(
        listed, counts,
        "the summary table of docs/coverage.md is stale"
    );
}
