// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "swift-state-machine",
  products: [
    .library(name: "StateMachine", targets: ["StateMachine"]),
    .library(name: "StateMachineExamples", targets: ["StateMachineExamples"]),
    .executable(name: "fsm", targets: ["fsm"]),
  ],
  dependencies: [],
  targets: [
    .target(name: "StateMachine", swiftSettings: strict),
    .target(name: "StateMachineExamples", dependencies: ["StateMachine"], swiftSettings: strict),
    .target(name: "FSMCommand", dependencies: ["StateMachine", "StateMachineExamples"], swiftSettings: strict),
    .executableTarget(name: "fsm", dependencies: ["FSMCommand"], swiftSettings: strict),
    .testTarget(name: "StateMachineTests", dependencies: ["StateMachine", "StateMachineExamples"], swiftSettings: strict),
    .testTarget(name: "StoreTests", dependencies: ["StateMachine"], swiftSettings: strict),
    .testTarget(
      name: "FSMCommandTests", dependencies: ["FSMCommand", "StateMachine", "StateMachineExamples"], exclude: ["Fixtures"],
      swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)
