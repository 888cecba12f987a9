//! Links the `green` binary as a fixed-address executable on Linux: a PIE of this size has
//! ~17,000 relocations to apply and ~80 pages of tables to copy at every start, a cost each
//! short run pays (a tenth of a run of a few milliseconds).

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
