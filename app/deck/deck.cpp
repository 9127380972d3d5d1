#include "app/deck/deck.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <sstream>
#include <type_traits>

#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

std::vector<std::string> split_key(const std::string& key) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(key);
  while (std::getline(in, part, '.')) parts.push_back(part);
  return parts;
}

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

// Every leaf key of `t` as a dotted path; the tables of an array of tables ([[block]]) as
// block[0].key, block[1].key, ...
void leaf_keys(const toml::table& t, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [k, v] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table()) leaf_keys(*sub, key, out);
    else if (v.is_array_of_tables()) {
      const auto& blocks = *v.as_array();
      for (std::size_t i = 0; i < blocks.size(); ++i)
        leaf_keys(*blocks[i].as_table(), key + "[" + std::to_string(i) + "]", out);
    } else {
      out.push_back(key);
    }
  }
}

// Blocks one [[name]] may have: a key such as diagnostics[100000000].kind on the command line
// grew the array by that many empty tables, until the allocation failed.
constexpr std::size_t max_blocks = 1000;

// The index i of a part "name[i]" of a dotted key; nullopt for a plain name, -1 for a bracket
// that holds no index.
std::optional<long long> block_index(const std::string& part) {
  const auto open = part.find('[');
  if (open == std::string::npos || part.back() != ']') return std::nullopt;
  const std::string digits = part.substr(open + 1, part.size() - open - 2);
  if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(digits);
}

// The table a part of a dotted key names inside `t`: "name" or "name[i]" (the i-th table of an
// array of tables), created when missing (an array is grown by empty tables); null when the part
// names something that is not a table, or an index beyond max_blocks.
toml::table* child_table(toml::table& t, const std::string& part) {
  const auto parsed = block_index(part);
  if (!parsed) return t.insert(part, toml::table{}).first->second.as_table();
  if (*parsed < 0 || *parsed >= static_cast<long long>(max_blocks)) return nullptr;
  const std::string name = part.substr(0, part.find('['));
  const auto index = static_cast<std::size_t>(*parsed);
  auto* blocks = t.insert(name, toml::array{}).first->second.as_array();
  if (!blocks) return nullptr;
  while (blocks->size() <= index) blocks->push_back(toml::table{});
  return (*blocks)[index].as_table();
}

// A quoted key such as "grid.n" = [8, 8] is one key named grid.n, not n in [grid]: the reads, which
// take dots and brackets as the path, never found it, and the defaults ran without a word.
// Tables nested deeper than any deck key (heat.boundary.left is 3): a dotted key of 30000 parts
// overflowed the stack in the recursive walks over the deck.
constexpr int max_key_depth = 16;

void require_plain_key_names(const toml::table& t, const std::string& prefix, const std::string& where, int depth = 1) {
  if (depth > max_key_depth)
    throw InputError("key '" + prefix.substr(0, 100) + (prefix.size() > 100 ? "...'" : "'") + " " + where + ": tables nest deeper than " +
                     std::to_string(max_key_depth) + " levels; no deck key has more than 3");
  for (const auto& [k, v] : t) {
    const std::string name(k.str());
    const std::string key = prefix.empty() ? name : prefix + "." + name;
    if (name.find_first_of(".[]") != std::string::npos)
      throw InputError("key '\"" + name + "\"'" + (prefix.empty() ? "" : " in [" + prefix + "]") + " " + where +
                       ": a quoted key name holding '.', '[' or ']' is one name, not a path; write it unquoted (e.g. "
                       "grid.n = ..., or n = ... under [grid])");
    if (const auto* sub = v.as_table()) require_plain_key_names(*sub, key, where, depth + 1);
    else if (v.is_array_of_tables()) {
      const auto& blocks = *v.as_array();
      for (std::size_t i = 0; i < blocks.size(); ++i)
        require_plain_key_names(*blocks[i].as_table(), key + "[" + std::to_string(i) + "]", where, depth + 1);
    } else if (const auto* a = v.as_array()) {  // inline tables inside an array
      for (const auto& e : *a)
        if (const auto* sub = e.as_table()) require_plain_key_names(*sub, key, where, depth + 1);
    }
  }
}

