#pragma once
// Durations as people write them in decks and batch systems: "90s", "30m", "2h", "1h30m",
// "1d12h", or a plain number of seconds; and the forms Slurm and PBS print ("1-02:03:04",
// "02:03:04", "03:04", "UNLIMITED").
#include <optional>
#include <string>

namespace gridflow::app {

/// Seconds of "1h30m"-style text (units d, h, m, s; a bare number is seconds). nullopt when the
/// text is not such a duration.
std::optional<double> parse_duration(const std::string& text);

/// Seconds of a [days-]hours:minutes:seconds text (Slurm's %L, PBS's walltime), or of minutes:seconds
/// or a bare number of seconds. nullopt for anything else (UNLIMITED, NOT_SET, empty).
std::optional<double> parse_clock_duration(const std::string& text);

}  // namespace gridflow::app
