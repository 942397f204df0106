extension ResultValue: Encodable {
    /// Writes a string, an integer, a number or `null`, as a table holds it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .text(let s): try c.encode(s)
        case .integer(let i): try c.encode(i)
        case .real(let x): try c.encode(x)
        case .null: try c.encodeNil()
        }
    }
}

/// Rows of a declared table as `Encodable` values: an array of objects keyed by column name,
/// holding exactly the values the table's columns hold (``TableSchema/encodable(_:)``).
public struct EncodableRows<Row: Sendable>: Encodable, Sendable {
    /// The table's declaration.
    public let schema: TableSchema<Row>
    /// The rows, in order.
    public let rows: [Row]

    /// Writes one object per row, with every declared column (`null` where the table has none).
    /// - Complexity: O(rows × columns).
    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for row in rows {
            var object = list.nestedContainer(keyedBy: ColumnKey.self)
            for column in schema.columns {
                try object.encode(column.value(row), forKey: ColumnKey(stringValue: column.description.name))
            }
        }
    }

    private struct ColumnKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension TableSchema {
    /// Typed rows (`results[MotionFamily.self].epochs`) as `Encodable` JSON objects keyed by this
    /// table's column names: `try JSONEncoder().encode(MotionTables.epochs.encodable(rows))`.
    /// - Parameter rows: rows of this table.
    /// - Complexity: O(1); encoding is O(rows × columns).
    public func encodable(_ rows: [Row]) -> EncodableRows<Row> { EncodableRows(schema: self, rows: rows) }
}
