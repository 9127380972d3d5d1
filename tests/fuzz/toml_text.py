"""TOML text from the nested dicts tomllib returns (the standard library reads TOML, it does not
write it). Covers what decks hold: strings, integers of any size (out-of-range ones are written
as they are, so the reader sees them), floats including nan and inf, booleans, arrays, tables and
arrays of tables."""

import math

_BARE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def key_text(key):
    if key and all(c in _BARE for c in key):
        return key
    return string_text(key)


def string_text(s):
    out = ['"']
    for c in s:
        o = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append("\\u%04x" % o)
        elif 0xD800 <= o <= 0xDFFF:  # a lone surrogate cannot be encoded: TOML has no escape for it
            out.append("\\ufffd")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def value_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return string_text(v)
    if isinstance(v, list):
        return "[" + ", ".join(value_text(e) for e in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(key_text(k) + " = " + value_text(e) for k, e in v.items()) + "}"
    if isinstance(v, RawValue):
        return v.text
    raise TypeError("no TOML text for %r" % (v,))


class RawValue:
    """A value written verbatim (TOML the serializer would never produce: 0x1F, 1_000, 2e, ...)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "RawValue(%r)" % self.text


def _is_table_array(v):
    return isinstance(v, list) and v and all(isinstance(e, dict) for e in v)


def dumps(table):
    lines = []
    _emit(table, [], lines)
    return "\n".join(lines) + "\n"


def _emit(table, path, lines):
    for k, v in table.items():
        if not isinstance(v, dict) and not _is_table_array(v):
            lines.append(key_text(k) + " = " + value_text(v))
    for k, v in table.items():
        if isinstance(v, dict):
            lines.append("")
            lines.append("[" + ".".join(key_text(p) for p in path + [k]) + "]")
            _emit(v, path + [k], lines)
        elif _is_table_array(v):
            for block in v:
                lines.append("")
                lines.append("[[" + ".".join(key_text(p) for p in path + [k]) + "]]")
                _emit(block, path + [k], lines)
