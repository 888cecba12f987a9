//! `green`: see `lib.rs` for the command line.
fn main() {
    green_cli::exit(green_cli::main(None));
}
