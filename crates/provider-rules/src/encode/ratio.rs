//! Exact decimal ratios for [`multiple`](super::multiple): a JSON number read as `p / q` (its
//! decimal spelling, so `0.1` is one tenth, not the nearest `f64`), the quotient of two, and
//! a ratio written back as decimal JSON text. `i128` throughout; anything larger is `None`.

use serde_json::Number;

/// A reduced fraction `p / q`, `q > 0`, `q` a product of 2s and 5s (a decimal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ratio {
    pub(crate) p: i128,
    pub(crate) q: i128,
}

/// Digits past the point a ratio may have (and the largest power of ten used).
const MAX_SCALE: u32 = 30;

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `p / q` reduced (`q > 0`).
    fn new(p: i128, q: i128) -> Option<Ratio> {
        if q <= 0 {
            return None;
        }
        let g = gcd(p, q).max(1);
        Some(Ratio { p: p / g, q: q / g })
    }

    /// An integer.
    pub(crate) fn int(i: i128) -> Ratio {
        Ratio { p: i, q: 1 }
    }

    /// The number as it is spelled (`1.5`, `1e-4`, `-20`).
    pub(crate) fn of(n: &Number) -> Option<Ratio> {
        let text = n.to_string();
        let (mantissa, exp) = match text.find(['e', 'E']) {
            Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
            None => (text.as_str(), 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: i128 = format!("{int}{frac}").parse().ok()?;
        let exp = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
        if exp >= 0 {
            let scale = 10i128.checked_pow(u32::try_from(exp).ok()?)?;
            Ratio::new(digits.checked_mul(scale)?, 1)
        } else {
            let scale = exp.unsigned_abs();
            (scale <= MAX_SCALE).then_some(())?;
            Ratio::new(digits, 10i128.checked_pow(scale)?)
        }
    }

    /// `self / by` as a fraction `(num, den)`, `den > 0` (`by` positive).
    fn over(self, by: Ratio) -> Option<(i128, i128)> {
        Some((self.p.checked_mul(by.q)?, self.q.checked_mul(by.p)?))
    }

    /// `self / by` when it is an integer.
    pub(crate) fn quotient(self, by: Ratio) -> Option<i128> {
        let (n, d) = self.over(by)?;
        (d != 0 && n % d == 0).then(|| n / d)
    }

    /// `self / by` rounded down or up.
    pub(crate) fn quotient_rounded(self, by: Ratio, up: bool) -> Option<i128> {
        let (n, d) = self.over(by)?;
        if d == 0 {
            return None;
        }
        let floor = n.div_euclid(d);
        Some(if up && n.rem_euclid(d) != 0 {
            floor + 1
        } else {
            floor
        })
    }

    /// The least common multiple of two positive ratios: `lcm(p) / gcd(q)`.
    pub(crate) fn lcm(self, other: Ratio) -> Option<Ratio> {
        let p = (self.p / gcd(self.p, other.p).max(1)).checked_mul(other.p)?;
        Ratio::new(p, gcd(self.q, other.q))
    }

    /// `k × self` as decimal JSON text (`q` divides a power of ten).
    pub(crate) fn times_text(self, k: i128) -> Option<String> {
        let mut scale = 0u32;
        let mut pow = 1i128;
        while pow % self.q != 0 {
            scale += 1;
            (scale <= MAX_SCALE).then_some(())?;
            pow = pow.checked_mul(10)?;
        }
        let m = k.checked_mul(self.p)?.checked_mul(pow / self.q)?;
        if scale == 0 {
            return Some(m.to_string());
        }
        let digits = m.unsigned_abs().to_string();
        let width = scale as usize + 1;
        let digits = format!("{digits:0>width$}");
        let (int, frac) = digits.split_at(digits.len() - scale as usize);
        let sign = if m < 0 { "-" } else { "" };
        Some(format!("{sign}{int}.{frac}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> Ratio {
        Ratio::of(&serde_json::from_str(text).unwrap()).unwrap()
    }

    #[test]
    fn numbers_are_read_as_spelled_and_written_back_exactly() {
        assert_eq!(r("1.5"), Ratio { p: 3, q: 2 });
        assert_eq!(r("0.0001"), Ratio { p: 1, q: 10_000 });
        assert_eq!(r("1e-4"), r("0.0001"));
        assert_eq!(r("-20"), Ratio::int(-20));
        assert_eq!(r("2.0"), Ratio::int(2));
        assert_eq!(r("0.0075").quotient(r("0.0001")), Some(75));
        assert_eq!(r("0.00751").quotient(r("0.0001")), None);
        assert_eq!(r("0.3").quotient(r("0.1")), Some(3));
        assert_eq!(r("7").quotient_rounded(r("1.5"), true), Some(5));
        assert_eq!(r("-7").quotient_rounded(r("1.5"), false), Some(-5));
        assert_eq!(r("1.5").lcm(Ratio::int(1)), Some(Ratio::int(3)));
        assert_eq!(r("2").lcm(r("3")), Some(Ratio::int(6)));
        assert_eq!(r("0.01").times_text(1999).as_deref(), Some("19.99"));
        assert_eq!(r("0.0001").times_text(-75).as_deref(), Some("-0.0075"));
        assert_eq!(r("1.5").times_text(3).as_deref(), Some("4.5"));
        assert_eq!(r("5").times_text(3).as_deref(), Some("15"));
        // Too large to be exact: not read.
        assert_eq!(Ratio::of(&serde_json::from_str("1e308").unwrap()), None);
    }
}
