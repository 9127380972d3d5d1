#include "solver/device_tuning.hpp"

#include <mpi.h>

#include <cstring>

#include "mesh/check.hpp"

namespace gridflow::solver {

namespace {

/// The run as the device choice sees it: two solvers, one per device, of which one holds the
/// state. Applying a configuration hands the state to the solver it names.
template <class T>
class DeviceSwitch final : public autotune::SteppedRun {
 public:
  DeviceSwitch(HeatSolver<T>& gpu, HeatSolver<T>& cpu) : m_gpu(gpu), m_cpu(cpu), m_holder(&gpu) {}

  std::int64_t step() const override { return m_holder->step(); }
  void apply(const autotune::Configuration& c) override {
    HeatSolver<T>& next = c.at("gpu") ? m_gpu : m_cpu;
    next.continue_from(*m_holder);
    m_holder = &next;
  }
  // Blocks, so that one host clock times both devices' steps alike. A switch in a re-check round
  // is timed with the run that follows it: winner and runner-up each pay one.
  std::int64_t advance(std::int64_t count) override {
    m_holder->advance(count);
    m_holder->wait();
    return count;
  }

 private:
  HeatSolver<T>& m_gpu;
  HeatSolver<T>& m_cpu;
  HeatSolver<T>* m_holder;
};

}  // namespace

bool device_is_tuned(const RunOptions& run, mesh::MemorySpace space, std::int64_t largest_owned_points,
                     bool remeasure) {
  return run.device == "auto" && space == mesh::MemorySpace::device &&
         (run.tuning.mode != autotune::TuningMode::off || remeasure) && run.halo_transport != halo::TransportChoice::nccl &&
         largest_owned_points <= device_tuning_max_points;
}

bool device_is_tuned(const RunOptions& run, mesh::MemorySpace space, const mesh::Decomposition<2>& decomposition,
                     bool remeasure) {
  long long local = static_cast<long long>(decomposition.owned().size()), largest = 0;
  GRIDFLOW_MPI_CHECK(MPI_Allreduce(&local, &largest, 1, MPI_LONG_LONG, MPI_MAX, decomposition.comm()));
  return device_is_tuned(run, space, largest, remeasure);
}

autotune::SearchSpace device_space() {
  autotune::SearchSpace space;
  space.add(autotune::Parameter::boolean("gpu", true));
  return space;
}

std::string device_kernel_label(const mesh::Decomposition<2>& decomposition) {
  const std::string label = "heat2d:device";
  if (decomposition.size() == 1) return label;
  return label + "/" + std::to_string(decomposition.dims()[0]) + "x" + std::to_string(decomposition.dims()[1]);
}

autotune::ReportAttributes DeviceTuningResult::attributes() const {
  autotune::ReportAttributes attributes = choice.attributes();
  const std::size_t after_prefix = std::strlen("autotune.");
  for (auto& entry : attributes) entry.first.insert(after_prefix, "device.");
  return attributes;
}

template <class T>
DeviceTuningResult tune_heat_device(HeatSolver<T>& gpu, HeatSolver<T>& cpu, const HeatConfig& config,
                                    const mesh::Decomposition<2>& decomposition,
                                    std::optional<std::int64_t> max_steps, bool remeasure) {
  autotune::OnlineTuning setup;
  // Keyed by the GPU (the machine's other candidate is its CPU); timed by the host clock.
  setup.request = autotune::tuning_request(config.run.tuning, config.run.precision, device_kernel_label(decomposition), gpu.space(), decomposition.owned(),
                                 remeasure);
  setup.space = mesh::MemorySpace::host;
  setup.comm = decomposition.comm();
  setup.max_steps = max_steps;
  setup.run_multiple = gpu.tunables().ghost_width;  // whole exchange cycles on both devices
  DeviceSwitch<T> run(gpu, cpu);
  DeviceTuningResult result;
  result.choice = autotune::tune_online(run, device_space(), setup);
  result.cpu_chosen = result.choice.outcome.chosen.at("gpu") == 0;  // applied: the CPU holds the state
  return result;
}

template DeviceTuningResult tune_heat_device<float>(HeatSolver<float>&, HeatSolver<float>&, const HeatConfig&,
                                                    const mesh::Decomposition<2>&, std::optional<std::int64_t>, bool);
template DeviceTuningResult tune_heat_device<double>(HeatSolver<double>&, HeatSolver<double>&, const HeatConfig&,
                                                     const mesh::Decomposition<2>&, std::optional<std::int64_t>, bool);

}  // namespace gridflow::solver
