//! Language-pack speed on real data (needs GREEN_SHARED): dictionary load times, tokens per
//! second of every language tokenizer, and the share of scoring time spent tokenising.
//!
//! Each dataset is the list of every string the engine tokenises when scoring it (sources,
//! references, system), so `tokenize/...` and `score/...` do the same tokenising work and
//! their ratio is tokenisation's share of scoring. Scoring runs on one thread here so the
//! two are comparable; the CLI uses all cores.
//! Run: `GREEN_SHARED=../shared cargo bench -p green-tokenizers --bench languages`.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use green_engine::{Config, Scorer};
use green_tokenizers::{build, Options};

/// Sources, reference sets (each one line per source) and one system.
struct Data {
    name: &'static str,
    sources: Vec<String>,
    refs: Vec<Vec<String>>,
    hyp: Vec<String>,
}

impl Data {
    fn all_strings(&self) -> impl Iterator<Item = &String> {
        self.sources
            .iter()
            .chain(self.refs.iter().flatten())
            .chain(&self.hyp)
    }
}

fn shared() -> PathBuf {
    green_test_data::shared().join("data")
}

fn read(rel: &str) -> String {
    let path = shared().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// MuCGEC dev: every reference, sentences with fewer padded with their first (which leaves
/// GREEN unchanged); the first reference plays the system.
fn mucgec() -> Data {
    let rows: Vec<Vec<String>> = read("zh/mucgec/MuCGEC_dev.txt")
        .lines()
        .map(|l| l.split('\t').skip(1).map(str::to_string).collect())
        .collect();
    let max = rows.iter().map(|r| r.len() - 1).max().unwrap();
    let refs = (0..max)
        .map(|k| {
            rows.iter()
                .map(|r| r.get(1 + k).unwrap_or(&r[1]).clone())
                .collect()
        })
        .collect();
    Data {
        name: "mucgec-dev",
        sources: rows.iter().map(|r| r[0].clone()).collect(),
        refs,
        hyp: rows.iter().map(|r| r[1].clone()).collect(),
    }
}

/// TEC-JL: the GEC output against the learner source as a stand-in reference.
fn tecjl() -> Data {
    let text = read("ja/tecjl/human_qe_TECJL.csv");
    let (sources, hyp): (Vec<String>, Vec<String>) = text
        .lines()
        .skip(1)
        .map(|l| {
            let mut c = l.split('\t');
            (c.next().unwrap().to_string(), c.next().unwrap().to_string())
        })
        .unzip();
    Data {
        name: "tecjl",
        refs: vec![sources.clone()],
        sources,
        hyp,
    }
}

/// CoNLL-14 (pre-tokenised English, so `en` mostly re-finds the spaces).
fn conll14() -> Data {
    let lines = |f: &str| read(f).lines().map(str::to_string).collect::<Vec<_>>();
    Data {
        name: "conll14",
        sources: lines("conll14/source.txt"),
        refs: vec![lines("conll14/ref1.txt")],
        hyp: lines("conll14/ref0.txt"),
    }
}

fn loading(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    g.sample_size(10);
    g.bench_function("jieba-default-dict", |b| b.iter(jieba_rs::Jieba::new));
    // The first load may build the cache (seconds); measure the cached load only.
    build("ja", &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    g.bench_function("ja-ipadic-cached", |b| {
        b.iter(|| build("ja", &Options::default()).unwrap())
    });
    g.finish();
}

fn speed(c: &mut Criterion) {
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let cases: [(Data, &[&str]); 3] = [
        (mucgec(), &["zh", "zh:nohmm", "zh:char", "word"]),
        (tecjl(), &["ja", "ja:char", "word"]),
        (conll14(), &["en", "word"]),
    ];
    for (data, specs) in &cases {
        let mut g = c.benchmark_group(data.name);
        g.sample_size(10).measurement_time(Duration::from_secs(4));
        for spec in *specs {
            let built = build(spec, &Options::default()).unwrap();
            let t = built.as_dyn();
            let mut tokens = 0u64;
            for s in data.all_strings() {
                t.tokenize(s, &mut |_| tokens += 1).unwrap();
            }
            g.throughput(Throughput::Elements(tokens));
            g.bench_function(format!("tokenize/{spec}"), |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for s in data.all_strings() {
                        t.tokenize(s, &mut |_| n += 1).unwrap();
                    }
                    n
                })
            });
            let scorer = Scorer::new(t, Config::new(4, vec![0.5]).unwrap());
            g.bench_function(format!("score/{spec}"), |b| {
                b.iter(|| {
                    one_thread.install(|| {
                        let hyps = std::slice::from_ref(&data.hyp);
                        scorer.evaluate(&data.sources, &data.refs, hyps).unwrap()
                    })
                })
            });
        }
        if data.name == "mucgec-dev" {
            // What `zh` did before it had its own dictionary: jieba-rs's `cut`, preloaded.
            let jieba = jieba_rs::Jieba::new();
            g.bench_function("tokenize/jieba-rs", |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for s in data.all_strings() {
                        n += jieba.cut(s, true).len() as u64;
                    }
                    n
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, loading, speed);
criterion_main!(benches);
