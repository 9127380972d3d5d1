#pragma once
// Deck: the TOML input deck with command-line overrides applied. Every typed read records the key
// and the value used (the default where the deck is silent), so that
//   - keys nobody read are reported as unknown (require_all_used), and
//   - the deck as actually used can be stored with the output (used_toml, used_attributes).
// Every failure is an InputError naming the key and the reason.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "io/attribute.hpp"

namespace gridflow::app {

/// `v` with 17 significant digits, so a message or a recorded value reads back to the same double.
std::string exact_decimal(double v);

/// The values an integer key may take: at least the range of the type it is stored in, so that no
/// value is narrowed silently (4294967296 read into an int would be 0).
struct IntegerRange {
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();
  template <class T>
  static constexpr IntegerRange of() {
    IntegerRange r;
    if constexpr (std::is_signed_v<T>) r.min = std::max<std::int64_t>(r.min, std::numeric_limits<T>::min());
    else r.min = 0;
    if (std::uint64_t(std::numeric_limits<T>::max()) < std::uint64_t(r.max)) r.max = std::int64_t(std::numeric_limits<T>::max());
    return r;
  }
};

class Deck {
 public:
  /// Parses TOML text; `source` names it in messages (a path, or "<command line>").
  static Deck parse(const std::string& text, const std::string& source);

  /// Applies "key=value" (value in TOML syntax; a bare word is taken as a string), replacing
  /// or adding the dotted key.
  void apply_override(const std::string& assignment);

  bool has(const std::string& key) const;
  /// The number of [[key]] blocks (an array of tables; 0 when absent). Their keys are read as
  /// "key[i].name"; unread ones are unknown keys like any other. InputError when `key` is
  /// something else.
  std::size_t blocks(const std::string& key);
  /// Whether the deck sets `key` to a string (for keys that take a number or a text, such as a
  /// duration "30m" or a step count).
  bool is_string(const std::string& key) const;
  std::string string(const std::string& key, std::optional<std::string> fallback = std::nullopt,
                     const std::vector<std::string>& choices = {});
  double number(const std::string& key, std::optional<double> fallback = std::nullopt);
  /// A formula: a string, or a plain number (taken as its decimal text, e.g. rhs = 2).
  std::string expression(const std::string& key, const std::string& fallback);
  /// An integer; one outside `range` is an InputError naming the key (the fallback is not checked).
  std::int64_t integer(const std::string& key, std::optional<std::int64_t> fallback = std::nullopt, IntegerRange range = {});
  bool boolean(const std::string& key, std::optional<bool> fallback = std::nullopt);
  std::vector<std::int64_t> integers(const std::string& key, std::size_t count,
                                     std::optional<std::vector<std::int64_t>> fallback = std::nullopt, IntegerRange range = {});
  std::vector<double> numbers(const std::string& key, std::size_t count,
                              std::optional<std::vector<double>> fallback = std::nullopt);
  /// An optional number: nullopt when the deck does not set it (recorded only when set).
  std::optional<double> optional_number(const std::string& key);
  std::optional<std::int64_t> optional_integer(const std::string& key, IntegerRange range = {});

  /// Throws InputError naming the first key in the deck that no read asked for.
  void require_all_used() const;

  /// The keys read, with the values used (defaults included), as TOML text / HDF5 attributes.
  std::string used_toml() const;
  io::Attributes used_attributes() const;

 private:
  const toml::node* find(const std::string& key) const;
  [[noreturn]] void wrong_type(const std::string& key, const std::string& expected) const;
  static void check_range(const std::string& key, std::int64_t v, IntegerRange range);
  void record(const std::string& key, toml::node&& value);
  template <class V>
  std::vector<V> array(const std::string& key, std::size_t count, std::optional<std::vector<V>> fallback, IntegerRange range = {});

  std::string m_source;
  toml::table m_table;
  toml::table m_used;
  std::set<std::string> m_read;
  std::set<std::string> m_overridden;  // keys set on the command line, for messages
};

}  // namespace gridflow::app
