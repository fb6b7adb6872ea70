/// Apple's binary property list, `bplist00`, read from bytes with every offset, count and
/// reference checked before it is followed, so a truncated file, an offset out of range or an
/// object that contains itself is an error naming the object and byte, never a crash or a loop.
///
/// The layout (CoreFoundation's `CFBinaryPList.c`): the 8-byte magic, the objects, an offset
/// table (one offset per object, each `offsetSize` bytes, big-endian), and a 32-byte trailer:
/// 6 unused bytes, `offsetSize`, `referenceSize`, then three big-endian 64-bit numbers: the
/// object count, the top object's number and the offset table's place. An object starts with a
/// marker byte: its type in the high four bits, a size or length in the low four (15: the length
/// follows as an integer object).
public struct BinaryPropertyList {
    static let magic: [UInt8] = Array("bplist00".utf8)
    /// Deeper nesting than any Info.plist has; it bounds the reader's recursion.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let tableOffset: Int
    /// Objects already read: a shared object is read once (a file of shared references cannot
    /// grow into a tree of billions), and a copy shares its storage.
    private var read: [Int: PropertyListValue] = [:]
    /// Objects being read, from the top object down: meeting one again is a cycle.
    private var open: Set<Int> = []

    /// The top object of the binary property list in `bytes`.
    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var reader = try BinaryPropertyList(bytes)
        return try reader.object(reader.top, depth: 0)
    }

    /// The top object's number.
    private let top: Int

    private init(_ bytes: [UInt8]) throws(PropertyListError) {
        guard bytes.starts(with: Self.magic) else { throw Self.error("it does not start with bplist00") }
        guard bytes.count >= Self.magic.count + 1 + 32 else {
            throw Self.error("\(bytes.count) bytes, shorter than the magic and 32-byte trailer: the file is cut short")
        }
        self.bytes = bytes
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let count = Self.bigEndian(bytes[(trailer + 8)..<(trailer + 16)])
        let topValue = Self.bigEndian(bytes[(trailer + 16)..<(trailer + 24)])
        let table = Self.bigEndian(bytes[(trailer + 24)..<(trailer + 32)])
        guard (1...8).contains(offsetSize) else {
            throw Self.error(
                "the trailer's offset size is \(offsetSize) bytes, where 1 to 8 is allowed: the file is damaged or cut short"
            )
        }
        guard (1...8).contains(referenceSize) else {
            throw Self.error(
                "the trailer's object reference size is \(referenceSize) bytes, where 1 to 8 is allowed: the file is damaged or cut short"
            )
        }
        guard count >= 1, count <= UInt64(trailer) else {
            throw Self.error(
                "the trailer counts \(count) objects, where a file of \(bytes.count) bytes holds 1 to \(trailer)")
        }
        objectCount = Int(count)
        guard table >= UInt64(Self.magic.count), table <= UInt64(trailer),
            UInt64(trailer) - table >= count * UInt64(offsetSize)
        else {
            throw Self.error(
                "the offset table (at byte \(table), \(count) offsets of \(offsetSize) bytes) does not lie between the objects and the trailer: the file is damaged or cut short"
            )
        }
        tableOffset = Int(table)
        guard topValue < count else {
            throw Self.error("the top object is number \(topValue), past the \(count) objects the file has")
        }
        top = Int(topValue)
    }

    private static func error(_ reason: String) -> PropertyListError {
        PropertyListError("binary property list: \(reason)")
    }

    private static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
        slice.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Where object `number` starts, from the offset table.
    private func offset(of number: Int) throws(PropertyListError) -> Int {
        let at = tableOffset + number * offsetSize
        let value = Self.bigEndian(bytes[at..<(at + offsetSize)])
        guard value >= UInt64(Self.magic.count), value < UInt64(tableOffset) else {
            throw Self.error(
                "object \(number)'s offset is \(value), outside the objects (bytes 8 to \(tableOffset - 1))")
        }
        return Int(value)
    }

    private mutating func object(_ number: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        if let done = read[number] { return done }
        guard !open.contains(number) else {
            throw Self.error("object \(number) contains itself (a cycle of references); a property list is a tree")
        }
        guard depth < Self.maxDepth else {
            throw Self.error("objects nested deeper than \(Self.maxDepth) levels")
        }
        open.insert(number)
        defer { open.remove(number) }
        let start = try offset(of: number)
        let value = try decode(number, at: start, depth: depth)
        read[number] = value
        return value
    }

    /// `count` bytes from `at`, inside the objects, or an error naming the object.
    private func span(_ number: Int, _ at: Int, _ count: Int, _ what: String) throws(PropertyListError) -> ArraySlice<
        UInt8
    > {
        guard count >= 0, at <= tableOffset, count <= tableOffset - at else {
            throw Self.error(
                "object \(number): its \(what) (\(count) bytes from byte \(at)) runs past the objects' end at byte \(tableOffset)"
            )
        }
        return bytes[at..<(at + count)]
    }

    private mutating func decode(_ number: Int, at start: Int, depth: Int) throws(PropertyListError)
        -> PropertyListValue
    {
        let marker = bytes[start]
        let high = marker >> 4
        let low = Int(marker & 0x0F)
        let place = "object \(number) at byte \(start)"
        switch high {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default:
                throw Self.error(
                    "\(place): marker 0x\(String(marker, radix: 16)) (null or fill), which no property list value is")
            }
        case 0x1:
            guard low <= 4 else {
                throw Self.error("\(place): an integer of 2^\(low) bytes, where 1 to 16 are allowed")
            }
            let raw = try span(number, start + 1, 1 << low, "integer")
            // 1, 2 and 4 bytes are unsigned, 8 signed; 16 bytes hold an unsigned 64-bit value in the low half.
            let value = Self.bigEndian(raw.suffix(8))
            if low == 4, raw.prefix(8).contains(where: { $0 != 0 }) {
                throw Self.error("\(place): a 128-bit integer beyond 64 bits")
            }
            return .integer(Int64(bitPattern: value))
        case 0x2:
            switch low {
            case 2:
                return .real(Double(Float(bitPattern: UInt32(Self.bigEndian(try span(number, start + 1, 4, "real"))))))
            case 3: return .real(Double(bitPattern: Self.bigEndian(try span(number, start + 1, 8, "real"))))
            default: throw Self.error("\(place): a real of 2^\(low) bytes, where 4 or 8 are allowed")
            }
        case 0x3:
            guard marker == 0x33 else {
                throw Self.error("\(place): a date marker 0x\(String(marker, radix: 16)), where 0x33 is the only one")
            }
            return .date(Double(bitPattern: Self.bigEndian(try span(number, start + 1, 8, "date"))))
        case 0x4:
            let (length, body) = try self.length(number, start, low)
            return .data(Array(try span(number, body, length, "data")))
        case 0x5:
            let (length, body) = try self.length(number, start, low)
            let raw = try span(number, body, length, "ASCII string")
            guard raw.allSatisfy({ $0 < 0x80 }) else {
                throw Self.error("\(place): an ASCII string with a byte above 0x7F")
            }
            return .string(String(decoding: raw, as: UTF8.self))
        case 0x6:
            let (length, body) = try self.length(number, start, low)
            guard length <= Int.max / 2 else { throw Self.error("\(place): a string too long for the file") }
            let raw = try span(number, body, length * 2, "UTF-16 string")
            var units: [UInt16] = []
            units.reserveCapacity(length)
            var i = raw.startIndex
            while i < raw.endIndex {
                units.append(UInt16(raw[i]) << 8 | UInt16(raw[i + 1]))
                i += 2
            }
            // String(validating:) needs macOS 15; the package's floor is macOS 14.
            var decoder = UTF16()
            var iterator = units.makeIterator()
            var text = ""
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                case .emptyInput: break decoding
                case .error: throw Self.error("\(place): a UTF-16 string with an unpaired surrogate")
                }
            }
            return .string(text)
        case 0x8:
            throw Self.error("\(place): a UID, which only NSKeyedArchiver archives hold, not an Info.plist")
        case 0xA, 0xC, 0xD:
            let (count, body) = try self.length(number, start, low)
            // A dictionary has its keys' references, then its values'.
            let references = high == 0xD ? count * 2 : count
            guard references <= tableOffset / referenceSize else {
                throw Self.error("\(place): \(count) members, more than the file could hold")
            }
            let raw = try span(number, body, references * referenceSize, "object references")
            var children: [Int] = []
            children.reserveCapacity(references)
            var i = raw.startIndex
            while i < raw.endIndex {
                let child = Self.bigEndian(raw[i..<(i + referenceSize)])
                guard child < UInt64(objectCount) else {
                    throw Self.error("\(place) refers to object \(child), past the \(objectCount) objects the file has")
                }
                children.append(Int(child))
                i += referenceSize
            }
            if high != 0xD {
                var values: [PropertyListValue] = []
                values.reserveCapacity(count)
                for child in children { values.append(try object(child, depth: depth + 1)) }
                return .array(values)
            }
            var entries: [PropertyListEntry] = []
            entries.reserveCapacity(count)
            for k in 0..<count {
                guard case .string(let key) = try object(children[k], depth: depth + 1) else {
                    throw Self.error("\(place): a dictionary key (object \(children[k])) that is not a string")
                }
                entries.append(PropertyListEntry(key, try object(children[count + k], depth: depth + 1)))
            }
            return .dictionary(entries)
        default:
            throw Self.error("\(place): unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    /// A length in the marker's low four bits, or (15) in the integer object after it; and where
    /// the contents start.
    private func length(_ number: Int, _ start: Int, _ low: Int) throws(PropertyListError) -> (Int, Int) {
        guard low == 0x0F else { return (low, start + 1) }
        let head = try span(number, start + 1, 1, "length")
        let size = head.first! >> 4 == 0x1 ? Int(head.first! & 0x0F) : -1
        guard (0...3).contains(size) else {
            throw Self.error("object \(number) at byte \(start): its length is not an integer of 1 to 8 bytes")
        }
        let raw = try span(number, start + 2, 1 << size, "length")
        let value = Self.bigEndian(raw)
        guard value <= UInt64(tableOffset) else {
            throw Self.error("object \(number) at byte \(start): a length of \(value), longer than the file")
        }
        return (Int(value), start + 2 + (1 << size))
    }
}
