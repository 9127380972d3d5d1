#pragma once
// Spatio-temporal whitening (issue 14): each new 2D frame F minus its prediction from the last N
// frames, the sub-pixel shift of each remembered frame against F estimated from gradient sums.
//
// Shift convention. "The shift s of frame A against frame B" means A(y, x) ~ B(y - s_y, x - s_x):
// A's content moved by +s. Whitener::shifts() reports S_t, frame t against frame 0 (S_0 = 0).
// For a new frame F = frame t and a remembered frame M_k = frame t-k (k = 1..m, m = min(N, t)),
// whose own S_k (short for S_{t-k}) is known:
//   1. s_k, the shift of M_k against F, starts at S_k - S_{t-1} (F assumed where frame t-1 was)
//      and is refined by the gradient least squares of whiten_point.hpp: the residual shift of
//      M_k(y + s_k_y, x + s_k_x) against F, added to s_k, until both components of every frame's
//      update are below tolerance_px or max_refinements passes have run. With m > 1, pilot
//      passes (as many at most; they stop below whiten_pilot_tolerance_factor * tolerance_px)
//      refine s_1 alone first, and every other guess moves with it
//      (s_k = S_k - (S_{t-1} - s_1)): one frame's passes cost 1/m of a pass over all, and the
//      passes over all frames then start within the pilot's accuracy;
//   2. S_t = mean over k of (S_k - s_k): the N pairwise estimates chained to frame 0, averaged.
// Aligned frames A_k(y, x) = M_k(y + s_k_y, x + s_k_x), cubic convolution (whiten_point.hpp says what
// happens at the edges).
//
// Prediction P = sum_k a_k B_k, output F - P, with
//   least_squares: B_k = A_k, a = (G + ridge * mean(diag G) * I)^-1 b, G_kl = <B_k, B_l>,
//                  b_k = <B_k, F> (sums over all pixels, in double);
//   polynomial:    the seed's option: B_k = M_k (not resampled) and a_k = sum_j c_j phi_j(s_k),
//                  phi_j the monomials s_y^i s_x^l, i + l <= degree; c solves the same ridge
//                  system projected on the monomials (Phi^T G Phi + ridge ...) c = Phi^T b.
// Frame 0 has no predecessor: it is written unchanged and S_0 = 0. Frames 1..N-1 use the m < N
// frames they have.
//
// Memory: the Whitener owns a ring of N + 1 frames (ny x nx, contiguous) and its sums, all in
// one memory space. Host: the CPU reference (whiten_host.cpp), blocking. Device: the CUDA
// variant (whiten_cuda.cu), asynchronous on the stream given to push(); no host round trip per
// frame (the shift updates, the refinement stop and the N x N solve run on the device).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/filter/whiten_tunables.hpp"
#include "mesh/field.hpp"
#include "mesh/host_device.hpp"
#include "mesh/memory_space.hpp"

namespace gridflow::kernels::filter {

/// Largest memory N a Whitener takes (the device solve keeps the N x N system in shared memory).
inline constexpr int max_whiten_memory = 64;
/// Largest polynomial degree in the shift (degree 4: 15 coefficients).
inline constexpr int max_whiten_degree = 4;

/// How the prediction's weights are found.
enum class WhitenWeights {
  least_squares,  ///< one free weight per aligned frame (the default)
  polynomial,     ///< weights a polynomial of degree `degree` in each frame's shift; frames not resampled
};

/// "least_squares" or "polynomial".
const char* to_string(WhitenWeights w);
/// The weights spelled `name`; throws InputError naming the valid spellings.
WhitenWeights parse_whiten_weights(const std::string& name);

/// What a Whitener does. validate() names the offending field and value.
struct WhitenParams {
  int memory = 20;             ///< N: frames remembered, 1..max_whiten_memory
  double ridge = 1e-6;         ///< eps of the ridge term, relative to the mean diagonal of the system; >= 0, finite
  double tolerance_px = 0.01;  ///< refinement stops once every update is below this, in pixels; > 0, finite
  int max_refinements = 10;    ///< most shift passes per frame (the first estimate included), 1..100
  WhitenWeights weights = WhitenWeights::least_squares;
  int degree = 2;              ///< polynomial only: 0..max_whiten_degree
};

/// Throws InputError "whiten: <field> must be ... (got <value>)" for the first bad field.
void validate(const WhitenParams& p);

/// A shift in pixels, (s_y, s_x), in the convention above.
struct WhitenShift {
  double y = 0.0;
  double x = 0.0;
};

/// Monomials phi_j(s) of the polynomial weights: (degree + 1)(degree + 2) / 2 of them.
GRIDFLOW_HOST_DEVICE inline int whiten_polynomial_terms(int degree) { return (degree + 1) * (degree + 2) / 2; }

template <class T>
class Whitener {
 public:
  /// A filter for frames of ny rows by nx columns (x contiguous), ny, nx >= 3, its ring and sums
  /// allocated in `space`. Throws InputError for bad params or sizes, Error for invalid tunables
  /// or device space in a build without CUDA.
  Whitener(int ny, int nx, const WhitenParams& params, mesh::MemorySpace space, WhitenTunables tunables = {});
  Whitener(Whitener&&) noexcept;
  Whitener& operator=(Whitener&&) noexcept;
  ~Whitener();

  /// Takes the next frame: out = frame - prediction, and records the frame's shift against frame 0.
  /// Row y of the frame starts at frame + y * frame_pitch (elements), likewise out; both in the
  /// Whitener's memory space, ny x nx each. out may be frame (in place). Host: blocks. Device:
  /// asynchronous on `stream` (not nullptr); frame must stay valid and out unread until the
  /// stream reaches this work.
  void push(const T* frame, std::ptrdiff_t frame_pitch, T* out, std::ptrdiff_t out_pitch, StreamHandle stream);
  /// Contiguous frames (pitch nx).
  void push(const T* frame, T* out, StreamHandle stream) { push(frame, m_nx, out, m_nx, stream); }
  /// Fields whose owned boxes are nx by ny (ghosts ignored) in the Whitener's space; Error otherwise.
  void push(const mesh::Field<T, 2>& frame, mesh::Field<T, 2>& out, StreamHandle stream);

  /// Frames pushed so far.
  long long frames() const { return m_frames; }
  /// S_t of every frame pushed, frame 0 first. Device: waits for the work queued so far.
  std::vector<WhitenShift> shifts() const;
  /// Shift passes over all m frames each frame ran, pilot passes not counted (0 for frame 0;
  /// max_refinements where the tolerance was not reached). Device: waits for the work queued so far.
  std::vector<int> refinements() const;
  /// The prediction weights a_k of the last frame, k = 1 (newest predecessor) .. m. Device: waits.
  std::vector<double> last_weights() const;

  int ny() const { return m_ny; }
  int nx() const { return m_nx; }
  const WhitenParams& params() const { return m_params; }
  const WhitenTunables& tunables() const { return m_tunables; }
  mesh::MemorySpace space() const { return m_space; }

 private:
  struct State;  // the ring, the sums and the shift history in the Whitener's space
  int m_ny = 0;
  int m_nx = 0;
  WhitenParams m_params;
  WhitenTunables m_tunables;
  mesh::MemorySpace m_space = mesh::MemorySpace::host;
  long long m_frames = 0;
  std::unique_ptr<State> m_state;
};

}  // namespace gridflow::kernels::filter
