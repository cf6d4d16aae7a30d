#include <fribidi.h>
#include <stdint.h>

// FriBidi's type masks are macros Swift does not import (the types and paragraph directions
// come through as C enums): the ones CrispGraphics tests a character's type against.
static const uint32_t crisp_fribidi_mask_rtl = FRIBIDI_MASK_RTL;
static const uint32_t crisp_fribidi_mask_explicit_or_isolate = FRIBIDI_MASK_EXPLICIT | FRIBIDI_MASK_ISOLATE;
