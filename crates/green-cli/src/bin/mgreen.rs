//! `mgreen`: `green` at the mean-of-sentences level, like the reference's `mgreen`.
fn main() {
    green_cli::exit(green_cli::main(Some(green_cli::Level::Mean)));
}
