#include "app/deck/duration.hpp"

#include <cctype>
#include <cstdlib>
#include <vector>

namespace gridflow::app {

namespace {

/// A non-negative decimal number at text[i...]; advances i.
std::optional<double> number_at(const std::string& text, std::size_t& i) {
  const std::size_t start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == start) return std::nullopt;
  char* end = nullptr;
  const std::string digits = text.substr(start, i - start);
  const double v = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<double> parse_duration(const std::string& text) {
  std::size_t i = 0;
  double total = 0;
  bool any = false;
  while (i < text.size()) {
    const auto v = number_at(text, i);
    if (!v) return std::nullopt;
    any = true;
    if (i == text.size()) {  // a bare number: seconds, and only alone
      if (total != 0 || text.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
      return *v;
    }
    const char unit = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
    const double scale = unit == 'd' ? 86400 : unit == 'h' ? 3600 : unit == 'm' ? 60 : unit == 's' ? 1 : -1;
    if (scale < 0) return std::nullopt;
    total += *v * scale;
  }
  if (!any) return std::nullopt;
  return total;
}

std::optional<double> parse_clock_duration(const std::string& raw) {
  std::string text;
  for (char c : raw)
    if (!std::isspace(static_cast<unsigned char>(c))) text += c;
  if (text.empty()) return std::nullopt;
  double days = 0;
  const auto dash = text.find('-');
  std::size_t i = 0;
  if (dash != std::string::npos) {
    const auto d = number_at(text, i);
    if (!d || i != dash) return std::nullopt;
    days = *d;
    i = dash + 1;
  }
  std::vector<double> parts;
  for (;;) {
    const auto v = number_at(text, i);
    if (!v) return std::nullopt;
    parts.push_back(*v);
    if (i == text.size()) break;
    if (text[i++] != ':') return std::nullopt;
  }
  if (parts.size() > 3) return std::nullopt;
  double seconds = 0;
  for (double p : parts) seconds = seconds * 60 + p;
  if (parts.size() == 1 && dash != std::string::npos) seconds *= 3600;  // "1-02": days-hours
  else if (parts.size() == 2 && dash != std::string::npos) seconds *= 60;  // "1-02:03": days-hours:minutes
  return days * 86400 + seconds;
}

}  // namespace gridflow::app
