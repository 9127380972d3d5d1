"""Bad and borderline values, by what a key expects: wrong types, 0, -1, huge integers, extreme and
non-finite numbers, empty, long and odd strings, arrays of the wrong length. Every choice comes
from the case's own random.Random, so a case is reproduced by its seed alone."""

import math

from toml_text import RawValue

HUGE_INTS = [2**31 - 1, 2**31, -(2**31), 2**32, 2**32 + 1, 2**53 + 1, 2**62, 2**63 - 1, -(2**63)]
# Beyond int64: TOML readers must refuse these (written raw, the serializer would print them).
OVERFLOW_INTS = [RawValue(str(2**63)), RawValue(str(2**64)), RawValue("-" + str(2**63 + 1)),
                 RawValue("9" * 40)]
SMALL_INTS = [0, -1, 1, 2, 3, -2**20]
EXTREME_FLOATS = [1e308, -1e308, math.nan, math.inf, -math.inf, 5e-324, -5e-324, -0.0, 1e-300, 1.5, -0.5,
                  1.7976931348623157e308]
ODD_STRINGS = ["", " ", "\t", "x" * 5000, "\x00", "a\x00b", "\x01\x02\x7f", "\u00e9\u20ac\U0001F600",
               "\ufffd\ufeff", "\u202e", "nan", "inf", "-inf", "1e308", "-1", "0x10", "true", "[1, 2]",
               "\\", "\"", "'", "%s%n%x", "{}", "a" * 300, "\n", "\u0085", "\u2028"]
ODD_EXPRESSIONS = ["", "1/0", "0/0", "-1/0", "sqrt(-1)", "log(0)", "ln(-1)", "x^1e308", "1e308*1e308", "exp(1e6)",
                   "nan", "inf", "(((((", "x+", "sin(", "sin()", "foo(x)", "q", "z", "t", "x y", "1e308", "-1e308",
                   "asin(2)", "atan2(0,0)", "x ? 1 : 2", "min()", "sum()", "avg()", "rint(1e300)", "1" * 400,
                   "(" * 2000 + "1" + ")" * 2000, "x" + "+x" * 3000, "\u00e9", "\x00", "1;2", "a=1", "_pi",
                   "x > 0.5 ? 1e308 : -1e308", "sign(x-0.5)*1e300", "1e-320", "e^710", "10^309"]
TOML_NOT_SERIALIZED = [RawValue("0x1F"), RawValue("0o17"), RawValue("0b101"), RawValue("1_000"), RawValue("+inf"),
                       RawValue("-nan"), RawValue("+nan"), RawValue("1979-05-27T07:32:00Z"), RawValue("07:32:00"),
                       RawValue("1979-05-27"), RawValue("'''multi\nline'''"), RawValue('"""\\u0000"""'),
                       RawValue("{ a = 1 }"), RawValue("[[1, 2], [3]]"), RawValue("[]"), RawValue("1e400"),
                       RawValue("-1e400"), RawValue("1e-400")]
DURATIONS = ["30m", "0s", "-5s", "1h30m", "s", "5x", "1e308h", "99999999999999999999d", "1..5s", ".s", "0", "1m1",
             "nan", "inf", "2h-1m", ""]
# Relative and inside the case's folder: the run's working directory is that folder.
ODD_PATHS = ["", " ", "x" * 300, "/".join(["d"] * 80), ("y" * 250 + "/") * 20, "a\x01b", "\u00e9\u20ac", "out/",
             "out//x", "./out", "-out", "out\\x", "deck.toml", "nonexistent/restart.h5", "latest", "auto", ".",
             "out/heat2d_00000000.h5"]


def wrong_type(rng, kind):
    """A value of another type than `kind` expects."""
    options = [True, "abc", [1, 2], {"a": 1}, 1.5, 7, [], ["a", "b"], [[1, 2]]]
    if kind in ("int",):
        options = [o for o in options if not isinstance(o, int) or isinstance(o, bool)] + [2.0, 1e3]
    elif kind in ("number", "number_or_duration"):
        options = [o for o in options if isinstance(o, (bool, str, list, dict))]
    elif kind in ("string", "choice", "path", "name", "expr"):
        options = [o for o in options if not isinstance(o, str)]
    elif kind == "bool":
        options = [o for o in options if not isinstance(o, bool)] + [0, 1, "true"]
    return rng.choice(options)


