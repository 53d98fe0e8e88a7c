//! `seq`, GNU's, streaming: numbers are written in 64 KiB pieces as they are made,
//! so `seq 1000000 | tail -1` and `seq inf | head -3` work. bashkit's `seq` stops
//! at 100,000 lines (a limit inside the crate that no setting reaches).
//!
//! Options and messages are GNU coreutils 9.1's in the C locale: `-f FORMAT`,
//! `-s STRING`, `-w`, negative operands, decimals and exponents (`1.5e1`), hex,
//! `inf`; integers are printed exactly at any size up to 2^127; other values go
//! through a double (GNU uses a `long double`, so the last digit of a very long
//! sequence of fractions can differ).

use std::fmt::Write;

use bashkit::{Command, CommandContext, CommandStatus, async_trait};

mod format;
mod number;

use format::Format;
use number::{Invalid, Operand};

/// Bytes gathered before they are written.
const PIECE: usize = 64 << 10;

pub struct Seq;

#[derive(Default)]
struct Options {
    format: Option<String>,
    separator: Option<String>,
    equal_width: bool,
    operands: Vec<String>,
}

/// Why `seq` stops before printing any number.
enum Stop {
    /// `--help` or `--version`: this text on stdout, exit 0.
    Print(&'static str),
    /// An error: the message, and whether the usage hint follows it.
    Refuse(String, bool),
}

fn usage(message: impl Into<String>) -> Stop {
    Stop::Refuse(message.into(), true)
}

/// GNU's option scan (`getopt_long` with `+f:s:w`): options end at the first
/// operand, and an argument that starts like a negative number is an operand.
fn parse(args: &[String]) -> Result<Options, Stop> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let b = a.as_bytes();
        if a == "--" {
            i += 1;
            break;
        }
        if b.len() < 2 || b[0] != b'-' || b[1] == b'.' || b[1].is_ascii_digit() {
            break;
        }
        i += 1;
        if let Some(long) = a.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let known = ["format", "separator", "equal-width", "help", "version"];
            let matches: Vec<&str> = known
                .iter()
                .copied()
                .filter(|k| k.starts_with(name))
                .collect();
            let full = match matches.as_slice() {
                [one] => *one,
                _ if known.contains(&name) => name,
                [] => return Err(usage(format!("unrecognized option '{a}'"))),
                _ => return Err(usage(format!("option '{a}' is ambiguous"))),
            };
            let mut take = || -> Result<String, Stop> {
                if let Some(v) = value.clone() {
                    return Ok(v);
                }
                let v = args
                    .get(i)
                    .cloned()
                    .ok_or_else(|| usage(format!("option '--{full}' requires an argument")))?;
                i += 1;
                Ok(v)
            };
            match full {
                "format" => o.format = Some(take()?),
                "separator" => o.separator = Some(take()?),
                "equal-width" => o.equal_width = true,
                "help" => return Err(Stop::Print(HELP)),
                _ => return Err(Stop::Print("seq (GNU coreutils) 9.1\n")),
            }
            continue;
        }
        for (at, c) in a[1..].char_indices() {
            match c {
                'w' => o.equal_width = true,
                'f' | 's' => {
                    let rest = &a[1 + at + 1..];
                    let value = if !rest.is_empty() {
                        rest.to_string()
                    } else {
                        let v = args.get(i).cloned().ok_or_else(|| {
                            usage(format!("option requires an argument -- '{c}'"))
                        })?;
                        i += 1;
                        v
                    };
                    if c == 'f' {
                        o.format = Some(value);
                    } else {
                        o.separator = Some(value);
                    }
                    break;
                }
                other => return Err(usage(format!("invalid option -- '{other}'"))),
            }
        }
    }
    o.operands = args[i..].to_vec();
    Ok(o)
}

const HELP: &str = "Usage: seq [OPTION]... LAST\n  or:  seq [OPTION]... FIRST LAST\n  or:  seq [OPTION]... FIRST INCREMENT LAST\nPrint numbers from FIRST to LAST, in steps of INCREMENT.\n\n  -f, --format=FORMAT      use printf style floating-point FORMAT\n  -s, --separator=STRING   use STRING to separate numbers (default: \\n)\n  -w, --equal-width        equalize width by padding with leading zeroes\n";

/// What to print: checked operands and the format, in GNU's order of checks.
struct Plan {
    first: Operand,
    step: Operand,
    last: Operand,
    format: Option<Format>,
    separator: String,
    equal_width: bool,
}

fn plan(o: Options) -> Result<Plan, Stop> {
    match o.operands.len() {
        0 => return Err(usage("missing operand")),
        1..=3 => {}
        _ => return Err(usage(format!("extra operand '{}'", o.operands[3]))),
    }
    let format = match &o.format {
        Some(text) => Some(Format::parse(text).map_err(|m| Stop::Refuse(m, false))?),
        None => None,
    };
    if format.is_some() && o.equal_width {
        return Err(usage(
            "format string may not be specified when printing equal width strings",
        ));
    }
    let mut operands = Vec::with_capacity(3);
    for arg in &o.operands {
        operands.push(Operand::parse(arg).map_err(|e| match e {
            Invalid::Number => usage(format!("invalid floating point argument: '{arg}'")),
            Invalid::NotANumber => usage(format!("invalid 'not-a-number' argument: '{arg}'")),
        })?);
    }
    let one = || Operand::parse("1").ok();
    let (first, step, last) = match operands.len() {
        1 => (one(), one(), operands.pop()),
        2 => {
            let last = operands.pop();
            (operands.pop(), one(), last)
        }
        _ => {
            let last = operands.pop();
            let step = operands.pop();
            (operands.pop(), step, last)
        }
    };
    let (Some(first), Some(step), Some(last)) = (first, step, last) else {
        return Err(usage("missing operand"));
    };
    if step.value == 0.0 {
        let text = &o.operands[1];
        return Err(usage(format!("invalid Zero increment value: '{text}'")));
    }
    Ok(Plan {
        first,
        step,
        last,
        format,
        separator: o.separator.unwrap_or_else(|| "\n".into()),
        equal_width: o.equal_width,
    })
}

