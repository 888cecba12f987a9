//! Subcommands other than scoring, one module each.
