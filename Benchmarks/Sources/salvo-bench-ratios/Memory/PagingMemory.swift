import SalvoWorkloads

/// What a walk keeps alive: heap bytes in use after it, minus before, while its result is held.
enum PagingMemory {
    static func report(pageCounts: [Int]) async throws -> String {
        var lines = [
            "| pages walked | items kept | by hand: heap kept | Pager: heap kept | Pager / by hand | Pager bytes per item |",
            "|---|---|---|---|---|---|",
        ]
        for pages in pageCounts {
            let walk = PagerWalk(pageCount: pages)
            let items = pages * PagerWalk.pageSize
            guard let byHand = try await kept({ try await walk.byHand() }),
                  let pager = try await kept({ try await walk.pager() }) else {
                return "heap usage is not available on this platform (glibc mallinfo2), memory not checked"
            }
            lines.append("| \(pages) | \(items) | \(kilobytes(byHand)) | \(kilobytes(pager)) | "
                + "\(String(format: "%.2f", Double(pager) / Double(byHand)))× | \(pager / items) B |")
        }
        return lines.joined(separator: "\n")
    }

    /// Heap growth across `work` while its result is still referenced; the median of 3 tries.
    private static func kept<T>(_ work: () async throws -> T) async throws -> Int? {
        var growths: [Int] = []
        for _ in 0..<3 {
            guard let before = heapBytesInUse() else { return nil }
            let result = try await work()
            guard let after = heapBytesInUse() else { return nil }
            withExtendedLifetime(result) { growths.append(after - before) }
        }
        return growths.sorted()[1]
    }

    private static func kilobytes(_ bytes: Int) -> String {
        "\(bytes / 1_024) KB"
    }
}
