#!/usr/bin/env python3
"""Writes the malformed-input reproducers of issue 15 (hardening) into
Tests/RecordingsTests/Fixtures/bad/<format>/. Each file has one defect; the expected messages
in each folder's expected.json were written by hand from these files' bytes.

Run from the repository root: python3 scripts/make-hardening-fixtures.py
"""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(__file__), "..", "Tests", "RecordingsTests", "Fixtures", "bad")


def write(folder, name, data):
    path = os.path.join(ROOT, folder, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    print(path, len(data))


# ---- WFDB: every header uses bad-checksum.dat (100 samples 0..99 in format 16, checksum 4950).
SIG = "bad-checksum.dat 16 200 16 0 0 4950 0 II\n"
write("wfdb", "offset-huge.hea", "oh 1 360 100\nbad-checksum.dat 16+1000000000000000 200 16 0 0 4950 0 II\n")
write("wfdb", "offset-beyond-2p53.hea", "o5 1 360 100\nbad-checksum.dat 16+9007199254740993 200 16 0 0 4950 0 II\n")
write("wfdb", "tiny-rate.hea", "tr 1 1e-300 100\n" + SIG)
write("wfdb", "rate-1e-10.hea", "rt 1 1e-10 100\n" + SIG)
write("wfdb", "spf-rate.hea", "sr 1 1000 100\nbad-checksum.dat 16x1000 200 16 0 0 4950 0 II\n")
write("wfdb", "huge-spf.hea", "hs 1 360 100\nbad-checksum.dat 16x1000000000 200 16 0 0 4950 0 II\n")
write("wfdb", "extra-signal-lines.hea",
      "ex 1 360 100\n" + SIG + "bad-checksum.dat 16 200 16 0 0 0 0 V1\nbad-checksum.dat 16 200 16 0 0 0 0 V2\n")
write("wfdb", "bom.hea", b"\xef\xbb\xbfbm 1 360 100\r\n" + SIG.replace("\n", "\r\n").encode())

# ---- MATLAB: a 128-byte Level 5 header, then one miCOMPRESSED element whose miMATRIX declares
# 0xFFFFFFF0 bytes for its dimensions (resp. its name): the claim is larger than any dimension
# list (or name), whatever the file's size.
def mat_header():
    text = b"MATLAB 5.0 MAT-file, written by make-hardening-fixtures.py".ljust(116, b" ")
    return text + b"\0" * 8 + struct.pack("<H", 0x0100) + b"IM"


def compressed(inner):
    z = zlib.compress(inner)
    return struct.pack("<II", 15, len(z)) + z


flags = struct.pack("<II", 6, 8) + struct.pack("<II", 6, 0)          # miUINT32, class double
huge_dims = struct.pack("<II", 14, 0xFFFFFFF0) + flags + struct.pack("<II", 5, 0xFFFFFFF0) + b"\0" * 16
write("matlab", "huge-dimensions.mat", mat_header() + compressed(huge_dims))
dims = struct.pack("<II", 5, 8) + struct.pack("<ii", 2, 10)
huge_name = struct.pack("<II", 14, 0xFFFFFFF0) + flags + dims + struct.pack("<II", 1, 0xFFFFFFF0) + b"sig\0" * 4
write("matlab", "huge-name.mat", mat_header() + compressed(huge_name))

# ---- SensorKit NDJSON.
HEADER_ECG = ('{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":"electrocardiogram",'
              '"deviceId":"watch-1","from":738000040.0,"to":738086500.0,"exporter":"make-hardening-fixtures"}\n')


def ecg_line(identifier, values):
    data = ",".join('{"value":%s,"flags":0}' % v for v in values)
    return ('{"type":"electrocardiogram","deviceId":"watch-1","timestamp":738000111.0,"timestampUnix":1716307311.0,'
            '"sample":[{"date":1716307310.0,"frequency":512.0,"lead":"rightArmMinusLeftArm",'
            '"session":{"identifier":"' + identifier + '","state":"active","sessionGuidance":"guided"},'
            '"data":[' + data + ']}]}\n').encode()


write("sensorkit", "ecg-session-invalid-utf8.ndjson",
      HEADER_ECG.encode() + ecg_line("S1", ["1.5", "2.5"])
      + ecg_line("S2", ["1.0", "2.0", "3.0", "4.0"]).replace(b'"S2"', b'"S\xff2"'))
write("sensorkit", "ecg-beyond-float.ndjson",
      HEADER_ECG.encode() + ecg_line("S1", ["1.5", "1e39", "-3.5e38", "2.5"]))
HEADER_ACC = ('{"type":"header","schema":"sensorkit-ndjson","version":1,"sensor":"accelerometer",'
              '"deviceId":"iphone-1","from":738000040.0,"to":738086500.0,"exporter":"make-hardening-fixtures"}\n')


def acc_sample(t, extra=""):
    return ('{"startDate":%s,"identifier":7,"acceleration":{"x":0.01,"y":-0.98,"z":0.05}%s}' % (t, extra))


deep = '"extra":' + "[" * 300 + "]" * 300
write("sensorkit", "deep-nesting.ndjson",
      HEADER_ACC + '{"type":"accelerometer","deviceId":"iphone-1","timestamp":738000101.0,"timestampUnix":1716307301.0,'
      '"sample":[' + ",".join([acc_sample("1716307300.02"), acc_sample("1716307300.04", "," + deep),
                               acc_sample("1716307300.06")]) + ']}\n')

# Found by fuzzing (FuzzSensorKit): a data line with a broken escape in a key is rejected, and its
# samples are then counted leniently; decoding that key read past it (and trapped on a non-hex
# byte). One file with "\\u" cut short, one with an unpaired high surrogate.
def acc_line(extra_key):
    return ('{"type":"accelerometer","deviceId":"iphone-1","timestamp":738000102.0,"timestampUnix":1716307302.0,'
            + extra_key + ':1,"sample":[' + ",".join([acc_sample("1716307301.02"), acc_sample("1716307301.04")]) + ']}\n')


good = ('{"type":"accelerometer","deviceId":"iphone-1","timestamp":738000101.0,"timestampUnix":1716307301.0,'
        '"sample":[' + acc_sample("1716307300.02") + ']}\n')
write("sensorkit", "key-broken-escape.ndjson", HEADER_ACC + good + acc_line('"k\\u"'))
write("sensorkit", "key-unpaired-surrogate.ndjson", HEADER_ACC + good + acc_line('"k\\uD800x"'))

# ---- BUT PPG: a byte-order mark and CRLF line ends (accepted).
write("butppg", "bom-crlf.csv",
      b"\xef\xbb\xbfID RefHR Location Motion Quality Signal Time\r\n"
      b'200001 80 1 0 1 "1.5 1.25 1 0.75 0.5" "0 0.0333 0.0667 0.1 0.1333"\r\n')

# ---- GT3X: info.txt's CRC-32 in the ZIP central directory off by one (the bytes are intact).
base = open(os.path.join(ROOT, "..", "gt3x", "synthetic-activity.gt3x"), "rb").read()
data = bytearray(base)
p = data.find(b"PK\x01\x02")
while p >= 0:
    name_length = struct.unpack_from("<H", data, p + 28)[0]
    if data[p + 46:p + 46 + name_length] == b"info.txt":
        crc = struct.unpack_from("<I", data, p + 16)[0]
        struct.pack_into("<I", data, p + 16, crc ^ 1)
        break
    p = data.find(b"PK\x01\x02", p + 4)
assert p >= 0
write("gt3x", "info-crc-mismatch.gt3x", bytes(data))

# ---- CSV (time,x,y,z in g): a value beyond the Float range is masked, not ±inf.
write("csv", "beyond-float.csv", "time,x,y,z\n1700000000.00,0.1,0.2,0.3\n1700000000.02,1e39,0.2,0.3\n"
      "1700000000.04,0.1,0.2,0.3\n")
