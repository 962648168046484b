//! The `param` target: `--param key=value` strings through the command line's split and the
//! registry's typed parsing and validation.

use arbitrary::{Result as ArbResult, Unstructured};

use crate::{Outcome, entries};

/// Values that stress a typed parser: numbers at and past every limit, junk, JSON fragments.
const VALUES: [&str; 30] = [
    "0",
    "1",
    "-1",
    "0.5",
    "-0",
    "1e308",
    "1e309",
    "-1e309",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "4294967296",
    "1e-400",
    "",
    " ",
    "true",
    "false",
    "null",
    "none",
    "[1,2]",
    "[]",
    "{",
    "{\"a\":1}",
    "\"quoted\"",
    "auto",
    "0x10",
];

fn value(u: &mut Unstructured<'_>, choices: &[String]) -> ArbResult<String> {
    Ok(match u.int_in_range(0u8..=5)? {
        0..=2 => VALUES[u.choose_index(VALUES.len())?].to_string(),
        3 if !choices.is_empty() => choices[u.choose_index(choices.len())?].clone(),
        4 => {
            let n = u.int_in_range(1usize..=400)?;
            "9".repeat(n)
        }
        _ => u.arbitrary::<String>()?,
    })
}

pub(crate) fn run(u: &mut Unstructured<'_>) -> ArbResult<Outcome> {
    let all = entries();
    let entry = &all[u.choose_index(all.len())?];
    let Ok(infos) = entry.params() else {
        panic!("{}: the parameter list does not build", entry.name());
    };
    let mut raw = Vec::new();
    for _ in 0..u.int_in_range(0u8..=4)? {
        let arg = match u.int_in_range(0u8..=7)? {
            0 => u.arbitrary::<String>()?,
            1 => format!("{}={}", u.arbitrary::<String>()?, value(u, &[])?),
            _ if !infos.is_empty() => {
                let p = &infos[u.choose_index(infos.len())?];
                let key = if !p.aliases.is_empty() && u.ratio(1u8, 4u8)? {
                    p.aliases[u.choose_index(p.aliases.len())?].clone()
                } else {
                    p.name.clone()
                };
                format!("{key}={}", value(u, &p.choices)?)
            }
            _ => format!("seed={}", value(u, &[])?),
        };
        raw.push(arg);
    }
    let Ok(pairs) = ndlearn_cli::parse_params(&raw) else {
        return Ok(Outcome::Rejected);
    };
    let resolved = entry.resolve_overrides(&pairs);
    let built = entry.build(&pairs);
    assert!(
        built.is_err() || resolved.is_ok(),
        "{}: {raw:?} builds but does not resolve",
        entry.name()
    );
    match built {
        Ok(est) => {
            // What was accepted validates (or is refused with a typed error) and its stored
            // form builds the same estimator again.
            let _ = est.validate();
            if let Err(e) = entry.build_json(est.params()) {
                panic!(
                    "{}: accepted parameters {raw:?} do not rebuild from their JSON: {e}",
                    entry.name()
                );
            }
            Ok(Outcome::Accepted)
        }
        Err(_) => Ok(Outcome::Rejected),
    }
}
