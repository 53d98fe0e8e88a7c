//! A `seq` operand, read as GNU seq reads it (`strtold`): decimal or hex, with an
//! exponent, `inf`; and what it says about the output: how many decimals it has,
//! and whether it is a plain integer (printed exactly, at any size).

#[derive(Debug, Clone)]
pub struct Operand {
    pub value: f64,
    /// Digits after the point, less the exponent (`1.5e1` has none); `None` for a
    /// hex float, whose precision seq cannot tell.
    pub precision: Option<usize>,
    /// The value, when the operand is written as a decimal integer.
    pub integer: Option<i128>,
}

#[derive(Debug, PartialEq)]
pub enum Invalid {
    /// Not a number: `invalid floating point argument: 'x'`.
    Number,
    /// `nan`: `invalid 'not-a-number' argument: 'nan'`.
    NotANumber,
}

impl Operand {
    pub fn parse(arg: &str) -> Result<Operand, Invalid> {
        let text = arg.trim_start_matches([' ', '\t', '\n']);
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let lower = body.to_ascii_lowercase();
        if lower == "nan" || lower.starts_with("nan(") {
            return Err(Invalid::NotANumber);
        }
        let sign = if negative { -1.0 } else { 1.0 };
        if lower == "inf" || lower == "infinity" {
            return Ok(Operand {
                value: sign * f64::INFINITY,
                precision: Some(0),
                integer: None,
            });
        }
        if let Some(hex) = lower.strip_prefix("0x") {
            let value = hex_value(hex).ok_or(Invalid::Number)?;
            return Ok(Operand {
                value: sign * value,
                precision: None,
                integer: None,
            });
        }
        decimal(body, negative)
    }
}

fn decimal(body: &str, negative: bool) -> Result<Operand, Invalid> {
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let digits = whole.len() + fraction.map_or(0, str::len);
    if digits == 0 || !all_digits(whole) || !fraction.is_none_or(all_digits) {
        return Err(Invalid::Number);
    }
    let exponent: i64 = match exponent {
        Some(e) => {
            let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
            if unsigned.is_empty() || !all_digits(unsigned) {
                return Err(Invalid::Number);
            }
            e.parse().unwrap_or(if e.starts_with('-') {
                i64::MIN / 2
            } else {
                i64::MAX / 2
            })
        }
        None => 0,
    };
    let value: f64 = body.parse().map_err(|_| Invalid::Number)?;
    let decimals = fraction.map_or(0, str::len) as i64;
    let integer = (fraction.is_none() && exponent == 0)
        .then(|| whole.parse::<i128>().ok())
        .flatten()
        .map(|n| if negative { -n } else { n });
    Ok(Operand {
        value: if negative { -value } else { value },
        precision: Some(decimals.saturating_sub(exponent).max(0) as usize),
        integer,
    })
}

/// A hex float's value (`1f`, `1.8p1`).
fn hex_value(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in whole.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in fraction.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

#[cfg(test)]
mod tests {
    use super::{Invalid, Operand};

    #[test]
    fn precision_counts_decimals_less_the_exponent() {
        let p = |s: &str| Operand::parse(s).unwrap().precision;
        assert_eq!(p("1"), Some(0));
        assert_eq!(p("0.50"), Some(2));
        assert_eq!(p("1.5e1"), Some(0));
        assert_eq!(p("1e-2"), Some(2));
        assert_eq!(p("0x10"), None);
    }

    #[test]
    fn integers_are_kept_exactly() {
        let n = Operand::parse("18446744073709551617").unwrap();
        assert_eq!(n.integer, Some(18446744073709551617));
        assert_eq!(Operand::parse("-3").unwrap().integer, Some(-3));
        assert_eq!(Operand::parse("1e6").unwrap().integer, None);
        assert_eq!(Operand::parse("0x10").unwrap().value, 16.0);
    }

    #[test]
    fn bad_operands_are_refused() {
        assert_eq!(Operand::parse("a").unwrap_err(), Invalid::Number);
        assert_eq!(Operand::parse("").unwrap_err(), Invalid::Number);
        assert_eq!(Operand::parse("1.2.3").unwrap_err(), Invalid::Number);
        assert_eq!(Operand::parse("nan").unwrap_err(), Invalid::NotANumber);
    }
}
