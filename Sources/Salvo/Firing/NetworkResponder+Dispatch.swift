import Foundation

extension NetworkResponder {
    /// Hands one outcome to the handlers in the documented order: the one dispatch path that
    /// production, mock and replay firing all share.
    func dispatch(_ outcome: NetworkOutcome) {
        if case .invalidRequest = outcome.error {} else {
            responseHandler(outcome.response)
        }
        if let http = outcome.httpResponse {
            httpResponseHandler(http)
        }
        switch outcome.result {
        case .success(let data):
            dataHandler(data)
        case .failure(let error) where error.statusCode != nil:
            errorDataHandler(outcome.data)
            serverErrorHandler(error)
        case .failure(let error):
            errorHandler(error)
            errorDataHandler(outcome.data)
        }
    }
}
