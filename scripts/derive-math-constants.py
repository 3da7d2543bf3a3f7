#!/usr/bin/env python3
"""Derives the constants of the f32 math algorithms in
runtime/include/bcastgen/simd/math_f32.inl and prints them as the header
spells them (C99 hex floats, then the decimal value).

    /usr/bin/python3 scripts/derive-math-constants.py

Standard library only: the values are computed with 60-digit decimals and
rounded to float (round to nearest even) by struct. A hi/lo pair is a value
split into the nearest float and the float nearest the remainder, so that
hi + lo carries about 48 bits.
"""
import math
import struct
from decimal import Decimal, getcontext

from f32_spelling import spell, to_f32

getcontext().prec = 60
LN2 = Decimal(2).ln()
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494459")


def split(x):
    hi = to_f32(x)
    return hi, to_f32(x - Decimal(hi))


def split_bits(x, bits):
    """x as hi + lo with hi keeping `bits` significant bits, so that hi times
    an integer of 24 - bits bits is exact."""
    exponent = int(Decimal(abs(x)).ln() / LN2) if x else 0
    while Decimal(2) ** exponent > abs(x):
        exponent -= 1
    unit = Decimal(2) ** (exponent - bits + 1)
    hi = to_f32((x / unit).to_integral_value() * unit)
    return hi, to_f32(x - Decimal(hi))


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def log_table():
    """log: x = 2^k z, z in [OFF, 2 OFF), split by the 3 bits below the
    exponent of z - OFF into 8 intervals; each has 1/c (any float: z / c is
    computed as an exact product) and -log(1/c) as hi + lo. OFF puts 1.0 in
    the middle of interval 4 (2/3 of its 2^20 bit patterns lie below 1, where
    floats are twice as dense), whose 1/c is exactly 1 and log c 0, so that
    log(x) near 1 is r + ... with no cancellation."""
    off = 0x3F800000 - 0xAAAAB - (4 << 20)
    inv = []
    rmax = 0
    for i in range(8):
        zl = f32_from_bits(off + (i << 20))
        zh = f32_from_bits(off + ((i + 1) << 20) - 1)
        c = 1.0 if i == 4 else to_f32(2 / (Decimal(zl) + Decimal(zh)))
        inv.append(c)
        rmax = max(rmax, abs(zl * c - 1), abs(zh * c - 1))
    return off, inv, rmax


def cbrt_polynomial(degree=5):
    """cbrt: the polynomial through cbrt(1 + t) at the Chebyshev nodes of t in
    [0, 1] (near minimax), highest degree first, as math_f32.inl's horner
    takes it, and its largest relative error with the coefficients rounded
    (on 4097 points; one Newton step follows it in cbrt_f32)."""
    n = degree + 1
    # The nodes need not be exact: any n distinct points define the polynomial.
    ts = [(1 + Decimal(math.cos((2 * k + 1) * math.pi / (2 * n)))) / 2 for k in range(n)]
    ys = [(1 + t) ** (Decimal(1) / 3) for t in ts]
    # Newton's divided differences, then the monomial form in t.
    dd = list(ys)
    for j in range(1, n):
        for i in range(n - 1, j - 1, -1):
            dd[i] = (dd[i] - dd[i - 1]) / (ts[i] - ts[i - j])
    coeffs = [Decimal(0)] * n  # lowest degree first
    for i in range(n - 1, -1, -1):  # p = dd[i] + (t - ts[i]) p
        shifted = [Decimal(0)] + coeffs[:-1]
        coeffs = [s - ts[i] * c for s, c in zip(shifted, coeffs)]
        coeffs[0] += dd[i]
    rounded = [to_f32(c) for c in coeffs][::-1]

    def relative_error(t):
        p = Decimal(0)
        for c in rounded:
            p = p * t + Decimal(c)
        return abs(p / (1 + t) ** (Decimal(1) / 3) - 1)

    return rounded, max(relative_error(Decimal(i) / 4096) for i in range(4097))


