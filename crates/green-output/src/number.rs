//! Numbers and tables exactly as the reference scorers (Python) print them: ×100 rounded
//! half-up from the shortest decimal form of the float and written as Python's
//! `str(Decimal)` writes them (`0E-10`, `5.000E-7` below 1e-6), `repr(float)` for β, and
//! tables drawn like Python's prettytable (cells centred with `str.center` semantics).

/// Python's `str(Decimal(str(x)).quantize(Decimal(10) ** -digits, ROUND_HALF_UP))`.
pub fn quantize(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    // Rust's `{}` for f64 is the shortest representation that round-trips, like Python's str().
    let shortest = format!("{}", x.abs());
    // Decimal keeps the sign of a negative number rounded to zero, and of -0.0 itself.
    let negative = x.is_sign_negative();
    let (int_part, frac_part) = shortest.split_once('.').unwrap_or((&shortest, ""));
    let mut digits_vec: Vec<u8> = int_part
        .bytes()
        .chain(
            frac_part
                .bytes()
                .chain(std::iter::repeat(b'0'))
                .take(digits),
        )
        .collect();
    if frac_part.len() > digits && frac_part.as_bytes()[digits] >= b'5' {
        // Round half up: propagate the carry from the last kept digit.
        let mut i = digits_vec.len();
        loop {
            if i == 0 {
                digits_vec.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits_vec[i] == b'9' {
                digits_vec[i] = b'0';
            } else {
                digits_vec[i] += 1;
                break;
            }
        }
    }
    let mut out = String::with_capacity(digits_vec.len() + 8);
    if negative {
        out.push('-');
    }
    out.push_str(&decimal_str(&digits_vec, digits));
    out
}

/// Python's `Decimal.__str__` of the non-negative number `coefficient × 10^-exp` (the
/// coefficient's decimal digits, leading zeros allowed): plain notation unless the adjusted
/// exponent is below -6, then scientific (`0E-10`, `1.000E-7`).
fn decimal_str(coefficient: &[u8], exp: usize) -> String {
    let first = coefficient.iter().position(|&d| d != b'0');
    let digits: &[u8] = match first {
        Some(i) => &coefficient[i..],
        None => b"0",
    };
    let text = std::str::from_utf8(digits).expect("ascii digits");
    let adjusted = digits.len() as i64 - 1 - exp as i64;
    if adjusted < -6 {
        let (lead, rest) = text.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        return format!("{lead}{point}{rest}E{adjusted}");
    }
    if exp == 0 {
        return text.to_string();
    }
    if digits.len() > exp {
        let (int, frac) = text.split_at(digits.len() - exp);
        format!("{int}.{frac}")
    } else {
        format!("0.{}{text}", "0".repeat(exp - digits.len()))
    }
}

/// A score as printed: ×100, quantized.
pub fn percent(x: f64, digits: usize) -> String {
    quantize(x * 100.0, digits)
}

/// Python's `repr(float)` for the `F{beta}` column title: `2.0`, `0.5`, `inf`.
pub fn python_float_repr(x: f64) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    // Rust's Debug switches to exponent notation where Python's repr does (decimal point
    // position below -3 or above 16), but writes the exponent as `e16`/`e-5` where Python
    // writes `e+16`/`e-05`.
    let rust = format!("{x:?}");
    match rust.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => rust,
    }
}

/// Python's `str.center(width)`: the odd space goes left when `width` is odd.
fn center(s: &str, width: usize) -> String {
    let len = s.chars().count();
    if len >= width {
        return s.to_owned();
    }
    let marg = width - len;
    let left = marg / 2 + (marg & width & 1);
    format!("{}{}{}", " ".repeat(left), s, " ".repeat(marg - left))
}

/// A table as Python's prettytable draws it by default: every cell centred, `+---+` rules.
pub fn pretty_table(header: &[String], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([header[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let rule = {
        let mut s = String::from("+");
        for w in &widths {
            s.push_str(&"-".repeat(w + 2));
            s.push('+');
        }
        s
    };
    let line = |cells: &[String]| {
        let mut s = String::from("|");
        for (cell, w) in cells.iter().zip(&widths) {
            s.push(' ');
            s.push_str(&center(cell, *w));
            s.push_str(" |");
        }
        s
    };
    let mut out = format!("{rule}\n{}\n{rule}\n", line(header));
    for row in rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    out.push_str(&rule);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantize_rounds_half_up_from_shortest_repr() {
        assert_eq!(quantize(85.6976065, 6), "85.697607");
        assert_eq!(quantize(0.0, 2), "0.00");
        assert_eq!(quantize(100.0, 6), "100.000000");
        assert_eq!(quantize(99.995, 2), "100.00");
        assert_eq!(quantize(0.125, 2), "0.13");
        assert_eq!(quantize(2.5, 0), "3");
        assert_eq!(quantize(0.8, 6), "0.800000");
        assert_eq!(quantize(1e-7, 6), "0.000000");
        assert_eq!(quantize(5e-7, 6), "0.000001");
        // 0.1 + 0.2 is 0.30000000000000004: the shortest repr decides, not the exact binary value.
        assert_eq!(quantize(0.1 + 0.2, 16), "0.3000000000000000");
        assert_eq!(quantize(f64::INFINITY, 2), "inf");
    }

    #[test]
    fn quantize_writes_decimal_str() {
        // str(Decimal) turns to scientific notation when the adjusted exponent is below -6.
        assert_eq!(quantize(0.0, 6), "0.000000");
        assert_eq!(quantize(0.0, 7), "0E-7");
        assert_eq!(quantize(0.0, 10), "0E-10");
        assert_eq!(quantize(5e-7, 10), "5.000E-7");
        assert_eq!(quantize(1.23e-6, 8), "0.00000123");
        assert_eq!(quantize(1e-12, 15), "1.000E-12");
        assert_eq!(quantize(4e-8, 7), "0E-7");
        assert_eq!(quantize(5e-8, 7), "1E-7");
        assert_eq!(quantize(0.0, 0), "0");
        assert_eq!(quantize(12.5, 0), "13");
    }

    #[test]
    fn center_is_python_center() {
        assert_eq!(center("tk", 5), "  tk ");
        assert_eq!(center("456", 4), "456 ");
        assert_eq!(center("F2.0", 9), "   F2.0  ");
        assert_eq!(center("", 1), " ");
    }

    #[test]
    fn python_repr_of_beta() {
        assert_eq!(python_float_repr(2.0), "2.0");
        assert_eq!(python_float_repr(0.5), "0.5");
        assert_eq!(python_float_repr(f64::INFINITY), "inf");
        // Python's exponent: a sign and at least two digits; the switch points are its own.
        for (x, repr) in [
            (1e16, "1e+16"),
            (1e-5, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (1e100, "1e+100"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (-0.0, "-0.0"),
            (2.5e-300, "2.5e-300"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] {
            assert_eq!(python_float_repr(x), repr, "{x}");
        }
    }

    #[test]
    fn negative_zero_keeps_its_sign_as_decimal_does() {
        assert_eq!(quantize(-0.0, 2), "-0.00");
        assert_eq!(quantize(-0.001, 2), "-0.00");
        assert_eq!(quantize(-1.5, 0), "-2");
    }
}
