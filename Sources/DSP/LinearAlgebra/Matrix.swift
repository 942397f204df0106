/// A dense real matrix of `Double`, stored row-major (C order), for the LAPACK wrappers.
///
/// `elements[r * columns + c]` is the entry in row `r`, column `c`. This is NumPy's default
/// layout, so `np.save` arrays map onto it directly.
///
/// ```swift
/// let a = Matrix(rows: 2, columns: 3, elements: [1, 2, 3,
///                                                 4, 5, 6])
/// a[1, 2]   // 6
/// ```
public struct Matrix: Sendable, Hashable {
    /// Number of rows, ≥ 0.
    public let rows: Int
    /// Number of columns, ≥ 0.
    public let columns: Int
    /// The entries in row-major order; `rows · columns` values.
    public private(set) var elements: [Double]

    /// Creates a matrix from row-major entries.
    /// - Parameters:
    ///   - rows: number of rows, ≥ 0.
    ///   - columns: number of columns, ≥ 0.
    ///   - elements: `rows · columns` entries, row after row.
    /// - Complexity: O(1) (the array is not copied).
    public init(rows: Int, columns: Int, elements: [Double]) {
        precondition(rows >= 0 && columns >= 0, "Matrix: negative dimension")
        precondition(
            elements.count == rows * columns,
            "Matrix: \(elements.count) elements for a \(rows)×\(columns) matrix")
        self.rows = rows
        self.columns = columns
        self.elements = elements
    }

    /// Creates a matrix with every entry equal to `value`.
    /// - Parameters:
    ///   - rows: number of rows, ≥ 0.
    ///   - columns: number of columns, ≥ 0.
    ///   - value: the entry value; default 0.
    /// - Complexity: O(rows · columns).
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        self.init(
            rows: rows, columns: columns,
            elements: [Double](repeating: value, count: rows * columns))
    }

    /// Creates a column vector (`count × 1`).
    /// - Parameter column: the entries.
    /// - Complexity: O(1).
    public init(column: [Double]) {
        self.init(rows: column.count, columns: 1, elements: column)
    }

    /// The entry in row `row`, column `column`.
    /// - Parameters:
    ///   - row: row index, `0 ..< rows`.
    ///   - column: column index, `0 ..< columns`.
    /// - Complexity: O(1).
    public subscript(row: Int, column: Int) -> Double {
        get {
            precondition(row >= 0 && row < rows && column >= 0 && column < columns, "Matrix index out of range")
            return elements[row * columns + column]
        }
        set {
            precondition(row >= 0 && row < rows && column >= 0 && column < columns, "Matrix index out of range")
            elements[row * columns + column] = newValue
        }
    }

    /// The transpose (`columns × rows`).
    /// - Complexity: O(rows · columns).
    public var transposed: Matrix {
        var t = [Double](repeating: 0, count: elements.count)
        for r in 0..<rows {
            for c in 0..<columns { t[c * rows + r] = elements[r * columns + c] }
        }
        return Matrix(rows: columns, columns: rows, elements: t)
    }

    /// Column `column` as an array.
    /// - Parameter column: column index.
    /// - Returns: `rows` values.
    /// - Complexity: O(rows).
    public func column(_ column: Int) -> [Double] {
        precondition(column >= 0 && column < columns, "Matrix column out of range")
        return (0..<rows).map { elements[$0 * columns + column] }
    }

    /// Row `row` as an array.
    /// - Parameter row: row index.
    /// - Returns: `columns` values.
    /// - Complexity: O(columns).
    public func row(_ row: Int) -> [Double] {
        precondition(row >= 0 && row < rows, "Matrix row out of range")
        return Array(elements[row * columns..<(row + 1) * columns])
    }
}
