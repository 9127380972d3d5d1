"""Dotted keys ("heat.boundary.left", "diagnostics[0].kind") on the nested dicts tomllib returns."""

import re

_PART = re.compile(r"^(.*)\[(\d+)\]$")
MAX_BLOCKS = 10000


def _split(key):
    return key.split(".")


def leaves(table, prefix=""):
    """Every leaf key of `table` as a dotted path; blocks of an array of tables as name[i]."""
    out = []
    for k, v in table.items():
        key = prefix + "." + k if prefix else k
        if isinstance(v, dict):
            out += leaves(v, key)
        elif isinstance(v, list) and v and all(isinstance(e, dict) for e in v):
            for i, block in enumerate(v):
                out += leaves(block, "%s[%d]" % (key, i))
        else:
            out.append(key)
    return out


def _child(table, part, create):
    m = _PART.match(part)
    if not m:
        if part not in table or not isinstance(table[part], dict):
            if not create:
                return None
            table[part] = {}
        return table[part]
    name, index = m.group(1), int(m.group(2))
    if index > MAX_BLOCKS:  # diagnostics[99999999999].kind: no list of that length
        raise ValueError("block index %d" % index)
    blocks = table.get(name)
    if not (isinstance(blocks, list) and all(isinstance(e, dict) for e in blocks)):
        if not create:
            return None
        blocks = table[name] = []
    while len(blocks) <= index:
        if not create:
            return None
        blocks.append({})
    return blocks[index]


def get(table, key, default=None):
    parts = _split(key)
    t = table
    for p in parts[:-1]:
        t = _child(t, p, create=False)
        if t is None:
            return default
    return t.get(parts[-1], default)


def has(table, key):
    marker = object()
    return get(table, key, marker) is not marker


def put(table, key, value):
    parts = _split(key)
    t = table
    for p in parts[:-1]:
        t = _child(t, p, create=True)
    t[parts[-1]] = value


def remove(table, key):
    parts = _split(key)
    t = table
    for p in parts[:-1]:
        t = _child(t, p, create=False)
        if t is None:
            return
    t.pop(parts[-1], None)
