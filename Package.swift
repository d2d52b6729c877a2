// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "swift-state-machine",
  // Synchronization's Atomic and Observation set the floor on Apple platforms; Linux has no floor.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "StateMachine", targets: ["StateMachine"]),
    .library(name: "StateMachineExamples", targets: ["StateMachineExamples"]),
    // Property checks and exploration, linking no test framework: safe in an app's binary.
    .library(name: "StateMachineChecking", targets: ["StateMachineChecking"]),
    // The test stores, which report to Swift Testing or XCTest: for test targets only.
    .library(name: "StateMachineTesting", targets: ["StateMachineTesting"]),
    // The `fsm` commands as a library, to build an `fsm` over your own machines (see `Catalog`).
    .library(name: "FSMCommand", targets: ["FSMCommand"]),
    .executable(name: "fsm", targets: ["fsm"]),
    // The ECMAScript datamodel for SCXML charts, on the system's JavaScriptCore: enable the
    // `ECMAScript` trait to build it (without it the product is empty and links nothing).
    .library(name: "StateMachineECMAScript", targets: ["StateMachineECMAScript"]),
  ],
  traits: [
    .trait(
      name: "ECMAScript",
      description: "The ECMAScript datamodel (StateMachineECMAScript) on JavaScriptCore: libjavascriptcoregtk-4.1-dev on Linux, the framework on Apple platforms."),
  ],
  dependencies: [],
  targets: [
    .target(name: "StateMachine", swiftSettings: strict),
    // The loader example's cache: the system's libsqlite3 (no package dependency).
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .target(
      name: "StateMachineExamples", dependencies: ["StateMachine", "StateMachineChecking", "CSQLite"], swiftSettings: strict),
    // Property checks, exploration, demos and models: no test framework, so `fsm` can use them.
    .target(name: "StateMachineChecking", dependencies: ["StateMachine"], swiftSettings: strict),
    // The test stores (they report to Swift Testing or XCTest), re-exporting StateMachineChecking.
    .target(name: "StateMachineTesting", dependencies: ["StateMachine", "StateMachineChecking"], swiftSettings: strict),
    // The commands, over a catalog of machines: no examples, so no SQLite.
    .target(name: "FSMCommand", dependencies: ["StateMachine", "StateMachineChecking"], swiftSettings: strict),
    // What the package's own `fsm` adds to the library (in no product): the examples' catalog,
    // the benchmarks `fsm bench` runs, the crash test's log writer.
    .target(
      name: "FSMTool",
      dependencies: [
        "FSMCommand", "StateMachine", "StateMachineExamples", "StateMachineChecking",
        .target(name: "StateMachineECMAScript", condition: .when(traits: ["ECMAScript"])),
      ],
      swiftSettings: strict),
    .executableTarget(name: "fsm", dependencies: ["FSMTool"], swiftSettings: strict),
    // JavaScriptCore's C API, only with the `ECMAScript` trait.
    .systemLibrary(
      name: "CJavaScriptCore", path: "Sources/CJavaScriptCore", pkgConfig: "javascriptcoregtk-4.1",
      providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
    .target(
      name: "StateMachineECMAScript",
      dependencies: ["StateMachine", .target(name: "CJavaScriptCore", condition: .when(traits: ["ECMAScript"]))],
      swiftSettings: strict,
      linkerSettings: [
        .linkedLibrary("javascriptcoregtk-4.1", .when(platforms: [.linux], traits: ["ECMAScript"])),
        .linkedFramework("JavaScriptCore", .when(platforms: [.macOS, .iOS, .tvOS, .visionOS], traits: ["ECMAScript"])),
      ]),
    .testTarget(
      name: "ECMAScriptTests", dependencies: ["StateMachineECMAScript", "StateMachine", "StateMachineChecking", "StateMachineTesting", "FSMCommand"], swiftSettings: strict),
    .testTarget(
      name: "StateMachineTests", dependencies: ["StateMachine", "StateMachineExamples", "StateMachineChecking"], exclude: ["Hostile"],
      swiftSettings: strict),
    .testTarget(name: "StoreTests", dependencies: ["StateMachine"], swiftSettings: strict),
    .testTarget(
      name: "StateMachineTestingTests", dependencies: ["StateMachine", "StateMachineTesting", "StateMachineExamples"],
      swiftSettings: strict),
    .testTarget(
      name: "ExamplesTests", dependencies: ["StateMachine", "StateMachineExamples", "StateMachineTesting"],
      swiftSettings: strict),
    .testTarget(
      name: "FSMCommandTests", dependencies: ["FSMCommand", "FSMTool", "StateMachine", "StateMachineChecking", "StateMachineExamples"], exclude: ["Fixtures"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