// toml++ recurses once per part of a dotted key (a.b.c = 1, [a.b.c], {a.b.c = 1}) with no bound of
// its own: 30000 parts overflowed the stack inside toml::parse. Refused before parsing, by a scan
// that counts dots joining key characters on one line (far above any real key, so a dotted path
// in a string never trips it).
constexpr int max_dotted_parts = 1000;

void require_short_dotted_keys(const std::string& text, const std::string& source) {
  int dots = 0, line = 1;
  for (const char c : text) {
    if (c == '\n') ++line;
    if (c == '.') {
      if (++dots >= max_dotted_parts)
        throw InputError("invalid TOML: " + source + ":" + std::to_string(line) + ": a dotted key of more than " +
                         std::to_string(max_dotted_parts) + " parts");
    } else if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ' ' || c == '\t' || c == '"' ||
                 c == '\'')) {
      dots = 0;
    }
  }
}

std::string format_parse_error(const toml::parse_error& e, const std::string& source) {
  std::ostringstream os;
  os << source << ':' << e.source().begin.line << ':' << e.source().begin.column << ": " << e.description();
  return os.str();
}

// `s` with control characters written as C escapes (\n, \t, \x01), to quote it in a message.
std::string escaped(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += char(c);
    }
  }
  return out;
}

}  // namespace

std::string exact_decimal(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

Deck Deck::parse(const std::string& text, const std::string& source) {
  Deck d;
  d.m_source = source;
  require_short_dotted_keys(text, source);
  try {
    d.m_table = toml::parse(std::string_view(text), std::string_view(source));
  } catch (const toml::parse_error& e) {
    throw InputError("invalid TOML: " + format_parse_error(e, source));
  }
  require_plain_key_names(d.m_table, "", "in " + source);
  return d;
}

void Deck::apply_override(const std::string& assignment) {
  // A newline would end the "v = value" line parsed below and drop the rest without a word.
  for (const unsigned char c : assignment)
    if (c < 0x20 || c == 0x7f)
      throw InputError("override '" + escaped(assignment) +
                       "': contains a control character (newline, tab, ...); write the value on one line");
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("override '" + assignment + "': expected key=value");
  const std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  toml::table parsed;
  require_short_dotted_keys(value, "override '" + key.substr(0, 100) + "'");
  try {
    parsed = toml::parse(std::string_view("v = " + value), std::string_view("<command line>"));
  } catch (const toml::parse_error&) {
    parsed.insert_or_assign("v", value);  // a bare word such as gpu or /tmp/out is a string
  }
  const auto parts = split_key(key);
  if (parts.size() > static_cast<std::size_t>(max_key_depth))
    throw InputError("override '" + assignment.substr(0, 100) + (assignment.size() > 100 ? "...'" : "'") + ": the key has " +
                     std::to_string(parts.size()) + " parts; no deck key has more than 3");
  toml::table* t = &m_table;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const auto index = block_index(parts[i]);
    if (index && (*index < 0 || *index >= static_cast<long long>(max_blocks)))
      throw InputError("override '" + assignment + "': '" + parts[i] + "' needs a block number from 0 to " +
                       std::to_string(max_blocks - 1));
    t = child_table(*t, parts[i]);
    if (!t) throw InputError("override '" + assignment + "': '" + parts[i] + "' is not a table in the deck");
  }
  if (const auto* value = parsed.get("v"); value && value->is_table())  // key={"a.b" = 1}
    require_plain_key_names(*value->as_table(), key, "given on the command line");
  t->insert_or_assign(parts.back(), std::move(*parsed.get("v")));
  m_overridden.insert(key);
}

const toml::node* Deck::find(const std::string& key) const {
  return m_table.at_path(key).node();
}

bool Deck::has(const std::string& key) const { return find(key) != nullptr; }

