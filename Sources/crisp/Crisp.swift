import ArgumentParser

@main
struct Crisp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crisp",
        abstract: "Crisp's command line: render SVG to PNG, draw text, optimize PNGs, run benchmarks.",
        subcommands: [RenderCommand.self, TextCommand.self, BenchCommand.self, PNGCommand.self])
}
