#include "app/loop/stop_signals.hpp"

#include <unistd.h>

#include "mesh/check.hpp"

namespace gridflow::app {

namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_interrupts = 0;
bool g_installed = false;

extern "C" void on_stop_signal(int signal) {
  if (signal == SIGINT && ++g_interrupts >= 2) _exit(128 + SIGINT);  // async-signal-safe
  if (g_signal == 0) g_signal = signal;
}

void install(int signal, struct sigaction* old) {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // MPI and file calls in progress carry on
  if (sigaction(signal, &action, old) != 0) throw Error("sigaction failed for signal " + std::to_string(signal));
}

}  // namespace

StopSignals::StopSignals() {
  GRIDFLOW_REQUIRE(!g_installed, "StopSignals: one instance at a time");
  g_signal = 0;
  g_interrupts = 0;
  install(SIGTERM, &m_old_term);
  install(SIGINT, &m_old_int);
  install(SIGUSR1, &m_old_usr1);
  g_installed = true;
}

StopSignals::~StopSignals() {
  sigaction(SIGTERM, &m_old_term, nullptr);
  sigaction(SIGINT, &m_old_int, nullptr);
  sigaction(SIGUSR1, &m_old_usr1, nullptr);
  g_installed = false;
}

int StopSignals::received() { return g_signal; }

const char* StopSignals::name(int signal) {
  switch (signal) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGUSR1: return "SIGUSR1";
    default: return "a signal";
  }
}

}  // namespace gridflow::app
