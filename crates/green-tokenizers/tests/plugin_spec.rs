//! The `plugin:` spec reaches the plugin host, and its configuration goes nowhere else.

use green_tokenizers::{build, Options};

#[test]
fn plugin_spec_errors_name_the_plugin() {
    let err = build("plugin:./no/such/libplugin.so", &Options::default())
        .err()
        .unwrap()
        .to_string();
    assert_eq!(err, "plugin ./no/such/libplugin.so: no such file");
}

#[test]
fn plugin_config_without_a_plugin_is_rejected() {
    let mut options = Options::default();
    options.set("plugin-config", r"split:\s+").unwrap();
    let err = build("word", &options).err().unwrap().to_string();
    assert!(
        err.starts_with("a plugin configuration was given but tokenizer 'word' is not a plugin"),
        "{err}"
    );
}
