//! `sgreen`: `green` at sentence level, like the reference's `sgreen`.
fn main() {
    green_cli::exit(green_cli::main(Some(green_cli::Level::Sentence)));
}
