import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// A `curl` command that sends this request, secrets redacted by default.
    ///
    /// Every argument is single-quoted for POSIX shells, so bodies and headers with quotes, `$` or
    /// backticks paste safely; a binary body is piped in through `base64 --decode`. A body
    /// streamed from files is sent by path (`-F 'photo=@"/path/photo.jpg"'`, `--data-binary @/path`),
    /// never read.
    ///
    /// ```swift
    /// logger.debug("\(request.curlCommand())")                 // Authorization: <redacted>
    /// let replayable = request.curlCommand(redaction: .none)   // only for your own terminal
    /// ```
    ///
    /// - Parameter redaction: what to hide: ``Redaction/default`` (the default) hides credential
    ///   headers, secret query items and body fields (form or JSON fields named like its query
    ///   keys), and a text body also loses any value the request sends in a hidden header or query
    ///   item; ``Redaction/none`` prints every secret as it is.
    public func curlCommand(redaction: Redaction = .default) -> String {
        var arguments = ["curl"]
        let method = httpMethod ?? "GET"
        let body = httpBody ?? Data()
        let streamed = StreamedBodyDescription(of: self, redaction: redaction)
        if method == "HEAD" {
            arguments.append("--head")
        } else if method != "GET" || !body.isEmpty || streamed != nil {
            arguments += ["-X", Shell.quoteUnlessWord(method)]
        }
        arguments.append(Shell.quote(url.map { redaction.redact($0).absoluteString } ?? ""))
        // curl -F writes its own multipart Content-Type (with its own boundary) and length.
        let isCurlForm = streamed.map { !$0.partLines.isEmpty } ?? false
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            if isCurlForm, ["content-type", "content-length"].contains(name.lowercased()) { continue }
            let shown = redaction.hidesHeader(name) ? Redaction.placeholder : value
            arguments += ["-H", Shell.quote("\(name): \(shown)")]
        }
        if let streamed {
            arguments += streamed.curlArguments
        }
        var pipe = ""
        if !body.isEmpty {
            let contentType = value(forHTTPHeaderField: "Content-Type")
            let sent = redaction.redact(body, contentType: contentType)
            if let text = String(data: sent, encoding: .utf8) {
                arguments += ["--data-raw", Shell.quote(SecretValues(of: self, hiddenBy: redaction, includingBody: true).scrub(text))]
            } else {
                pipe = "printf '%s' \(Shell.quote(sent.base64EncodedString())) | base64 --decode | "
                arguments += ["--data-binary", "@-"]
            }
        }
        return pipe + arguments.joined(separator: " ")
    }
}

/// POSIX shell quoting.
enum Shell {
    /// `text` in single quotes; each `'` inside becomes `'\''` (close, escaped quote, reopen).
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` as it is when it is only ASCII letters (a method such as `POST`), else quoted.
    static func quoteUnlessWord(_ text: String) -> String {
        !text.isEmpty && text.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) ? text : quote(text)
    }
}
