//! The `ndlearn` binary: see the `ndlearn_cli` crate documentation.

fn main() -> std::process::ExitCode {
    ndlearn_cli::main_with(std::env::args_os())
}
