//! Build script: when the `openblas-system` backend is selected on Linux, find the system
//! OpenBLAS *before* the link step (a missing library ends in a message that says what to
//! install instead of a raw linker error) and emit its link line. On Linux this replaces
//! openblas-src, whose build dependency cannot be compiled without a TLS stack for a download
//! the system library never makes (decision 0022); other systems keep openblas-src's own
//! discovery (brew, vcpkg).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=NDLEARN_SKIP_BLAS_PROBE");
    println!("cargo:rerun-if-env-changed=OPENBLAS_LIB_DIR");
    println!("cargo:rerun-if-env-changed=DOCS_RS");
    if env::var_os("CARGO_FEATURE_OPENBLAS_SYSTEM").is_none() {
        return;
    }
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" {
        return; // openblas-src has its own discovery (brew, vcpkg) on other systems.
    }
    // docs.rs builds documentation only (nothing is linked) on a machine without OpenBLAS.
    if env::var_os("DOCS_RS").is_some() {
        return;
    }
    let skip_probe = env::var_os("NDLEARN_SKIP_BLAS_PROBE").is_some();
    let found = if skip_probe {
        Some(None)
    } else {
        openblas_dir()
    };
    if let Some(dir) = found {
        if let Some(dir) = dir {
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
        println!("cargo:rustc-link-lib=dylib=openblas");
        return;
    }
    let msg = "\n\nndlearn: the system OpenBLAS library was not found (feature `openblas-system`, the default).\n\
         Install it, then build again:\n\
         \n    Debian/Ubuntu:  sudo apt-get install libopenblas-dev\n\
         \x20   Fedora:         sudo dnf install openblas-devel\n\
         \x20   or simply:      cargo xtask setup   (runs apt-get when you are root)\n\
         \nAlternatives: build with `--no-default-features --features openblas-static` (compiles OpenBLAS,\n\
         needs gfortran), or point OPENBLAS_LIB_DIR at a folder holding libopenblas.so.\n\
         Set NDLEARN_SKIP_BLAS_PROBE=1 to bypass this check.\n";
    // A build-script panic message is shown verbatim by cargo; it is the clearest channel.
    for line in msg.lines() {
        println!("cargo:warning={line}");
    }
    eprintln!("{msg}");
    std::process::exit(1);
}

/// Where libopenblas is: `Some(Some(dir))` for a directory to add to the search path,
/// `Some(None)` when pkg-config or the loader cache knows it (default search path), `None` when
/// it is missing.
fn openblas_dir() -> Option<Option<PathBuf>> {
    if let Some(dir) = env::var_os("OPENBLAS_LIB_DIR") {
        let dir = PathBuf::from(dir);
        if has_lib(&dir) {
            return Some(Some(dir));
        }
    }
    if let Ok(out) = Command::new("pkg-config")
        .args(["--variable=libdir", "openblas"])
        .output()
    {
        let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && !dir.is_empty() && has_lib(Path::new(&dir)) {
            return Some(Some(PathBuf::from(dir)));
        }
    }
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let multiarch = format!("/usr/lib/{arch}-linux-gnu");
    let dirs = [
        multiarch.as_str(),
        "/usr/lib",
        "/usr/lib64",
        "/usr/local/lib",
        "/usr/local/lib64",
        "/opt/OpenBLAS/lib",
    ];
    if let Some(d) = dirs.iter().find(|d| has_lib(Path::new(d))) {
        return Some(Some(PathBuf::from(d)));
    }
    // Last resort: ask the dynamic loader cache.
    let known = Command::new("ldconfig")
        .arg("-p")
        .output()
        .map(|o| {
            let s = String::from_utf8_lossy(&o.stdout);
            s.lines()
                .any(|l| l.contains("libopenblas.so ") && !l.contains("libopenblas.so."))
        })
        .unwrap_or(false);
    known.then_some(None)
}

fn has_lib(dir: &Path) -> bool {
    dir.join("libopenblas.so").exists() || dir.join("libopenblas.a").exists()
}
