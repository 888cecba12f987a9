//! Engine-only benchmark: counting and scoring synthetic sentences, no I/O.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use green_engine::{Chars, Config, Scorer, Whitespace};

fn corpus(lines: usize) -> (Vec<String>, Vec<Vec<String>>, Vec<Vec<String>>) {
    let words = [
        "the", "a", "cat", "sat", "on", "mat", "dog", "ran", "to", "school", ".", ",", "is", "was",
    ];
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut sentence = |len: usize| {
        (0..len)
            .map(|_| words[(next() % words.len() as u64) as usize])
            .collect::<Vec<_>>()
    };
    let (mut src, mut r0, mut r1, mut hyp) = (vec![], vec![], vec![], vec![]);
    for _ in 0..lines {
        let s = sentence(22);
        let edit = |v: &[&str], k: usize| {
            let mut v = v.to_vec();
            let at = k % v.len();
            v[at] = "edited";
            v.join(" ")
        };
        r0.push(edit(&s, 3));
        r1.push(edit(&s, 9));
        hyp.push(edit(&s, 3));
        src.push(s.join(" "));
    }
    (src, vec![r0, r1], vec![hyp])
}

fn bench(c: &mut Criterion) {
    let (src, refs, hyps) = corpus(2000);
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(src.len() as u64));
    let word = Scorer::new(Whitespace, Config::new(4, vec![2.0]).unwrap());
    g.bench_function("word_n4_2000_sentences", |b| {
        b.iter(|| word.evaluate(&src, &refs, &hyps).unwrap())
    });
    let chars = Scorer::new(Chars::default(), Config::new(6, vec![2.0]).unwrap());
    g.bench_function("char_n6_2000_sentences", |b| {
        b.iter(|| chars.evaluate(&src, &refs, &hyps).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
