//! `green tokenize`: print what a tokenizer makes of each line, so a user can see what
//! GREEN counts before trusting a score.
//!
//! One output line per input line, tokens joined by a space by default. For every
//! tokenizer whose tokens hold no whitespace (all but `char` and some plugins) the output
//! is therefore pre-tokenised text: scoring it at `-t word` gives the same result as
//! scoring the raw text with `-t SPEC`, with this tool or with the reference. Whitespace
//! inside a token is shown as `␣` so that no token is invisible.

use anyhow::{anyhow, Result};
use green_io::Input;
use green_tokenizers::Built;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::args::TokenizerArgs;
use crate::output::emit;

/// The tokenizer specs and what they do, for the help text.
fn specs_help() -> String {
    let mut s = String::from("Tokenizers (-t):\n");
    for (spec, what) in green_tokenizers::KNOWN {
        s.push_str(&format!("  {spec}\n      {what}\n"));
    }
    s.push_str("\nExamples:\n  green tokenize -t zh MuCGEC_dev.txt\n  echo '私は学生です。' | green tokenize -t ja --sep ' | '");
    s
}

#[derive(clap::Args, Debug)]
#[command(after_help = specs_help())]
pub struct Args {
    /// Input file, one sentence per line (`-` or nothing: standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,

    #[command(flatten)]
    pub tokenizer: TokenizerArgs,

    /// Separator printed between tokens.
    #[arg(long, default_value = " ", value_name = "STRING")]
    pub sep: String,

    /// Print the tokenizer's signature name on standard error first.
    #[arg(long)]
    pub name: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let built = args.tokenizer.build()?;
    let tokenizer = built.as_dyn();
    if args.name {
        crate::output::note(&format!(
            "{} (normalisation: {})",
            tokenizer.name(),
            args.tokenizer.normalization
        ));
    }
    let input = Input::parse(&args.input);
    let reader = input.open()?;
    let name = reader.name().to_string();
    let lines = reader.into_lines()?;
    // A costly tokenizer (a dictionary's or a plugin's) sees each distinct line once: GEC
    // data repeats lines (TEC-JL's 4,391 sources are 1,846 distinct, one per correction),
    // and a tokenizer's tokens are a function of the line. `word` and `char` cost about
    // what looking a line up would.
    let repeats = matches!(built, Built::Dyn(_)).then(|| Repeats::of(&lines));
    let todo: Vec<&str> = match &repeats {
        Some(r) => r.distinct.iter().map(|&i| lines[i].as_str()).collect(),
        None => lines.iter().map(String::as_str).collect(),
    };
    // Line `i` of `todo` is this 1-based line of the input, for errors.
    let number = |i: usize| repeats.as_ref().map_or(i, |r| r.distinct[i]) + 1;
    // Lines are tokenised in chunks across threads when there are enough of them to pay for
    // starting the pool; the chunks are joined in order, and the first failing line is the
    // one reported (a repeated line fails first where it first appears). Printed only when
    // every line has been tokenised, so a failure leaves no partial output.
    let chunk = |(k, part): (usize, &[&str])| -> Result<Tokenized> {
        let mut out = Tokenized::default();
        for (i, line) in part.iter().enumerate() {
            let mut first = true;
            tokenizer
                .tokenize(line, &mut |token| {
                    if !first {
                        out.text.push_str(&args.sep);
                    }
                    first = false;
                    push_visible(&mut out.text, token);
                })
                .map_err(|e| {
                    anyhow!(
                        "{name}:{}: tokenizer '{}' failed: {e}",
                        number(k * PARALLEL_CHUNK + i),
                        tokenizer.name()
                    )
                })?;
            out.text.push('\n');
            out.ends.push(out.text.len());
        }
        Ok(out)
    };
    let parts: Vec<Tokenized> = if todo.len() < 2 * PARALLEL_CHUNK {
        vec![chunk((0, &todo))?]
    } else {
        let parts: Vec<Result<Tokenized>> = todo
            .par_chunks(PARALLEL_CHUNK)
            .enumerate()
            .map(chunk)
            .collect();
        parts.into_iter().collect::<Result<_>>()?
    };
    let text = match &repeats {
        None => parts.iter().map(|p| p.text.as_str()).collect(),
        Some(r) => r.text(&parts),
    };
    emit(&text)?;
    // The process ends after this: unmapping the dictionary (seven maps for `-t ja`) and
    // freeing the lines would only cost time.
    std::mem::forget((built, lines, parts));
    Ok(())
}

