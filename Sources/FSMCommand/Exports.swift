// What a catalog is made of — machines, charts, demos, models — comes with `import FSMCommand`,
// so an `fsm` of your own machines needs no other import.
@_exported public import StateMachine
@_exported public import StateMachineChecking