def main():
    print("// exp: n = round(x * 8 / ln 2), x = n * ln2 / 8 + r, e^x = 2^(n >> 3) * 2^((n & 7) / 8) * e^r")
    print(f"kExpInvLn2x8 = {spell(to_f32(8 / LN2))}")
    hi, lo = split(LN2 / 8)
    print(f"kExpLn2d8Hi = {spell(hi)}, kExpLn2d8Lo = {spell(lo)}")
    his, los = zip(*(split((LN2 * j / 8).exp()) for j in range(8)))
    print("kExp2jd8Hi = {" + ", ".join(spell(h) for h in his) + "}")
    print("kExp2jd8Lo = {" + ", ".join(spell(l) for l in los) + "}")
    print("// e^r - 1 = r + r^2 (1/2 + r (1/6 + r / 24)): Taylor; |r| <= ln 2 / 16 keeps its")
    print("// truncation error below (ln 2 / 16)^5 / 120 = %.2g, 0.02 ulp of the result." % (float(LN2 / 16) ** 5 / 120))
    print(f"kExpC3 = {spell(to_f32(Decimal(1) / 6))}, kExpC4 = {spell(to_f32(Decimal(1) / 24))}")

    print("// exp2: n = round(8 x), t = x - n / 8 exactly, r = t ln 2 (hi + lo)")
    print("kLn2Hi = %s, kLn2Lo = %s" % tuple(spell(v) for v in split(LN2)))

    print("// expm1: n = round(x / ln 2), r = x - n ln 2 with ln 2 = hi (13 bits: n <= 128 times it is")
    print("// exact) + lo")
    print(f"kInvLn2 = {spell(to_f32(1 / LN2))}")
    print("kLn2Hi13 = %s, kLn2Lo13 = %s" % tuple(spell(v) for v in split_bits(LN2, 13)))

    off, inv, rmax = log_table()
    print("// log: x = 2^k z, OFF = 0x%08x, |z / c - 1| <= %.4f" % (off, rmax))
    print("// ln 2 = hi (16 bits: k, |k| <= 150, times it is exact) + lo")
    print("kLogLn2Hi = %s, kLogLn2Lo = %s" % tuple(spell(v) for v in split_bits(LN2, 16)))
    print("kLogInvC = {" + ", ".join(spell(c) for c in inv) + "}")
    his, los = zip(*(split(-Decimal(c).ln()) for c in inv))
    print("kLogCHi = {" + ", ".join(spell(h) for h in his) + "}")
    print("kLogCLo = {" + ", ".join(spell(l) for l in los) + "}")
    print("// log2 = ln * log2(e), log10 = ln * log10(e), each factor hi + lo")
    print("kLog2EHi = %s, kLog2ELo = %s" % tuple(spell(v) for v in split(1 / LN2)))
    print("kLog10EHi = %s, kLog10ELo = %s" % tuple(spell(v) for v in split(1 / Decimal(10).ln())))

    print("// gelu_tanh: 2 z = x (c1 + c3 x^2), c1 = 2 sqrt(2 / pi) as hi (20 bits, so that c1_hi - u")
    print("// is exact for u < 16) + lo, c3 = 0.044715 c1 as hi + lo")
    c1 = 2 * (2 / PI).sqrt()
    print("kGeluTanhC1 = %s + %s" % tuple(spell(v) for v in split_bits(c1, 20)))
    print("kGeluTanhC3 = %s + %s" % tuple(spell(v) for v in split(c1 * Decimal("0.044715"))))

    print("// the fast tier's exp (fast_sigmoid, fast_silu, fast_gelu_tanh, fast_softplus, fast_gelu):")
    print("// n = round(t / ln 2) over a shifter of 1.5 * 2^23 + 191, whose low bits n + 191, moved to")
    print("// the exponent field, are 2^(n + 64) for n in [-173, 0]; t = n ln2 + r with ln 2 as exp2's")
    print("// kLn2Hi + kLn2Lo; e^r = 1 + r P(r), erf's P (scripts/derive-math-polynomials.sollya): no table")
    print("kFastExpShifter = %s" % spell(to_f32(Decimal(3) * 2**22 + 191)))
    print("// (t >= -120: n >= %d, so n + 191 >= 18)" % int((Decimal(-120) / LN2).to_integral_value()))

    coeffs, worst = cbrt_polynomial()
    print("// cbrt: cbrt(1 + t), t in [0, 1), by a polynomial through the Chebyshev nodes (relative")
    print("// error %.2g with its coefficients rounded); 2^(r / 3), r = 0, 1, 2" % worst)
    print("kP (cbrt_f32) = {" + ", ".join(spell(c) for c in coeffs) + "}")
    print("kTwoToThirds = {" + ", ".join(spell(to_f32(Decimal(2) ** (Decimal(r) / 3))) for r in range(3)) + "}")

    inv, logs = fast_log_table(off)
    print("// fast_log: per interval, the float 1/c near log's (|z / c - 1| <= 0.0567 kept) whose")
    print("// -ln(1/c) is nearest a float, so that ln c needs no low part; ln 2 rounded to float")
    print("kFastLogInvC = {" + ", ".join(spell(c) for c in inv) + "}")
    print("kFastLogC = {" + ", ".join(spell(h) for h in logs) + "}")
    print(f"kFastLogLn2 = {spell(to_f32(LN2))}")


def fast_log_table(off):
    _, inv, _ = log_table()
    cs, logs = [], []
    for i, c0 in enumerate(inv):
        zl = f32_from_bits(off + (i << 20))
        zh = f32_from_bits(off + ((i + 1) << 20) - 1)
        best = (1.0, 0.0, Decimal(0))
        if i != 4:
            base = struct.unpack("<I", struct.pack("<f", c0))[0]
            best = None
            for j in range(-3000, 3001):
                c = f32_from_bits(base + j)
                if max(abs(zl * c - 1), abs(zh * c - 1)) > 0.0567:
                    continue
                exact = -Decimal(c).ln()
                h = to_f32(exact)
                residual = abs(Decimal(h) - exact) / abs(Decimal(h))
                if best is None or residual < best[2]:
                    best = (c, h, residual)
        cs.append(best[0])
        logs.append(best[1])
    return cs, logs


if __name__ == "__main__":
    main()
