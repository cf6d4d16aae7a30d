import ArgumentParser

@main
struct Crisp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crisp",
        abstract: "Crisp's command line: benchmarks, text rendering (and, soon, SVG rendering).",
        subcommands: [BenchCommand.self, TextCommand.self])
}
