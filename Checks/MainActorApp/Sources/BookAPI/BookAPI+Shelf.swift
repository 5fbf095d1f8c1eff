import Salvo

extension BookAPI {
    /// The first page of the shelf, typed: the API module binds `[Book]` and `APIProblem` here, so
    /// whoever sets its handlers or fires it names neither.
    public func shelf() -> TypedCall<[Book], APIProblem> {
        TypedCall(books())
    }
}
