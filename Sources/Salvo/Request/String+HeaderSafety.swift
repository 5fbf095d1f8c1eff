extension String {
    /// Whether the text holds a CR, an LF or a NUL: in a header value it would end the line and
    /// let whatever follows pass as another header (header injection).
    var breaksHeaderLine: Bool {
        utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
