//! Link options of the `green` binary on Linux, for the cost every short run pays at start:
//! - a fixed-address executable: a PIE of this size has ~17,000 relocations to apply and ~80
//!   pages of tables to copy at every start (a tenth of a run of a few milliseconds);
//! - on x86-64, where Rust links with LLD, the functions of `code-order.txt` first and together
//!   (`scripts/code-order.py` writes it from profiles of typical runs): the few hundred a run
//!   executes were spread over half the 64 KiB windows of 7 MB of code, a page fault each.
//!   Skipped where another linker may be in use (a `linker` or `linker-features` setting).

fn main() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" {
        return;
    }
    println!("cargo:rustc-link-arg-bins=-no-pie");
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let lld = var("TARGET") == "x86_64-unknown-linux-gnu"
        && std::env::var_os("RUSTC_LINKER").is_none()
        && !flags.contains("linker");
    if lld {
        let order = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).join("code-order.txt");
        println!("cargo:rerun-if-changed={}", order.display());
        // -Xlinker: a path is one argument, whatever commas it holds.
        for arg in [
            format!("--symbol-ordering-file={}", order.display()),
            "--no-warn-symbol-ordering".into(),
        ] {
            println!("cargo:rustc-link-arg-bins=-Xlinker");
            println!("cargo:rustc-link-arg-bins={arg}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
}
