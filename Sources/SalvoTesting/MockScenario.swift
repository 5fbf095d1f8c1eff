import Salvo

/// A named state that mock routes read and move, so one route answers differently before and
/// after another was called: a cart that is empty until an item is posted.
///
/// ```swift
/// let cart = MockScenario("cart", startingAt: "empty")
/// let routes = MockRoutes([
///     .get("/cart", .json(Cart.empty)).when(cart, is: "empty"),
///     .get("/cart", .json(Cart.withTea)).when(cart, is: "filled"),
///     .post("/cart/items", .status(201)).moving(cart, to: "filled"),
/// ])
/// ```
///
/// A scenario is a reference: every copy of a route table that uses it shares its state. Make one
/// per test (or call ``reset()``) so tests running in parallel never see each other's state.
public final class MockScenario: Sendable, CustomStringConvertible {
    /// The scenario's name, used in messages.
    public let name: String
    /// The state the scenario starts in and returns to on ``reset()``.
    public let initialState: String
    private let current: Locked<String>

    /// A scenario called `name` in state `initialState`.
    public init(_ name: String, startingAt initialState: String = "start") {
        self.name = name
        self.initialState = initialState
        current = Locked(initialState)
    }

    /// The state now.
    public var state: String { current.withLock { $0 } }

    /// Moves the scenario to `state`.
    public func move(to state: String) {
        current.withLock { $0 = state }
    }

    /// Moves the scenario back to its initial state.
    public func reset() {
        move(to: initialState)
    }

    /// `scenario cart is "filled"`.
    public var description: String { "scenario \(name) is \"\(state)\"" }
}

extension MockRoute {
    /// This route answering only while `scenario` is in `state`.
    public func when(_ scenario: MockScenario, is state: String) -> MockRoute {
        matching(MockMatcher("scenario \(scenario.name) is \"\(state)\"") { _ in
            let current = scenario.state
            return current == state ? nil : "scenario \(scenario.name) is \"\(current)\""
        })
    }

    /// This route moving `scenario` to `state` each time it answers.
    public func moving(_ scenario: MockScenario, to state: String) -> MockRoute {
        after { _ in scenario.move(to: state) }
    }
}
