import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stored response is filed under: whose it is (the partition), the method and the URL
/// (RFC 9111 §2's primary key, per user).
///
/// The partition is the app's ``HTTPCache/partitionKey`` when it set one (as a digest, so a user
/// id or email is never written), otherwise a digest of the request's credential fields
/// (`Authorization`, `Proxy-Authorization`, `Cookie`, and the fields an ``AuthTokenAction``
/// sets), so a changed credential never sees another's entries and no credential is kept in
/// plain text.
struct CacheKey: Sendable, Hashable {
    /// The partition of requests without credentials.
    static let anonymous = "anonymous"

    /// ``anonymous``, or the first 32 hex digits of the SHA-256 of the credential fields.
    let partition: String
    /// The request method, uppercased.
    let method: String
    /// The request URL, absolute.
    let url: String
    /// The hash of the three, made once: a miss looks its key up twice and saves it once, and
    /// the URL is long.
    private let digest: Int

    /// The key of `request`, whose header fields are `headers`, partitioned by its credential
    /// fields: the common ones and `credentialHeaders`.
    init(_ request: URLRequest, headers: [String: String], credentialHeaders: Set<String>) {
        method = (request.httpMethod ?? "GET").uppercased()
        url = request.url?.absoluteString ?? ""
        partition = Self.partition(of: headers, credentialHeaders: credentialHeaders)
        digest = Self.digest(partition, method, url)
    }

    /// The key of `request` in `partition`, whatever credentials it carries.
    init(_ request: URLRequest, partition: String) {
        method = (request.httpMethod ?? "GET").uppercased()
        url = request.url?.absoluteString ?? ""
        self.partition = partition
        digest = Self.digest(partition, method, url)
    }

    init(partition: String, method: String, url: String) {
        self.partition = partition
        self.method = method
        self.url = url
        digest = Self.digest(partition, method, url)
    }

    private static func digest(_ partition: String, _ method: String, _ url: String) -> Int {
        var hasher = Hasher()
        hasher.combine(partition)
        hasher.combine(method)
        hasher.combine(url)
        return hasher.finalize()
    }

    static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.digest == rhs.digest && lhs.url == rhs.url && lhs.method == rhs.method && lhs.partition == rhs.partition
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// Fields that always carry credentials.
    static let commonCredentialFields: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The partition of requests carrying `headers`: ``anonymous`` without credentials.
    static func partition(of headers: [String: String], credentialHeaders: Set<String>) -> String {
        var credentials: [(String, String)] = []
        // Compared without lowercasing every name: each request of a cached call is keyed.
        for (name, value) in headers where isCredential(name, credentialHeaders) {
            credentials.append((name.lowercased(), value))
        }
        guard !credentials.isEmpty else { return anonymous }
        let text = credentials.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)\n" }.joined()
        return String(SHA256.hex(text).prefix(32))
    }

    /// The partition of the app's partition key `key`: `k` and the first 32 hex digits of a
    /// SHA-256 of it, so it never reads as a credential digest and the key is not kept in plain text.
    static func partition(forKey key: String) -> String {
        "k" + SHA256.hex("salvo partition key\n" + key).prefix(32)
    }

    /// Whether `partition` is a credential digest (32 hex digits): what requests with credentials
    /// are filed under while no partition key is set.
    static func isCredentialDigest(_ partition: some StringProtocol) -> Bool {
        partition.utf8.count == 32 && partition.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether the field `name` carries a credential: a common credential field, or one of `credentialHeaders`.
    static func isCredential(_ name: String, _ credentialHeaders: Set<String>) -> Bool {
        commonCredentialFields.contains { HTTPHeaders.namesMatch($0, name) }
            || credentialHeaders.contains { HTTPHeaders.namesMatch($0, name) }
    }

    /// `GET https://example.com/a [user 1a2b3c4d]`: for logs; the partition shortened, never a credential.
    var logDescription: String {
        partition == Self.anonymous ? "\(method) \(url)" : "\(method) \(url) [user \(partition.prefix(8))]"
    }
}
