#!/usr/bin/env python3
"""Fits fast_gelu's W(a) = a erfc(a / sqrt 2) e^(a^2/2) / 2 on [0, 14.5] (so
that gelu(-a) = -W(a) e^(-a^2/2)) as the rational function

    W = M / (k M + R),  M = a + a^2 (m1 + m2 a + m3 a^2 + m4 a^3),
                        R = 2 + r1 a + r2 a^2 + r3 a^3 + r4 a^4,

k = sqrt(2 pi) rounded to float (W's limit is 1/sqrt(2 pi)), in relative
error, and prints the coefficients as runtime/include/bcastgen/simd/
math_f32.inl spells them (fast_gelu_w). Why this form: at large a the
denominator is mostly k M, so M's rounding errors cancel in the quotient;
near a = 0, M = a (1 + ...) rounds once, and so does the denominator, whose
2 fast_gelu_w adds last.

    /usr/bin/python3 scripts/derive-gelu-rational.py

NumPy in double precision (W's reference from math.erfc and math.exp, far
below float's rounding): Lawson's iteration on the linearized problem W (k M
+ R) = M, whose weights approach the minimax; then the m rounded to float,
R refitted with them held (Lawson's iteration again), and R rounded. It
prints the relative error of the rounded coefficients on the grid, in
2^-24; the Sollya script (derive-math-polynomials.sollya) checks the same
bound with its own erfc.
"""
import math

import numpy as np

from f32_spelling import spell, to_f32

A = 14.5
K = to_f32(math.sqrt(2 * math.pi))
a = np.unique(np.concatenate([np.linspace(1e-6, A, 40001), np.geomspace(1e-9, 1, 4001)]))
w = np.array([x * math.erfc(x / math.sqrt(2)) * math.exp(x * x / 2) / 2 for x in a])
t = a / A  # the fit runs in t, for the conditioning of its columns


def m_poly(m):  # M for coefficients m in t
    return a + a * a * np.polyval(m[::-1], t) / A


def r_poly(r):  # R for r1.. in t
    return 2 + t * np.polyval(r[::-1], t)


# W (k M + R) = M, linear in the m and r: sum m_i a^2 t^(i-1)/A (k W - 1)
# + sum r_j W t^j = -a (k W - 1) - 2 W.
g = K * w - 1
columns = np.stack([a * a * g * t ** i / A for i in range(4)] + [w * t ** j for j in range(1, 5)], 1)
rhs = -a * g - 2 * w
lawson = np.ones_like(a)
weight = 1 / w
for _ in range(200):
    c, *_ = np.linalg.lstsq(columns * weight[:, None], rhs * weight, rcond=None)
    m, r = c[:4], c[4:]
    q = K * m_poly(m) + r_poly(r)
    err = m_poly(m) / q / w - 1
    lawson *= np.abs(err)
    lawson /= lawson.sum()
    weight = np.sqrt(lawson) / q  # the linearized residual over W q is the relative error

# m to float, in a's units; then R refitted with M held (R = M / W - k M,
# linear in r) and rounded.
m_f = [to_f32(v / A ** (i + 1)) for i, v in enumerate(m)]
mv = a + a * a * np.polyval(np.array(m_f[::-1]), a)
target = mv / w - K * mv - 2
cols = np.stack([t ** j for j in range(1, 5)], 1)
scale = mv / w  # a residual in R over this is the relative error
lawson_r = np.ones_like(a)
for _ in range(200):
    wt = np.sqrt(lawson_r) / scale
    r_fit, *_ = np.linalg.lstsq(cols * wt[:, None], target * wt, rcond=None)
    lawson_r *= np.abs((target - cols @ r_fit) / scale)
    lawson_r /= lawson_r.sum()
r_fit = r_fit / A ** np.arange(1, 5)
r_f = [to_f32(v) for v in r_fit]
rv = 2 + a * np.polyval(np.array(r_f[::-1]), a)
final = mv / (K * mv + rv) / w - 1
print(f"k = {spell(K)}")
print("m1..m4:", ", ".join(spell(v) for v in m_f))
print("r1..r4:", ", ".join(spell(v) for v in r_f))
print(f"relative error before rounding {np.max(np.abs(err)) * 2**24:.3f} 2^-24, "
      f"with the float coefficients {np.max(np.abs(final)) * 2**24:.3f} 2^-24")
