#pragma once
// Parameter: one named tunable with its legal values, in the order in which "adjacent" is meant
// (local search moves one parameter to the value before or after its current one).
#include <string>
#include <vector>

namespace gridflow::autotune {

struct Parameter {
  std::string name;                 ///< an identifier: letters, digits, '_'; not starting with a digit
  std::vector<int> values;          ///< legal values, distinct, ordered so that neighbours are similar
  int default_value = 0;            ///< one of `values`: what runs untuned
  std::vector<std::string> labels;  ///< empty, or one name per value (a choice among names)
  /// Chooses between kernel variants (a shared-memory tile or not, steps fused per launch): the
  /// other parameters' best values change with it, so a local search explores each variant apart.
  bool selects_variant = false;

  /// Integer values, e.g. integers("bx", {32, 64, 128, 256}, 64).
  static Parameter integers(std::string name, std::vector<int> values, int default_value);
  /// Values 0 (false) and 1 (true).
  static Parameter boolean(std::string name, bool default_value);
  /// Values 0..n-1 standing for `labels`, e.g. choice("load", {"l1", "shared", "texture"}, "l1").
  static Parameter choice(std::string name, std::vector<std::string> labels, const std::string& default_label);

  /// This parameter, marked as choosing between kernel variants.
  Parameter variant() const {
    Parameter p = *this;
    p.selects_variant = true;
    return p;
  }

  /// Position of `value` in `values`, or -1.
  int index_of(int value) const;
  /// The label of `value` when labelled, else its decimal text.
  std::string describe(int value) const;
  /// Throws gridflow::Error naming the parameter when a field breaks its contract.
  void validate() const;
};

}  // namespace gridflow::autotune
