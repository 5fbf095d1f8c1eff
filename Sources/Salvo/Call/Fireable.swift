/// A call that is configured in one place and fired in another, by code that knows neither its
/// endpoint nor the type it returns.
///
/// This is Salvo's founding idea: the API module configures a call, the view model that shows its
/// outcome sets its handlers, and a refresh button, a retry banner or a timer fires it, holding
/// nothing but `any Fireable`.
///
/// ```swift
/// // The API module configures the calls, each with its own value type…
/// let profile = TypedCall<Profile, Problem>(NetCall(server: api, endpoint: .get("/me")))
/// let inbox = TypedCall<[Message], Problem>(NetCall(server: api, endpoint: .get("/inbox")))
///
/// // …the view model sets what happens with their outcomes…
/// var profileCall = profile
/// profileCall.valueHandler = { profile in model.profile = profile }
/// profileCall.apiErrorHandler = { error in model.alert = error.body?.message }
///
/// // …and the refresh button fires them, knowing neither endpoint nor type.
/// struct RefreshButton {
///     let calls: [any Fireable]
///     func tap() { for call in calls { call.fire() } }
/// }
/// RefreshButton(calls: [profileCall, inbox, NetCall(server: api, endpoint: .post("/seen"))]).tap()
/// ```
///
/// ``NetCall``, ``TypedCall`` and ``WebSocketCall`` conform (a WebSocket call's firing connects and
/// runs its ``WebSocketResponder``'s handlers until the connection ends). For a request, each firing goes through the call's
/// ``NetCall/firingFunction`` (production, mock, replay), runs its ``NetworkResponder``'s handlers
/// and, for a typed call, decodes and runs its `TypedCall/valueHandler` or
/// `TypedCall/apiErrorHandler`. The returned ``NetworkTask`` cancels the firing.
///
/// The controllers that keep state, ``Refresher``, ``Pager`` and ``RefreshGroup``, are not
/// fireable: they *refresh* (``Refreshable``), which awaits the load, joins one in flight and keeps
/// the outcome, where firing starts one request and hands its outcome to handlers. Fire a call;
/// refresh a controller.
public protocol Fireable: Sendable {
    /// Starts one firing and returns the task that can cancel it; the outcome goes to the
    /// handlers configured where the call was made.
    @discardableResult
    func fire() -> NetworkTask
}
