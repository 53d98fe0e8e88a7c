//! A `seq -f` format: text around one floating-point conversion (`%[flags][width]
//! [.precision]` then `e f g E F G`), checked and printed as C's `printf` does in
//! the C locale (GNU seq prints through `printf` with a `long double`).

/// One parsed format: `prefix`, the conversion, `suffix` (`%%` already undone).
#[derive(Debug, Clone, PartialEq)]
pub struct Format {
    prefix: String,
    suffix: String,
    spec: Spec,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alternate: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    conversion: char,
}

impl Format {
    /// GNU's messages for a format it refuses.
    pub fn parse(text: &str) -> Result<Format, String> {
        let mut prefix = String::new();
        let mut suffix = String::new();
        let mut spec: Option<Spec> = None;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            let out = if spec.is_some() {
                &mut suffix
            } else {
                &mut prefix
            };
            if c != '%' {
                out.push(c);
                continue;
            }
            if chars.peek() == Some(&'%') {
                chars.next();
                out.push('%');
                continue;
            }
            if spec.is_some() {
                return Err(format!("format '{text}' has too many % directives"));
            }
            let mut s = Spec::default();
            while let Some(&f) = chars.peek() {
                match f {
                    '-' => s.left = true,
                    '+' => s.plus = true,
                    ' ' => s.space = true,
                    '#' => s.alternate = true,
                    '0' => s.zero = true,
                    // Grouping: none in the C locale.
                    '\'' => {}
                    _ => break,
                }
                chars.next();
            }
            s.width = digits(&mut chars).unwrap_or(0);
            if chars.peek() == Some(&'.') {
                chars.next();
                s.precision = Some(digits(&mut chars).unwrap_or(0));
            }
            // Length modifiers are accepted and ignored (the value is a double here).
            while matches!(chars.peek(), Some('L' | 'l' | 'h')) {
                chars.next();
            }
            match chars.next() {
                Some(c @ ('e' | 'f' | 'g' | 'E' | 'F' | 'G')) => s.conversion = c,
                Some(c) => {
                    return Err(format!("format '{text}' has unknown %{c} directive"));
                }
                None => return Err(format!("format '{text}' ends in %")),
            }
            spec = Some(s);
        }
        match spec {
            Some(spec) => Ok(Format {
                prefix,
                suffix,
                spec,
            }),
            None => Err(format!("format '{text}' has no % directive")),
        }
    }

    /// `%.{precision}f`, the format seq uses when none is given.
    pub fn fixed(precision: usize) -> Format {
        Format {
            prefix: String::new(),
            suffix: String::new(),
            spec: Spec {
                precision: Some(precision),
                conversion: 'f',
                ..Spec::default()
            },
        }
    }

    /// `%0{width}.{precision}f`, what `seq -w` prints with.
    pub fn zero_padded(width: usize, precision: usize) -> Format {
        let mut format = Format::fixed(precision);
        format.spec.zero = true;
        format.spec.width = width;
        format
    }

    /// `%g`, for operands whose precision cannot be told (hex floats).
    pub fn general() -> Format {
        Format {
            spec: Spec {
                conversion: 'g',
                ..Spec::default()
            },
            ..Format::fixed(0)
        }
    }

    pub fn write(&self, x: f64, out: &mut String) {
        out.push_str(&self.prefix);
        let s = &self.spec;
        let body = convert(x.abs(), s);
        // C prints the sign of `-0` and of a negative value that rounds to zero.
        let sign = if x.is_sign_negative() && !x.is_nan() {
            "-"
        } else if s.plus {
            "+"
        } else if s.space {
            " "
        } else {
            ""
        };
        let len = sign.len() + body.len();
        let pad = s.width.saturating_sub(len);
        if s.left {
            out.push_str(sign);
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', pad));
        } else if s.zero && x.is_finite() {
            out.push_str(sign);
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(&body);
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(sign);
            out.push_str(&body);
        }
        out.push_str(&self.suffix);
    }
}

fn digits(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<usize> {
    let mut n: Option<usize> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
        chars.next();
    }
    n
}

/// The digits of a non-negative `x` for one conversion.
fn convert(x: f64, s: &Spec) -> String {
    let upper = s.conversion.is_ascii_uppercase();
    if !x.is_finite() {
        let text = if x.is_nan() { "nan" } else { "inf" };
        return if upper {
            text.to_uppercase()
        } else {
            text.into()
        };
    }
    let text = match s.conversion.to_ascii_lowercase() {
        'f' => fixed(x, s.precision.unwrap_or(6), s.alternate),
        'e' => exponential(x, s.precision.unwrap_or(6), s.alternate),
        _ => general(x, s.precision.unwrap_or(6), s.alternate),
    };
    if upper { text.to_uppercase() } else { text }
}

fn fixed(x: f64, precision: usize, alternate: bool) -> String {
    let mut text = format!("{x:.precision$}");
    if alternate && precision == 0 {
        text.push('.');
    }
    text
}

/// C's `%e`: the exponent has a sign and at least two digits.
fn exponential(x: f64, precision: usize, alternate: bool) -> String {
    let text = format!("{x:.precision$e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let dot = if alternate && precision == 0 { "." } else { "" };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}{dot}e{sign}{:02}", exp.abs())
}

/// C's `%g`: `%e` or `%f` by the exponent, then without trailing zeros (unless `#`).
fn general(x: f64, precision: usize, alternate: bool) -> String {
    let p = precision.max(1);
    let rounded = format!("{x:.prec$e}", prec = p - 1);
    let exp: i64 = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let text = if exp < -4 || exp >= p as i64 {
        exponential(x, p - 1, alternate)
    } else {
        fixed(x, (p as i64 - 1 - exp) as usize, alternate)
    };
    if alternate {
        return text;
    }
    match text.split_once('e') {
        Some((mantissa, exp)) => format!("{}e{exp}", strip_zeros(mantissa)),
        None => strip_zeros(&text).to_string(),
    }
}

fn strip_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::Format;

    fn show(format: &str, x: f64) -> String {
        let mut out = String::new();
        Format::parse(format).unwrap().write(x, &mut out);
        out
    }

    #[test]
    fn conversions_print_as_c_does() {
        assert_eq!(show("x%05.1fy", 1.0), "x001.0y");
        assert_eq!(show("%%%g", 1.0), "%1");
        assert_eq!(show("%+g", 1.0), "+1");
        assert_eq!(show("%#g", 1.0), "1.00000");
        assert_eq!(show("%e", 123456.0), "1.234560e+05");
        assert_eq!(show("%G", 0.00001), "1E-05");
        assert_eq!(show("%-5gX", 1.0), "1    X");
        assert_eq!(show("%g", 1000000.0), "1e+06");
        assert_eq!(show("%g", 100000.0), "100000");
        assert_eq!(show("%.2e", 1.0), "1.00e+00");
        assert_eq!(show("%03g", 9.0), "009");
        assert_eq!(show("%g", -2.5), "-2.5");
    }

    #[test]
    fn refused_formats_say_why() {
        for (format, message) in [
            ("abc", "format 'abc' has no % directive"),
            ("%d", "format '%d' has unknown %d directive"),
            ("%g%g", "format '%g%g' has too many % directives"),
        ] {
            assert_eq!(Format::parse(format).unwrap_err(), message);
        }
    }
}
