//! Helpers shared by the command-line test files: run the built `green` in a directory and
//! read its output.
#![allow(dead_code)] // each test file uses some of them

use std::path::Path;
use std::process::{Command, Output};

pub fn green(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_green"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    assert!(!o.status.success(), "expected a failure");
    String::from_utf8(o.stderr.clone()).unwrap()
}
