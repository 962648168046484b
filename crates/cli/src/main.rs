//! The `ndlearn` binary: see the `ndlearn_cli` crate documentation.

/// mimalloc instead of the system allocator (decision 0031): glibc's malloc hands large blocks
/// back to the kernel on free, so every fit re-faults its buffers page by page.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    ndlearn_cli::main_with(std::env::args_os())
}
