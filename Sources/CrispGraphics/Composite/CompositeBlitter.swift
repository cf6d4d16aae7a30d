// How a fill becomes pixels, stage by stage, dispatching once per span.
//
// `fillPath()` hands the path and the state to `CGContext.composite`, which builds one
// `CompositeBlitter` and lets the coverage producer run into it:
//   Scan   the producer (the rasterizer for outlines, `RectCoverage` for rectangles, glyph-run
//          and shadow masks) emits spans: `blitSpan` for a run of one coverage, `blitMask` for
//          a run with a coverage byte per pixel. The blitter is one concrete type, so
//          `Rasterizer.render` is compiled once per fill rule for it.
//   Clip   with a clip mask, the span's coverage is multiplied by the mask row (a full-coverage
//          span just uses the mask row), and the span continues as a coverage row. A finished
//          clip mask knows, per row, what it hides and its longest fully open run
//          (`ClipMask.RowRuns`): every span, constant or a coverage row, skips the hidden ends
//          and passes what lies in the open middle on as if there were no mask (`ClipRows`,
//          ClipMask.swift), so a rounded-rectangle clip costs only its edges.
//   Paint  a solid colour needs no shading; any other paint (`Paint`: gradients, images,
//          layers) shades the span into a scratch row through one switch.
//   Blend  the blend mode's operator, chosen once per composite, supplies four span kernels
//          (colour or shaded row × one coverage or a coverage row); pixels a gradient leaves
//          unpainted split the shaded row into runs, and each run goes to the kernel.
// The route a span takes through these stages is decided once per fill (`Route`, below).
// Fast paths, taken per span: an opaque solid colour at full coverage under a replacing
// operator (source-over, copy) is a store, `update(repeating:)`; an opaque shaded paint there is
// shaded straight into the destination row; a shaded row at full coverage is blended without
// coverage arithmetic (inside the kernel); a paint that is one colour along each row (a linear
// gradient whose t depends on y only, `Paint.verticalRows`) is blended as that solid colour, with
// no shading and no shaded row; source-over, nearly every fill, has kernels that take four
// pixels a step (SourceOver+Lanes.swift), and eight on CPUs with AVX2 (below).
//
// AVX2, the one place the package leaves Swift for speed. Source-over's four kernels (colour or
// shaded row × one coverage or a coverage row) and the two that blend a solid colour straight
// into other 32-bit layouts have twins in C (CCrispKernels/SourceOverAVX2.c): eight pixels a
// step in 16-bit lanes, the division by 255 one `vpmulhuw` by 257, a short span or a long
// span's last pixels as one step over overlapping loads and stores (masked stores were slower),
// so a short span costs one call and no scalar loop. They carry
// `__attribute__((target("avx2")))` (a library target takes no compiler flags) and run only
// where `__builtin_cpu_supports("avx2")` says so, per thread (`KernelDispatch`): each Swift
// kernel compares the span's length with one thread-local and tail-calls C, else runs its own
// SSE2 loop, which stays the path on every other CPU. Every span goes to C, however short (the
// thresholds measured are in docs/performance.md, "After branch `avx2`"). The pixels are the
// Swift kernels' bit for bit (`KernelDispatchTests` runs both paths against the formula). Why
// this pays and the Swift kernels could not: Swift has no portable spelling of byte unpacking
// or of `pmulhuw`, and widening between vector widths is an outlined call, so the Swift kernels
// work on 0x00FF00FF halves of four pixels in SSE2 registers, about twice the instructions a
// pixel. Rejected: AVX-512 kernels (free tails through mask registers, but a third path to
// test for the few CPUs that have it); C kernels for the other 27 blend modes (their spans are
// rare in every measured scene).
//
// Gradients, the paint stage's fast paths (Paint/LinearGradientPaint.swift, CGGradient.swift,
// Context/PendingClip.swift). A gradient's colours are a 1024-entry premultiplied table, sampled
// once per gradient and alpha and shared by content across draws. A linear gradient's table
// position is exact 32.32 fixed point, a function of the pixel alone, which is what lets the
// three directions each take their cheapest form: vertical, one colour per row, blended as a
// solid colour (`VerticalGradientRows`, plain values kept in the blitter so a span copies no
// paint); horizontal, one row shaded per draw and blended straight from memory (`GradientRow`
// through `Paint.unmodifiedRow`, like an image's own row); any other direction, one add and one
// table load a pixel, with the padded ends filled and the runs found by division. A padded
// gradient never leaves a pixel unpainted, so its rows skip the scan for unpainted runs.
// Concentric radial gradients take four square roots per `sqrtps` from offsets stepped off a
// fixed column (so again a function of the pixel alone); other radial gradients solve the
// quadratic in double precision, four pixels a step; both clamp and truncate four table
// positions at once when the plain rule serves all four (Paint/RadialGradientPaint.swift), and
// a padded radial gradient whose circles cover the plane skips the unpainted scan; with AVX2,
// radial gradients under source-over are shaded and blended in one pass, eight pixels a step
// (`Paint.blendOver`, CCrispKernels/GradientAVX2.c), with no scratch row and one call a span.
// A gradient that varies along rows, not opaque, with no clip mask into native pixels, asks the
// rasterizer for whole rows (`joinedGap`): every gap joins a row's runs into one coverage row,
// so a row is one shading call, its interior at the coverage-row kernels' cost (eight full
// coverages skip the scaling), where it was an interior span and two short, latency-bound edge
// spans; and a padded linear one under source-over goes from the producer to `overLinear`
// (shade, then the row kernel), past the paint's and the operator's dispatch. Such a row asks
// for the destination's cache lines under it one row down before it is blended
// (`crisp_prefetch_span`): the next row of the same shape is its next call, and the row kernels
// had waited on those loads. And the commonest way a gradient reaches the compositor — SVG's
// and UIKit's "clip to the shape, paint the gradient across the clip" — builds no clip mask: the
// clip path waits (`PendingClip`), and a gradient painted across it is composited with the
// path's own coverage, the same pixels in one pass. Rejected: joined rows for opaque gradients
// (their fully covered pixels are stores); a fused linear kernel (twice; at or below the shader
// and the row kernel); the cells fused into the linear rows' blend (as slow as the two passes);
// interpolating stop colours in 16-bit lanes instead of the table (exact only between two
// stops, and a multiply per channel where the table is one load); computing indices four or
// eight to a register (the lookup is a gather, one load per pixel on SSE2, so the lanes only
// move indices back out); a "fill path with gradient" entry point for CrispSVG alone
// (CoreGraphics code clips and paints too).
//
// Load/store: a destination in another layout than native BGRA (`LayoutRows`) has each span
// loaded into a native scratch row, blended there and stored back; an opaque solid store there
// writes the converted colour directly. Source-over of a solid colour skips the load and store:
// word-aligned 32-bit layouts blend the colour, in their channel order, straight into their
// words (the factor read from the low byte when alpha is there, `blendQuadSpan`), grey 8
// and alpha 8 straight into their bytes (SourceOver+Bytes.swift). With no clip mask such a span
// goes from the producer to its kernel in one call (`directSpan`, `directMask`; a one-byte
// layout's factors at full coverage computed once a fill, `ByteOver`), rather than through the
// blitter's span entry, `unmaskedSpan`'s layout dispatch and the factors' latency chain. A
// native destination never takes this branch.
//
// Code size is the sum of the stages: 5 producers × 4 blitters for scanning, 4 fill rules × 4
// blitters for `Rasterizer.render`, one shader per paint kind, 28 × 4 kernel loops, and the AVX2
// functions in C (no Swift generics: the dispatch adds nothing to instantiate; build times and
// sizes: docs/performance.md, "Build and code size"). Rejected: the compile-time product this
// replaced — a blitter generic over paint and blend operator, inside producers generic over the
// blitter, inside `render` generic over rule and blitter — which specialized every (producer ×
// paint × 28 operators × rule × clip mask) combination (567 copies of `Rasterizer.render`, a
// 19-minute clean release build) to save one indirect call per span. One shortcut around the
// dispatch pays since the AVX2 kernels: a solid colour under source-over into native pixels
// with no clip mask (`Route.solidOver`, nearly every fill and stroke) calls its C kernel from
// `blitSpan`/`blitMask` inlined into the producer, skipping the blitter's out-of-line entry and
// the operator's witness (about 55 instructions a span; the same shortcut to the Swift kernels
// had saved nothing). For an outline the rasterizer goes one step further with such a blitter:
// it takes the blitter's `cellTarget` (destination and colour) and composites each row
// straight from its accumulation cells, coverage computed and blended in one AVX2 pass with no
// coverage row between (Scan/Rasterizer+Resolve.swift, CellsOverAVX2.c). Rejected: stage
// functions per group of pixels as in Skia's raster pipeline, which pay for their calls only
// with wide SIMD stages.
//
// The figures behind each of these choices are in docs/performance.md, under the branch that
// made it ("After branch `avx2`", "`grad3`", "`grad4`", "`gradfuse`", "`raster3`", "Gradient
// kernels (branch `gradients`)", "Bitmap layouts", "Build and code size", "Demo frames").

