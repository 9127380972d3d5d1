#include "kernels/fft/flow_graph_tunables.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernels/fft/flow_graph_lines_cuda.hpp"
#include "kernels/fft/flow_graph_onchip_launch.hpp"
#include "kernels/fft/flow_graph_passes.hpp"
#include "mesh/check.hpp"

namespace gridflow::kernels::fft {

namespace {

constexpr const char* variant_syntax =
    "expected 'radix2_table' or 'onchip/r<radix>/l<lines per block>/tw<0|1>[/p<2|3 passes>][/e<1|2 planes>[/s1]]'";

// What a block of the onchip kernel may use on sm_90: 1024 threads and 227 KB of shared memory
// (opted in); its shared memory per block is onchip::block_shared_bytes (two padded planes).
constexpr long long max_threads_per_block = 1024;
constexpr std::size_t max_shared_bytes = 227 * 1024;
// The longest pass the plan hands to one launch when it splits a long transform:
// max_onchip_length and the radix2_table kernel's limit, both 4096.
constexpr long long longest_pass = 4096;

/// The integer after `prefix` in `part`, or throws naming the part.
int number_after(const std::string& part, const std::string& prefix, const std::string& variant) {
  const auto fail = [&] { throw Error("FFT variant '" + variant + "': bad part '" + part + "', " + variant_syntax); };
  if (part.size() <= prefix.size() || part.compare(0, prefix.size(), prefix) != 0) fail();
  const std::string digits = part.substr(prefix.size());
  if (digits.size() > 4 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    fail();
  return std::stoi(digits);
}

}  // namespace

std::string FlowGraphTunables::to_string() const {
  if (kernel == Kernel::radix2_table) return "radix2_table";
  std::ostringstream s;
  s << "onchip/r" << radix << "/l" << lines_per_block << "/tw" << (twiddle_table ? 1 : 0);
  if (passes) s << "/p" << passes;
  if (planes) s << "/e" << planes;
  if (staged) s << "/s1";
  return s.str();
}

FlowGraphTunables FlowGraphTunables::parse(const std::string& variant) {
  FlowGraphTunables t;
  if (variant == "radix2_table") {
    t.kernel = Kernel::radix2_table;
    return t;
  }
  std::vector<std::string> parts;
  std::stringstream s(variant);
  for (std::string part; std::getline(s, part, '/');) parts.push_back(part);
  if (parts.empty() || parts[0] != "onchip")
    throw Error("FFT variant '" + variant + "': unknown kernel '" + (parts.empty() ? "" : parts[0]) + "', " +
                variant_syntax);
  if (parts.size() < 4 || parts.size() > 7)
    throw Error("FFT variant '" + variant + "': " + std::to_string(parts.size()) + " parts, " + variant_syntax);
  t.kernel = Kernel::onchip;
  t.radix = number_after(parts[1], "r", variant);
  if (t.radix != 2 && t.radix != 4 && t.radix != 8 && t.radix != 16)
    throw Error("FFT variant '" + variant + "': radix " + std::to_string(t.radix) + " in '" + parts[1] +
                "' is not 2, 4, 8 or 16");
  t.lines_per_block = number_after(parts[2], "l", variant);
  const int tw = number_after(parts[3], "tw", variant);
  if (tw > 1) throw Error("FFT variant '" + variant + "': twiddle source '" + parts[3] + "' is not tw0 or tw1");
  t.twiddle_table = tw == 1;
  // The optional parts, in this order: passes, planes, staged (staged only with planes).
  std::size_t next = 4;
  if (next < parts.size() && parts[next].compare(0, 1, "p") == 0) {
    t.passes = number_after(parts[next], "p", variant);
    if (t.passes < 2 || t.passes > FlowGraphPasses::most_passes)
      throw Error("FFT variant '" + variant + "': '" + parts[next] + "' is not p2 or p3");
    ++next;
  }
  if (next < parts.size() && parts[next].compare(0, 1, "e") == 0) {
    t.planes = number_after(parts[next], "e", variant);
    if (t.planes < 1 || t.planes > 2) throw Error("FFT variant '" + variant + "': '" + parts[next] + "' is not e1 or e2");
    ++next;
    if (next < parts.size() && parts[next] == "s1") {
      t.staged = true;
      ++next;
    }
  }
  if (next < parts.size())
    throw Error("FFT variant '" + variant + "': bad part '" + parts[next] + "', " + variant_syntax);
  return t;
}

std::vector<FlowGraphTunables> FlowGraphTunables::candidates(long long n, bool double_precision) {
  std::vector<FlowGraphTunables> out;
  if (n < 2) return out;
  FlowGraphTunables seed;
  seed.kernel = Kernel::radix2_table;
  out.push_back(seed);
  // One launch up to longest_pass; beyond, every split the plan can run (2 and 3 passes).
  std::vector<int> splits = {0};
  if (n > longest_pass) {
    splits.clear();
    for (int p = 2; p <= FlowGraphPasses::most_passes; ++p) {
      try {
        FlowGraphPasses::for_length(n, longest_pass, p);
        splits.push_back(p);
      } catch (const Error&) {
      }
    }
  }
  for (int passes : splits) {
    const auto split = FlowGraphPasses::for_length(n, longest_pass, passes);
    const long long shortest = split.shortest(), longest = split.longest();
    for (int radix : {4, 8, 16}) {
      if (radix > shortest) continue;
      for (int lines = 1; lines <= 64; lines *= 2) {
        const long long threads = lines * longest / radix;
        const std::size_t shared = double_precision ? onchip::block_shared_bytes<double>(lines, int(longest))
                                                    : onchip::block_shared_bytes<float>(lines, int(longest));
        if (threads < 32 || threads > max_threads_per_block || shared > max_shared_bytes) continue;
        for (bool table : {true, false}) {
          FlowGraphTunables t;
          t.kernel = Kernel::onchip;
          t.radix = radix;
          t.lines_per_block = lines;
          t.twiddle_table = table;
          t.passes = passes;
          out.push_back(t);
        }
      }
    }
  }
  // The contiguous-lines kernel (one launch only): blocks from 16 threads (the best at length 64
  // float on an H100) up to 256, or one line, both twiddle sources, one or two exchange planes,
  // loads direct or staged.
  if (n <= longest_pass) {
    for (int radix : {4, 8, 16}) {
      if (radix > n) continue;
      const int per_line = static_cast<int>(n) / onchip::registers_per_thread(static_cast<int>(n), radix);
      const int most = onchip::lines_max_threads(static_cast<int>(n), radix);
      for (int lines = 1; lines <= 64 && lines * per_line <= most; lines *= 2) {
        if (lines * per_line < 16 && 2 * lines * per_line <= most) continue;  // half a warp at least
        for (bool table : {true, false})
          for (int planes : {1, 2})
            for (bool staged : {false, true}) {
              const std::size_t shared =
                  double_precision ? onchip::lines_shared_bytes<double>(lines, int(n), planes, staged)
                                   : onchip::lines_shared_bytes<float>(lines, int(n), planes, staged);
              if (shared > max_shared_bytes) continue;
              FlowGraphTunables t;
              t.kernel = Kernel::onchip;
              t.radix = radix;
              t.lines_per_block = lines;
              t.twiddle_table = table;
              t.planes = planes;
              t.staged = staged;
              out.push_back(t);
            }
      }
    }
  }
  return out;
}

FlowGraphTunables FlowGraphTunables::one_pass_default(long long n, bool double_precision) {
  // The best of the contiguous-lines kernel's variants on 32 MB batches on an H100
  // (bench/results/fft_bench_h100.json): radix 16 from 128 (radix 8 at 64, and at 512 in double),
  // staged loads up to 512 in both precisions, direct loads and two planes beyond; below 64 the
  // shape of 64. Within about 1% of the tuner's pick at every length measured.
  struct Shape {
    int radix, lines;
    bool table;
    int planes;
    bool staged;
  };
  // Index: log2(n) - 6 for n = 64..4096.
  static constexpr Shape single[] = {{8, 2, false, 1, false},  {16, 8, true, 1, true},   {16, 4, true, 2, true},
                                     {16, 2, true, 2, true},   {16, 1, false, 2, false}, {16, 1, false, 2, false},
                                     {16, 1, false, 2, false}};
  static constexpr Shape twice[] = {{8, 0, false, 1, true},   {16, 8, false, 1, true},  {16, 4, false, 1, true},
                                    {8, 1, true, 2, true},    {16, 1, false, 2, false}, {16, 1, false, 2, false},
                                    {16, 1, false, 2, false}};
  int log2n = 0;
  while ((1LL << log2n) < n) ++log2n;
  const Shape* shapes = double_precision ? twice : single;
  const Shape s = shapes[std::min(std::max(log2n, 6), 12) - 6];
  FlowGraphTunables t;
  t.kernel = Kernel::onchip;
  t.radix = s.radix;
  t.lines_per_block = log2n < 6 ? 0 : s.lines;  // below 64 a line has too few threads for these
  t.twiddle_table = s.table;
  t.planes = s.planes;
  t.staged = s.staged;
  return t;
}

}  // namespace gridflow::kernels::fft
