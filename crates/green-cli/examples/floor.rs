//! The read-and-count floor of `scripts/bench-side-by-side.py`: the least any scorer does on
//! the same files. It reads each file, splits it into lines, tokenizes every line (`word`:
//! Python's `str.split`; `char`: code points) and counts the tokens, nothing else. green's
//! whole-process time divided by this program's is the overhead of everything GREEN adds.
//!
//!     cargo run --release --example floor -- word source.txt ref0.txt ref1.txt hyp.txt

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let mut tokens = 0usize;
    for path in args {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("floor: cannot read {path}: {e}");
                std::process::exit(1);
            }
        };
        for line in text.lines() {
            tokens += match mode.as_str() {
                "char" => line.chars().count(),
                _ => line.split_whitespace().count(),
            };
        }
    }
    println!("{tokens}");
}
