//! The `ndlearn-dist` binary (see the crate docs).

fn main() -> std::process::ExitCode {
    ndlearn_dist::main_with(std::env::args_os())
}
