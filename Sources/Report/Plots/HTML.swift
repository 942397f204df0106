/// HTML and SVG text helpers.
enum HTML {
    /// Escapes text for element content and attribute values: `&`, `<`, `>`, `"` and `'` by
    /// their UTF-8 bytes (a quote followed by a combining mark is escaped too, as an HTML parser
    /// sees it); text without them is returned as it is.
    /// - Complexity: O(UTF-8 length), one pass when nothing needs escaping.
    static func escape(_ s: String) -> String {
        let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }
        guard s.utf8.contains(where: special) else { return s }
        var out = [UInt8]()
        out.reserveCapacity(s.utf8.count + 32)
        for b in s.utf8 {
            switch b {
            case 0x26: out += "&amp;".utf8
            case 0x3C: out += "&lt;".utf8
            case 0x3E: out += "&gt;".utf8
            case 0x22: out += "&quot;".utf8
            case 0x27: out += "&#39;".utf8
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A coordinate with one decimal (0.1 px), without a trailing `.0`.
    static func n(_ x: Double) -> String {
        let r = (x * 10).rounded() / 10
        if r == r.rounded() { return String(Int(r)) }
        return String(r)
    }

    /// A number for people: `digits` decimals, or an en dash when missing.
    static func number(_ x: Double?, _ digits: Int = 1) -> String {
        guard let x, x.isFinite else { return "–" }
        return String(format: "%.\(digits)f", x)
    }

    /// A share as a percentage, or an en dash when missing.
    static func percent(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "–" }
        return String(format: "%.1f %%", x * 100)
    }

    /// The style sheet every report page carries inline (no external resources). Readable in
    /// grey-scale print: series differ by dash pattern and marker, not only by colour.
    static let style = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;max-width:1040px;color:#111;background:#fff;line-height:1.4;padding:0 12px}
        h1{font-size:1.45em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #999}h3{font-size:1.02em;margin-bottom:.3em}
        table{border-collapse:collapse;font-size:.86em;margin:.4em 0 1em}th,td{border:1px solid #bbb;padding:2px 6px;text-align:right;vertical-align:top}
        th{background:#eee}td.l,th.l{text-align:left}table.qc{font-size:.78em}table.qc td.l{max-width:240px;overflow-wrap:anywhere}
        .note{background:#f4f4f4;border-left:4px solid #555;padding:.4em .8em;margin:.6em 0}
        .warn{background:#fff3e0;border-left:4px solid #b45309;padding:.4em .8em;margin:.6em 0}
        .placeholder{color:#444;font-style:italic;border:1px dashed #888;padding:.5em .8em}
        figure{margin:.6em 0 1.2em}figcaption{font-size:.82em;color:#333;margin-top:.2em}
        svg.plot{display:block;width:100%;height:auto;background:#fff}
        svg.plot text{font-size:11px;fill:#111}svg.plot .axis{stroke:#111;stroke-width:1;fill:none}
        svg.plot .grid{stroke:#ddd;stroke-width:1}svg.plot .ptitle{font-size:13px;font-weight:600}
        .s0{stroke:#1f4e99;fill:none;stroke-width:1.6}.s1{stroke:#b3261e;fill:none;stroke-width:1.6;stroke-dasharray:6 3}
        .s2{stroke:#2d6a2d;fill:none;stroke-width:1.3;stroke-dasharray:2 2}.s3{stroke:#6b3fa0;fill:none;stroke-width:1.3;stroke-dasharray:8 2 2 2}
        .ecg{stroke:#111;fill:none;stroke-width:.9}
        .q-0{fill:#ffffff}.q-1{fill:#d4d4d4}.q-2{fill:url(#hatch)}
        .ov{stroke:#111;fill:none;stroke-width:2.4}
        .b0{fill:#d9d9d9;stroke:#555;stroke-width:.5}.b1{fill:#9a9a9a;stroke:#333;stroke-width:.5}.b2{fill:#555;stroke:#111;stroke-width:.5}.b3{fill:url(#hatchdark);stroke:#111;stroke-width:.5}
        .act{fill:#1f4e99}.nw{fill:url(#hatch)}.spt{fill:#9fb6db;stroke:#1f4e99;stroke-width:1}.bout{fill:#1f4e99}.band0{fill:#2e8b57;fill-opacity:.22}.band1{fill:#d9822b;fill-opacity:.22}
        details.methods{font-size:.86em;margin:.6em 0 1em}details.methods ol{margin:.3em 0;padding-left:1.6em}
        table.heat td{min-width:2.2em;text-align:center}table.heat td.l{text-align:left}.heat0{background:#fff}.heat1{background:#e3e3e3}.heat2{background:#bdbdbd}.heat3{background:#8a8a8a;color:#fff}.heat4{background:#444;color:#fff}
        tr.failed td{background:#fff3e0}.scroll{overflow-x:auto}
        .lane-data{fill:#4a4a4a}.lane-masked{fill:url(#dots)}.lane-deleted{fill:url(#hatch)}
        .beat{fill:none;stroke:#1f4e99;stroke-width:1.4}.corr{fill:#b3261e;stroke:#b3261e}.removed{stroke:#b3261e;stroke-width:1.6}
        svg.plot .mark-label{font-size:9px;fill:#1f4e99}
        a{color:#1f4e99}
        @media print{body{max-width:none}}
        """

    /// Pattern definitions (hatching, dots) used by the fills above; each SVG carries its own.
    static let patterns = """
        <defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
        <rect width="6" height="6" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#8a8a8a" stroke-width="1.5"/></pattern>\
        <pattern id="dots" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#bbb"/>\
        <circle cx="2" cy="2" r="1" fill="#111"/></pattern>\
        <pattern id="hatchdark" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">\
        <rect width="5" height="5" fill="#222"/><line x1="0" y1="0" x2="0" y2="5" stroke="#ddd" stroke-width="1.2"/></pattern></defs>
        """
}