import CCrispKernels

/// Composites coverage spans into 32-bit premultiplied pixels through the clip mask, the paint
/// and the blend mode: the compositing consumer every coverage producer feeds.
struct CompositeBlitter: SpanBlitter {
    /// How a span goes from the producer to its kernel: decided once per fill (in `init`) from
    /// the paint, the blend mode, the clip mask and the destination's layout, and switched on
    /// at the top of `blitSpan` and `blitMask`. The first four are shortcuts past the general
    /// path, each for one common case; every route gives a pixel what `.general` would.
    enum Route {
        /// A solid colour under source-over into native pixels with no clip mask (nearly every
        /// fill and stroke): with the AVX2 kernels, a span is one call into C from where the
        /// producer emits it (and the rasterizer composites its cells itself, `cellTarget`);
        /// without them, `.general`.
        case solidOver(UInt32)
        /// A solid colour under source-over with no clip mask into a layout that has a kernel
        /// of its own for it (`directBytes`: grey 8 and alpha 8; `directWords`: word-aligned
        /// 32-bit layouts with AVX2): one out-of-line call to it (`directSpan`, `directMask`).
        case convertedOver
        /// A linear gradient that varies along rows and paints every pixel, under source-over
        /// into native pixels with no clip mask: its shader and the row kernel (`overLinear`),
        /// past the paint's and the operator's dispatch. Unmanaged: `paint` holds it, and a
        /// strong reference (or an unowned one) cost a retain and a release a span.
        case linearOver(Unmanaged<LinearGradientPaint>)
        /// Any other paint that is not a solid colour, into native pixels with no clip mask:
        /// straight to `shadedSpan` or `compositeShaded`.
        case shaded
        /// Everything else (a clip mask; another layout without a kernel of its own; a solid
        /// colour under another blend mode): through the clip rows (ClipMask.swift), then
        /// `unmaskedSpan` or `composite`, the layout's load and store, and the operator's kernels.
        case general
    }

