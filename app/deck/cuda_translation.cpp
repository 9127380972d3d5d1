#include "app/deck/cuda_translation.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <locale>
#include <sstream>

namespace gridflow::app {

namespace {

enum class Kind { number, name, op, end };

struct Token {
  Kind kind = Kind::end;
  std::string text;  // the operator or name; a number's literal
};

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Splits the formula into tokens; false for a character or number this translation does not know.
bool tokenize(const std::string& s, std::vector<Token>& out) {
  static const char* operators[] = {"&&", "||", "<=", ">=", "==", "!=", "<", ">", "+", "-",
                                    "*",  "/",  "^",  "?",  ":",  "(",  ")", ","};
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      // Read as muParser reads a value: a stream in the classic locale.
      std::istringstream stream(s.substr(i));
      stream.imbue(std::locale::classic());
      double v = 0;
      stream >> v;
      if (stream.fail() || !std::isfinite(v)) return false;
      const auto used = stream.eof() ? static_cast<std::streamoff>(s.size() - i) : static_cast<std::streamoff>(stream.tellg());
      if (used <= 0) return false;
      out.push_back({Kind::number, cuda_literal(v)});
      i += static_cast<std::size_t>(used);
    } else if (name_char(c)) {
      std::size_t j = i;
      while (j < s.size() && name_char(s[j])) ++j;
      out.push_back({Kind::name, s.substr(i, j - i)});
      i = j;
    } else {
      bool found = false;
      for (const char* op : operators) {
        const std::string o(op);
        if (s.compare(i, o.size(), o) == 0) {
          out.push_back({Kind::op, o});
          i += o.size();
          found = true;
          break;
        }
      }
      if (!found) return false;  // '=' (assignment) and anything else muParser may accept
    }
  }
  out.push_back({Kind::end, ""});
  return true;
}

/// Recursive descent over muParser's grammar; each level returns its operand fully parenthesised.
/// Any construct outside the list in the header throws Unsupported.
class Translator {
 public:
  struct Unsupported {};

  Translator(std::vector<Token> tokens, const std::vector<std::string>& variables, const std::map<std::string, double>& constants)
      : m_tokens(std::move(tokens)), m_variables(variables), m_constants(constants) {}

  std::string translate() {
    std::string e = ternary();
    if (peek().kind != Kind::end) throw Unsupported{};
    return e;
  }

 private:
  const Token& peek() const { return m_tokens[m_at]; }
  bool accept(const char* op) {
    if (peek().kind == Kind::op && peek().text == op) {
      ++m_at;
      return true;
    }
    return false;
  }
  void expect(const char* op) {
    if (!accept(op)) throw Unsupported{};
  }

  // c ? a : b, right-associative, the loosest binding.
  std::string ternary() {
    const std::string condition = logical_or();
    if (!accept("?")) return condition;
    const std::string yes = ternary();
    expect(":");
    const std::string no = ternary();
    return "((" + condition + " != 0.0) ? " + yes + " : " + no + ")";
  }

  std::string logical_or() {
    std::string e = logical_and();
    while (accept("||")) e = "((" + e + " != 0.0 || " + logical_and() + " != 0.0) ? 1.0 : 0.0)";
    return e;
  }

  std::string logical_and() {
    std::string e = comparison();
    while (accept("&&")) e = "((" + e + " != 0.0 && " + comparison() + " != 0.0) ? 1.0 : 0.0)";
    return e;
  }

  /// One left-associative level: operands of the next level joined by any of `ops` as "(a op b)";
  /// a comparison gives 1.0 or 0.0, as muParser's do.
  template <class Next>
  std::string left_associative(Next next, std::initializer_list<const char*> ops, bool comparison = false) {
    std::string e = (this->*next)();
    for (;;) {
      const Token& t = peek();
      const auto op = std::find_if(ops.begin(), ops.end(), [&](const char* o) { return t.kind == Kind::op && t.text == o; });
      if (op == ops.end()) return e;
      ++m_at;
      const std::string joined = "(" + e + " " + *op + " " + (this->*next)() + ")";
      e = comparison ? "(" + joined + " ? 1.0 : 0.0)" : joined;
    }
  }

  std::string comparison() { return left_associative(&Translator::additive, {"<=", ">=", "==", "!=", "<", ">"}, true); }
  std::string additive() { return left_associative(&Translator::multiplicative, {"+", "-"}); }
  std::string multiplicative() { return left_associative(&Translator::signed_operand, {"*", "/"}); }

  // A sign binds like * and /, so looser than ^: -a^b = -(a^b), and 2^-a^b = 2^(-(a^b)).
  std::string signed_operand() {
    if (accept("-")) return "(-" + signed_operand() + ")";
    if (accept("+")) return signed_operand();
    return power();
  }

