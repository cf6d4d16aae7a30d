import Foundation

// `<style>` sheets in the cascade. Before the tree walk, every sheet is read and each element's
// matching declarations are found once (with its ancestors at hand, which XMLElement does not
// keep) and stored by element, ordered by specificity, then sheet order. `declarations(of:)`
// then places them in CSS's order of precedence: presentation attributes, sheet rules, the
// `style` attribute, then the sheet's `!important` declarations. A warning about a sheet's
// declaration points at the element it applies to (the sheet's text keeps no places).

extension SVGBuilder {
    /// Reads the document's `<style>` sheets (type text/css or none) and matches them.
    func matchStyleSheets(_ root: XMLElement) {
        var sheet = SVGStyleSheet()
        var stack = [root]
        while let e = stack.popLast() {
            if e.name == "style", !e.text.isEmpty {
                let type = e.attribute("type")?.value.trimmingWhiteSpace() ?? "text/css"
                if type.isEmpty || type == "text/css" {
                    let before = sheet.problems.count
                    sheet.add(e.text)
                    for problem in sheet.problems[before...] { warn(problem, at: e.offset) }
                } else {
                    warn("<style type=\"\(type)\"> (not CSS; ignored)", at: e.offset)
                }
            }
            stack.append(contentsOf: e.children.reversed())
        }
        guard !sheet.isEmpty else { return }
        var ancestors: [XMLElement] = []
        var flags: [Bool] = []
        func visit(_ e: XMLElement, isFirstChild: Bool) {
            flags.append(isFirstChild)
            var matched = sheet.candidates(for: e).filter { $0.selector.matches(e, ancestors: ancestors, firstChildFlags: flags) }
            if !matched.isEmpty {
                matched.sort { ($0.selector.specificity, $0.order) < ($1.selector.specificity, $1.order) }
                var normal: [SVGDeclaration] = [], important: [SVGDeclaration] = []
                for rule in matched {
                    for d in rule.declarations {
                        let declaration = SVGDeclaration(name: Substring(d.name), value: Substring(d.value), offset: e.offset)
                        if d.isImportant { important.append(declaration) } else { normal.append(declaration) }
                    }
                }
                sheetDeclarations[ObjectIdentifier(e)] = (normal, important)
            }
            ancestors.append(e)
            for (k, child) in e.children.enumerated() { visit(child, isFirstChild: k == 0) }
            ancestors.removeLast()
            flags.removeLast()
        }
        visit(root, isFirstChild: true)
    }
}