    /// This fill's route (see `Route`).
    let route: Route
    /// The destination's first pixel (raster row 0, column 0).
    let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    let rowStride: Int
    /// What colours the covered pixels get.
    let paint: Paint
    /// The blend mode's operator and its span kernels.
    let blend: any BlendOperator.Type
    /// The clip's coverage mask, when the clip is not a pixel rectangle.
    let clipMask: ClipMask?
    /// `clipMask`'s rows, through which spans are clipped (ClipMask.swift).
    private let clip: ClipRows?
    /// Scratch row for shaded colours (at least as wide as the clip box).
    let shadeBuffer: UnsafeMutablePointer<UInt32>
    /// Scratch row for coverage multiplied by the clip mask (at least as wide as the clip box).
    let maskScratch: UnsafeMutablePointer<UInt8>
    /// The paint's colour when it is solid.
    private let solidColor: UInt32?
    /// The paint's colour per row when it is one along each row (a vertical gradient).
    private let verticalRows: VerticalGradientRows?
    /// The operator's `opaqueSourceReplaces` (read once, not through the metatype per span).
    private let replacesWithOpaque: Bool
    /// Whether fully covered pixels simply take the paint's colours: an opaque paint under an
    /// operator that an opaque source replaces.
    private let storesFullCoverage: Bool
    /// Whether shaded rows may hold `Pixel.unpainted`, to be left out of blending.
    private let skipsUnpainted: Bool
    /// Whether the operator is source-over, which gradients may shade and blend in one pass
    /// (`Paint.blendOver`).
    private let fusesOver: Bool
    /// `Route.solidOver` with the AVX2 kernels: the rasterizer composites rows straight from
    /// its cells (`Rasterizer.resolveRowsOver`).
    let cellTarget: CellTarget?
    /// Every gap between two runs of a row joins them into one coverage row for a gradient that
    /// varies along rows, into native pixels with no clip mask (the rasterizer's short gaps
    /// otherwise, `Rasterizer.mergedGap`): its interior then costs the coverage-row kernel
    /// what it cost the one-coverage kernel, and a row is one shading call where it was three,
    /// two of them for the few pixels of an edge (docs/performance.md, "After branch `grad3`").
    let joinedGap: Int
    /// The destination when it is not in the native layout (then `pixels` is not used).
    let converted: LayoutRows?
    /// A solid colour under source-over into a 32-bit layout other than native: the colour in
    /// the layout's channel order, blended straight into its words with no load or store
    /// (`PixelLayout.inPlaceSource`).
    private let inPlaceSource: UInt32?
    /// Whether the layout's alpha (or skipped) byte is the low byte of its words (ARGB, ABGR,
    /// XRGB, XBGR), where in-place blending reads the factor.
    private let inPlaceAlphaFirst: Bool
    /// A solid colour under source-over into grey 8 or alpha 8: the native colour, blended
    /// straight into the bytes (SourceOver+Bytes.swift).
    private let byteSource: UInt32?
    /// Whether the one-byte layout is grey (else alpha-only).
    private let bytesAreGrey: Bool
    /// `byteSource` with no clip mask: a span goes from the producer straight into the bytes.
    private let directBytes: ByteOver?
    /// `inPlaceSource` with no clip mask and the AVX2 kernels: a span goes from the producer
    /// straight to the kernel, as `Route.solidOver` does into native pixels. (Through
    /// `SourceOver.blendQuadSpan`, which makes the same call, RGBA and ARGB 16-pixel rectangles
    /// were 3–6 % slower: `crisp bench raster --layouts --layout RGBA --layout ARGB`.)
    private let directWords: UInt32?
    /// The skipped byte that in-place blending sets to 255, as stores write it (0 when alpha is
    /// kept).
    private let skippedByte: UInt32

