import Foundation
import OpenAPIRuntime
@_spi(Transport) import Salvo

/// The request body of one operation as Salvo sends it: a small body of known length read into
/// memory, any other streamed as its chunks come (``Salvo/RequestBody/stream(length:contentType:_:)``),
/// so an upload starts before its last chunk exists and a body made while the response streams
/// does not wait for itself.
///
/// A retry, a token renewal on 401 or a 307/308 redirect sends a streamed body again from its
/// first chunk: an `HTTPBody` made with `iterationBehavior: .multiple` is iterated again; one that
/// can be iterated once fails the call with `NetworkError.invalidRequest` naming the operation,
/// rather than sending it short.
enum OperationBody {
    /// Bodies of known length up to this many bytes are read into memory before the call fires:
    /// 64 KiB, the JSON bodies generated clients send. Sending them from memory costs no task and
    /// lets any number of sends share them; a body this small is made at once anyway.
    static let inMemoryLimit: Int64 = 64 << 10

    /// The Salvo body for `httpBody` of the operation `operationID`.
    ///
    /// - Throws: `NetworkError.invalidRequest` naming the operation when a small body cannot be read.
    static func requestBody(for httpBody: HTTPBody, operationID: String) async throws -> RequestBody {
        if case .known(let length) = httpBody.length, length <= inMemoryLimit {
            do {
                return .data(try await Data(collecting: httpBody, upTo: Int(length)), contentType: nil)
            } catch {
                throw NetworkError.invalidRequest(RequestProblem(.body, "the body of operation \(operationID) could not be read: \(error)"))
            }
        }
        let length: Int64? = if case .known(let length) = httpBody.length { length } else { nil }
        guard httpBody.iterationBehavior == .single else {
            return .stream(length: length, contentType: nil) { httpBody }
        }
        let sends = SendCount()
        return .stream(length: length, contentType: nil) {
            guard sends.next() > 1 else { return httpBody }
            return HTTPBody(
                AsyncThrowingStream<ArraySlice<UInt8>, any Error> { $0.finish(throwing: SentAgain(operationID: operationID)) },
                length: .unknown,
                iterationBehavior: .single
            )
        }
    }

    /// Why a body that can be iterated once was not sent again.
    struct SentAgain: Error, CustomStringConvertible {
        let operationID: String

        var description: String {
            "the request body of operation \(operationID) can be read once (its HTTPBody's iterationBehavior is .single) but had to be sent again, for a retry, a token renewal on 401 or a 307/308 redirect; make it with iterationBehavior: .multiple to allow that"
        }
    }

    /// How many times a body was made.
    private final class SendCount: @unchecked Sendable {
        // Safe because `count` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var count = 0

        /// Counts one more send and returns how many there were.
        func next() -> Int {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            return count
        }
    }
}
