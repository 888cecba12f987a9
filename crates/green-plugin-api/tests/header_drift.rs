//! Keeps `include/green_plugin.h` and the Rust definitions identical: every `#define`, every
//! struct field (name, order, type) and the entry point's signature. The header is parsed
//! by hand (it is small and written in a fixed style); Rust types come from `type_name`.

use std::any::type_name;
use std::collections::BTreeMap;
use std::mem::{align_of, offset_of, size_of};

use green_plugin_api::*;

const HEADER: &str = include_str!("../include/green_plugin.h");

/// Parsed header: constants, structs (fields as (name, canonical type)), function prototypes.
#[derive(Default)]
struct Header {
    defines: BTreeMap<String, String>,
    structs: BTreeMap<String, Vec<(String, String)>>,
    functions: BTreeMap<String, String>,
}

fn strip_comments(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        rest = &rest[i + rest[i..].find("*/").expect("unterminated comment") + 2..];
    }
    out.push_str(rest);
    out
}

/// A C type (`const char *`, `void **`, `size_t`) in the canonical form of the Rust side.
fn c_type(t: &str) -> String {
    let t = t.trim();
    let depth = t.chars().filter(|&c| c == '*').count();
    let base = t.trim_end_matches(|c: char| c == '*' || c.is_whitespace());
    let (is_const, base) = match base.strip_prefix("const ") {
        Some(b) => (true, b.trim()),
        None => (false, base),
    };
    let base = match base {
        "size_t" => "usize",
        "uint32_t" => "u32",
        "int32_t" => "i32",
        "char" => "c_char",
        "void" => "c_void",
        other => other,
    };
    if depth == 0 {
        return base.to_string();
    }
    let mut s = format!("*{} {base}", if is_const { "const" } else { "mut" });
    for _ in 1..depth {
        s = format!("*mut {s}");
    }
    s
}

/// `void *handle` -> canonical type of the parameter, dropping its name.
fn c_param(p: &str) -> String {
    let p = p.trim();
    let name_start = p
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    c_type(&p[..name_start])
}

fn c_fn(ret: &str, params: &str) -> String {
    let params: Vec<String> = if params.trim() == "void" {
        vec![]
    } else {
        params.split(',').map(c_param).collect()
    };
    let ret = c_type(ret);
    let arrow = if ret == "c_void" {
        String::new()
    } else {
        format!(" -> {ret}")
    };
    format!("fn({}){arrow}", params.join(", "))
}

/// One declaration `TYPE NAME` or `RET (*NAME)(PARAMS)` -> (name, canonical type).
fn declaration(decl: &str) -> (String, String) {
    let decl = decl.trim();
    if let Some(open) = decl.find("(*") {
        let close = decl[open..].find(')').unwrap() + open;
        let name = decl[open + 2..close].trim().to_string();
        let params = decl[close + 1..]
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')');
        (name, format!("Option<{}>", c_fn(&decl[..open], params)))
    } else {
        let name_start = decl
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        (decl[name_start..].to_string(), c_type(&decl[..name_start]))
    }
}

fn parse_header() -> Header {
    let src = strip_comments(HEADER);
    let mut h = Header::default();
    for line in src.lines().map(str::trim) {
        if let Some(def) = line.strip_prefix("#define ") {
            let mut parts = def.splitn(2, ' ');
            let name = parts.next().unwrap().to_string();
            if name != "GREEN_PLUGIN_H" {
                h.defines
                    .insert(name, parts.next().unwrap_or("").trim().to_string());
            }
        }
    }
    let mut rest = src.as_str();
    while let Some(i) = rest.find("typedef struct ") {
        let open = i + rest[i..].find('{').unwrap();
        let close = open + rest[open..].find('}').unwrap();
        let end = close + rest[close..].find(';').unwrap();
        let name = rest[close + 1..end].trim().to_string();
        let fields = rest[open + 1..close]
            .split(';')
            .filter(|d| !d.trim().is_empty())
            .map(declaration)
            .collect();
        h.structs.insert(name, fields);
        rest = &rest[end..];
    }
    // Top-level prototypes: what remains outside structs and preprocessor lines.
    for line in src.lines().map(str::trim) {
        if line.contains("green_plugin_entry(") && line.ends_with(");") {
            let open = line.find('(').unwrap();
            let name_start = line[..open]
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap()
                + 1;
            let params = &line[open + 1..line.len() - 2];
            h.functions.insert(
                line[name_start..open].to_string(),
                c_fn(&line[..name_start], params),
            );
        }
    }
    h
}

