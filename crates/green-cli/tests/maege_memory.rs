//! MAEGE's memory does not grow with `--reps`: the repetitions' corpora are drawn as they
//! are counted, one repetition at a time (they used to be held all at once, about 9.4 MB per
//! repetition on CoNLL-14, so the documented maximum of 1,000 needed 9.4 GB and aborted).
//! Alone in its test binary: the peak resident size of this process's children is read
//! with getrusage, which no other test's children may touch.

#[cfg(target_os = "linux")]
#[test]
fn maege_memory_is_flat_in_the_repetitions() {
    let dir = tempfile::tempdir().unwrap();
    let mut m2 = String::new();
    for i in 0..60 {
        m2.push_str(&format!(
            "S the cat{i} sat on the mat and the dog{i} lay by the door all day long\n\
             A 1 2|||R:NOUN|||cats|||REQUIRED|||-NONE-|||0\nA 2 3|||R:VERB|||sit|||REQUIRED|||-NONE-|||0\n\
             A 5 6|||R:NOUN|||rug|||REQUIRED|||-NONE-|||0\nA 9 9|||M:ADV|||then|||REQUIRED|||-NONE-|||0\n\
             A 11 12|||R:PREP|||near|||REQUIRED|||-NONE-|||0\n\n"
        ));
    }
    std::fs::write(dir.path().join("t.m2"), m2).unwrap();
    let peak = |reps: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_green"))
            .current_dir(dir.path())
            .args(["maege", "t.m2", "--max-m", "100", "--reps", reps])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // SAFETY: getrusage fills the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
        usage.ru_maxrss // KiB, the largest child so far
    };
    let few = peak("2");
    let many = peak("60");
    assert!(
        many < few + 8 * 1024,
        "peak resident size {few} KiB at 2 repetitions, {many} KiB at 60"
    );
}
