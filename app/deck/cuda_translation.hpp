#pragma once
// The CUDA C++ form of a deck formula that muParser has already accepted: the same operations in
// the same order, so that a device evaluation of it rounds like muParser's host evaluation with
// its optimizer off (see Expression). Fully parenthesised: nothing is reassociated or contracted.
//   - variables become v0..v3 (in the order the Expression takes them), constants hexadecimal
//     literals of their exact double value;
//   - muParser's precedence: ?: < || < && < comparisons < + - < * / and unary signs < ^, with ^
//     right-associative and a sign binding looser than ^ (-2^2 = -(2^2), 2^-3^2 = 2^(-(3^2)));
//   - comparisons and && || give 1.0 or 0.0; a ternary takes its first branch for any
//     condition other than 0 (NaN included), as muParser's cmIF does;
//   - functions as muParser 2.3 defines them (muParserTemplateMagic.h): log and ln are the natural
//     logarithm, log2(v) = log(v)/log(2), asinh(v) = log(v + sqrt(v*v + 1)) (acosh, atanh alike),
//     rint(v) = floor(v + 0.5), abs(v) = v >= 0 ? v : -v, sum/avg add from 0 left to right,
//     min/max fold std::min/std::max from the first argument.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gridflow::app {

/// The CUDA C++ expression of `formula` (a double of v0..v3), or nothing when it uses a name,
/// operator or number form this translation does not cover (the caller then evaluates it on the
/// host). It validates nothing: muParser has accepted the formula before.
std::optional<std::string> translate_to_cuda(const std::string& formula, const std::vector<std::string>& variables,
                                             const std::map<std::string, double>& constants);

/// `v` as an exact CUDA C++ double expression: a hexadecimal literal ("0x1.8p+1", negative ones
/// in parentheses), or the bit pattern of an infinity or NaN.
std::string cuda_literal(double v);

/// CUDA C++ source of the __device__ helpers a translation may call (gridflow_mu_*), and of
/// `__device__ double gridflow_formula(double v0, double v1, double v2, double v3)` returning
/// `expression`.
std::string cuda_formula_source(const std::string& expression);

}  // namespace gridflow::app
