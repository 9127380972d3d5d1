// [[filters]] blocks in the deck: read into the weights and modes of scipy.ndimage's filters,
// with their defaults, and every bad block refused with its key (filters[i].key) and the reason.
#include <gtest/gtest.h>

#include <cmath>

#include "app/deck/deck.hpp"
#include "app/deck/filters_deck.hpp"
#include "mesh/check.hpp"

using gridflow::InputError;
using gridflow::app::Deck;
using gridflow::app::read_filters;
namespace kf = gridflow::kernels::filter;

namespace {

gridflow::mesh::Grid<2> grid_2d() {
  gridflow::mesh::Grid<2> g;
  g.n = {20, 10};  // 21 x 11 points
  g.length = {1.0, 1.0};
  return g;
}

// The message of the InputError that reading `text`'s filters (and checking for unknown keys)
// throws; "" if none.
std::string refusal(const std::string& text) {
  try {
    Deck d = Deck::parse(text, "t.toml");
    read_filters<2>(d, {"u"}, grid_2d());
    d.require_all_used();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string gaussian = "[[filters]]\nkind = 'gaussian'\nfield = 'u'\nsigma = [1.0, 2.0]\n";

}  // namespace

TEST(FiltersDeck, BuiltinsAreReadAsScipyMakesThem) {
  Deck d = Deck::parse(gaussian +
                           "[[filters]]\nkind = 'mean'\nfield = 'u'\nname = 'm'\nsize = [3, 1]\nmode = 'constant'\ncval = 2.5\n"
                           "[[filters]]\nkind = 'correlate'\nfield = 'u'\nname = 'c'\nshape = [2, 3]\nweights = [1, 2, 3, 4, 5, 6]\n"
                           "mode = 'wrap'\n",
                       "t.toml");
  const auto blocks = read_filters<2>(d, {"u"}, grid_2d());
  EXPECT_NO_THROW(d.require_all_used());
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].name, "u_gaussian");  // the default name
  EXPECT_EQ(blocks[0].boundary.mode, kf::BoundaryMode::reflect);
  EXPECT_EQ(blocks[0].weights.axis[0], kf::gaussian_weights(1.0, 4.0));
  EXPECT_EQ(blocks[0].weights.axis[1], kf::gaussian_weights(2.0, 4.0));
  EXPECT_EQ(blocks[0].weights.length(1), 17);  // radius int(4 * 2 + 0.5) = 8
  EXPECT_EQ(blocks[1].name, "m");
  EXPECT_EQ(blocks[1].boundary.mode, kf::BoundaryMode::constant);
  EXPECT_EQ(blocks[1].boundary.cval, 2.5);
  EXPECT_EQ(blocks[1].weights.axis[0], kf::mean_weights(3));
  EXPECT_EQ(blocks[1].weights.axis[1], kf::mean_weights(1));
  EXPECT_FALSE(blocks[2].weights.separable);
  EXPECT_EQ(blocks[2].weights.shape[0], 2);
  EXPECT_EQ(blocks[2].weights.shape[1], 3);
  EXPECT_EQ(blocks[2].weights.full, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(blocks[2].boundary.mode, kf::BoundaryMode::wrap);
  const auto used = d.used_toml();
  EXPECT_NE(used.find("truncate = 4"), std::string::npos) << used;  // defaults are stored with the output
  EXPECT_NE(used.find("mode = 'reflect'"), std::string::npos) << used;
}

TEST(FiltersDeck, WhitenTakesMemoryAndRidgeIn2DOnly) {
  Deck d = Deck::parse("[[filters]]\nkind = 'whiten'\nfield = 'u'\nmemory = 5\n", "t.toml");
  const auto blocks = read_filters<2>(d, {"u"}, grid_2d());
  EXPECT_NO_THROW(d.require_all_used());
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].name, "u_whiten");
  EXPECT_EQ(blocks[0].whiten.memory, 5);
  EXPECT_EQ(blocks[0].whiten.ridge, gridflow::kernels::filter::WhitenParams{}.ridge);
  gridflow::mesh::Grid<3> grid;
  grid.n = {8, 8, 8};
  Deck three = Deck::parse("[[filters]]\nkind = 'whiten'\nfield = 'u'\n", "t.toml");
  try {
    read_filters<3>(three, {"u"}, grid);
    ADD_FAILURE() << "whiten accepted for 3D fields";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("filters[0].kind"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2D frames"), std::string::npos) << e.what();
  }
}

TEST(FiltersDeck, NoBlockNoFilter) {
  Deck d = Deck::parse("problem = 'heat2d'\n", "t.toml");
  EXPECT_TRUE(read_filters<2>(d, {"u"}, grid_2d()).empty());
}

TEST(FiltersDeck, BlocksComeFromTheCommandLineToo) {
  Deck d = Deck::parse("", "t.toml");
  d.apply_override("filters[0].kind=mean");
  d.apply_override("filters[0].field=u");
  d.apply_override("filters[0].size=[3,3]");
  const auto blocks = read_filters<2>(d, {"u"}, grid_2d());
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].name, "u_mean");
}