    /// A blitter painting `paint` with `blendMode` into `pixels`, through `clipMask` if any.
    init(pixels: UnsafeMutablePointer<UInt32>, rowStride: Int, paint: Paint, blendMode: CGBlendMode,
         clipMask: ClipMask?, shadeBuffer: UnsafeMutablePointer<UInt32>, maskScratch: UnsafeMutablePointer<UInt8>,
         converted: LayoutRows? = nil) {
        KernelDispatch.prepare()
        self.pixels = pixels
        self.converted = converted
        self.rowStride = rowStride
        self.paint = paint
        blend = blendMode.blendOperator
        self.clipMask = clipMask
        clip = clipMask?.rows
        self.shadeBuffer = shadeBuffer
        self.maskScratch = maskScratch
        solidColor = paint.solidColor
        verticalRows = paint.verticalRows
        replacesWithOpaque = blend.opaqueSourceReplaces
        storesFullCoverage = replacesWithOpaque && paint.isOpaque
        skipsUnpainted = paint.mayLeaveUnpainted
        fusesOver = blendMode == .normal
        let directOver = blendMode == .normal && clipMask == nil && converted == nil && solidColor != Pixel.unpainted
            ? solidColor : nil
        cellTarget = directOver.flatMap {
            KernelDispatch.usesAVX2(1) ? CellTarget(pixels: pixels, rowStride: rowStride, color: $0) : nil
        }
        let shadesDirect = clipMask == nil && converted == nil && solidColor == nil
        let baseRoute: Route
        if let directOver {
            baseRoute = .solidOver(directOver)
        } else if case .linearGradient(let p) = paint, shadesDirect, blendMode == .normal, p.a != 0,
                  !p.mayLeaveUnpainted {
            baseRoute = .linearOver(Unmanaged.passUnretained(p))
        } else if shadesDirect {
            baseRoute = .shaded
        } else {
            baseRoute = .general   // or `.convertedOver`, decided below with the layout
        }
        switch paint {
        case .linearGradient(let p) where shadesDirect && p.a != 0 && !storesFullCoverage: joinedGap = Int(Int32.max)
        case .radialGradient where shadesDirect && !storesFullCoverage: joinedGap = Int(Int32.max)
        default: joinedGap = Rasterizer.mergedGap
        }
        guard let converted else {
            (inPlaceSource, inPlaceAlphaFirst, skippedByte) = (nil, false, 0)
            (byteSource, bytesAreGrey, directBytes, directWords) = (nil, false, nil, nil)
            route = baseRoute
            return
        }
        let layout = converted.layout
        inPlaceSource = converted.isWordAligned && blendMode == .normal ? solidColor.flatMap(layout.inPlaceSource) : nil
        inPlaceAlphaFirst = layout.alphaIsLowByte
        skippedByte = layout.hasAlpha ? 0 : 0xFF << layout.alphaShift
        byteSource = (layout.kind == .gray || layout.kind == .alphaOnly) && blendMode == .normal ? solidColor : nil
        bytesAreGrey = layout.kind == .gray
        if let source = byteSource, clipMask == nil, source != Pixel.unpainted {
            directBytes = ByteOver(bytes: converted.bytes.assumingMemoryBound(to: UInt8.self),
                                   bytesPerRow: converted.bytesPerRow, source: source, grey: bytesAreGrey)
        } else {
            directBytes = nil
        }
        directWords = clipMask == nil && KernelDispatch.usesAVX2(1) ? inPlaceSource : nil
        route = directBytes != nil || directWords != nil ? .convertedOver : baseRoute
    }

