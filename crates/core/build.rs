//! Build script: when the `openblas-system` backend is selected, check that the system OpenBLAS
//! can be found *before* the link step, so that a missing library ends in a message that says
//! what to install instead of a raw linker error.

use std::env;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=NDLEARN_SKIP_BLAS_PROBE");
    println!("cargo:rerun-if-env-changed=OPENBLAS_LIB_DIR");
    if env::var_os("CARGO_FEATURE_OPENBLAS_SYSTEM").is_none()
        || env::var_os("NDLEARN_SKIP_BLAS_PROBE").is_some()
    {
        return;
    }
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os != "linux" {
        return; // openblas-src has its own discovery (brew, vcpkg) on other systems.
    }
    if openblas_found() {
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

fn openblas_found() -> bool {
    if let Some(dir) = env::var_os("OPENBLAS_LIB_DIR") {
        if has_lib(Path::new(&dir)) {
            return true;
        }
    }
    if let Ok(out) = Command::new("pkg-config")
        .args(["--exists", "openblas"])
        .status()
    {
        if out.success() {
            return true;
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
    if dirs.iter().any(|d| has_lib(Path::new(d))) {
        return true;
    }
    // Last resort: ask the dynamic loader cache.
    Command::new("ldconfig")
        .arg("-p")
        .output()
        .map(|o| {
            let s = String::from_utf8_lossy(&o.stdout);
            s.lines()
                .any(|l| l.contains("libopenblas.so ") && !l.contains("libopenblas.so."))
        })
        .unwrap_or(false)
}

fn has_lib(dir: &Path) -> bool {
    dir.join("libopenblas.so").exists() || dir.join("libopenblas.a").exists()
}
