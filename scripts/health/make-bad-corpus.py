#!/usr/bin/env python3
"""Writes the malformed export.xml corpus Tests/RecordingsTests/Fixtures/bad/health-export/ and its
expected.json (the error each file must give, byte offsets found here with bytes.find, not by
SensorPipe). Also seeds FuzzHealthExport (scripts/fuzz-seeds.py reads the folder).

usage: scripts/health/make-bad-corpus.py
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "RecordingsTests", "Fixtures", "bad", "health-export")
os.makedirs(OUT, exist_ok=True)
HR = b'type="HKQuantityTypeIdentifierHeartRate" sourceName="w" unit="count/min"'
lol = b'<!DOCTYPE HealthData [<!ENTITY lol0 "lol">' + b"".join(
    b'<!ENTITY lol%d "' % n + (b"&lol%d;" % (n - 1)) * 10 + b'">' for n in range(1, 10)) + b"]>"
files = {
    "unterminated-tag.xml": (b'<HealthData><Record type="a"', lambda b: ("truncated", b.find(b"<Record"), "unterminated tag")),
    "unterminated-element.xml": (b'<HealthData><Record type="a">', lambda b: ("truncated", len(b), "the document ends inside an element (2 open)")),
    "billion-laughs.xml": (lol + b'<HealthData><Record ' + HR + b' sourceName2="&lol9;" value="1"/></HealthData>', None),
    "deep-nesting.xml": (b"<HealthData>" + b"<a>" * 100, lambda b: ("out-of-range", 12 + 63 * 3, "elements nested deeper than 64")),
    "wrong-end-tag.xml": (b'<HealthData><Record type="a"></Workout></HealthData>', lambda b: ("syntax", b.find(b"</Workout>"), "end tag </Workout> does not close the open element")),
    "not-an-export.xml": (b"<html></html>", lambda b: ("unknown-format", 0, "root element <html> is not <HealthData> (not an Apple Health export.xml)")),
    "unterminated-comment.xml": (b"<HealthData><!-- never closed", lambda b: ("truncated", 12, "unterminated comment")),
    "unterminated-dtd.xml": (b"<!DOCTYPE HealthData [ <!ELEMENT a (b)>", lambda b: ("truncated", 0, "unterminated document type declaration")),
    "bad-utf8.xml": (b'<HealthData><Record type="\xff\xfe"/></HealthData>', lambda b: ("invalid-utf8", b.find(b"\xff"), "attribute type is not valid UTF-8")),
    "unquoted-attribute.xml": (b"<HealthData><Record type=a/></HealthData>", lambda b: ("syntax", b.find(b"=a") + 1, "attribute value not quoted")),
    "empty.xml": (b"", lambda b: ("missing-field", 0, "no <HealthData> element")),
}
# The billion-laughs entity is read in the sourceName attribute, which the decoder reads.
files["billion-laughs.xml"] = (
    lol + b'<HealthData><Record type="HKQuantityTypeIdentifierHeartRate" sourceName="&lol9;" unit="count/min" value="1"/></HealthData>',
    lambda b: ("syntax", b.find(b"&lol9;"),
               "reference to entity '&lol9;' (only the five predefined entities are read; DTD entities are never expanded)"))
expected = {"_about": "export.xml inputs with one defect each (synthetic; scripts/health/make-bad-corpus.py). {file} is the path given to the decoder."}
for name, (data, err) in files.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    code, offset, msg = err(data)
    expected[name] = {"error": "{file}: byte %d: %s: %s" % (offset, code, msg)}
# Recoverable: bad dates and a bad value are rejected records, counted, with an issue each.
bad = (b'<HealthData>\n<Record ' + HR + b' value="60" startDate="2024-13-40 25:61:00 +0000" endDate="x"/>\n'
       b'<Record ' + HR + b' value="sixty" startDate="2024-05-21 09:00:00 +0000" endDate="2024-05-21 09:00:00 +0000"/>\n'
       b'<Record ' + HR + b' value="61" startDate="2024-05-21 09:00:01 +0000" endDate="2024-05-21 09:00:01 +0000"/>\n</HealthData>\n')
with open(os.path.join(OUT, "bad-dates.xml"), "wb") as f:
    f.write(bad)
first = bad.find(b"<Record")
second = bad.find(b"<Record", first + 1)
expected["bad-dates.xml"] = {
    "issues": [
        "{file}: byte %d: syntax: HKQuantityTypeIdentifierHeartRate: missing or malformed startDate/endDate (expected yyyy-MM-dd HH:mm:ss ±hhmm)" % first,
        "{file}: byte %d: syntax: HKQuantityTypeIdentifierHeartRate: value 'sixty' in unit 'count/min' not readable (accepted unit differs, or not a number)" % second,
    ],
    "qc": [{"samplesRead": 3, "samplesEmitted": 1, "rejected": 2, "duplicatesDropped": 0, "segments": 1}],
}
with open(os.path.join(OUT, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False)
    f.write("\n")
