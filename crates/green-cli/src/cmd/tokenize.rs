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
use rayon::prelude::*;

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
    // Lines are tokenised in chunks across threads when there are enough of them to pay for
    // starting the pool; the chunks are joined in order, and the first failing line is the
    // one reported. Printed only when every line has been tokenised, so a failure leaves no
    // partial output.
    let chunk = |(k, part): (usize, &[String])| -> Result<String> {
        let mut text = String::new();
        for (i, line) in part.iter().enumerate() {
            let mut first = true;
            tokenizer
                .tokenize(line, &mut |token| {
                    if !first {
                        text.push_str(&args.sep);
                    }
                    first = false;
                    push_visible(&mut text, token);
                })
                .map_err(|e| {
                    anyhow!(
                        "{name}:{}: tokenizer '{}' failed: {e}",
                        k * PARALLEL_CHUNK + i + 1,
                        tokenizer.name()
                    )
                })?;
            text.push('\n');
        }
        Ok(text)
    };
    let text = if lines.len() < 2 * PARALLEL_CHUNK {
        chunk((0, &lines))?
    } else {
        let parts: Vec<Result<String>> = lines
            .par_chunks(PARALLEL_CHUNK)
            .enumerate()
            .map(chunk)
            .collect();
        parts.into_iter().collect::<Result<Vec<_>>>()?.concat()
    };
    emit(&text)?;
    // The process ends after this: unmapping the dictionary (seven maps for `-t ja`) and
    // freeing the lines would only cost time.
    std::mem::forget((built, lines));
    Ok(())
}

/// Lines per parallel chunk; inputs under two chunks stay on one thread.
const PARALLEL_CHUNK: usize = 256;

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
    fn help_lists_every_spec() {
        let help = specs_help();
        for (spec, _) in green_tokenizers::KNOWN {
            assert!(help.contains(spec), "{spec}");
        }
    }
}
