//! Meta-evaluation speed on the real data (needs GREEN_SHARED, the path of ../shared):
//! one GREEN configuration on all of SEEDA (both views, every system set, system and
//! sentence level, windows), and a 100-configuration sweep over GJG15 and SEEDA
//! (word and char × N 1..5 × beta 0.4..4 step 0.4), counting included, file reading not.
//!
//! `GREEN_SHARED=../shared cargo bench -p green-meta`

use criterion::{criterion_group, criterion_main, Criterion};
use green_meta::dataset::{Dataset, Descriptor};
use green_meta::{run, Level, Metric, MetricConfig, Options};

fn load(name: &str) -> Dataset {
    Dataset::load(
        Descriptor::load(name).unwrap(),
        &green_test_data::shared().join("data"),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn green(tok: &str, n: usize, beta: f64) -> MetricConfig {
    MetricConfig {
        metric: Metric::Green { n, beta },
        tokenizer: tok.into(),
        normalization: Default::default(),
        level: Level::Corpus,
    }
}

fn bench(c: &mut Criterion) {
    let seeda = [load("seeda")];
    let both = [load("gjg15"), load("seeda")];
    let options = Options::default();
    let one = [green("word", 4, 2.0)];
    let sweep: Vec<MetricConfig> = ["word", "char"]
        .iter()
        .flat_map(|t| (1..=5).flat_map(move |n| (1..=10).map(move |b| green(t, n, 0.4 * b as f64))))
        .collect();
    assert_eq!(sweep.len(), 100);
    let mut g = c.benchmark_group("meta");
    g.sample_size(10);
    g.bench_function("seeda one config", |b| {
        b.iter(|| run(&seeda, &one, &options).unwrap())
    });
    g.bench_function("gjg15+seeda 100-config sweep", |b| {
        b.iter(|| run(&both, &sweep, &options).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
