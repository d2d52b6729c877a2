import Foundation
import Testing

/// An app can check and explore its machines without linking a test framework.
@Suite("Products: checking links no test framework")
struct ProductTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("StateMachineChecking is a product, and nothing in it (or in StateMachine, the examples or FSMCommand) imports XCTest or Testing")
  func checkingIsAProductWithoutTestFrameworks() throws {
    let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#".library(name: "StateMachineChecking", targets: ["StateMachineChecking"])"#))
    for module in ["StateMachineChecking", "StateMachine", "StateMachineExamples", "FSMCommand"] {
      let folder = Self.root.appendingPathComponent("Sources/\(module)")
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
      #expect(!files.isEmpty)
      for file in files {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let imports = text.split(separator: "\n").filter { $0.contains("import ") && !$0.hasPrefix("//") && !$0.hasPrefix("///") }
        #expect(!imports.contains { $0.hasSuffix(" XCTest") || $0.hasSuffix(" Testing") }, "\(module)/\(file)")
      }
    }
  }

  @Test("FSMCommand links neither the examples nor SQLite: only StateMachine and StateMachineChecking")
  func commandLibraryWithoutExamples() throws {
    let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#".target(name: "FSMCommand", dependencies: ["StateMachine", "StateMachineChecking"]"#))
    let folder = Self.root.appendingPathComponent("Sources/FSMCommand")
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("import StateMachineExamples") && !text.contains("import CSQLite"), "FSMCommand/\(file)")
    }
  }
}
