#include "crisp_icu.h"
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

// ICU's C functions carry its version in their symbol names (ubrk_open is a macro for
// ubrk_open_72); calling them from C keeps that out of Swift. The toolchain's Foundation ICU
// names its symbols swift_*, so the two link into one process without a clash.

int32_t crisp_icu_line_breaks(const uint16_t *text, int32_t length, int32_t *offsets,
                              uint8_t *mandatory, int32_t capacity, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
    if (U_FAILURE(status)) { *error = (int32_t)status; return -1; }
    int32_t count = 0;
    for (int32_t p = ubrk_next(iterator); p != UBRK_DONE && count < capacity; p = ubrk_next(iterator)) {
        int32_t rule = ubrk_getRuleStatus(iterator);
        offsets[count] = p;
        mandatory[count] = rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT;
        count++;
    }
    ubrk_close(iterator);
    *error = 0;
    return count;
}

int32_t crisp_icu_vertical_orientation(uint32_t c) {
    switch (u_getIntPropertyValue((UChar32)c, UCHAR_VERTICAL_ORIENTATION)) {
    case U_VO_TRANSFORMED_ROTATED: return 1;
    case U_VO_TRANSFORMED_UPRIGHT: return 2;
    case U_VO_UPRIGHT: return 3;
    default: return 0;
    }
}

void crisp_icu_version(char *out) {
    UVersionInfo v;
    u_getVersion(v);
    u_versionToString(v, out);
}

void crisp_icu_unicode_version(char *out) {
    UVersionInfo v;
    u_getUnicodeVersion(v);
    u_versionToString(v, out);
}
