//! `cargo xtask` — developer automation for the ndlearn workspace.
//!
//! Run `cargo xtask help` for the list of commands. The crate uses `std` only (no dependencies,
//! no BLAS) so that it builds in seconds on a fresh machine, before OpenBLAS is even installed.
//!
//! Every command runs with the workspace root as its current directory, and invokes the same
//! `cargo` binary that launched it (the `CARGO` environment variable set by `cargo run`).

use std::env;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// Usage text printed by `cargo xtask help`, with no arguments, or on an unknown command.
const USAGE: &str = "\
cargo xtask — ndlearn developer tasks

USAGE:
    cargo xtask <COMMAND> [ARGS...]

COMMANDS:
    setup            Check that OpenBLAS and pkg-config are installed; install them with
                     apt-get when running as root, otherwise print the command to run.
    test [ARGS...]   setup, then the whole test suite. With cargo-nextest installed:
                     `cargo nextest run --workspace --no-fail-fast ARGS` followed by
                     `cargo test --workspace --doc`; without it:
                     `cargo test --workspace --no-fail-fast ARGS`. Then every example of the
                     facade; docs/sklearn-map.md current; the SIMD neighbour kernels' tests
                     at every narrower level the CPU supports (NDLEARN_SIMD); rustdoc with
                     warnings as errors; the feature matrix (every library crate without
                     defaults and with each feature alone, their tests without defaults,
                     the facade with each family alone, a downstream crate); `cargo publish
                     --dry-run` of every published crate (each under crates.io's 10 MiB
                     limit). Prints each step's duration.
    blas-sweep [KERNEL...]
                     setup, then the nextest suite once per OpenBLAS kernel
                     (OPENBLAS_CORETYPE=KERNEL; default: Haswell, Zen, Sandybridge, Nehalem,
                     Prescott, plus SkylakeX and Cooperlake on an AVX-512 CPU) and a table
                     of the outcomes. By hand, not in CI (about 1.5 minutes of tests per
                     kernel once built).
    bench [ARGS...]  setup, then `cargo run --release -p ndlearn-bench --bin compare -- ARGS`
                     (results under target/ndlearn-bench/). OPENBLAS_CORETYPE and
                     OPENBLAS_L2_SIZE are removed from the benchmark's environment.
    fuzz [--seconds N] [ARGS...]
                     Build ndlearn-fuzz (test profile: debug assertions and overflow checks
                     on) and run every fuzz target (csv, model_file, param, fit_predict) for
                     N seconds each (default 60), each in a watched child process; findings
                     (panics, aborts, hangs) are saved under crates/fuzz/corpus/<target>/
                     and replayed by the normal test suite. ARGS go to the fuzzer
                     (`--target NAME`, `--seed S`). `test` runs a short budget
                     (NDLEARN_FUZZ_SECONDS, default 15 s per target).
    dist [ARGS...]   setup, then build the distributed workspace (distributed/, release) and
                     run `ndlearn-dist ARGS` from it: `dist generate --out DIR --rows N`
                     writes a synthetic Parquet table; `dist measure --dir DIR` generates
                     1, 3 and 10 million × 50 tables (4.2 GB for 10 million), starts a
                     scheduler and two single-core executors on 127.0.0.1 and prints the
                     table of docs/distributed.md. OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE
                     are removed from its environment. By hand, not in CI.
    golden           Regenerate golden reference data: create target/golden-venv if missing,
                     pip-install scripts/golden/requirements.txt, then run every
                     scripts/golden/*.py except common.py, extract_datasets.py first, then in sorted order.
    sklearn-map [--check] [--bin PATH]
                     Write docs/sklearn-map.md from the estimator registry (`ndlearn list
                     --sklearn-map`); with --check, fail if the file is not current instead;
                     with --bin, run that ndlearn binary instead of `cargo run`.
    ci               setup, `cargo fmt --all --check`, `cargo clippy --workspace --all-targets
                     -- -D warnings`, test, `cargo doc --workspace --no-deps` with
                     RUSTDOCFLAGS=\"-D warnings\". Runs every step, then reports the failures.
    help             Print this text.

ENVIRONMENT:
    PROPTEST_CASES   cases per property test in `test` and `ci` (default here: 32)
    PROPTEST_RNG_SEED  proptest seed (default: fixed in ndlearn-testkit; `random` for fresh cases)
    NEXTEST_PROFILE  nextest profile, passed through unchanged
    NDLEARN_FUZZ_SECONDS  seconds per fuzz target in `test` (default 15; 0 skips the step)
    NDLEARN_SIMD     cap of ndlearn's own SIMD kernels (avx512, avx2, avx, baseline); `test`
                     sets it itself for its per-level step
";

/// Environment variables that slow OpenBLAS down on some machines; removed for benchmarks only.
const BENCH_UNSET_VARS: [&str; 2] = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"];

/// Default number of proptest cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_PROPTEST_CASES: &str = "32";

/// Result type of the commands: the error is a message for the user.
type Result<T, E = String> = std::result::Result<T, E>;

fn main() -> ExitCode {
    let mut args = env::args_os().skip(1);
    let command = args.next();
    let rest: Vec<OsString> = args.collect();

    let ctx = match Ctx::new() {
        Ok(ctx) => ctx,
        Err(msg) => return fail(&msg),
    };

    let outcome = match command.as_deref().map(OsStr::to_str) {
        None | Some(Some("help" | "-h" | "--help")) => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some(Some("setup")) => no_args("setup", &rest)
            .and_then(|()| setup(&ctx, true))
            .map(|_| ExitCode::SUCCESS),
        Some(Some("test")) => test(&ctx, &rest),
        Some(Some("bench")) => bench(&ctx, &rest),
        Some(Some("golden")) => no_args("golden", &rest).and_then(|()| golden(&ctx)),
        Some(Some("ci")) => no_args("ci", &rest).and_then(|()| ci(&ctx)),
        Some(Some("sklearn-map")) => sklearn_map(&ctx, &rest),
        Some(Some("blas-sweep")) => blas_sweep(&ctx, &rest),
        Some(Some("fuzz")) => fuzz(&ctx, &rest),
        Some(Some("dist")) => dist(&ctx, &rest),
        Some(_) => {
            let name = command.unwrap_or_default();
            eprintln!("xtask: unknown command `{}`\n", name.to_string_lossy());
            eprint!("{USAGE}");
            Ok(ExitCode::from(2))
        }
    };
    outcome.unwrap_or_else(|msg| fail(&msg))
}

/// Prints an error message and returns the failure exit code (1).
fn fail(msg: &str) -> ExitCode {
    eprintln!("xtask: error: {msg}");
    ExitCode::FAILURE
}

/// Rejects extra arguments for commands that take none.
fn no_args(command: &str, rest: &[OsString]) -> Result<()> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "`cargo xtask {command}` takes no arguments (got {rest:?})"
        ))
    }
}

/// Where the commands run and which cargo they use.
struct Ctx {
    /// Workspace root (the parent of this crate's directory).
    root: PathBuf,
    /// The cargo binary: `$CARGO` when set (it is under `cargo run`), else `cargo` from `PATH`.
    cargo: OsString,
}

impl Ctx {
    /// Locates the workspace root from `CARGO_MANIFEST_DIR` (`xtask/..`).
    fn new() -> Result<Self> {
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest_dir
            .parent()
            .ok_or_else(|| format!("{} has no parent directory", manifest_dir.display()))?
            .to_path_buf();
        if !root.join("Cargo.toml").is_file() {
            return Err(format!(
                "workspace root {} has no Cargo.toml (was xtask moved after it was built?)",
                root.display()
            ));
        }
        let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
        Ok(Self { root, cargo })
    }

    /// A `cargo` command that runs in the workspace root.
    fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut cmd = Command::new(&self.cargo);
        cmd.args(args).current_dir(&self.root);
        cmd
    }

    /// Any command, run in the workspace root.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.root);
        cmd
    }
}

// ---------------------------------------------------------------------------------------------
// Running steps
// ---------------------------------------------------------------------------------------------

/// Renders a command for display: environment overrides, program file name, arguments.
fn describe(cmd: &Command) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            parts.push(format!(
                "{}={}",
                key.to_string_lossy(),
                quote(&value.to_string_lossy())
            ));
        }
    }
    let program = Path::new(cmd.get_program())
        .file_name()
        .unwrap_or_else(|| cmd.get_program());
    parts.push(program.to_string_lossy().into_owned());
    parts.extend(cmd.get_args().map(|a| quote(&a.to_string_lossy())));
    parts.join(" ")
}

/// Quotes a word for display when it contains spaces or is empty.
fn quote(word: &str) -> String {
    if word.is_empty() || word.contains(char::is_whitespace) {
        format!("\"{word}\"")
    } else {
        word.to_owned()
    }
}

/// Runs a command with inherited stdio; `Ok(true)` when it exits successfully.
fn status_ok(cmd: &mut Command) -> Result<bool> {
    cmd.status()
        .map(|s| s.success())
        .map_err(|e| format!("could not run `{}`: {e}", describe(cmd)))
}

/// Runs a command quietly (no output) and tells whether it succeeded; `false` if it cannot run.
fn quietly_ok(cmd: &mut Command) -> bool {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The outcome of each step of a multi-step command, for the final summary.
#[derive(Default)]
struct Steps {
    /// `(description, succeeded, seconds)` in run order.
    done: Vec<(String, bool, f64)>,
}

impl Steps {
    /// Prints a header, runs the command with inherited stdio and records the outcome.
    /// A command that cannot be started counts as failed; later steps still run.
    fn run(&mut self, title: &str, cmd: &mut Command) -> bool {
        let shown = describe(cmd);
        println!("\n==> {title}: {shown}");
        let started = Instant::now();
        let ok = status_ok(cmd).unwrap_or_else(|msg| {
            eprintln!("xtask: error: {msg}");
            false
        });
        let secs = started.elapsed().as_secs_f64();
        if !ok {
            println!("==> {title}: FAILED");
        }
        self.done.push((format!("{title}: {shown}"), ok, secs));
        ok
    }

    /// Prints the summary table and returns the exit code: failure if any step failed.
    fn finish(&self, what: &str) -> ExitCode {
        println!("\n==> {what} summary");
        for (name, ok, secs) in &self.done {
            println!(
                "    {:<7} {secs:>7.1} s  {name}",
                if *ok { "ok" } else { "FAILED" }
            );
        }
        let failed: Vec<&str> = self
            .done
            .iter()
            .filter(|(_, ok, _)| !ok)
            .map(|(name, _, _)| name.as_str())
            .collect();
        if failed.is_empty() {
            println!("==> {what}: all {} steps passed", self.done.len());
            ExitCode::SUCCESS
        } else {
            println!(
                "==> {what}: {} of {} steps FAILED",
                failed.len(),
                self.done.len()
            );
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------------------------------------
// setup
// ---------------------------------------------------------------------------------------------

/// Packages to install with apt-get on Debian/Ubuntu.
const APT_PACKAGES: [&str; 2] = ["libopenblas-dev", "pkg-config"];

/// Checks (and on Debian as root, installs) OpenBLAS and pkg-config.
///
/// With `check_nextest`, also reports whether `cargo nextest` is available and returns that.
fn setup(ctx: &Ctx, check_nextest: bool) -> Result<bool> {
    println!("==> setup: checking system prerequisites");
    let mut pkg_config = has_pkg_config();
    let mut openblas = find_openblas();
    report_prerequisites(pkg_config, openblas.as_deref());

    if !pkg_config || openblas.is_none() {
        install_prerequisites(ctx)?;
        pkg_config = has_pkg_config();
        openblas = find_openblas();
        report_prerequisites(pkg_config, openblas.as_deref());
        if !pkg_config || openblas.is_none() {
            return Err("OpenBLAS / pkg-config still missing after the installation".into());
        }
    }

    let nextest = check_nextest && quietly_ok(&mut ctx.cargo(["nextest", "--version"]));
    if check_nextest && !nextest {
        println!(
            "    note: cargo-nextest is not installed (`cargo nextest --version` failed); \
             the plain `cargo test` runner will be used"
        );
    }
    println!("==> setup: ok");
    Ok(nextest)
}

/// Prints what was found.
fn report_prerequisites(pkg_config: bool, openblas: Option<&str>) {
    println!(
        "    pkg-config: {}",
        if pkg_config { "found" } else { "MISSING" }
    );
    match openblas {
        Some(place) => println!("    OpenBLAS:   found ({place})"),
        None => println!("    OpenBLAS:   MISSING"),
    }
}

/// Whether `pkg-config` runs.
fn has_pkg_config() -> bool {
    quietly_ok(Command::new("pkg-config").arg("--version"))
}

/// Looks for a linkable OpenBLAS the same way `ndlearn-core`'s build script does; returns where
/// it was found.
fn find_openblas() -> Option<String> {
    if let Some(dir) = env::var_os("OPENBLAS_LIB_DIR") {
        let dir = PathBuf::from(dir);
        if let Some(lib) = lib_in(&dir) {
            return Some(format!("{} via OPENBLAS_LIB_DIR", lib.display()));
        }
    }
    if quietly_ok(Command::new("pkg-config").args(["--exists", "openblas"])) {
        let version = Command::new("pkg-config")
            .args(["--modversion", "openblas"])
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
            .unwrap_or_default();
        return Some(
            format!("pkg-config openblas {version}")
                .trim_end()
                .to_owned(),
        );
    }
    let multiarch = format!("/usr/lib/{}-linux-gnu", env::consts::ARCH);
    let dirs = [
        multiarch.as_str(),
        "/usr/lib",
        "/usr/lib64",
        "/usr/local/lib",
        "/usr/local/lib64",
        "/opt/OpenBLAS/lib",
        // Homebrew (keg-only, so pkg-config does not see it by default).
        "/opt/homebrew/opt/openblas/lib",
        "/usr/local/opt/openblas/lib",
    ];
    if let Some(lib) = dirs.iter().find_map(|d| lib_in(Path::new(d))) {
        return Some(lib.display().to_string());
    }
    // Last resort: the dynamic loader cache must list the unversioned development link.
    let listed = Command::new("ldconfig")
        .arg("-p")
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.split_whitespace().next() == Some("libopenblas.so"))
        });
    listed.then(|| "ldconfig cache".to_owned())
}

/// The OpenBLAS library file in `dir`, if any.
fn lib_in(dir: &Path) -> Option<PathBuf> {
    ["libopenblas.so", "libopenblas.a", "libopenblas.dylib"]
        .iter()
        .map(|name| dir.join(name))
        .find(|path| path.exists())
}

/// Installs the prerequisites with apt-get when possible, otherwise explains what to install.
fn install_prerequisites(ctx: &Ctx) -> Result<()> {
    let packages = APT_PACKAGES.join(" ");
    if find_in_path("apt-get").is_some() {
        if !is_root() {
            return Err(format!(
                "OpenBLAS (development files) and pkg-config are required. Run:\n\n    \
                 sudo apt-get install {packages}\n\nthen `cargo xtask setup` again."
            ));
        }
        println!("==> setup: running as root, installing {packages} with apt-get");
        let mut update = ctx.command("apt-get");
        update.args(["update", "-qq"]);
        println!("    $ {}", describe(&update));
        if !status_ok(&mut update)? {
            return Err("`apt-get update -qq` failed".into());
        }
        let mut install = ctx.command("apt-get");
        install
            .env("DEBIAN_FRONTEND", "noninteractive")
            .args(["install", "-y", "-qq"])
            .args(APT_PACKAGES);
        println!("    $ {}", describe(&install));
        if !status_ok(&mut install)? {
            return Err(format!("`apt-get install {packages}` failed"));
        }
        return Ok(());
    }
    let hint = if find_in_path("dnf").is_some() {
        "on Fedora/RHEL run:\n\n    sudo dnf install openblas-devel pkgconf-pkg-config"
    } else if find_in_path("brew").is_some() {
        "with Homebrew run:\n\n    brew install openblas pkg-config\n\n\
         (openblas is keg-only: you may need \
         PKG_CONFIG_PATH=\"$(brew --prefix openblas)/lib/pkgconfig\")"
    } else {
        "install them with your package manager: libopenblas-dev + pkg-config on Debian/Ubuntu, \
         openblas-devel + pkgconf-pkg-config on Fedora, openblas + pkg-config on Homebrew"
    };
    Err(format!(
        "OpenBLAS (development files) and pkg-config are required; {hint}\n\n\
         then run `cargo xtask setup` again."
    ))
}

/// Whether we run as root (`id -u` prints 0).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Finds an executable on `PATH`.
fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

// ---------------------------------------------------------------------------------------------
// test
// ---------------------------------------------------------------------------------------------

/// `cargo xtask test [ARGS...]`.
fn test(ctx: &Ctx, extra: &[OsString]) -> Result<ExitCode> {
    let nextest = setup(ctx, true)?;
    let mut steps = Steps::default();
    run_tests(ctx, nextest, extra, &mut steps);
    Ok(steps.finish("test"))
}

/// Runs the test suite steps (no setup), recording each in `steps`.
fn run_tests(ctx: &Ctx, nextest: bool, extra: &[OsString], steps: &mut Steps) {
    if env::var_os("PROPTEST_CASES").is_none() {
        println!(
            "\n==> test: PROPTEST_CASES={DEFAULT_PROPTEST_CASES} (set PROPTEST_CASES to change)"
        );
    }
    let with_env = |mut cmd: Command| {
        with_proptest_default(&mut cmd);
        cmd
    };
    if nextest {
        let mut run = with_env(ctx.cargo(["nextest", "run", "--workspace", "--no-fail-fast"]));
        run.args(extra);
        steps.run("test (nextest)", &mut run);
        let mut doc = with_env(ctx.cargo(["test", "--workspace", "--doc"]));
        steps.run("test (doctests)", &mut doc);
    } else {
        let mut run = with_env(ctx.cargo(["test", "--workspace", "--no-fail-fast"]));
        run.args(extra);
        steps.run("test", &mut run);
    }
    // The examples and the CLI binary, built with the test run's feature set (`--workspace`
    // unifies features as the test run did, so nothing is rebuilt), then run from the target
    // directory: `cargo run -p ndlearn` would resolve the facade's features alone and rebuild
    // core and every algorithm crate with them.
    let examples = example_names(ctx);
    let mut build = ctx.cargo([
        "build",
        "--workspace",
        "--bin",
        "ndlearn",
        "--bin",
        "ndlearn-fuzz",
    ]);
    for name in &examples {
        build.args(["--example", name]);
    }
    if steps.run("build (examples, ndlearn, ndlearn-fuzz)", &mut build) {
        run_examples(ctx, &examples, steps);
        let mut map = ctx.cargo(["xtask", "sklearn-map", "--check", "--bin"]);
        map.arg(target_dir(ctx).join("debug/ndlearn"));
        steps.run("docs/sklearn-map.md is current", &mut map);
        let seconds = env::var("NDLEARN_FUZZ_SECONDS").unwrap_or_else(|_| "15".into());
        if seconds != "0" {
            let mut fuzz = Command::new(target_dir(ctx).join("debug/ndlearn-fuzz"));
            fuzz.current_dir(&ctx.root).args(["--seconds", &seconds]);
            steps.run(&format!("fuzz ({seconds} s per target)"), &mut fuzz);
        }
    }
    check_simd_levels(ctx, nextest, steps);
    let mut doc = ctx.cargo(["doc", "--workspace", "--no-deps"]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    steps.run("API docs build without warnings", &mut doc);
    check_lean_features(ctx, nextest, steps);
    check_packages(ctx, steps);
}

/// The SIMD levels of ndlearn's multiversioned kernels below this CPU's widest, as
/// `NDLEARN_SIMD` names them (the widest is what the main test run used).
fn narrower_simd_levels() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let top = if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
        {
            3
        } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            2
        } else if is_x86_feature_detected!("avx") {
            1
        } else {
            0
        };
        ["baseline", "avx", "avx2"].into_iter().take(top).collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

/// The tests of the SIMD neighbour kernels (core's `neighbors`, ndlearn-neighbors) again at
/// every narrower level this CPU supports, forced with `NDLEARN_SIMD`.
fn check_simd_levels(ctx: &Ctx, nextest: bool, steps: &mut Steps) {
    if !nextest {
        println!("\n==> SIMD levels: skipped (the test filter needs cargo-nextest)");
        return;
    }
    for level in narrower_simd_levels() {
        let mut cmd = ctx.cargo([
            "nextest",
            "run",
            "--workspace",
            "--no-fail-fast",
            "-E",
            "package(ndlearn-neighbors) or test(/neighbors/) or binary(/neighbors/) \
             or test(/^simd::/)",
        ]);
        cmd.env("NDLEARN_SIMD", level);
        with_proptest_default(&mut cmd);
        steps.run(&format!("SIMD kernels at {level}"), &mut cmd);
    }
}

/// Sets `PROPTEST_CASES` to the suite's default unless the caller's environment sets it.
fn with_proptest_default(cmd: &mut Command) {
    if env::var_os("PROPTEST_CASES").is_none() {
        cmd.env("PROPTEST_CASES", DEFAULT_PROPTEST_CASES);
    }
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` when set, else `target/` in the workspace.
fn target_dir(ctx: &Ctx) -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => ctx.root.join(dir),
        None => ctx.root.join("target"),
    }
}

/// crates.io's upload limit.
const MAX_PACKAGE_BYTES: u64 = 10 * 1024 * 1024;

/// `cargo publish --dry-run` of every published crate (it packages each one and runs the
/// registry's checks short of the upload; no verification build: the test steps build the same
/// sources), then each `.crate` under the registry's size limit.
fn check_packages(ctx: &Ctx, steps: &mut Steps) {
    let dir = ctx.root.join("target/package");
    let _ = fs::remove_dir_all(&dir);
    let mut cmd = ctx.cargo([
        "publish",
        "--dry-run",
        "--workspace",
        "--no-verify",
        "--allow-dirty",
        "--exclude",
        "ndlearn-testkit",
        "--exclude",
        "ndlearn-bench",
        "--exclude",
        "xtask",
    ]);
    if !steps.run("publish --dry-run (every published crate)", &mut cmd) {
        return;
    }
    // `publish --dry-run` leaves the `.crate` files in a subdirectory of target/package
    // (`tmp-crate` today); look one level down too, one entry per file name.
    let mut sizes: Vec<(String, u64)> = Vec::new();
    let mut dirs = vec![dir.clone()];
    if let Ok(rd) = fs::read_dir(&dir) {
        dirs.extend(
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.is_dir()),
        );
    }
    for d in dirs {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for e in rd.filter_map(|e| e.ok()) {
            if e.path().extension().is_some_and(|x| x == "crate") {
                let name = e.file_name().to_string_lossy().into_owned();
                let len = e.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
                if !sizes.iter().any(|(n, _)| *n == name) {
                    sizes.push((name, len));
                }
            }
        }
    }
    sizes.sort();
    for (name, len) in &sizes {
        println!("    {name:<40} {:>8.1} KiB", *len as f64 / 1024.0);
    }
    let too_big: Vec<&str> = sizes
        .iter()
        .filter(|(_, len)| *len > MAX_PACKAGE_BYTES)
        .map(|(n, _)| n.as_str())
        .collect();
    let mut check = if too_big.is_empty() && sizes.len() == 12 {
        Command::new("true")
    } else {
        eprintln!(
            "xtask: {} packages (want 12); over {MAX_PACKAGE_BYTES} bytes: {too_big:?}",
            sizes.len()
        );
        Command::new("false")
    };
    steps.run("package sizes under the registry limit", &mut check);
}

/// `cargo xtask sklearn-map [--check]`: docs/sklearn-map.md from the registry.
fn sklearn_map(ctx: &Ctx, rest: &[OsString]) -> Result<ExitCode> {
    let mut check = false;
    let mut binary: Option<PathBuf> = None;
    let mut args = rest.iter();
    while let Some(a) = args.next() {
        if a == "--check" {
            check = true;
        } else if a == "--bin" {
            binary = args.next().map(PathBuf::from);
            if binary.is_none() {
                return Err("`--bin` needs the path of an ndlearn binary".into());
            }
        } else {
            return Err(format!(
                "`cargo xtask sklearn-map` takes --check and --bin PATH (got {rest:?})"
            ));
        }
    }
    let mut cmd = match &binary {
        Some(path) => {
            let mut cmd = ctx.command(path);
            cmd.args(["list", "--sklearn-map"]);
            cmd
        }
        None => ctx.cargo([
            "run",
            "-q",
            "-p",
            "ndlearn-cli",
            "--",
            "list",
            "--sklearn-map",
        ]),
    };
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err("`ndlearn list --sklearn-map` failed".into());
    }
    let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
    let path = ctx.root.join("docs/sklearn-map.md");
    if check {
        let current = fs::read_to_string(&path).unwrap_or_default();
        if current != text {
            eprintln!(
                "xtask: docs/sklearn-map.md is stale: run `cargo xtask sklearn-map` and commit it"
            );
            return Ok(ExitCode::FAILURE);
        }
        println!("docs/sklearn-map.md is current");
    } else {
        fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The facade's examples (`crates/ndlearn/examples/*.rs`), sorted.
fn example_names(ctx: &Ctx) -> Vec<String> {
    let dir = ctx.root.join("crates/ndlearn/examples");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    (p.extension()? == "rs").then(|| p.file_stem()?.to_str().map(str::to_string))?
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Runs every example of the facade, built by the previous step, as `cargo run --example NAME`
/// would (working directory: the workspace root).
fn run_examples(ctx: &Ctx, names: &[String], steps: &mut Steps) {
    let dir = target_dir(ctx).join("debug/examples");
    for name in names {
        let mut cmd = ctx.command(dir.join(name));
        steps.run(&format!("example {name}"), &mut cmd);
    }
}

/// The algorithm crates published on their own.
const ALGORITHM_CRATES: [&str; 8] = [
    "ndlearn-linear",
    "ndlearn-bayes",
    "ndlearn-neighbors",
    "ndlearn-svm",
    "ndlearn-tree",
    "ndlearn-neural",
    "ndlearn-cluster",
    "ndlearn-decomposition",
];

/// The facade's family features.
const FACADE_FAMILIES: [&str; 9] = [
    "linear",
    "bayes",
    "neighbors",
    "svm",
    "tree",
    "neural",
    "cluster",
    "decomposition",
    "datasets",
];

/// ndlearn-core's optional features, each checked alone.
const CORE_FEATURES: [&str; 11] = [
    "metrics",
    "model_selection",
    "preprocessing",
    "feature_selection",
    "calibration",
    "learning_theory",
    "active_learning",
    "resampling",
    "tensor",
    "serde",
    "plot",
];

/// Lean builds compile and pass their tests: every published library crate without its default
/// features and with each feature alone, the facade with each family alone (plus the default
/// BLAS backend), and a downstream crate outside the workspace.
fn check_lean_features(ctx: &Ctx, nextest: bool, steps: &mut Steps) {
    // One crate per command: checked together, cargo would unify their features and hide a
    // crate that uses a core toolkit it does not enable. Without a BLAS backend nothing links,
    // so these are `check`s; the tests below add the default backend.
    let crates = || {
        ALGORITHM_CRATES
            .iter()
            .chain(["ndlearn-datasets", "ndlearn-core"].iter())
    };
    for krate in crates() {
        let mut cmd = ctx.cargo(["check", "--no-default-features", "-p", krate]);
        steps.run(&format!("features ({krate} without defaults)"), &mut cmd);
    }
    let alone = ALGORITHM_CRATES
        .iter()
        .map(|k| (*k, "serde"))
        .chain([("ndlearn-decomposition", "plot")])
        .chain(CORE_FEATURES.iter().map(|f| ("ndlearn-core", *f)));
    for (krate, feature) in alone {
        let mut cmd = ctx.cargo([
            "check",
            "--no-default-features",
            "--features",
            feature,
            "-p",
            krate,
        ]);
        steps.run(&format!("features ({krate}: {feature} alone)"), &mut cmd);
    }
    // The tests of every library crate without serde, plots, the registry or any toolkit it
    // does not ask for, on the default BLAS backend (tests that need serde are gated on it).
    let mut lean = if nextest {
        ctx.cargo(["nextest", "run", "--no-fail-fast"])
    } else {
        ctx.cargo(["test", "--no-fail-fast"])
    };
    lean.args(["--no-default-features", "--features", "openblas-system"]);
    with_proptest_default(&mut lean);
    for krate in crates().filter(|k| **k != "ndlearn-core") {
        lean.args(["-p", krate]);
    }
    steps.run("tests (library crates without defaults)", &mut lean);
    let mut core = if nextest {
        ctx.cargo(["nextest", "run"])
    } else {
        ctx.cargo(["test"])
    };
    core.args([
        "-p",
        "ndlearn-core",
        "--lib",
        "--no-default-features",
        "--features",
        "openblas-system",
    ]);
    steps.run("tests (ndlearn-core without toolkits)", &mut core);
    for family in FACADE_FAMILIES {
        let features = format!("{family},openblas-system");
        let mut cmd = ctx.cargo([
            "check",
            "-p",
            "ndlearn",
            "--no-default-features",
            "--features",
        ]);
        cmd.arg(&features);
        steps.run(&format!("features (ndlearn: {family})"), &mut cmd);
    }
    // A downstream crate outside the workspace: k-means through the facade with only `cluster`.
    let mut cmd = ctx.cargo([
        "run",
        "-q",
        "--manifest-path",
        "tests/downstream/kmeans-only/Cargo.toml",
        "--target-dir",
        "target",
    ]);
    steps.run("downstream crate (ndlearn with only `cluster`)", &mut cmd);
}

/// OpenBLAS kernels (`OPENBLAS_CORETYPE` names) every x86-64 CPU of the last decade can run.
const SWEEP_KERNELS: [&str; 5] = ["Haswell", "Zen", "Sandybridge", "Nehalem", "Prescott"];

/// `cargo xtask blas-sweep [KERNEL...]`: the nextest suite under each OpenBLAS kernel.
fn blas_sweep(ctx: &Ctx, rest: &[OsString]) -> Result<ExitCode> {
    if !setup(ctx, true)? {
        return Err("`blas-sweep` needs cargo-nextest".into());
    }
    let mut kernels: Vec<String> = rest
        .iter()
        .map(|k| k.to_string_lossy().into_owned())
        .collect();
    if kernels.is_empty() {
        kernels = SWEEP_KERNELS.iter().map(|k| k.to_string()).collect();
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx512f") {
            kernels.extend(["SkylakeX".to_string(), "Cooperlake".to_string()]);
        }
    }
    let mut steps = Steps::default();
    for kernel in &kernels {
        let mut cmd = ctx.cargo(["nextest", "run", "--workspace", "--no-fail-fast"]);
        cmd.env("OPENBLAS_CORETYPE", kernel);
        with_proptest_default(&mut cmd);
        steps.run(&format!("OpenBLAS kernel {kernel}"), &mut cmd);
    }
    Ok(steps.finish("blas-sweep"))
}

/// `cargo xtask fuzz [--seconds N] [ARGS...]`: every fuzz target for a budget.
fn fuzz(ctx: &Ctx, rest: &[OsString]) -> Result<ExitCode> {
    setup(ctx, true)?;
    let mut steps = Steps::default();
    let mut build = ctx.cargo(["build", "-p", "ndlearn-fuzz", "--bin", "ndlearn-fuzz"]);
    if steps.run("build ndlearn-fuzz", &mut build) {
        let mut run = Command::new(target_dir(ctx).join("debug/ndlearn-fuzz"));
        run.current_dir(&ctx.root).args(rest);
        steps.run("fuzz", &mut run);
    }
    Ok(steps.finish("fuzz"))
}

// ---------------------------------------------------------------------------------------------
// bench
// ---------------------------------------------------------------------------------------------

/// `cargo xtask bench [ARGS...]`: forwards to the `compare` binary and its exit status.
fn bench(ctx: &Ctx, extra: &[OsString]) -> Result<ExitCode> {
    setup(ctx, false)?;
    let mut cmd = ctx.cargo([
        "run",
        "--release",
        "-p",
        "ndlearn-bench",
        "--bin",
        "compare",
        "--",
    ]);
    cmd.args(extra);
    // `--compare sklearn`: the reference side (numpy / scikit-learn, pinned) runs in the golden
    // venv, created and pip-installed here when missing; without it the table still prints, with
    // the reference columns empty.
    let words: Vec<String> = extra
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // The libraries of `--compare` (`sklearn`, or a list such as `sklearn,lightgbm,xgboost`).
    let libs: Vec<&str> = words
        .iter()
        .enumerate()
        .filter_map(|(i, w)| {
            w.strip_prefix("--compare=")
                .or_else(|| (w == "--compare").then(|| words.get(i + 1).map(String::as_str))?)
        })
        .flat_map(|v| v.split(','))
        .collect();
    let compare = libs.iter().any(|l| *l != "none");
    // LightGBM and XGBoost live in their own venv, so the README's main job installs nothing
    // more than scikit-learn.
    let gbdt = libs.iter().any(|l| *l == "lightgbm" || *l == "xgboost");
    // PyTorch (4.5 GB with the CUDA libraries its PyPI wheel links) likewise, for `neural`.
    let torch = libs.contains(&"torch");
    if compare && !words.iter().any(|a| a == "--no-python" || a == "--python") {
        let venv = if torch {
            ensure_venv_pinned(
                ctx,
                "torch-venv",
                &["benches/sklearn/torch-requirements.txt"],
            )
        } else if gbdt {
            ensure_venv_with(ctx, "gbdt-venv", &["benches/sklearn/gbdt-requirements.txt"])
        } else {
            ensure_venv(ctx)
        };
        match venv {
            Ok(python) => {
                cmd.arg("--python").arg(python);
            }
            Err(e) => {
                println!("==> bench: numpy/scikit-learn side unavailable ({e}); ndlearn only");
                cmd.arg("--no-python");
            }
        }
    }
    for var in BENCH_UNSET_VARS {
        if let Some(value) = env::var_os(var) {
            println!(
                "==> bench: unset {var} (was {}) for the benchmark run; it slows OpenBLAS",
                value.to_string_lossy()
            );
        }
        cmd.env_remove(var);
    }
    println!("\n==> bench: {}", describe(&cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("could not run `{}`: {e}", describe(&cmd)))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => {
            eprintln!("xtask: benchmark terminated by a signal ({status})");
            ExitCode::FAILURE
        }
    })
}

/// `cargo xtask dist ARGS`: builds the distributed workspace's binaries (release, its own lock
/// file and target directory) and runs `ndlearn-dist ARGS`.
fn dist(ctx: &Ctx, extra: &[OsString]) -> Result<ExitCode> {
    setup(ctx, false)?;
    let manifest = ctx.root.join("distributed").join("Cargo.toml");
    let mut build = ctx.cargo([
        "build",
        "--release",
        "--locked",
        "--bins",
        "--manifest-path",
    ]);
    build.arg(&manifest);
    println!("==> dist: {}", describe(&build));
    if !status_ok(&mut build)? {
        return Err("building the distributed workspace failed".into());
    }
    // a relative CARGO_TARGET_DIR is relative to where cargo ran: the workspace root
    let target = env::var_os("CARGO_TARGET_DIR")
        .map(|t| ctx.root.join(t))
        .unwrap_or_else(|| ctx.root.join("distributed").join("target"));
    // run from the user's directory, so relative --out / --dir / --data paths mean what they say
    let mut cmd = Command::new(target.join("release").join("ndlearn-dist"));
    cmd.args(extra);
    for var in BENCH_UNSET_VARS {
        cmd.env_remove(var);
    }
    println!("==> dist: {}", describe(&cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("could not run `{}`: {e}", describe(&cmd)))?;
    Ok(if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

// ---------------------------------------------------------------------------------------------
// golden
// ---------------------------------------------------------------------------------------------

/// Creates `target/golden-venv` if missing and installs `scripts/golden/requirements.txt`
/// (pinned numpy, scipy, scikit-learn) unless that exact file was installed already.
/// Returns the venv's python.
fn ensure_venv(ctx: &Ctx) -> Result<PathBuf> {
    ensure_venv_with(ctx, "golden-venv", &[])
}

/// A venv `target/<name>` with scripts/golden/requirements.txt and the `extra` requirement
/// files (paths relative to the project root) installed.
fn ensure_venv_with(ctx: &Ctx, name: &str, extra: &[&str]) -> Result<PathBuf> {
    ensure_venv_opts(ctx, name, extra, false)
}

/// As [`ensure_venv_with`] for requirement files that pin a complete dependency closure,
/// installed with `--no-deps` (PyTorch's list leaves out its GPU compiler).
fn ensure_venv_pinned(ctx: &Ctx, name: &str, extra: &[&str]) -> Result<PathBuf> {
    ensure_venv_opts(ctx, name, extra, true)
}

fn ensure_venv_opts(ctx: &Ctx, name: &str, extra: &[&str], no_deps: bool) -> Result<PathBuf> {
    let mut files = vec![
        ctx.root
            .join("scripts")
            .join("golden")
            .join("requirements.txt"),
    ];
    files.extend(extra.iter().map(|f| ctx.root.join(f)));
    let venv = ctx.root.join("target").join(name);
    let python = if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    };

    let stamp = venv.join(".ndlearn-requirements.txt");
    if !python.exists() {
        // A fresh venv has nothing installed, whatever an old stamp says.
        let _ = fs::remove_file(&stamp);
        let mut create = ctx.command("python3");
        create.arg("-m").arg("venv").arg(&venv);
        println!("==> venv: creating venv: {}", describe(&create));
        let mut created = status_ok(&mut create)?;
        if !created && is_root() && find_in_path("apt-get").is_some() {
            // Debian's python3 ships venv support separately.
            println!("==> venv: installing python3-venv with apt-get and retrying");
            let mut install = ctx.command("apt-get");
            install.env("DEBIAN_FRONTEND", "noninteractive").args([
                "install",
                "-y",
                "-qq",
                "python3-venv",
            ]);
            if status_ok(&mut install)? {
                let _ = fs::remove_dir_all(&venv);
                let mut retry = ctx.command("python3");
                retry.arg("-m").arg("venv").arg(&venv);
                created = status_ok(&mut retry)?;
            }
        }
        if !created {
            return Err(format!("could not create the venv {}", venv.display()));
        }
    }

    // Install the requirements unless these exact requirement files were installed already.
    let mut wanted = String::new();
    for f in &files {
        wanted.push_str(
            &fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?,
        );
    }
    if fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str()) {
        println!(
            "==> venv: requirements already installed in {}",
            venv.display()
        );
    } else {
        let mut pip = ctx.command(&python);
        pip.args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ]);
        if no_deps {
            pip.arg("--no-deps");
        }
        for f in &files {
            pip.arg("-r").arg(f);
        }
        println!("==> venv: {}", describe(&pip));
        if !status_ok(&mut pip)? {
            return Err(format!("pip install into {} failed", venv.display()));
        }
        fs::write(&stamp, &wanted).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    }

    Ok(python)
}

/// `cargo xtask golden`: regenerates golden data with the Python reference scripts.
fn golden(ctx: &Ctx) -> Result<ExitCode> {
    let scripts_dir = ctx.root.join("scripts").join("golden");
    let python = ensure_venv(ctx)?;
    let mut scripts: Vec<PathBuf> = fs::read_dir(&scripts_dir)
        .map_err(|e| format!("cannot list {}: {e}", scripts_dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension() == Some(OsStr::new("py"))
                && p.file_name() != Some(OsStr::new("common.py"))
        })
        .collect();
    // The data sets come first: every other script reads datasets/data/*.csv.
    scripts.sort_by_key(|p| {
        (
            p.file_name() != Some(OsStr::new("extract_datasets.py")),
            p.clone(),
        )
    });
    if scripts.is_empty() {
        return Err(format!(
            "no golden scripts (*.py) in {}",
            scripts_dir.display()
        ));
    }

    for (i, script) in scripts.iter().enumerate() {
        let relative = script.strip_prefix(&ctx.root).unwrap_or(script);
        let mut cmd = ctx.command(&python);
        cmd.arg(relative);
        println!(
            "\n==> golden [{}/{}]: {}",
            i + 1,
            scripts.len(),
            relative.display()
        );
        if !status_ok(&mut cmd)? {
            return Err(format!("golden script {} failed", relative.display()));
        }
    }
    println!("\n==> golden: all {} scripts succeeded", scripts.len());
    Ok(ExitCode::SUCCESS)
}

// ---------------------------------------------------------------------------------------------
// ci
// ---------------------------------------------------------------------------------------------

/// `cargo xtask ci`: every check the CI runs; all steps run, failures are reported at the end.
fn ci(ctx: &Ctx) -> Result<ExitCode> {
    // Without the system libraries nothing below can build, so a setup failure stops here.
    let nextest = setup(ctx, true)?;
    let mut steps = Steps::default();

    steps.run("fmt", &mut ctx.cargo(["fmt", "--all", "--check"]));
    steps.run(
        "clippy",
        &mut ctx.cargo([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    );
    run_tests(ctx, nextest, &[], &mut steps);

    let mut rustdocflags = env::var_os("RUSTDOCFLAGS").unwrap_or_default();
    if !rustdocflags.is_empty() {
        rustdocflags.push(" ");
    }
    rustdocflags.push("-D warnings");
    let mut doc = ctx.cargo(["doc", "--workspace", "--no-deps"]);
    doc.env("RUSTDOCFLAGS", rustdocflags);
    steps.run("doc", &mut doc);

    Ok(steps.finish("ci"))
}
