// Compiled once the sensorpipe-bench target depends on Recordings (which brings CZlib along).
#if canImport(Recordings) && canImport(CZlib)
    import Foundation
    import Recordings

    /// Digital format-212 content of a two-signal record: `syntheticSignal` at 360 Hz scaled by the
    /// MIT-BIH gain (200 adu/mV), the second signal shifted, both clipped to 12 bits, packed 3 bytes
    /// per frame (signal(5)).
    func wfdb212Bytes(frames: Int) -> [UInt8] {
        let x = syntheticSignal(count: frames + 7, sampleRate: 360, seed: 3)
        var bytes = [UInt8](repeating: 0, count: 3 * frames)
        for i in 0..<frames {
            let a = max(-2047, min(2047, Int((x[i] * 200).rounded())))
            let b = max(-2047, min(2047, Int((x[i + 7] * 150).rounded()) + 17))
            bytes[3 * i] = UInt8(a & 0xff)
            bytes[3 * i + 1] = UInt8((a >> 8) & 0x0f) | UInt8(((b >> 8) & 0x0f) << 4)
            bytes[3 * i + 2] = UInt8(b & 0xff)
        }
        return bytes
    }

    /// WFDB format-212 decoding (2 signals × a day of 512-Hz-sized frames, 44,236,800 frames; 1/16 in
    /// quick mode), with `memcpy` of the same bytes as information:
    /// - `decode/wfdb-212/frame-decoder/…`: the unpack loop alone (`WFDBFrameDecoder`, in-memory
    ///   bytes → µV Float columns + flags + checksums, 16,380 frames per call into reused buffers),
    ///   against zlib's `crc32` of the same in-memory bytes (compute-bound, reads each byte once);
    /// - `decode/wfdb-212/record/…`: the whole `WFDBDecoder` on a `.hea` + `.dat` in the temporary
    ///   directory (page cache): file reads, decoding, checksums and `StreamAssembler` blocks, against
    ///   `read(2)` of the same `.dat` with `crc32` over each chunk (``fileCRC32ReferenceCase``).
    func wfdbBenchmarks(_ scale: BenchmarkScale) -> [BenchmarkCase] {
        let frames = scale.dayAt512Hz
        let byteCount = 3 * frames
        let size = "2x\(frames)"
        let reference = "ref/crc32/wfdb-212/\(byteCount)B"
        let fileReference = "ref/read+crc32/wfdb-212/\(byteCount)B"
        let info = ["memcpy/wfdb-212/\(byteCount)B"]
        let dat = SharedBenchmarkFile("bench.dat") { wfdb212Bytes(frames: frames) }
        var cases = [
            crc32ReferenceCase(name: reference, samples: 2 * frames, byteCount: byteCount) { wfdb212Bytes(frames: frames) },
            fileCRC32ReferenceCase(name: fileReference, samples: 2 * frames, file: dat, byteCount: byteCount),
            memcpyReferenceCase(bytes: byteCount, name: info[0]),
        ]
        cases.append(
            BenchmarkCase(
                name: "decode/wfdb-212/frame-decoder/\(size)", samples: 2 * frames, bytes: byteCount,
                reference: reference, info: info
            ) {
                let bytes = wfdb212Bytes(frames: frames)
                var spec = WFDBSignalSpec(fileName: "bench.dat", format: 212)
                spec.adcGain = 200
                spec.baseline = 0
                let chunk = 16_380
                let columns = (0..<2).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: chunk) }
                let flags = (0..<2).map { _ in UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunk) }
                return {
                    var decoder = WFDBFrameDecoder(signals: [spec, spec], outputScale: [1000, 1000], checksumFrames: frames)
                    bytes.withUnsafeBytes { raw in
                        var f = 0
                        while f < frames {
                            let n = min(chunk, frames - f)
                            decoder.decode(
                                UnsafeRawBufferPointer(rebasing: raw[(3 * f)...]), frames: n,
                                into: columns, flags: flags)
                            f += n
                        }
                    }
                    blackHole(decoder.checksums)
                    blackHole(columns)
                }
            })
        cases.append(
            BenchmarkCase(
                name: "decode/wfdb-212/record/\(size)", samples: 2 * frames, bytes: byteCount,
                reference: fileReference, info: info
            ) {
                let datPath = dat.path // written beside the header: bench.dat
                let header = "bench 2 360 \(frames)\nbench.dat 212 200 11 0\nbench.dat 212 200 11 0\n"
                let path = (datPath as NSString).deletingLastPathComponent + "/bench.hea"
                precondition(FileManager.default.createFile(atPath: path, contents: Data(header.utf8)))
                return {
                    guard let decoder = try? WFDBDecoder(path: path) else { fatalError("cannot open \(path)") }
                    var samples = 0
                    while let event = try? decoder.next() {
                        if case .block(let b) = event { samples += b.count }
                    }
                    precondition(samples == 2 * frames, "decoded \(samples) samples")
                    blackHole(decoder.signalStats)
                }
            })
        return cases
    }
#endif
