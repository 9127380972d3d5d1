#include "app/output/ghost_width_report.hpp"

namespace gridflow::app {

std::vector<std::pair<std::string, std::int64_t>> GhostWidthReport::entries() const {
  std::vector<std::pair<std::string, std::int64_t>> e{{"halo.width.requested", plan.requested}};
  if (use) {
    e.emplace_back("halo.width.chosen", use->chosen);
    e.emplace_back("halo.width.ran", use->ran);
    e.emplace_back("halo.exchanges", use->exchanges);
  }
  e.emplace_back("halo.width.allocated", plan.capacity());
  return e;
}

io::Attributes GhostWidthReport::attributes() const {
  io::Attributes a;
  for (const auto& [name, value] : entries()) a.emplace_back(name, value);
  return a;
}

namespace {
std::string joined(const std::vector<std::pair<std::string, std::int64_t>>& entries) {
  std::string text;
  for (const auto& [name, value] : entries) text += (text.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return text;
}
}  // namespace

std::string GhostWidthReport::text() const { return joined(entries()); }

std::string GhostWidthReport::setup_text() const {
  std::string text = joined({{"halo.width.requested", plan.requested}, {"halo.width.allocated", plan.capacity()}});
  if (plan.tuned()) {
    text += " (the tuner chooses among";
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) text += (i ? ", " : " ") + std::to_string(plan.candidates[i]);
    text += ')';
  }
  return text;
}

}  // namespace gridflow::app