std::size_t Deck::blocks(const std::string& key) {
  const auto* n = find(key);
  if (!n) return 0;
  const auto* a = n->as_array();
  if (a && a->empty()) {  // key = []: no block, but the key was read
    m_read.insert(key);
    return 0;
  }
  if (!n->is_array_of_tables()) wrong_type(key, "[[" + key + "]] blocks (an array of tables)");
  if (a->size() > max_blocks)
    throw InputError("key '" + key + "': " + std::to_string(a->size()) + " [[" + key + "]] blocks; at most " +
                     std::to_string(max_blocks));
  return a->size();
}

bool Deck::is_string(const std::string& key) const {
  const auto* n = find(key);
  return n && n->is_string();
}

void Deck::wrong_type(const std::string& key, const std::string& expected) const {
  throw InputError("key '" + key + "': expected " + expected + ", got " + type_name(*find(key)));
}

void Deck::record(const std::string& key, toml::node&& value) {
  m_read.insert(key);
  const auto parts = split_key(key);
  toml::table* t = &m_used;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) t = child_table(*t, parts[i]);
  if (auto* s = value.as_string()) t->insert_or_assign(parts.back(), s->get());
  else if (auto* n = value.as_integer()) t->insert_or_assign(parts.back(), n->get());
  else if (auto* x = value.as_floating_point()) t->insert_or_assign(parts.back(), x->get());
  else if (auto* b = value.as_boolean()) t->insert_or_assign(parts.back(), b->get());
  else if (auto* a = value.as_array()) t->insert_or_assign(parts.back(), *a);
}

std::string Deck::string(const std::string& key, std::optional<std::string> fallback, const std::vector<std::string>& choices) {
  std::string v;
  if (const auto* n = find(key)) {
    if (!n->is_string()) wrong_type(key, "a string");
    v = n->as_string()->get();
  } else if (fallback) {
    v = *fallback;
  } else {
    throw InputError("key '" + key + "' is required");
  }
  if (!choices.empty() && std::find(choices.begin(), choices.end(), v) == choices.end()) {
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "" : ", ") + ("'" + c + "'");
    throw InputError("key '" + key + "': '" + v + "' is not one of " + list);
  }
  record(key, toml::value<std::string>(v));
  return v;
}

std::string Deck::expression(const std::string& key, const std::string& fallback) {
  const auto* n = find(key);
  if (n && n->is_number()) {
    const std::string text = n->is_integer() ? std::to_string(n->as_integer()->get()) : exact_decimal(n->as_floating_point()->get());
    record(key, toml::value<std::string>(text));
    return text;
  }
  if (n && !n->is_string()) wrong_type(key, "a formula (a string or a number)");
  return string(key, fallback);
}

double Deck::number(const std::string& key, std::optional<double> fallback) {
  if (const auto v = optional_number(key)) return *v;
  if (!fallback) throw InputError("key '" + key + "' is required");
  record(key, toml::value<double>(*fallback));
  return *fallback;
}

std::optional<double> Deck::optional_number(const std::string& key) {
  const auto* n = find(key);
  if (!n) return std::nullopt;
  if (!n->is_number()) wrong_type(key, "a number");
  const double v = n->is_integer() ? static_cast<double>(n->as_integer()->get()) : n->as_floating_point()->get();
  record(key, toml::value<double>(v));
  return v;
}

void Deck::check_range(const std::string& key, std::int64_t v, IntegerRange range) {
  if (v < range.min || v > range.max)
    throw InputError("key '" + key + "': " + std::to_string(v) + " is out of range (" + std::to_string(range.min) + " to " +
                     std::to_string(range.max) + ")");
}

std::int64_t Deck::integer(const std::string& key, std::optional<std::int64_t> fallback, IntegerRange range) {
  if (const auto v = optional_integer(key, range)) return *v;
  if (!fallback) throw InputError("key '" + key + "' is required");
  record(key, toml::value<std::int64_t>(*fallback));
  return *fallback;
}

