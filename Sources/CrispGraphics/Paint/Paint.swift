// The paint stage: what colour each pixel of a span gets before blending. One implementation per
// paint kind (solid, linear, radial and conic gradient, image, transparency layer), each shading a run
// of premultiplied colours into a scratch row; the compositor reaches it through one switch per
// span. Rejected: a generic paint parameter on the blitter, which multiplied every paint by every
// blend mode, producer and fill rule (see CompositeBlitter.swift). The switch is small (the
// paints held by value are shaded out of line), so the compiler inlines it into the blitter's
// span functions: a jump and a call a span. With the image case inline it was a function with
// a 376-byte frame, about 37 instructions a span (callgrind, `gradients`: 0.50 M a render, now about
// 0.06 M in the callers).

/// A source of premultiplied colour for the pixels of a span.
enum Paint {
    /// One premultiplied colour everywhere.
    case solid(UInt32)
    /// An axial gradient.
    case linearGradient(LinearGradientPaint)
    /// A two-circle radial gradient.
    case radialGradient(RadialGradientPaint)
    /// A conic (sweep) gradient.
    case conicGradient(ConicGradientPaint)
    /// A sampled image (in colour, as a stencil, or as mask values).
    indirect case image(ImagePaint)
    /// A transparency layer's pixels on their way back to the parent.
    case layer(LayerPaint)

    /// The colour of a solid paint; nil for every other kind.
    var solidColor: UInt32? {
        if case .solid(let color) = self { return color }
        return nil
    }

    /// Whether every pixel the paint yields is opaque (and so never `Pixel.unpainted`): an
    /// opaque paint at full coverage under a replacing operator is written straight into the
    /// destination.
    var isOpaque: Bool {
        switch self {
        case .solid(let color): color >> 24 == 255
        case .linearGradient(let p): p.isOpaque
        case .radialGradient(let p): p.paintsEverywhere && p.table.isOpaque
        case .conicGradient(let p): p.table.isOpaque
        case .image(let p): p.isOpaque
        case .layer: false
        }
    }

    /// Whether `shade` may write `Pixel.unpainted` for pixels the paint does not reach (a
    /// gradient without extension beyond its ends); blending then leaves them untouched.
    var mayLeaveUnpainted: Bool {
        switch self {
        case .linearGradient(let p): p.mayLeaveUnpainted
        case .radialGradient(let p): !p.paintsEverywhere
        case .solid, .image, .layer, .conicGradient: false
        }
    }

    /// The colours of a linear gradient's rows when it does not vary along rows (t depends on y
    /// only); nil for every other paint. A span then blends like a solid colour: the same pixels
    /// as shading the row, for a fraction of the work.
    var verticalRows: VerticalGradientRows? {
        if case .linearGradient(let p) = self { return p.verticalRows }
        return nil
    }

    /// Colours already in memory that are exactly what `shade` would write for the span: an
    /// image's own row (see `ImagePaint.unmodifiedRow`) or a horizontal gradient's kept row
    /// (`LinearGradientPaint.keptRow`); nil otherwise.
    @inline(__always)
    func unmodifiedRow(x: Int, y: Int, count: Int) -> UnsafePointer<UInt32>? {
        switch self {
        case .image(let p): p.unmodifiedRow(x: x, y: y, count: count)
        case .linearGradient(let p): p.keptRow(x: x, count: count)
        case .solid, .radialGradient, .conicGradient, .layer: nil
        }
    }

    /// Blends the paint's colours for pixels `x..<x+count` of row `y` under source-over onto
    /// `row` in one pass, shading and blending eight pixels a step (the gradients' AVX2 kernels,
    /// `GradientKernel`); false, having done nothing, when the paint has no such kernel for the
    /// span (then it is shaded and blended by separate calls).
    @inline(__always)
    func blendOver(x: Int, y: Int, count: Int, into row: UnsafeMutablePointer<UInt32>,
                   _ operation: GradientKernel.Operation, scratch: UnsafeMutablePointer<UInt32>) -> Bool {
        switch self {
        case .radialGradient(let p): p.blendOver(x: x, y: y, count: count, into: row, operation, scratch: scratch)
        case .solid, .linearGradient, .conicGradient, .image, .layer: false
        }
    }

    /// Writes the paint's colours for pixels `x..<x+count` of row `y` (device pixels). The image
    /// and layer cases, whose structs are copied out of the enum, are out of line
    /// (`shadeCopied`), so that this switch stays small enough to inline (see the essay above).
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch self {
        case .solid(let color): out.update(repeating: color, count: count)
        case .linearGradient(let p): p.shade(x: x, y: y, count: count, into: out)
        case .radialGradient(let p): p.shade(x: x, y: y, count: count, into: out)
        case .image, .layer, .conicGradient: shadeCopied(x: x, y: y, count: count, into: out)
        }
    }

    /// `shade` for the paints held by value (images, layers) and the rare conic gradient.
    @inline(never)
    private func shadeCopied(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch self {
        case .image(let p): p.shade(x: x, y: y, count: count, into: out)
        case .layer(let p): p.shade(x: x, y: y, count: count, into: out)
        case .conicGradient(let p): p.shade(x: x, y: y, count: count, into: out)
        case .solid, .linearGradient, .radialGradient: shade(x: x, y: y, count: count, into: out)
        }
    }
}

extension Pixel {
    /// A value no premultiplied pixel can have (colour above alpha): "the paint does not reach
    /// this pixel".
    static let unpainted: UInt32 = 0x00FF_FFFF
}