def number(rng):
    return rng.choice(EXTREME_FLOATS + SMALL_INTS + HUGE_INTS[:3] + [rng.uniform(-10, 10), 10 ** rng.uniform(-320, 308)])


def integer(rng):
    pool = SMALL_INTS * 3 + HUGE_INTS + OVERFLOW_INTS + [rng.randint(-100, 100), rng.randint(0, 2**40)]
    return rng.choice(pool)


def array(rng, count, element):
    shape = rng.random()
    if shape < 0.25:  # wrong length
        length = rng.choice([0, 1, count - 1, count + 1, count + 5, 1000])
        return [element(rng) for _ in range(max(length, 0))]
    if shape < 0.35:  # mixed or nested
        return rng.choice([[1, "a"] + [1] * (count - 2), [[1] * count] * count, [True] * count, [1.5] * count])
    values = [element(rng) for _ in range(count)]
    if shape < 0.7:  # one odd entry among small valid ones
        base = [16] * count if element is integer else [1.0] * count
        i = rng.randrange(count)
        base[i] = values[i]
        return base
    return values


def plausible(rng, kind, choices=None):
    """A value a user could mean, so that valid combinations of keys are run too."""
    if kind == "int":
        return rng.choice([0, 1, 2, 3, 4, 5, 8, 16, 100])
    if kind == "number":
        return rng.choice([1e-6, 0.01, 0.1, 0.5, 1, 1.0, 2.5])
    if kind == "bool":
        return rng.choice([True, False])
    if kind == "choice":
        return rng.choice(choices or ["x"])
    if kind == "expr":
        return rng.choice(["x*y", "sin(pi*x)", "t", "x^2 + 2*a*t", "1", "exp(-x)", "z", "x > 0.5 ? 1 : 0"])
    if kind.startswith("ints:"):
        return [rng.choice([0, 1, 2, 3, 4, 8, 16, 17, 32]) for _ in range(int(kind[5:]))]
    if kind.startswith("numbers:"):
        return [rng.choice([-1.0, 0.0, 0.5, 1.0, 3.0]) for _ in range(int(kind[8:]))]
    if kind in ("int_or_duration", "number_or_duration"):
        return rng.choice([1, 2, 0.5, "1s", "2m", "1h"])
    if kind == "path":
        return rng.choice(["out2", "out/sub", "ck", "latest", "auto"])
    return rng.choice(["u", "run1", "a-b_c"])


def value_for(rng, kind, choices=None):
    """A bad or borderline value for a key of `kind` (see deck_keys.py), or at times a plausible one."""
    r = rng.random()
    if r < 0.25:
        return plausible(rng, kind, choices)
    r = rng.random()
    if r < 0.15:
        return wrong_type(rng, kind)
    if r < 0.22:
        return rng.choice(TOML_NOT_SERIALIZED)
    if kind == "int":
        return integer(rng)
    if kind == "number":
        return number(rng)
    if kind == "bool":
        return rng.choice([True, False, "yes", 1, 0])
    if kind == "choice":
        good = choices or ["x"]
        return rng.choice(ODD_STRINGS + [g.upper() for g in good] + [" " + good[0], good[0] + "\x00", good[-1] * 2])
    if kind == "expr":
        return rng.choice(ODD_EXPRESSIONS + [number(rng)])
    if kind == "path":
        return rng.choice(ODD_PATHS)
    if kind == "name":
        return rng.choice(ODD_STRINGS + ["a:b", "a/b", "a&b<c\"d", "x" * 200, "x" * 201, ".", "..", "-"])
    if kind.startswith("ints:"):
        return array(rng, int(kind[5:]), integer)
    if kind.startswith("numbers:"):
        return array(rng, int(kind[8:]), number)
    if kind == "int_or_duration":
        return rng.choice([integer(rng), rng.choice(DURATIONS)])
    if kind == "number_or_duration":
        return rng.choice([number(rng), rng.choice(DURATIONS)])
    return rng.choice(ODD_STRINGS)