std::optional<std::int64_t> Deck::optional_integer(const std::string& key, IntegerRange range) {
  const auto* n = find(key);
  if (!n) return std::nullopt;
  if (!n->is_integer()) wrong_type(key, "an integer");
  const auto v = n->as_integer()->get();
  check_range(key, v, range);
  record(key, toml::value<std::int64_t>(v));
  return v;
}

bool Deck::boolean(const std::string& key, std::optional<bool> fallback) {
  bool v = false;
  if (const auto* n = find(key)) {
    if (!n->is_boolean()) wrong_type(key, "true or false");
    v = n->as_boolean()->get();
  } else if (fallback) {
    v = *fallback;
  } else {
    throw InputError("key '" + key + "' is required");
  }
  record(key, toml::value<bool>(v));
  return v;
}

template <class V>
std::vector<V> Deck::array(const std::string& key, std::size_t count, std::optional<std::vector<V>> fallback, IntegerRange range) {
  constexpr bool integral = std::is_integral_v<V>;
  const std::string expected = "an array of " + std::to_string(count) + (integral ? " integers" : " numbers");
  std::vector<V> v;
  if (const auto* n = find(key)) {
    const auto* a = n->as_array();
    if (!a || a->size() != count) wrong_type(key, expected);
    for (const auto& e : *a) {
      if (integral ? !e.is_integer() : !e.is_number()) wrong_type(key, expected);
      if constexpr (integral) check_range(key, e.as_integer()->get(), range);
      v.push_back(e.is_integer() ? static_cast<V>(e.as_integer()->get()) : static_cast<V>(e.as_floating_point()->get()));
    }
  } else if (fallback) {
    v = *fallback;
  } else {
    throw InputError("key '" + key + "' is required");
  }
  toml::array used;
  for (auto x : v) used.push_back(x);
  record(key, std::move(used));
  return v;
}

std::vector<std::int64_t> Deck::integers(const std::string& key, std::size_t count,
                                         std::optional<std::vector<std::int64_t>> fallback, IntegerRange range) {
  return array<std::int64_t>(key, count, std::move(fallback), range);
}

std::vector<double> Deck::numbers(const std::string& key, std::size_t count, std::optional<std::vector<double>> fallback) {
  return array<double>(key, count, std::move(fallback));
}

void Deck::require_all_used() const {
  std::vector<std::string> keys;
  leaf_keys(m_table, "", keys);
  for (const auto& k : keys)
    if (!m_read.count(k))
      throw InputError("unknown key '" + k + "' " + (m_overridden.count(k) ? "given on the command line" : "in " + m_source) +
                       " (the README lists every key)");
}

std::string Deck::used_toml() const {
  std::ostringstream os;
  os << m_used;
  return os.str() + "\n";
}

io::Attributes Deck::used_attributes() const {
  io::Attributes out{{"deck", used_toml()}};
  std::vector<std::string> keys;
  leaf_keys(m_used, "", keys);
  for (const auto& k : keys) {
    const auto* n = m_used.at_path(k).node();
    if (const auto* s = n->as_string()) out.emplace_back(k, s->get());
    else if (const auto* i = n->as_integer()) out.emplace_back(k, i->get());
    else if (const auto* x = n->as_floating_point()) out.emplace_back(k, x->get());
    else if (const auto* b = n->as_boolean()) out.emplace_back(k, b->get());
    else if (const auto* a = n->as_array()) {
      if (a->is_homogeneous(toml::node_type::integer)) {
        std::vector<std::int64_t> v;
        for (const auto& e : *a) v.push_back(e.as_integer()->get());
        out.emplace_back(k, v);
      } else {
        std::vector<double> v;
        for (const auto& e : *a) v.push_back(e.is_integer() ? double(e.as_integer()->get()) : e.as_floating_point()->get());
        out.emplace_back(k, v);
      }
    }
  }
  return out;
}

}  // namespace gridflow::app
