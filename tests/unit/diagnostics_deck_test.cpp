// [[diagnostics]] blocks in the deck: read with their defaults, recorded as used, overridable from
// the command line, and every bad block refused with its key (diagnostics[i].name) and the reason.
#include <gtest/gtest.h>

#include "app/deck/deck.hpp"
#include "app/deck/diagnostics_deck.hpp"
#include "mesh/check.hpp"

using gridflow::InputError;
using gridflow::app::Deck;
using gridflow::app::read_diagnostics;

namespace {

// The message of the InputError that reading `text`'s diagnostics (and checking for unknown keys)
// throws; "" if none.
std::string refusal(const std::string& text) {
  try {
    Deck d = Deck::parse(text, "t.toml");
    read_diagnostics(d, {"u"});
    d.require_all_used();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(DiagnosticsDeck, BlocksAreReadWithDefaults) {
  Deck d = Deck::parse("problem = 'heat2d'\n[[diagnostics]]\nkind = 'spectrum'\nfield = 'u'\n", "t.toml");
  d.string("problem");
  const auto config = read_diagnostics(d, {"u"});
  ASSERT_EQ(config.spectra.size(), 1u);
  EXPECT_EQ(config.spectra[0].field, "u");
  EXPECT_EQ(config.spectra[0].every, 1);
  EXPECT_NO_THROW(d.require_all_used());
  const auto used = d.used_toml();
  EXPECT_NE(used.find("[[diagnostics]]"), std::string::npos) << used;  // stored with the output as a block
  EXPECT_NE(used.find("every = 1"), std::string::npos) << used;
  bool found = false;
  for (const auto& [name, value] : d.used_attributes()) found = found || name == "diagnostics[0].every";
  EXPECT_TRUE(found);
}

TEST(DiagnosticsDeck, NoBlocksNoDiagnostics) {
  Deck d = Deck::parse("problem = 'heat2d'\n", "t.toml");
  EXPECT_TRUE(read_diagnostics(d, {"u"}).spectra.empty());
  Deck empty = Deck::parse("diagnostics = []\n", "t.toml");
  EXPECT_TRUE(read_diagnostics(empty, {"u"}).spectra.empty());
  EXPECT_NO_THROW(empty.require_all_used());
}

TEST(DiagnosticsDeck, OverridesAddAndChangeBlocks) {
  Deck d = Deck::parse("[[diagnostics]]\nkind = 'spectrum'\nfield = 'u'\n", "t.toml");
  d.apply_override("diagnostics[0].every=3");
  EXPECT_EQ(read_diagnostics(d, {"u"}).spectra.at(0).every, 3);
  Deck added = Deck::parse("problem = 'heat2d'\n", "t.toml");
  added.apply_override("diagnostics[0].kind=spectrum");
  added.apply_override("diagnostics[0].field=u");
  EXPECT_EQ(read_diagnostics(added, {"u"}).spectra.size(), 1u);
}

TEST(DiagnosticsDeck, BadBlocksAreRefusedNamingTheKey) {
  const std::string block = "[[diagnostics]]\nkind = 'spectrum'\nfield = 'u'\n";
  EXPECT_NE(refusal("[[diagnostics]]\nfield = 'u'\n").find("key 'diagnostics[0].kind' is required"), std::string::npos);
  EXPECT_NE(refusal("[[diagnostics]]\nkind = 'histogram'\nfield = 'u'\n")
                .find("key 'diagnostics[0].kind': 'histogram' is not one of 'spectrum'"),
            std::string::npos);
  EXPECT_NE(refusal("[[diagnostics]]\nkind = 'spectrum'\n").find("key 'diagnostics[0].field' is required"),
            std::string::npos);
  EXPECT_NE(refusal("[[diagnostics]]\nkind = 'spectrum'\nfield = 'v'\n").find("key 'diagnostics[0].field': 'v' is not one of 'u'"),
            std::string::npos);
  EXPECT_NE(refusal(block + "every = 0\n").find("key 'diagnostics[0].every': 0 must be >= 1"), std::string::npos);
  EXPECT_NE(refusal(block + "every = 'often'\n").find("key 'diagnostics[0].every': expected an integer"),
            std::string::npos);
  EXPECT_NE(refusal(block + "bins = 10\n").find("unknown key 'diagnostics[0].bins'"), std::string::npos);
  EXPECT_NE(refusal(block + block).find("key 'diagnostics[1].field': the spectrum of 'u' is asked for twice"),
            std::string::npos);
  EXPECT_NE(refusal("diagnostics = 'spectrum'\n").find("key 'diagnostics': expected [[diagnostics]] blocks"),
            std::string::npos);
  EXPECT_NE(refusal("[diagnostics]\nkind = 'spectrum'\n").find("key 'diagnostics': expected [[diagnostics]] blocks"),
            std::string::npos);
}
