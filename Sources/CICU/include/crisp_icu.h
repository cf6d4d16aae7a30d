#ifndef CRISP_ICU_H
#define CRISP_ICU_H
#include <stdint.h>

// CrispGraphics' door to the system's ICU (Debian libicu-dev). ICU's own headers are not
// exposed to Swift: the toolchain's Foundation carries a renamed copy of ICU whose clang module
// defines the same C types (UErrorCode…) differently, so the two cannot meet in one Swift
// module. Only plain C types cross here; crisp_icu.c includes ICU.

/// The line break opportunities of UTF-16 `text` by UAX #14 (ICU's default line rules): each
/// offset in 1...length after which a line may end, and whether it must (a hard break after a
/// line feed, carriage return, U+2028…). Returns the count (at most `capacity`), or -1 with
/// ICU's error code in `error`.
int32_t crisp_icu_line_breaks(const uint16_t *text, int32_t length, int32_t *offsets,
                              uint8_t *mandatory, int32_t capacity, int32_t *error);

/// The Unicode Vertical_Orientation of `c` (UAX #50): 0 rotated (R), 1 transformed or rotated
/// (Tr), 2 transformed or upright (Tu), 3 upright (U).
int32_t crisp_icu_vertical_orientation(uint32_t c);

/// ICU's version, as "72.1" (`out` holds at least 32 bytes).
void crisp_icu_version(char *out);

/// The Unicode version of ICU's character data, as "15.0" (`out` holds at least 32 bytes).
void crisp_icu_unicode_version(char *out);

#endif
