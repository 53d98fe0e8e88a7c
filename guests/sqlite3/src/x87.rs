//! Just enough of an x87 80-bit `long double` (64-bit significand, round to
//! nearest even) to print floats as SQLite 3.40 did on x86-64 Linux, where
//! its `printf` does its digit arithmetic in `long double`. Only what that
//! arithmetic needs: non-negative finite values, `+`, `-` (larger minus
//! smaller), `*`, `/`, comparison and truncation to an integer.

use std::cmp::Ordering;

/// `m * 2^e`, with `m` normalized (top bit set) unless the value is zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct X80 {
    m: u64,
    e: i32,
}

impl X80 {
    pub const ZERO: X80 = X80 { m: 0, e: 0 };

    /// The exact value of a non-negative finite `f64`.
    pub fn from_f64(v: f64) -> X80 {
        let bits = v.abs().to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp - 1075)
        };
        Self::normalize(m as u128, e, false)
    }

    pub fn from_u64(v: u64) -> X80 {
        Self::normalize(v as u128, 0, false)
    }

    pub fn is_zero(self) -> bool {
        self.m == 0
    }

    /// Rounds `v * 2^e` (plus a sticky bit for anything below `v`) to 64
    /// significant bits, to nearest even.
    fn normalize(v: u128, e: i32, sticky: bool) -> X80 {
        if v == 0 {
            return X80::ZERO;
        }
        let top = 127 - v.leading_zeros() as i32;
        if top <= 63 {
            let shift = 63 - top;
            return X80 {
                m: (v << shift) as u64,
                e: e - shift,
            };
        }
        let shift = (top - 63) as u32;
        let mut keep = v >> shift;
        let rest = v & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let up = rest > half || (rest == half && (sticky || keep & 1 == 1));
        let mut e = e + shift as i32;
        if up {
            keep += 1;
            if keep >> 64 != 0 {
                keep >>= 1;
                e += 1;
            }
        }
        X80 { m: keep as u64, e }
    }

    pub fn mul(self, o: X80) -> X80 {
        if self.is_zero() || o.is_zero() {
            return X80::ZERO;
        }
        Self::normalize(self.m as u128 * o.m as u128, self.e + o.e, false)
    }

    pub fn div(self, o: X80) -> X80 {
        if self.is_zero() {
            return X80::ZERO;
        }
        // A quotient of exactly 64 bits, then one guard bit and a sticky
        // bit from the remainder.
        let (n, e) = if self.m >= o.m {
            ((self.m as u128) << 63, self.e - o.e - 63)
        } else {
            ((self.m as u128) << 64, self.e - o.e - 64)
        };
        let d = o.m as u128;
        let q = n / d;
        let r = n % d;
        let guard = 2 * r >= d;
        let sticky = 2 * r != d && r != 0;
        let v = (q << 1) | guard as u128;
        Self::normalize(v << 1 | sticky as u128, e - 2, false)
    }

    /// Aligns `a >= b` on a common exponent with 62 spare low bits (room
    /// for a carry); returns the two scaled significands, that exponent and
    /// whether bits of `b` fell off.
    fn align(a: X80, b: X80) -> (u128, u128, i32, bool) {
        let am = (a.m as u128) << 62;
        if b.is_zero() {
            return (am, 0, a.e - 62, false);
        }
        let bm = (b.m as u128) << 62;
        let diff = (a.e - b.e) as u32;
        if diff >= 126 {
            return (am, 0, a.e - 62, true);
        }
        let lost = bm & ((1u128 << diff) - 1) != 0;
        (am, bm >> diff, a.e - 62, lost)
    }

    pub fn add(self, o: X80) -> X80 {
        let (a, b) = if self.lt(o) { (o, self) } else { (self, o) };
        if a.is_zero() {
            return X80::ZERO;
        }
        let (am, bm, e, lost) = Self::align(a, b);
        Self::normalize(am + bm, e, lost)
    }

    /// `self - o` for `self >= o`.
    pub fn sub(self, o: X80) -> X80 {
        if o.is_zero() {
            return self;
        }
        let (am, bm, e, lost) = Self::align(self, o);
        // With bits of `o` lost the true difference is a little below
        // `am - bm`: borrow one unit and keep a sticky bit.
        if lost {
            Self::normalize(am - bm - 1, e, true)
        } else {
            Self::normalize(am - bm, e, false)
        }
    }

    pub fn cmp_value(self, o: X80) -> Ordering {
        match (self.is_zero(), o.is_zero()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => self.e.cmp(&o.e).then(self.m.cmp(&o.m)),
        }
    }

    pub fn ge(self, o: X80) -> bool {
        self.cmp_value(o) != Ordering::Less
    }

    pub fn lt(self, o: X80) -> bool {
        self.cmp_value(o) == Ordering::Less
    }

    /// Truncation toward zero, for values below 2^63.
    pub fn trunc(self) -> u64 {
        if self.is_zero() || self.e <= -64 {
            0
        } else if self.e < 0 {
            self.m >> (-self.e)
        } else {
            self.m << self.e
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_small_arithmetic() {
        let a = X80::from_f64(3.5);
        let b = X80::from_f64(1.25);
        assert_eq!(a.add(b), X80::from_f64(4.75));
        assert_eq!(a.sub(b), X80::from_f64(2.25));
        assert_eq!(a.mul(b), X80::from_f64(4.375));
        assert_eq!(a.div(X80::from_f64(0.5)), X80::from_f64(7.0));
        assert_eq!(X80::from_f64(9.75).trunc(), 9);
    }
}