  std::string power() {
    const std::string base = primary();
    if (!accept("^")) return base;
    return "pow(" + base + ", " + signed_operand() + ")";  // right-associative: the exponent may hold ^ again
  }

  std::string primary() {
    const Token t = peek();
    if (t.kind == Kind::number) {
      ++m_at;
      return t.text;
    }
    if (t.kind == Kind::op && t.text == "(") {
      ++m_at;
      const std::string e = ternary();
      expect(")");
      return e;
    }
    if (t.kind != Kind::name) throw Unsupported{};
    ++m_at;
    if (accept("(")) return call(t.text);
    for (std::size_t i = 0; i < m_variables.size(); ++i)
      if (m_variables[i] == t.text) return "v" + std::to_string(i);
    if (const auto c = m_constants.find(t.text); c != m_constants.end()) return cuda_literal(c->second);
    throw Unsupported{};
  }

  std::vector<std::string> arguments() {
    std::vector<std::string> args{ternary()};
    while (accept(",")) args.push_back(ternary());
    expect(")");
    return args;
  }

  std::string call(const std::string& name) {
    const std::vector<std::string> a = arguments();
    static const char* same_name[] = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "sqrt", "log10"};
    static const char* helpers[] = {"asinh", "acosh", "atanh", "abs", "sign"};
    if (name == "sum" || name == "avg") {
      std::string e = "0.0";
      for (const auto& v : a) e = "(" + e + " + " + v + ")";
      return name == "sum" ? e : "(" + e + " / " + cuda_literal(static_cast<double>(a.size())) + ")";
    }
    if (name == "min" || name == "max") {
      std::string e = a[0];
      for (std::size_t i = 1; i < a.size(); ++i) e = "gridflow_mu_" + name + "(" + e + ", " + a[i] + ")";
      return e;
    }
    if (a.size() != 1) throw Unsupported{};
    for (const char* f : same_name)
      if (name == f) return name + "(" + a[0] + ")";
    for (const char* f : helpers)
      if (name == f) return "gridflow_mu_" + name + "(" + a[0] + ")";
    if (name == "log" || name == "ln") return "log(" + a[0] + ")";
    if (name == "log2") return "(log(" + a[0] + ") / log(2.0))";
    if (name == "rint") return "floor(" + a[0] + " + 0.5)";
    throw Unsupported{};
  }

  std::vector<Token> m_tokens;
  std::size_t m_at = 0;
  const std::vector<std::string>& m_variables;
  const std::map<std::string, double>& m_constants;
};

}  // namespace

std::string cuda_literal(double v) {
  if (!std::isfinite(v)) {  // no literal spells these: their bits
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    return "__longlong_as_double(" + std::to_string(static_cast<long long>(bits)) + "LL)";
  }
  if (v == 0) return std::signbit(v) ? "(-0.0)" : "0.0";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a", std::abs(v));
  return v < 0 ? "(-" + std::string(buffer) + ")" : std::string(buffer);
}

std::optional<std::string> translate_to_cuda(const std::string& formula, const std::vector<std::string>& variables,
                                             const std::map<std::string, double>& constants) {
  std::vector<Token> tokens;
  if (!tokenize(formula, tokens)) return std::nullopt;
  try {
    return Translator(std::move(tokens), variables, constants).translate();
  } catch (const Translator::Unsupported&) {
    return std::nullopt;
  }
}

std::string cuda_formula_source(const std::string& expression) {
  // muParser 2.3's definitions (muParserTemplateMagic.h), argument by argument.
  return R"(__device__ inline double gridflow_mu_asinh(double v) { return log(v + sqrt(v * v + 1.0)); }
__device__ inline double gridflow_mu_acosh(double v) { return log(v + sqrt(v * v - 1.0)); }
__device__ inline double gridflow_mu_atanh(double v) { return 0.5 * log((1.0 + v) / (1.0 - v)); }
__device__ inline double gridflow_mu_abs(double v) { return (v >= 0.0) ? v : -v; }
__device__ inline double gridflow_mu_sign(double v) { return (v < 0.0) ? -1.0 : (v > 0.0) ? 1.0 : 0.0; }
__device__ inline double gridflow_mu_min(double a, double b) { return (b < a) ? b : a; }
__device__ inline double gridflow_mu_max(double a, double b) { return (a < b) ? b : a; }
__device__ inline double gridflow_formula(double v0, double v1, double v2, double v3) {
  (void)v0; (void)v1; (void)v2; (void)v3;
  return )" + expression + ";\n}\n";
}

}  // namespace gridflow::app
