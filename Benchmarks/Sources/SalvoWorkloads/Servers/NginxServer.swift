import Foundation

/// nginx on 127.0.0.1, serving files from a temporary folder: the server of the server-side
/// benchmarks (11, 12), fast enough that the client's cost shows (the Python loopback server
/// takes longer per request than any client). Debian: `apt-get install nginx-light`.
public final class NginxServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The folder the server serves; files put in it are served at their names.
    public let root: URL
    private let process: Process

    /// The nginx executable: `$SALVO_NGINX`, else the first of the usual places that exists.
    public static var executable: String? {
        if let path = ProcessInfo.processInfo.environment["SALVO_NGINX"], !path.isEmpty { return path }
        return ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts nginx (one worker, no access log, keep-alive) on a free port and waits until it answers.
    public init() throws {
        guard let executable = Self.executable else {
            throw WorkloadError("nginx not found: install it (apt-get install nginx-light) or set SALVO_NGINX")
        }
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("salvo-nginx-\(UUID().uuidString)")
        root = prefix.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let port = try Self.freePort()
        let configuration = """
            daemon off; master_process off; worker_processes 1;
            error_log \(prefix.path)/error.log warn; pid \(prefix.path)/nginx.pid;
            events { worker_connections 1024; }
            http {
                access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000; keepalive_timeout 120s;
                client_body_temp_path \(prefix.path)/body; proxy_temp_path \(prefix.path)/proxy;
                fastcgi_temp_path \(prefix.path)/fastcgi; uwsgi_temp_path \(prefix.path)/uwsgi; scgi_temp_path \(prefix.path)/scgi;
                types { application/json json; application/octet-stream bin; }
                server { listen 127.0.0.1:\(port); root \(root.path); }
            }
            """
        try configuration.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-e", prefix.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw WorkloadError("no URL for port \(port)") }
        baseURL = url
        try waitUntilListening(port: port)
    }

    /// Writes `data` to the served folder as `name`.
    public func serve(_ data: Data, as name: String) throws {
        try data.write(to: root.appendingPathComponent(name))
    }

    /// Writes `byteCount` bytes of the loopback server's pattern (byte i is i % 251) as `name`, a MiB at a time.
    public func servePattern(byteCount: Int, as name: String) throws {
        let url = root.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw WorkloadError("cannot create \(url.path)") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let block = 1 << 20
        let pattern = Data((0..<(block + 251)).map { UInt8($0 % 251) })
        var offset = 0
        while offset < byteCount {
            let size = min(block, byteCount - offset)
            let start = offset % 251
            try handle.write(contentsOf: pattern[start..<(start + size)])
            offset += size
        }
    }

    /// Stops nginx and removes its folder.
    ///
    /// It waits for the exit by polling, 5 s at most, then sends SIGKILL: once nginx ignored
    /// SIGTERM (from `terminate()` and from `kill` by hand alike; likely a signal mask it inherited
    /// from the spawning thread), `Process.waitUntilExit()` spun at 100% CPU for 20 minutes and the
    /// tool never printed the rows it had measured.
    public func stop() {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    /// A port nobody listens on now: the kernel's pick for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw WorkloadError("socket() failed") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0 }
        }
        guard bound else { throw WorkloadError("could not bind a socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits (at most 10 s) until a connection to `port` succeeds.
    private func waitUntilListening(port: Int) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else { throw WorkloadError("nginx exited with \(process.terminationStatus); see its error.log") }
            let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            close(socketDescriptor)
            if connected { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw WorkloadError("nginx did not listen on port \(port) within 10 s")
    }
}
