"""bcastgen's tables as the generator prints them (`bcastgen list --json`, from
the C++ tables), for the scripts that write test specs: the dtypes and the
binary ops with the dtypes each supports, so that no script keeps its own
copy. Import it with the tests directory on sys.path:

    tables = Tables.load("build/generator/bcastgen")
    tables.dtypes                    # ["f32", "f64", "i8", ...], in the table's order
    tables.supports("copysign", "i8")  # False
"""
import json
import subprocess


class Tables:
    def __init__(self, data):
        self.data = data
        dtypes = data["dtypes"]
        self.dtypes = [d["name"] for d in dtypes]
        self.floats = [d["name"] for d in dtypes if d["float"]]
        # The integers: neither float nor bool (bool is the one-byte unsigned non-number).
        self.ints = [d["name"] for d in dtypes if not d["float"] and d["name"] != "bool"]
        self.unsigned = [d["name"] for d in dtypes if d["name"] in self.ints and not d["signed"]]
        self.ops = [o["name"] for o in data["ops"]]
        self.comparisons = [o["name"] for o in data["ops"] if o["comparison"]]
        self._op_dtypes = {o["name"]: set(o["dtypes"]) for o in data["ops"]}
        self.functions = [f["name"] for f in data["functions"]]
        # The math functions of floats: a shared vector algorithm or the C library's (form
        # vector or libm), the fast tier among them.
        self.math_functions = [f["name"] for f in data["functions"] if f["form"] != "own"]

    @classmethod
    def load(cls, bcastgen):
        """Runs `<bcastgen> list --json`."""
        out = subprocess.run([bcastgen, "list", "--json"], check=True, capture_output=True, text=True).stdout
        return cls(json.loads(out))

    def supports(self, op, dtype):
        """Whether binary op `op` takes operands of `dtype`."""
        return dtype in self._op_dtypes[op]

    def arithmetic_ops(self):
        """The binary ops on numbers that are not comparisons: those of f32 (the
        float-only ones among them, which take only the floats)."""
        return [o for o in self.ops if o not in self.comparisons and self.supports(o, "f32")]

    def float_only_ops(self):
        return [o for o in self.ops if self._op_dtypes[o] == set(self.floats)]

    def logic_ops(self):
        """The logical, bitwise and shift ops: neither comparisons nor arithmetic."""
        arithmetic = set(self.arithmetic_ops())
        return [o for o in self.ops if o not in self.comparisons and o not in arithmetic]
