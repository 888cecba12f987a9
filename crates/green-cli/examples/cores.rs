//! What a second core gives a short run on this machine right now, for
//! `scripts/bench-side-by-side.py`: the same fixed work (a few milliseconds of arithmetic) on
//! each of THREADS OS threads, as green's workers are. Prints the
//! milliseconds from the first thread's start to the last one's end. Two threads take as long
//! as one where there are two free cores, twice as long where they share one.
//!
//!     cargo run --release --example cores -- 2

use std::hint::black_box;
use std::time::Instant;

/// Rounds of the work: a few milliseconds on one core of a 2020s server.
const ROUNDS: u64 = 3_000_000;

fn work() -> u64 {
    let mut x = black_box(1u64);
    for _ in 0..ROUNDS {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
    x
}

fn main() {
    let threads: usize = match std::env::args().nth(1).map(|a| a.parse()) {
        Some(Ok(n)) if n > 0 => n,
        _ => {
            eprintln!("cores: give the number of threads (1 or more)");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let others: Vec<_> = (1..threads).map(|_| std::thread::spawn(work)).collect();
    let mut sum = work();
    for t in others {
        sum = sum.wrapping_add(t.join().expect("a worker"));
    }
    black_box(sum);
    println!("{:.3}", start.elapsed().as_secs_f64() * 1000.0);
}