/// Output gathered into pieces.
struct Out<'c, 'a> {
    ctx: &'c CommandContext<'a>,
    text: String,
    any: bool,
    separator: &'c str,
}

impl Out<'_, '_> {
    /// Start a number: the separator goes before every number but the first.
    fn next(&mut self) -> &mut String {
        if self.any {
            self.text.push_str(self.separator);
        }
        self.any = true;
        &mut self.text
    }

    async fn flush_if_full(&mut self) -> bashkit::Result<()> {
        if self.text.len() >= PIECE {
            self.ctx.stdout.write_all(self.text.as_bytes()).await?;
            self.text.clear();
        }
        Ok(())
    }

    async fn finish(mut self) -> bashkit::Result<()> {
        if self.any {
            self.text.push('\n');
        }
        self.ctx.stdout.write_all(self.text.as_bytes()).await
    }
}

/// Integers, exactly: each number is the one before plus the step.
async fn integers(
    p: &Plan,
    (first, step, last): (i128, i128, i128),
    out: &mut Out<'_, '_>,
) -> bashkit::Result<()> {
    let width = if p.equal_width {
        first.to_string().len().max(last.to_string().len())
    } else {
        0
    };
    let mut n = first;
    while (step > 0 && n <= last) || (step < 0 && n >= last) {
        // `{:0w$}` pads after the sign, as `seq -w` does (`-03`).
        let _ = write!(out.next(), "{n:0width$}");
        out.flush_if_full().await?;
        let Some(next) = n.checked_add(step) else {
            break;
        };
        n = next;
    }
    Ok(())
}

/// Other values: the i-th number is `first + i * step` (no drift from adding), as
/// in GNU, which also prints one number past LAST when it prints as LAST does.
async fn fractions(p: &Plan, out: &mut Out<'_, '_>) -> bashkit::Result<()> {
    let (first, step, last) = (p.first.value, p.step.value, p.last.value);
    if (step > 0.0 && last < first) || (step < 0.0 && first < last) {
        return Ok(());
    }
    let format = match &p.format {
        Some(f) => f.clone(),
        None => match (p.first.precision, p.step.precision) {
            (Some(a), Some(b)) if p.equal_width => {
                let precision = a.max(b);
                let mut probe = String::new();
                let width = [first, last]
                    .iter()
                    .map(|x| {
                        probe.clear();
                        Format::fixed(precision).write(*x, &mut probe);
                        probe.len()
                    })
                    .max()
                    .unwrap_or(0);
                Format::zero_padded(width, precision)
            }
            (Some(a), Some(b)) => Format::fixed(a.max(b)),
            _ => Format::general(),
        },
    };
    let mut this = String::new();
    let mut previous = String::new();
    let mut i: f64 = 0.0;
    loop {
        let x = first + i * step;
        let beyond = if step < 0.0 { x < last } else { last < x };
        this.clear();
        format.write(x, &mut this);
        if beyond && !(prints_as(&this, &format, last) && this != previous) {
            break;
        }
        out.next().push_str(&this);
        out.flush_if_full().await?;
        if beyond || !x.is_finite() && i > 0.0 {
            break;
        }
        std::mem::swap(&mut this, &mut previous);
        i += 1.0;
    }
    Ok(())
}

/// Whether a printed number reads back as `value`.
fn prints_as(printed: &str, format: &Format, value: f64) -> bool {
    let mut last = String::new();
    format.write(value, &mut last);
    printed == last || printed.trim().parse::<f64>().is_ok_and(|x| x == value)
}

#[async_trait]
impl Command for Seq {
    async fn execute(&self, ctx: CommandContext<'_>) -> bashkit::Result<CommandStatus> {
        let plan = match parse(ctx.args).and_then(plan) {
            Ok(plan) => plan,
            Err(Stop::Print(text)) => {
                ctx.stdout.write_all(text.as_bytes()).await?;
                return Ok(CommandStatus::with_code(0));
            }
            Err(Stop::Refuse(message, hint)) => {
                let hint = if hint {
                    "Try 'seq --help' for more information.\n"
                } else {
                    ""
                };
                ctx.stderr
                    .write_all(format!("seq: {message}\n{hint}").as_bytes())
                    .await?;
                return Ok(CommandStatus::with_code(1));
            }
        };
        let mut out = Out {
            ctx: &ctx,
            text: String::with_capacity(PIECE + 64),
            any: false,
            separator: &plan.separator,
        };
        match (
            plan.first.integer,
            plan.step.integer,
            plan.last.integer,
            &plan.format,
        ) {
            (Some(a), Some(b), Some(c), None) => integers(&plan, (a, b, c), &mut out).await?,
            _ => fractions(&plan, &mut out).await?,
        }
        out.finish().await?;
        Ok(CommandStatus::with_code(0))
    }
}
