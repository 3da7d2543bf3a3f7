"""Float rounding and spelling shared by the derivation scripts
(derive-math-constants.py, derive-gelu-rational.py), which import it from
their own directory."""
import struct


def to_f32(x):
    """x rounded to float (to nearest even), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", float(x)))[0]


def spell(x):
    """A float as runtime/include/bcastgen/simd/math_f32.inl spells it: a C99
    hex float with the f suffix and no trailing zeros."""
    mantissa, exponent = float.hex(x).split("p")
    return f"{mantissa.rstrip('0').rstrip('.')}p{exponent}f" if x else "0.0f"