    /// Row `y`'s bytes from pixel `x`, for in-place blending into one-byte layouts.
    @inline(__always)
    private func bytes(_ converted: LayoutRows, x: Int, y: Int) -> UnsafeMutablePointer<UInt8> {
        converted.address(x: x, y: y).assumingMemoryBound(to: UInt8.self)
    }

    /// Row `y`'s words from pixel `x`, for in-place blending.
    @inline(__always)
    private func words(_ converted: LayoutRows, x: Int, y: Int) -> UnsafeMutablePointer<UInt32> {
        converted.address(x: x, y: y).assumingMemoryBound(to: UInt32.self)
    }

    /// A run of one coverage: a store, a shade into the row, or one kernel call (through the clip
    /// mask first when there is one; through a scratch row when the layout is not native). A
    /// solid colour under source-over, the commonest fill, goes straight to its AVX2 kernel from
    /// here, another paint with no clip mask into native pixels straight to `shadedSpan`. Left
    /// to the compiler to inline (forced, with the clip path it carries, it added about 200 KB of
    /// code across the producers for 2 % of polys_nz_40's instructions).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        switch route {
        case .solidOver(let color):
            if KernelDispatch.usesAVX2(count) {
                let row = pixels + (y &* rowStride &+ x)
                if coverage == 255 && color >> 24 == 255 {
                    row.update(repeating: color, count: count)
                } else {
                    crisp_over_color_avx2(row, count, color, UInt32(coverage), 24, 0)
                }
                return
            }
        case .convertedOver:
            directSpan(x: x, y: y, count: count, coverage: coverage)
            return
        case .linearOver(let linear):
            Self.overLinear(linear, into: pixels + (y &* rowStride &+ x), x: x, y: y, count: count,
                            coverage: UInt32(coverage), stores: storesFullCoverage, scratch: shadeBuffer)
            return
        case .shaded:
            shadedSpan(into: pixels + (y &* rowStride &+ x), x: x, y: y, count: count, coverage: coverage)
            return
        case .general:
            break
        }
        guard let clip, !clip.isOpen(x: x, y: y, count: count) else {
            unmaskedSpan(x: x, y: y, count: count, coverage: coverage)
            return
        }
        clip.span(x: x, y: y, count: count, coverage: coverage, scratch: maskScratch,
                  open: { unmaskedSpan(x: $0, y: y, count: $1, coverage: coverage) },
                  masked: { composite(x: $0, y: y, count: $1, coverage: $2) })
    }

    /// `blitSpan` into another layout with `directBytes` or `directWords`: one call from the
    /// producer to the kernel, where it was two calls and the layout's dispatch (`unmaskedSpan`).
    /// Out of line, so that the producers, which inline `blitSpan` and `blitMask`, carry one
    /// call for these layouts, not their kernels, and the native path's code stays as it was.
    /// `mutating` for the reason `unmaskedSpan` is.
    @inline(never)
    private mutating func directSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        if let target = directBytes {
            target.blend(x: x, y: y, count: count, coverage: coverage)
        } else if let source = directWords, let converted {
            let row = words(converted, x: x, y: y)
            if coverage == 255 && source >> (inPlaceAlphaFirst ? 0 : 24) & 0xFF == 255 {
                row.update(repeating: source | skippedByte, count: count)
            } else {
                crisp_over_color_avx2(row, count, source, UInt32(coverage), inPlaceAlphaFirst ? 0 : 24, skippedByte)
            }
        }
    }

    /// `directSpan` with a coverage byte per pixel.
    @inline(never)
    private mutating func directMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        if let target = directBytes {
            target.blend(x: x, y: y, count: count, coverage: coverage)
        } else if let source = directWords, let converted {
            crisp_over_color_coverage_avx2(words(converted, x: x, y: y), count, source, coverage, inPlaceAlphaFirst ? 0 : 24,
                                           skippedByte)
        }
    }

    /// `blitSpan` with the clip mask already accounted for. `mutating` (it changes nothing) so
    /// that `self` is passed by address: called from the mutating `blitSpan`, a non-mutating
    /// method got a copy of the whole blitter (300 bytes, a `memcpy` per span; callgrind).
    private mutating func unmaskedSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        guard let converted else {
            blitSpan(into: pixels + y * rowStride + x, x: x, y: y, count: count, coverage: coverage)
            return
        }
        if coverage == 255 && replacesWithOpaque, let color = solidColor ?? verticalRows?.color(y: y), color >> 24 == 255 {
            converted.layout.store(repeating: color, count: count, to: converted.address(x: x, y: y))
            return
        }
        if let source = inPlaceSource {
            SourceOver.blendQuadSpan(words(converted, x: x, y: y), count: count, source: source, coverage: UInt32(coverage),
                                     alphaFirst: inPlaceAlphaFirst, skipped: skippedByte)
            return
        }
        if let source = byteSource {
            SourceOver.blendByteSpan(bytes(converted, x: x, y: y), count: count, source: source, grey: bytesAreGrey,
                                     coverage: UInt32(coverage))
            return
        }
        converted.load(x: x, y: y, count: count)
        blitSpan(into: converted.scratch, x: x, y: y, count: count, coverage: coverage)
        converted.store(x: x, y: y, count: count)
    }

    /// `blitSpan` with the destination span at `row`, native pixels. A solid colour is handled
    /// here; any other paint in `shadedSpan`, out of line: inlined, the paths that read `paint`
    /// made every call copy it (then 168 bytes, a `memcpy` per span, solid colours included:
    /// callgrind, 5 % of a polygon scene's instructions; at most a retain and release now that
    /// its large cases are classes or `indirect`).
    @inline(__always)
    private mutating func blitSpan(into row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UInt8) {
        guard let color = solidColor else {
            shadedSpan(into: row, x: x, y: y, count: count, coverage: coverage)
            return
        }
        blitColor(color, into: row, count: count, coverage: UInt32(coverage))
    }

    /// One colour over a span of one coverage: a store when it is opaque, fully covered and
    /// replaces, else the operator's colour kernel; nothing for `Pixel.unpainted`.
    @inline(__always)
    private func blitColor(_ color: UInt32, into row: UnsafeMutablePointer<UInt32>, count: Int, coverage c: UInt32) {
        if color == Pixel.unpainted { return }
        if c == 255 && color >> 24 == 255 && replacesWithOpaque {
            row.update(repeating: color, count: count)
        } else {
            blend.blendSpan(row, count: count, source: color, coverage: c)
        }
    }

    /// `blitSpan(into:)` for a paint that is not a solid colour.
    @inline(never)
    private mutating func shadedSpan(into row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int, coverage: UInt8) {
        let c = UInt32(coverage)
        if let color = verticalRows?.color(y: y) {
            blitColor(color, into: row, count: count, coverage: c)
            return
        }
        if c == 255 && storesFullCoverage {
            paint.shade(x: x, y: y, count: count, into: row)
            return
        }
        if fusesOver, paint.blendOver(x: x, y: y, count: count, into: row, .over(c), scratch: shadeBuffer) { return }
        let sources = sources(x: x, y: y, count: count)
        if skipsUnpainted {
            forEachPaintedRun(sources, count) { start, n in
                blend.blendSpan(row + start, count: n, sources: sources + start, coverage: c)
            }
        } else {
            blend.blendSpan(row, count: count, sources: sources, coverage: c)
        }
    }

    /// `linearOver`'s span of one coverage: shaded straight into the row when `stores` (an opaque
    /// paint) and the span is fully covered, else its colours blended under source-over. Static,
    /// with what it reads passed in, so that the call copies nothing of the blitter.
    @inline(never)
    private static func overLinear(_ paint: Unmanaged<LinearGradientPaint>, into row: UnsafeMutablePointer<UInt32>,
                                   x: Int, y: Int, count: Int, coverage c: UInt32, stores: Bool,
                                   scratch: UnsafeMutablePointer<UInt32>) {
        paint._withUnsafeGuaranteedRef { p in
            if c == 255 && stores {
                p.shade(x: x, y: y, count: count, into: row)
            } else {
                SourceOver.blendSpan(row, count: count, sources: p.sources(x: x, y: y, count: count, scratch: scratch), coverage: c)
            }
        }
    }

    /// `linearOver`'s span with a coverage byte per pixel.
    @inline(never)
    private static func overLinear(_ paint: Unmanaged<LinearGradientPaint>, into row: UnsafeMutablePointer<UInt32>,
                                   x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>,
                                   scratch: UnsafeMutablePointer<UInt32>) {
        paint._withUnsafeGuaranteedRef { p in
            SourceOver.blendSpan(row, count: count, sources: p.sources(x: x, y: y, count: count, scratch: scratch), coverage: coverage)
        }
    }

    /// The span's source colours: colours already in memory when they are exactly what shading
    /// would write (an image's cached looks, a horizontal gradient's kept row), else the paint
    /// shaded into the scratch row.
    @inline(__always)
    private func sources(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32> {
        if let row = paint.unmodifiedRow(x: x, y: y, count: count) { return row }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        return UnsafePointer(shadeBuffer)
    }

    /// A run with a coverage byte per pixel, through the clip mask first when there is one. A
    /// solid colour under source-over goes straight to its AVX2 kernel from here, inlined into
    /// the producer (forced: the producers' coverage rows are most spans of thin or small
    /// shapes; `clip2` measured the clip path out of line, and kept it inline): before, the
    /// blitter's entry and the operator's witness cost about 55
    /// instructions a span before the kernel (register saves, the indirect call), most of a
    /// hairline row's blend (callgrind, `hairlines`). Another paint with no clip mask into native
    /// pixels goes straight to `compositeShaded`.
    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        switch route {
        case .solidOver(let color):
            if KernelDispatch.usesAVX2(count) {
                crisp_over_color_coverage_avx2(pixels + (y &* rowStride &+ x), count, color, coverage, 24, 0)
                return
            }
        case .convertedOver:
            directMask(x: x, y: y, count: count, coverage: coverage)
            return
        case .linearOver(let linear):
            let row = pixels + (y &* rowStride &+ x)
            crisp_prefetch_span(row + rowStride, count &* 4)
            Self.overLinear(linear, into: row, x: x, y: y, count: count, coverage: coverage, scratch: shadeBuffer)
            return
        case .shaded:
            let row = pixels + (y &* rowStride &+ x)
            crisp_prefetch_span(row + rowStride, count &* 4)
            compositeShaded(into: row, x: x, y: y, count: count, coverage: coverage)
            return
        case .general:
            break
        }
        guard let clip else {
            composite(x: x, y: y, count: count, coverage: coverage)
            return
        }
        var x = x, count = count
        if let masked = clip.row(x: &x, y: y, count: &count, coverage: coverage, scratch: maskScratch) {
            composite(x: x, y: y, count: count, coverage: masked)
        }
    }

    /// Pixels `x..<x+count` of row `y` with a coverage byte each (clip mask already applied);
    /// `mutating` for the reason `unmaskedSpan` is.
    private mutating func composite(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        guard let converted else {
            composite(into: pixels + y * rowStride + x, x: x, y: y, count: count, coverage: coverage)
            return
        }
        if let source = inPlaceSource {
            SourceOver.blendQuadSpan(words(converted, x: x, y: y), count: count, source: source, coverage: coverage,
                                     alphaFirst: inPlaceAlphaFirst, skipped: skippedByte)
            return
        }
        if let source = byteSource {
            SourceOver.blendByteSpan(bytes(converted, x: x, y: y), count: count, source: source, grey: bytesAreGrey,
                                     coverage: coverage)
            return
        }
        converted.load(x: x, y: y, count: count)
        composite(into: converted.scratch, x: x, y: y, count: count, coverage: coverage)
        converted.store(x: x, y: y, count: count)
    }

    /// `composite` with the destination span at `row`, native pixels: a solid colour here, any
    /// other paint out of line (for the reason `blitSpan(into:)` gives).
    @inline(__always)
    private mutating func composite(into row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int,
                                    coverage: UnsafePointer<UInt8>) {
        guard let color = solidColor else {
            compositeShaded(into: row, x: x, y: y, count: count, coverage: coverage)
            return
        }
        if color != Pixel.unpainted { blend.blendSpan(row, count: count, source: color, coverage: coverage) }
    }

    /// `composite(into:)` for a paint that is not a solid colour.
    @inline(never)
    private mutating func compositeShaded(into row: UnsafeMutablePointer<UInt32>, x: Int, y: Int, count: Int,
                                          coverage: UnsafePointer<UInt8>) {
        if let color = verticalRows?.color(y: y) {
            if color != Pixel.unpainted { blend.blendSpan(row, count: count, source: color, coverage: coverage) }
            return
        }
        if fusesOver, paint.blendOver(x: x, y: y, count: count, into: row, .overCoverages(coverage), scratch: shadeBuffer) {
            return
        }
        let sources = sources(x: x, y: y, count: count)
        if skipsUnpainted {
            forEachPaintedRun(sources, count) { start, n in
                blend.blendSpan(row + start, count: n, sources: sources + start, coverage: coverage + start)
            }
        } else {
            blend.blendSpan(row, count: count, sources: sources, coverage: coverage)
        }
    }

    /// Calls `body(start, count)` for each maximal run of the first `count` source colours that
    /// are not `Pixel.unpainted`.
    @inline(__always)
    private func forEachPaintedRun(_ s: UnsafePointer<UInt32>, _ count: Int, _ body: (Int, Int) -> Void) {
        var i = 0
        while i < count {
            if s[i] == Pixel.unpainted { i += 1; continue }
            let start = i
            i += 1
            while i < count && s[i] != Pixel.unpainted { i += 1 }
            body(start, i - start)
        }
    }
}
