import Foundation
import OpenAPIRuntime
@_spi(Transport) import Salvo

/// The request body of one operation as Salvo sends it: in memory when it is small and its length
/// is known, otherwise spooled chunk by chunk to a temporary file that Salvo streams from.
///
/// A body that arrives in chunks (an upload the app produces as it goes, a large file) so never
/// sits whole in memory, and a retry, a token renewal on 401 or a redirect sends it again from its
/// first byte: a single pass over an `HTTPBody` could not be sent twice.
struct OperationBody {
    /// What the call sends.
    let body: RequestBody
    /// The spool file, removed by ``remove()`` once the call no longer needs it.
    private let file: URL?

    /// Bodies of known length up to this many bytes are read into memory: 1 MiB.
    static let inMemoryLimit: Int64 = 1 << 20

    /// A request without a body.
    static let none = OperationBody(body: .none, file: nil)

    private init(body: RequestBody, file: URL?) {
        self.body = body
        self.file = file
    }

    /// Reads `httpBody` for the operation `operationID`.
    ///
    /// - Throws: `NetworkError.invalidRequest` naming the operation when the body cannot be read
    ///   or the temporary file cannot be written.
    static func reading(_ httpBody: HTTPBody, operationID: String) async throws -> OperationBody {
        do {
            if case .known(let length) = httpBody.length, length <= inMemoryLimit {
                return OperationBody(body: .data(try await Data(collecting: httpBody, upTo: Int(length)), contentType: nil), file: nil)
            }
            return try await spooling(httpBody, operationID: operationID)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.invalidRequest(RequestProblem(.body, "the body of operation \(operationID) could not be read: \(error)"))
        }
    }

    /// Writes `httpBody` to a new temporary file as its chunks arrive.
    private static func spooling(_ httpBody: HTTPBody, operationID: String) async throws -> OperationBody {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-openapi-\(UUID().uuidString).body")
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = try? FileHandle(forWritingTo: file) else {
            throw NetworkError.invalidRequest(RequestProblem(.body, "the body of operation \(operationID) could not be spooled: \(file.path) cannot be created; check that the temporary directory is writable"))
        }
        let spooled = OperationBody(body: .file(file, contentType: "application/octet-stream"), file: file)
        do {
            defer { try? handle.close() }
            for try await chunk in httpBody {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            spooled.remove()
            throw error
        }
        return spooled
    }

    /// Removes the spool file, if there is one.
    func remove() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}
