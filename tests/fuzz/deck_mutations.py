"""Mutations of a deck: of its parsed keys (set a bad value, remove, add a block), of its text
(duplicated tables, odd bytes, truncation, byte flips) and of the command line (key=value
overrides, well- and ill-formed). Each returns what it did in words, for the failure line."""

import copy

import deck_keys
import deck_tree
import junk_values
import toml_text

# Keys shrink sets so that a valid long case stops itself after 2 s. Mutations of the keys present
# leave them alone, so most cases keep that quick stop; a mutation drawn from all known keys can
# still lift it, and the batch job's end that every case runs under (deck_fuzzer.JOB_SECONDS) is
# the bound no mutation lifts.
BOUNDING_KEYS = ("run.wall_limit", "run.wall_margin")


def shrink(deck, case_dir_name="out"):
    """The deck made small and quick: a small grid, few steps, the CPU where it asked for the GPU,
    output in the case's folder, and a wall-clock limit so a valid but long run stops itself
    (status 75) after 2 s, before the batch job's end the fuzzer sets too."""
    d = copy.deepcopy(deck)
    problem = d.get("problem")
    if problem == "poisson3d":
        deck_tree.put(d, "grid.n", [16, 16, 16])
    else:
        deck_tree.put(d, "grid.n", [16, 12])
        heat = d.setdefault("heat", {})
        if "steps" in heat:
            heat["steps"] = 20
        else:
            heat["t_end"] = 0.01
    if d.get("device") == "gpu":
        d["device"] = "cpu"
    out = d.setdefault("output", {})
    out["dir"] = case_dir_name
    if problem != "poisson3d":
        out["every"] = 5
    run = d.setdefault("run", {})
    run["wall_limit"] = 4
    run["wall_margin"] = 0.5  # a fraction: stop 2 s in
    return d


def _pick_key(rng, deck):
    known = deck_keys.keys_of(deck.get("problem"))
    present = [k for k in deck_tree.leaves(deck) if k not in BOUNDING_KEYS]
    if present and rng.random() < 0.6:
        key = rng.choice(present)
    else:
        key = rng.choice(sorted(known))
    kind = known.get(key, known.get(key.replace("[0]", "[0]"), "string"))
    return key, kind


def set_bad_value(rng, deck):
    key, kind = _pick_key(rng, deck)
    value = junk_values.value_for(rng, kind, deck_keys.CHOICES.get(key))
    deck_tree.put(deck, key, value)
    return "%s = %s" % (key, _short(value))


def remove_key(rng, deck):
    present = deck_tree.leaves(deck)
    key = rng.choice(present)
    deck_tree.remove(deck, key)
    return "removed %s" % key


def add_unknown_key(rng, deck):
    key = rng.choice(["grid.m", "heat.alpha", "zzz", "output.Every", "heat.boundary.front", "poisson.boundary.w_low",
                      "diagnostics[1].kind", "diagnostics[0].bins", "tuning.cache.x", "\u00e9", "a b", "x" * 500,
                      ".".join(["a"] * 20)])
    deck_tree.put(deck, key, rng.choice([1, "x", [1], True]))
    return "added %s" % _short(key)


def add_diagnostics_block(rng, deck):
    blocks = rng.choice([
        [{"kind": "spectrum", "field": "u"}, {"kind": "spectrum", "field": "u"}],
        [{"kind": "spectrum"}],
        [{"field": "u"}],
        [{"kind": "spectrum", "field": "u", "every": junk_values.integer(rng)}],
        [{}],
        [{"kind": "spectrum", "field": "u"}] * 50,
    ])
    deck["diagnostics"] = copy.deepcopy(blocks)
    return "diagnostics = %s" % _short(blocks)


def quote_dotted_key(rng, deck):
    """A leaf moved to the top level under its dotted path as one quoted name: "grid.n" = [...]."""
    # A name quoted before ("heat.a" at the top) is a leaf that the dotted path does not reach.
    nested = [k for k in deck_tree.leaves(deck) if "." in k and deck_tree.get(deck, k) is not None]
    if not nested:
        return "no dotted key to quote"
    key = rng.choice(nested)
    value = deck_tree.get(deck, key)
    deck_tree.remove(deck, key)
    deck[key] = value
    return "quoted key \"%s\"" % key


VALUE_MUTATIONS = [set_bad_value] * 6 + [remove_key, add_unknown_key, add_diagnostics_block, quote_dotted_key]


def mutate_tree(rng, deck):
    """1 to 3 key mutations of the parsed deck, in place."""
    return [rng.choice(VALUE_MUTATIONS)(rng, deck) for _ in range(rng.choice([1, 1, 1, 2, 3]))]