/// Lines per parallel chunk; inputs under two chunks stay on one thread.
const PARALLEL_CHUNK: usize = 256;

/// The output of a run of lines: their tokens, a line each, and where each line ends.
#[derive(Default)]
struct Tokenized {
    text: String,
    ends: Vec<usize>,
}

/// The distinct lines of an input, and which of them each line is.
struct Repeats {
    /// The index of each distinct line's first appearance, in order.
    distinct: Vec<usize>,
    /// Per line, its place in `distinct`.
    of_line: Vec<usize>,
}

impl Repeats {
    fn of(lines: &[String]) -> Repeats {
        let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
        seen.reserve(lines.len());
        let mut distinct = Vec::new();
        let of_line = lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                *seen.entry(line).or_insert_with(|| {
                    distinct.push(i);
                    distinct.len() - 1
                })
            })
            .collect();
        Repeats { distinct, of_line }
    }

    /// Every line's output, in input order, from the outputs of the distinct lines
    /// (`PARALLEL_CHUNK` to a part).
    fn text(&self, parts: &[Tokenized]) -> String {
        let line = |d: usize| {
            let part = &parts[d / PARALLEL_CHUNK];
            let j = d % PARALLEL_CHUNK;
            let start = if j == 0 { 0 } else { part.ends[j - 1] };
            &part.text[start..part.ends[j]]
        };
        let mut text = String::with_capacity(self.of_line.iter().map(|&d| line(d).len()).sum());
        for &d in &self.of_line {
            text.push_str(line(d));
        }
        text
    }
}

/// Append `token`, with any whitespace in it shown as `␣`.
fn push_visible(out: &mut String, token: &str) {
    if token.contains(green_engine::tokenizer::is_python_whitespace) {
        out.extend(token.chars().map(|c| {
            if green_engine::tokenizer::is_python_whitespace(c) {
                '␣'
            } else {
                c
            }
        }));
    } else {
        out.push_str(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_in_tokens_is_made_visible() {
        let mut s = String::new();
        push_visible(&mut s, "a b\u{3000}");
        push_visible(&mut s, "|c");
        assert_eq!(s, "a␣b␣|c");
    }

    #[test]
    fn repeated_lines_are_tokenized_once_and_printed_in_place() {
        let lines: Vec<String> = ["a b", "c", "a b", "", "c", ""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = Repeats::of(&lines);
        assert_eq!(r.distinct, [0, 1, 3]);
        assert_eq!(r.of_line, [0, 1, 0, 2, 1, 2]);

        // Over several parallel chunks: 1,000 lines of 600 distinct, each "tokenized" as
        // its upper case, printed as the lines themselves would be.
        let lines: Vec<String> = (0..1000u64)
            .map(|i| format!("line {}", i * 7919 % 600))
            .collect();
        let r = Repeats::of(&lines);
        assert_eq!(r.distinct.len(), 600);
        let parts: Vec<Tokenized> = r
            .distinct
            .chunks(PARALLEL_CHUNK)
            .map(|chunk| {
                let mut part = Tokenized::default();
                for &i in chunk {
                    part.text.push_str(&lines[i].to_uppercase());
                    part.text.push('\n');
                    part.ends.push(part.text.len());
                }
                part
            })
            .collect();
        assert_eq!(parts.len(), 3);
        let expected: String = lines.iter().map(|l| l.to_uppercase() + "\n").collect();
        assert_eq!(r.text(&parts), expected);
    }

    #[test]
    fn help_lists_every_spec() {
        let help = specs_help();
        for (spec, _) in green_tokenizers::KNOWN {
            assert!(help.contains(spec), "{spec}");
        }
    }
}
