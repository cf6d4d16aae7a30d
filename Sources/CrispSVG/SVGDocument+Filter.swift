import CrispGraphics
import Foundation

// Drawing a filtered node. The filter runs in the element's own user space, as resvg does: the
// node's content is drawn into a bitmap whose pixels are that space scaled by the CTM's scale
// per axis (sx = |(a, b)|, sy = |(c, d)|), covering the filter region; the primitives run on
// it with lengths times (sx, sy); the result is drawn back through the rest of the CTM (the
// rotation or skew, if any). So a rotated or skewed element is blurred, offset and lit along
// its own axes, and an axis-aligned one is filtered pixel on pixel: the bitmap's grid is then
// aligned with the device's and the result is copied without resampling.
//
// Then, as SVG orders them: the clip, the mask (SVGDocument+Masking draws the filtered node
// off screen) and opacity (one image drawn with that alpha: exact without a layer).
//
// A chain (`filter="url(#a) url(#b)"`) runs each filter on the previous one's output, each on
// its own region of the same pixel grid. A canvas over `maximumFilterPixels` is not drawn
// (bounded memory; the builder already warned for regions that large at scale 1).

extension SVGDocument {
    /// The most pixels of one filter canvas (16 bytes each per intermediate image).
    static let maximumFilterPixels = 2048 * 2048
    /// The most bytes of intermediate images one filter may hold at once.
    static let maximumFilterBytes = 1 << 30

    /// The most images running `filter` holds at once: the results still to be used, the
    /// source in two colour spaces, the inputs and the output.
    static func peakImages(_ filter: SVGFilter) -> Int {
        let p = filter.primitives
        var lastUse = [Int](repeating: -1, count: p.count)
        for (i, q) in p.enumerated() { for case .result(let j) in q.inputs { lastUse[j] = i } }
        var peak = 0
        for i in 0..<p.count {
            let alive = (0..<i).count { lastUse[$0] >= i }
            peak = max(peak, alive + p[i].inputs.count + 3)
        }
        return peak
    }

    /// The pixel grid of one filter canvas: canvas pixel (i, j) covers the scaled user-space
    /// square (originX + i, originY + j) to one more, scaled user space being (sx·x, sy·y).
    struct FilterGrid {
        var sx: Double, sy: Double
        var originX: Double, originY: Double
        var width: Int, height: Int

        func box(_ r: CGRect) -> FilterPixelBox {
            func clampX(_ v: Double) -> Int { v > 0 ? Int(min(v, Double(width))) : 0 }
            func clampY(_ v: Double) -> Int { v > 0 ? Int(min(v, Double(height))) : 0 }
            return FilterPixelBox(x0: clampX((Double(r.minX) * sx - originX + 1e-6).rounded(.down)),
                                  y0: clampY((Double(r.minY) * sy - originY + 1e-6).rounded(.down)),
                                  x1: clampX((Double(r.maxX) * sx - originX - 1e-6).rounded(.up)),
                                  y1: clampY((Double(r.maxY) * sy - originY - 1e-6).rounded(.up)))
        }

        func toPixel(_ x: Double, _ y: Double) -> (Double, Double) { (x * sx - originX, y * sy - originY) }
    }