def mutate_text(rng, text):
    """A mutation of the deck's bytes; returns (bytes, description)."""
    data = text.encode("utf-8")
    what = rng.choice(["truncate", "flip", "insert", "duplicate_table", "bom", "crlf", "repeat", "deep_key"])
    if what == "deep_key":  # written as text: nested dicts this deep are beyond Python's recursion
        parts = rng.choice([17, 1001, 30000])
        header = rng.random() < 0.5
        line = ("[%s]\nb = 1" if header else "%s = 1") % ".".join(["a"] * parts)
        return data + b"\n" + line.encode() + b"\n", "a %s of %d parts" % ("table header" if header else "dotted key", parts)
    if what == "truncate":
        at = rng.randrange(len(data) + 1)
        return data[:at], "truncated at byte %d of %d" % (at, len(data))
    if what == "flip":
        data = bytearray(data)
        spots = [rng.randrange(len(data)) for _ in range(rng.choice([1, 2, 5]))]
        for at in spots:
            data[at] ^= 1 << rng.randrange(8)
        return bytes(data), "bit flips at bytes %s" % spots
    if what == "insert":
        junk = rng.choice([b"\x00", b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x1b[2J", b"\r",
                           b"\x7f", b"\xe2\x80\xae", b"=", b"[", b"]]", b"\"", b"'''", b"#", b"\\u"])
        at = rng.randrange(len(data) + 1)
        return data[:at] + junk + data[at:], "inserted %r at byte %d" % (junk, at)
    if what == "duplicate_table":
        table = rng.choice(["grid", "heat", "output", "run", "poisson", "heat.boundary"])
        extra = "\n[%s]\nn = [4, 4]\n" % table if rng.random() < 0.5 else "\n%s = 1\n" % table
        return data + extra.encode(), "appended a second %s" % extra.strip().replace("\n", " ")
    if what == "bom":
        return b"\xef\xbb\xbf" + data, "UTF-8 byte order mark in front"
    if what == "crlf":
        return data.replace(b"\n", b"\r\n"), "CRLF line ends"
    return data * 2, "the whole deck twice"


def _bare_or_toml(rng, value):
    """How a value reaches an override: TOML text, or a bare word the deck takes as a string."""
    if isinstance(value, str) and rng.random() < 0.5:
        return value
    return toml_text.value_text(value)


def override(rng, deck):
    """One command-line argument key=value (or something that is not one)."""
    r = rng.random()
    if r < 0.7:
        key, kind = _pick_key(rng, deck)
        value = junk_values.value_for(rng, kind, deck_keys.CHOICES.get(key))
        return key + "=" + _bare_or_toml(rng, value)
    return rng.choice([
        "=", "=1", "grid.n", "grid.n=", "grid..n=1", ".grid=1", "grid.=1", "grid.n.x=1", "problem.x=1",
        "diagnostics[99999999999].kind=spectrum", "diagnostics[-1].kind=spectrum", "diagnostics[x].kind=spectrum",
        "diagnostics[].kind=spectrum", "diagnostics[100000000].kind=spectrum", "diagnostics=[1,2]",
        "diagnostics[0]=1", "heat=1", "grid=[1]", "a" * 5000 + "=1", "\u00e9=1", "grid.n=[16,12", "grid.n=[16,12]]",
        "heat.a==1", "heat.a=1=2", "heat.initial=\"x", "output.dir=\u0000", "--summary", "-x", "--", "-", "--help=1",
        "heat.a=1 # comment", "heat.a=1\x00", "tuning.cache=" + "c" * 5000, ".".join(["a"] * 20000) + "=1",
        "x={" + ".".join(["a"] * 20000) + " = 1}",
    ])


def _short(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:60] + "...(%d chars)" % len(text)


def given_keys(deck, overrides):
    """Dotted key -> value of a deck with its overrides applied as gridflow applies them (TOML
    value text, else the bare word as a string); None when an override is not key=value."""
    import tomllib
    try:  # the deck as TOML reads it (raw values such as 0o17 included)
        d = tomllib.loads(toml_text.dumps(deck))
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    for o in overrides:
        key, eq, text = o.partition("=")
        if not eq or not key:
            return None
        try:
            value = tomllib.loads("v = " + text)["v"]
        except (tomllib.TOMLDecodeError, ValueError):
            value = text
        try:
            deck_tree.put(d, key, value)
        except (TypeError, AttributeError, ValueError, RecursionError):
            return None
    try:
        return {k: deck_tree.get(d, k) for k in deck_tree.leaves(d)}
    except RecursionError:
        return None
