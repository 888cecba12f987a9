# Sourced by the steps that build with the ci-test profile (27 to 55). Every such cargo
# command selects the whole workspace with the same features, so cargo resolves one feature
# set for the dependencies and each crate compiles once for all of those steps. A `-p`
# selection, other features, or `cargo build` instead of `cargo test` (no dev-dependencies)
# resolves them anew and recompiles everything above the crates whose features change:
# green-cli and its dependents were built three times, about 15 of CI's minutes.
ci_test=(--profile ci-test --locked --workspace --features green-cli/neural,green-cli/download)
# The binaries of that build (green, sgreen, mgreen in target/ci-test), which the steps after
# the README's quick start run: a test build of green-cli makes them (a no-op once an earlier
# step has), and a release build of sgreen and mgreen would cost three minutes of link-time
# optimisation for the same output. The same build makes the regex and panicky plugins'
# libraries (target/ci-test/deps/libgreen_regex.so, libgreen_panicky.so: green-cli's tests load
# them from there). A `cargo build -p` of a plugin would rebuild it over those with other
# dependencies' features, and the next test build would then rebuild green-cli (90 s).
ci_bins() { cargo test "${ci_test[@]}" --test data --no-run; }