TEST(FiltersDeck, BadBlocksAreRefusedNamingTheKey) {
  struct Case {
    std::string text, key, reason;
  };
  const std::vector<Case> cases = {
      {"[[filters]]\nfield = 'u'\n", "filters[0].kind", "required"},
      {"[[filters]]\nkind = 'median'\nfield = 'u'\n", "filters[0].kind", "not one of"},
      {"[[filters]]\nkind = 'whiten'\nfield = 'u'\nmemory = 0\n", "filters[0].memory", "out of range"},
      {"[[filters]]\nkind = 'whiten'\nfield = 'u'\nmemory = 65\n", "filters[0].memory", "out of range"},
      {"[[filters]]\nkind = 'whiten'\nfield = 'u'\nridge = -1e-3\n", "filters[0].ridge", "must be >= 0"},
      {"[[filters]]\nkind = 'whiten'\nfield = 'u'\nmode = 'wrap'\n", "filters[0].mode", "unknown key"},
      {"[[filters]]\nkind = 'mean'\nfield = 'v'\nsize = [3, 3]\n", "filters[0].field", "not one of"},
      {"[[filters]]\nkind = 'mean'\nfield = 'u'\n", "filters[0].size", "required"},
      {"[[filters]]\nkind = 'mean'\nfield = 'u'\nsize = [0, 3]\n", "filters[0].size", "out of range"},
      {"[[filters]]\nkind = 'mean'\nfield = 'u'\nsize = [3]\n", "filters[0].size", "array of 2 integers"},
      {"[[filters]]\nkind = 'mean'\nfield = 'u'\nsize = [3, 25]\n", "filters[0].size", "radius larger than an axis"},
      {"[[filters]]\nkind = 'gaussian'\nfield = 'u'\nsigma = [1.0, -1.0]\n", "filters[0].sigma", "must be > 0"},
      {"[[filters]]\nkind = 'gaussian'\nfield = 'u'\nsigma = [9.0, 1.0]\n", "filters[0].sigma", "more than 32"},
      {"[[filters]]\nkind = 'gaussian'\nfield = 'u'\nsigma = [1.0, 3.0]\n", "filters[0].sigma", "radius larger than an axis"},
      {gaussian + "truncate = 0\n", "filters[0].truncate", "must be > 0"},
      {"[[filters]]\nkind = 'correlate'\nfield = 'u'\nshape = [2, 2]\nweights = [1, 2, 3]\n", "filters[0].weights",
       "array of 4 numbers"},
      {"[[filters]]\nkind = 'correlate'\nfield = 'u'\nshape = [2, 2]\nweights = [1, 2, 3, nan]\n", "filters[0].weights",
       "not finite"},
      {gaussian + "mode = 'periodic'\n", "filters[0].mode", "not one of"},
      {gaussian + "cval = 1.0\n", "filters[0].cval", "only mode = \"constant\""},
      {gaussian + "name = 'u'\n", "filters[0].name", "field the run writes"},
      {gaussian + "name = 'Info'\n", "filters[0].name", "taken by the output files"},
      {gaussian + "name = 'a/b'\n", "filters[0].name", "not a dataset name"},
      {gaussian + "name = 'a:b'\n", "filters[0].name", "':'"},
      {gaussian + "name = ''\n", "filters[0].name", "must not be empty"},
      {gaussian + gaussian, "filters[1].name", "earlier [[filters]] block"},
      {gaussian + "size = [3, 3]\n", "filters[0].size", "unknown key"},  // a key of another kind
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text);
    EXPECT_NE(message.find(c.key), std::string::npos) << c.text << "\n -> " << message;
    EXPECT_NE(message.find(c.reason), std::string::npos) << c.text << "\n -> " << message;
  }
}

TEST(FiltersDeck, MethodIsDirectUnlessTheBlockSaysFftOrAuto) {
  Deck d = Deck::parse(gaussian + "[[filters]]\nkind = 'mean'\nfield = 'u'\nname = 'm'\nsize = [3, 3]\nmethod = 'auto'\n" +
                           "[[filters]]\nkind = 'mean'\nfield = 'u'\nname = 'f'\nsize = [3, 3]\nmethod = 'fft'\nmode = 'nearest'\n",
                       "t.toml");
  const auto blocks = read_filters<2>(d, {"u"}, grid_2d());
  EXPECT_NO_THROW(d.require_all_used());
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].method, gridflow::autotune::FilterMethod::direct);
  EXPECT_EQ(blocks[1].method, gridflow::autotune::FilterMethod::automatic);
  EXPECT_EQ(blocks[2].method, gridflow::autotune::FilterMethod::fft);
}

TEST(FiltersDeck, AnUnknownMethodOrFftWithWrapIsRefusedNamingTheKey) {
  const std::string unknown = refusal(gaussian + "method = 'fast'\n");
  EXPECT_NE(unknown.find("filters[0].method"), std::string::npos) << unknown;
  const std::string wrap = refusal(gaussian + "method = 'fft'\nmode = 'wrap'\n");
  EXPECT_NE(wrap.find("filters[0].method"), std::string::npos) << wrap;
  EXPECT_NE(wrap.find("wrap"), std::string::npos) << wrap;
  EXPECT_EQ(refusal(gaussian + "method = 'auto'\nmode = 'wrap'\n"), "");
  const std::string whiten = refusal("[[filters]]\nkind = 'whiten'\nfield = 'u'\nmethod = 'fft'\n");
  EXPECT_NE(whiten.find("filters[0].method"), std::string::npos) << whiten;
}