/// A Rust type name in canonical form: paths, `unsafe extern "C"` and spaces normalised,
/// `c_char` (an alias of i8 or u8) restored behind pointers.
fn rust_type(name: &str) -> String {
    let mut s = name.replace("unsafe extern \"C\" ", "");
    for path in [
        "core::option::",
        "core::ffi::",
        "std::ffi::",
        "green_plugin_api::",
    ] {
        s = s.replace(path, "");
    }
    for (from, to) in [
        ("*const i8", "*const c_char"),
        ("*const u8", "*const c_char"),
        ("*mut i8", "*mut c_char"),
        ("*mut u8", "*mut c_char"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// (type name, size, align) of the field a closure projects to.
fn field<S, T>(_: impl Fn(&S) -> &T) -> (String, usize, usize) {
    (rust_type(type_name::<T>()), size_of::<T>(), align_of::<T>())
}

/// The Rust side of one struct: (name, canonical type) per field, checked to be complete and
/// in declaration order.
macro_rules! rust_struct {
    ($s:ident { $($f:ident),* $(,)? }) => {{
        let fields = vec![$( (stringify!($f), offset_of!($s, $f), field(|x: &$s| &x.$f)) ),*];
        let mut end: usize = 0;
        for (name, offset, (_, size, align)) in &fields {
            let expected = end.next_multiple_of(*align);
            assert_eq!(*offset, expected, "{}.{name}: listed out of order or a field is missing from this test", stringify!($s));
            end = offset + size;
        }
        assert_eq!(size_of::<$s>(), end.next_multiple_of(align_of::<$s>()), "{} has fields this test does not list", stringify!($s));
        (stringify!($s).to_string(), fields.into_iter().map(|(n, _, (t, _, _))| (n.to_string(), t)).collect::<Vec<_>>())
    }};
}

#[test]
fn header_structs_match_rust() {
    let header = parse_header();
    let rust: BTreeMap<String, Vec<(String, String)>> = [
        rust_struct!(GreenSpan { start, len }),
        rust_struct!(GreenTokens {
            spans,
            count,
            text,
            text_len,
            owner
        }),
        rust_struct!(GreenPlugin {
            abi_version,
            flags,
            name,
            version,
            create,
            destroy,
            tokenize,
            free_tokens,
            last_error
        }),
    ]
    .into_iter()
    .collect();
    assert_eq!(
        header.structs.keys().collect::<Vec<_>>(),
        rust.keys().collect::<Vec<_>>(),
        "structs differ"
    );
    for (name, fields) in &rust {
        let compact = |v: &Vec<(String, String)>| {
            v.iter()
                .map(|(n, t)| format!("{n}: {}", t.replace(' ', "")))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            compact(&header.structs[name]),
            compact(fields),
            "struct {name}: green_plugin.h (left) and Rust (right) differ"
        );
    }
}

#[test]
fn header_constants_and_entry_match_rust() {
    let header = parse_header();
    let rust: BTreeMap<String, String> = [
        (
            "GREEN_PLUGIN_ABI_VERSION",
            GREEN_PLUGIN_ABI_VERSION.to_string(),
        ),
        (
            "GREEN_PLUGIN_THREAD_SAFE",
            GREEN_PLUGIN_THREAD_SAFE.to_string(),
        ),
        ("GREEN_PLUGIN_OK", GREEN_PLUGIN_OK.to_string()),
        (
            "GREEN_PLUGIN_ENTRY_SYMBOL",
            format!("\"{GREEN_PLUGIN_ENTRY_SYMBOL}\""),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(
        header.defines, rust,
        "#defines: green_plugin.h (left) and Rust (right) differ"
    );
    let entry = rust_type(type_name::<GreenPluginEntry>());
    assert_eq!(
        header
            .functions
            .get(GREEN_PLUGIN_ENTRY_SYMBOL)
            .map(|t| t.replace(' ', "")),
        Some(entry.replace(' ', "")),
        "entry point prototype differs"
    );
}

#[test]
fn header_parser_sees_a_change() {
    // Guard against a parser that silently matches nothing.
    let (name, ty) = declaration(
        "int32_t (*tokenize)(void *handle, const char *input, size_t input_len, GreenTokens *out)",
    );
    assert_eq!(name, "tokenize");
    assert_eq!(
        ty,
        "Option<fn(*mut c_void, *const c_char, usize, *mut GreenTokens) -> i32>"
    );
    assert_eq!(declaration("void **h").1, "*mut *mut c_void");
    assert_ne!(
        declaration("uint32_t flags").1,
        rust_type(type_name::<u64>())
    );
}

#[test]
fn header_compiles_as_strict_c() {
    let header = concat!(env!("CARGO_MANIFEST_DIR"), "/include/green_plugin.h");
    let out = std::process::Command::new("cc")
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
            "-x",
            "c",
            header,
        ])
        .output()
        .expect("running `cc` (the system C compiler, needed to check green_plugin.h)");
    assert!(
        out.status.success(),
        "green_plugin.h does not compile: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
