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
import struct
from decimal import Decimal, getcontext

getcontext().prec = 60
LN2 = Decimal(2).ln()


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def spell(x):
    mantissa, exponent = float.hex(x).split("p")
    return f"{mantissa.rstrip('0').rstrip('.')}p{exponent}f" if x else "0.0f"


def split(x):
    hi = to_f32(x)
    return hi, to_f32(x - Decimal(hi))


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


if __name__ == "__main__":
    main()
