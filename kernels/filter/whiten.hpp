#pragma once
// Spatio-temporal whitening (issue 14): each new 2D frame F minus its prediction from the last N
// frames, the sub-pixel shift of each remembered frame against F estimated from gradient sums.
//
// Shift convention. "The shift s of frame A against frame B" means A(y, x) ~ B(y - s_y, x - s_x):
// A's content moved by +s. Whitener::shifts() reports S_t, frame t against frame 0 (S_0 = 0).
//
// Registered history. Every frame j, once its S_j is known, is also kept resampled to one common
// grid: R_j(y, x) = M_j(y + S_j_y - A_y, x + S_j_x - A_x) (cubic convolution, whiten_point.hpp),
// the content of frame 0 moved by the anchor A, a whole-pixel shift shared by the whole history.
// So the history is aligned once per frame, not once per frame and predecessor. For a new frame
// F = frame t and its predecessors M_k = frame t-k (k = 1..m, m = min(N, t)):
//   1. the reference Rbar = mean of R_1..R_m (kept from the previous frame) has the shift A
//      against frame 0; its shift s against F starts at A - S_{t-1} (F assumed where frame t-1
//      was) and is refined by the gradient least squares of whiten_point.hpp (the residual shift
//      of Rbar(y + s_y, x + s_x) against F, added to s) until both components of the update are
//      below tolerance_px or max_refinements passes have run; S_t = A - s. Every predecessor's
//      shift against F follows: s_k = S_{t-k} - S_t. Averaging the m registered frames makes
//      the reference less noisy than any one frame, and ties S_t to the whole history rather
//      than to frame t-1 alone, so S_t does not walk away from the truth over a long stream;
//   2. when a component of S_t - A reaches whiten_anchor_reach pixels (a drifting scene), A moves
//      to S_t rounded, and the history is registered again on the new grid (a rare, slower frame);
//   3. R_t, F registered, joins the history; the new inner products of the basis frames (R_t with
//      each R_k for least squares, F with each M_k for the polynomial weights) fill the frame's
//      row of a table kept by ring slot: each product is computed once, when its newer frame
//      arrives (the whole table again after the anchor moved).
// Aligned frames A_k(y, x) = M_k(y + s_k_y, x + s_k_x): the prediction resamples each original
// once (not the registered copy: a second interpolation would blur the stars it must cancel).
//
// Prediction P = sum_k a_k B_k, output F - P, with
//   least_squares: a = (G + ridge * mean(diag G) * I)^-1 b, G_kl = <R_k, R_l>, b_k = <R_k, R_t>
//                  (the registered frames: the Gram matrix of the aligned frames A_k but on the
//                  history's grid, where it does not change from frame to frame), P from A_k;
//   polynomial:    the seed's option: B_k = M_k (not resampled), G_kl = <M_k, M_l>, b_k = <M_k, F>,
//                  and a_k = sum_j c_j phi_j(s_k), phi_j the monomials s_y^i s_x^l, i + l <=
//                  degree; c solves the same ridge system projected on the monomials
//                  (Phi^T G Phi + ridge ...) c = Phi^T b.
// Sums over all pixels, in double. Frame 0 has no predecessor: it is written unchanged, S_0 = 0,
// A = 0, R_0 = frame 0. Frames 1..N-1 use the m < N frames they have.
//
// Memory: the Whitener owns two rings of N + 1 frames (the originals and the registered frames,
// ny x nx each, contiguous), the reference, the table of products and its sums, all in one memory
// space. Host: the CPU reference (whiten_host.cpp), blocking. Device: the CUDA variant
// (whiten_cuda.cu), asynchronous on the stream given to push(); no host round trip per frame
// (the shift updates, the refinement stop, the anchor and the N x N solve run on the device).
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
  /// Shift passes (of the reference against the frame) each frame ran (0 for frame 0;
  /// max_refinements where the tolerance was not reached). Device: waits for the work queued so far.
  std::vector<int> refinements() const;
  /// The prediction weights a_k of the last frame, k = 1 (newest predecessor) .. m. Device: waits.
  std::vector<double> last_weights() const;
  /// Times the anchor moved (the history registered again) so far. Device: waits.
  long long anchor_moves() const;

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