    static func drawFiltered(_ node: SVGRenderNode, _ filters: [SVGFilter], in context: CGContext, clipping: Bool) {
        let ctm = node.transform.concatenating(context.ctm)
        let sx = Double((ctm.a * ctm.a + ctm.b * ctm.b).squareRoot()), sy = Double((ctm.c * ctm.c + ctm.d * ctm.d).squareRoot())
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite, ctm.determinant != 0, ctm.determinant.isFinite else { return }
        let scale = CGAffineTransform(scaleX: CGFloat(sx), y: CGFloat(sy))
        let rest = scale.inverted().concatenating(ctm)   // scaled user space → device
        let aligned = abs(rest.b) < 1e-9 && abs(rest.c) < 1e-9 && abs(abs(rest.a) - 1) < 1e-9 && abs(abs(rest.d) - 1) < 1e-9
        func fraction(_ v: Double) -> Double { v - v.rounded(.down) }
        // Grid lines on device pixel edges when aligned: device x = ±(originX + i) + tx.
        let phaseX = aligned ? fraction(-Double(rest.a * rest.tx)) : 0, phaseY = aligned ? fraction(-Double(rest.d * rest.ty)) : 0
        var plane: FilterPlane?
        var grid = FilterGrid(sx: sx, sy: sy, originX: 0, originY: 0, width: 0, height: 0)
        for filter in filters {
            let r = filter.region
            let gx0 = (Double(r.minX) * sx - phaseX + 1e-6).rounded(.down), gy0 = (Double(r.minY) * sy - phaseY + 1e-6).rounded(.down)
            let gx1 = (Double(r.maxX) * sx - phaseX - 1e-6).rounded(.up), gy1 = (Double(r.maxY) * sy - phaseY - 1e-6).rounded(.up)
            // Bounded memory: the canvas, and the canvas times the images alive at once.
            let area = (gx1 - gx0) * (gy1 - gy0)
            guard gx0.isFinite, gy0.isFinite, gx1 > gx0, gy1 > gy0, area <= Double(maximumFilterPixels),
                  area * Double(16 * peakImages(filter)) <= Double(maximumFilterBytes) else { return }
            let next = FilterGrid(sx: sx, sy: sy, originX: gx0 + phaseX, originY: gy0 + phaseY, width: Int(gx1 - gx0), height: Int(gy1 - gy0))
            let source: FilterPlane
            if let previous = plane {
                source = move(previous, from: grid, to: next)
            } else {
                guard let rendered = render(node, grid: next, contentOnly: true) else { return }
                source = rendered
            }
            grid = next
            plane = run(filter, source: source, grid: grid)
        }
        guard var output = plane else { return }
        FilterRaster.convert(&output, toLinear: false)
        let pixels = output.data.withUnsafeBufferPointer { d in
            (0..<(output.width * output.height)).map { i -> UInt32 in
                func byte(_ v: Float) -> UInt32 { UInt32(FilterRaster.unit(v) * 255 + 0.5) }
                let a = byte(d[i * 4 + 3])
                return a << 24 | min(byte(d[i * 4]), a) << 16 | min(byte(d[i * 4 + 1]), a) << 8 | min(byte(d[i * 4 + 2]), a)
            }
        }
        let image = CGImage(width: grid.width, height: grid.height, pixels: pixels)
        let quality = context.interpolationQuality
        context.saveGState()
        context.concatenate(node.transform)
        if clipping, let clip = node.clip { apply(clip, in: context) }
        if clipping {
            context.setAlpha(CGFloat(node.layerOpacity))
            context.setBlendMode(node.blendMode)
        }
        context.concatenate(scale.inverted())
        let rect = CGRect(x: grid.originX, y: grid.originY, width: Double(grid.width), height: Double(grid.height))
        context.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: rect.minY + rect.maxY))
        if aligned { context.interpolationQuality = .none }
        context.draw(image, in: rect)
        context.restoreGState()
        context.interpolationQuality = quality
    }

    /// The node's content (without its transform, clip, mask, opacity and filter; or, with
    /// `contentOnly` false, the whole node, for feImage) drawn on the
    /// grid, as premultiplied sRGB floats.
    private static func render(_ node: SVGRenderNode, grid: FilterGrid, contentOnly: Bool) -> FilterPlane? {
        guard let content = makeContext(width: grid.width, height: grid.height) else { return nil }
        // User space → scaled user space → canvas pixels, rows down → the context's y-up pixels.
        content.concatenate(CGAffineTransform(scaleX: CGFloat(grid.sx), y: CGFloat(grid.sy))
            .concatenating(CGAffineTransform(translationX: CGFloat(-grid.originX), y: CGFloat(-grid.originY)))
            .concatenating(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(grid.height))))
        if contentOnly { drawContent(node, in: content) } else { draw(node, in: content) }
        guard let image = content.makeImage() else { return nil }
        var plane = FilterPlane(width: grid.width, height: grid.height, linear: false)
        plane.data.withUnsafeMutableBufferPointer { d in
            for (i, p) in image.pixels.enumerated() where p != 0 {
                d[i * 4] = Float((p >> 16) & 0xFF) / 255
                d[i * 4 + 1] = Float((p >> 8) & 0xFF) / 255
                d[i * 4 + 2] = Float(p & 0xFF) / 255
                d[i * 4 + 3] = Float(p >> 24) / 255
            }
        }
        return plane
    }

    /// `plane` on grid `from` copied onto grid `to` (the same pixel lattice, another region).
    private static func move(_ plane: FilterPlane, from: FilterGrid, to: FilterGrid) -> FilterPlane {
        var out = FilterPlane(width: to.width, height: to.height, linear: plane.linear)
        let dx = Int((from.originX - to.originX).rounded()), dy = Int((from.originY - to.originY).rounded())
        for y in 0..<from.height where y + dy >= 0 && y + dy < to.height {
            for x in 0..<from.width where x + dx >= 0 && x + dx < to.width {
                let s = (y * from.width + x) * 4, d = ((y + dy) * to.width + x + dx) * 4
                for c in 0..<4 { out.data[d + c] = plane.data[s + c] }
            }
        }
        return out
    }

    /// Runs the primitives of `filter` on `source` (SourceGraphic) and returns the last result.
    static func run(_ filter: SVGFilter, source: FilterPlane, grid: FilterGrid) -> FilterPlane {
        let primitives = filter.primitives
        var lastUse = [Int](repeating: -1, count: primitives.count)
        for (i, p) in primitives.enumerated() {
            for case .result(let j) in p.inputs { lastUse[j] = i }
        }
        var results = [FilterPlane?](repeating: nil, count: primitives.count)
        var convertedSource: [Bool: FilterPlane] = [source.linear: source]
        for (i, p) in primitives.enumerated() {
            let linear = p.linearRGB
            func input(_ k: Int, converting: Bool = true) -> FilterPlane {
                guard k < p.inputs.count else { return FilterPlane(width: grid.width, height: grid.height, linear: linear) }
                var plane: FilterPlane
                switch p.inputs[k] {
                case .sourceGraphic:
                    if !converting { return source }
                    if let cached = convertedSource[linear] { return cached }
                    plane = source
                    FilterRaster.convert(&plane, toLinear: linear)
                    convertedSource[linear] = plane
                    return plane
                case .sourceAlpha:
                    plane = source
                    for j in stride(from: 0, to: plane.data.count, by: 4) {
                        plane.data[j] = 0; plane.data[j + 1] = 0; plane.data[j + 2] = 0
                    }
                    plane.linear = linear
                    return plane
                case .result(let j):
                    plane = results[j] ?? FilterPlane(width: grid.width, height: grid.height, linear: linear)
                }
                if converting { FilterRaster.convert(&plane, toLinear: linear) }
                return plane
            }
            let box = grid.box(p.subregion)
            var out: FilterPlane
            switch p.kind {
            case .blur(let x, let y, let edge):
                out = input(0)
                FilterRaster.blur(&out, sx: min(Double(x) * grid.sx, 1e5), sy: min(Double(y) * grid.sy, 1e5), edge: edge)
            case .offset(let dx, let dy):
                let a = input(0, converting: false)
                out = FilterRaster.offset(a, dx: pixels(Double(dx) * grid.sx), dy: pixels(Double(dy) * grid.sy))
            case .flood(let c):
                out = FilterPlane(width: grid.width, height: grid.height, linear: linear)
                let (r, g, b, a) = FilterRaster.color(c, linear: linear)
                for y in box.y0..<max(box.y0, box.y1) {
                    for x in box.x0..<max(box.x0, box.x1) {
                        let k = (y * grid.width + x) * 4
                        out.data[k] = r * a; out.data[k + 1] = g * a; out.data[k + 2] = b * a; out.data[k + 3] = a
                    }
                }
            case .composite(let op, let k):
                out = input(0)
                FilterRaster.composite(&out, input(1), op, k: k)
            case .merge:
                out = FilterPlane(width: grid.width, height: grid.height, linear: linear)
                for k in 0..<p.inputs.count { FilterRaster.over(&out, input(k)) }
            case .blend(let mode):
                out = input(0)
                FilterRaster.blend(&out, input(1), mode)
            case .colorMatrix(let m):
                out = input(0)
                FilterRaster.colorMatrix(&out, m)
            case .componentTransfer(let f):
                out = input(0)
                FilterRaster.componentTransfer(&out, f)
            case .morphology(let dilate, let x, let y):
                out = input(0)
                let rx = pixels(Double(x) * grid.sx), ry = pixels(Double(y) * grid.sy)
                FilterRaster.morphology(&out, rx: min(rx, grid.width), ry: min(ry, grid.height), dilate: dilate)
            case .tile:
                out = FilterRaster.tile(input(0, converting: false))
            case .dropShadow(let dx, let dy, let x, let y, let color):
                let a = input(0)
                var shadow = a
                let (r, g, b, ca) = FilterRaster.color(color, linear: linear)
                for j in stride(from: 0, to: shadow.data.count, by: 4) {
                    let alpha = shadow.data[j + 3] * ca
                    shadow.data[j] = r * alpha; shadow.data[j + 1] = g * alpha; shadow.data[j + 2] = b * alpha; shadow.data[j + 3] = alpha
                }
                FilterRaster.blur(&shadow, sx: min(Double(x) * grid.sx, 1e5), sy: min(Double(y) * grid.sy, 1e5), edge: .none)
                out = FilterRaster.offset(shadow, dx: pixels(Double(dx) * grid.sx), dy: pixels(Double(dy) * grid.sy))
                FilterRaster.over(&out, a)
            case .turbulence(let t):
                out = FilterPlane(width: grid.width, height: grid.height, linear: linear)
                let generator = SVGTurbulenceGenerator(seed: t.seed)
                let sub = p.subregion
                for y in box.y0..<max(box.y0, box.y1) {
                    for x in box.x0..<max(box.x0, box.x1) {
                        let ux = (grid.originX + Double(x)) / grid.sx, uy = (grid.originY + Double(y)) / grid.sy
                        var v: [Float] = [0, 0, 0, 0]
                        for c in 0..<4 {
                            let n = generator.turbulence(c, x: ux, y: uy, t, tileX: Double(sub.minX), tileY: Double(sub.minY),
                                                         tileWidth: Double(sub.width), tileHeight: Double(sub.height))
                            v[c] = Float(min(max(t.fractalNoise ? (n + 1) / 2 : n, 0), 1))
                        }
                        let k = (y * grid.width + x) * 4
                        out.data[k] = v[0] * v[3]; out.data[k + 1] = v[1] * v[3]; out.data[k + 2] = v[2] * v[3]; out.data[k + 3] = v[3]
                    }
                }
            case .displacement(let scaleX, let scaleY, let xc, let yc):
                out = FilterRaster.displace(input(0, converting: false), by: input(1), sx: Double(scaleX) * grid.sx,
                                            sy: Double(scaleY) * grid.sy, xc: xc, yc: yc)
            case .convolve(let c):
                out = FilterRaster.convolve(input(0), c)
            case .lighting(let l):
                out = FilterRaster.lighting(input(0), l, linear: linear, scale: (grid.sx + grid.sy) / 2, toPixel: grid.toPixel)
            case .image(let node):
                out = render(node, grid: grid, contentOnly: false) ?? FilterPlane(width: grid.width, height: grid.height, linear: false)
                FilterRaster.convert(&out, toLinear: linear)
            case .transparent:
                out = FilterPlane(width: grid.width, height: grid.height, linear: linear)
            case .passThrough:
                out = input(0, converting: false)
            }
            out.crop(to: box)
            results[i] = out
            for j in 0..<i where lastUse[j] <= i { results[j] = nil }
        }
        return results.last.flatMap { $0 } ?? FilterPlane(width: grid.width, height: grid.height, linear: false)
    }

    /// A length in canvas pixels rounded to whole pixels (bounded to stay an Int).
    private static func pixels(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(min(max(v, -1e6), 1e6).rounded())
    }
}
