#!/usr/bin/env python3
"""Writes a synthetic Apple Health export.xml of about SIZE_MB megabytes, streaming (the same
record mix as sensorpipe-bench's generatedHealthExport: heart rate with a metadata child, step
counts, energy records, an HRV record with 60 beats every 200 records), for the one-off
full-size speed and memory measurement of docs/VALIDATION.md ("Apple Health export").

usage: scripts/health/generate_export.py SIZE_MB OUT.xml
"""
import sys
import time

size = int(sys.argv[1]) << 20
device = "&lt;&lt;HKDevice: 0x283a3f4d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.4&gt;"


def date(s):
    return time.strftime("%Y-%m-%d %H:%M:%S +0000", time.gmtime(s))


with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Workout)*)>\n]>\n')
    f.write('<HealthData locale="en_US">\n <ExportDate value="2024-05-21 09:00:00 +0000"/>\n')
    t = 1716282000
    i = 0
    written = 0
    while written < size:
        t += 5
        d = date(t)
        r = i % 200
        if r == 199:
            parts = [f' <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" sourceVersion="10.4" device="{device}" unit="ms" creationDate="{d}" startDate="{d}" endDate="{d}" value="41.5">\n  <HeartRateVariabilityMetadataList>\n']
            for k in range(60):
                s = t % 86400 + k
                parts.append('   <InstantaneousBeatsPerMinute bpm="%d" time="%d:%02d:%02d.%02d"/>\n' % (60 + k % 7, s // 3600 % 24, s // 60 % 60, s % 60, k))
            parts.append("  </HeartRateVariabilityMetadataList>\n </Record>\n")
            chunk = "".join(parts)
        elif r % 3 == 0:
            chunk = f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" sourceVersion="10.4" device="{device}" unit="count/min" creationDate="{d}" startDate="{d}" endDate="{d}" value="{60 + i % 40}">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n'
        elif r % 3 == 1:
            chunk = f' <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" sourceVersion="17.4" unit="count" creationDate="{d}" startDate="{d}" endDate="{date(t + 60)}" value="{i % 120}"/>\n'
        else:
            chunk = f' <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" sourceVersion="10.4" device="{device}" unit="Cal" creationDate="{d}" startDate="{d}" endDate="{date(t + 60)}" value="0.{i % 1000}"/>\n'
        f.write(chunk)
        written += len(chunk)
        i += 1
    f.write("</HealthData>\n")
print(i, "records")
