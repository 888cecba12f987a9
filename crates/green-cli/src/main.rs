//! `green`: see `lib.rs` for the command line.
fn main() {
    std::process::exit(green_cli::main(None));
}
