#!/usr/bin/env python3
"""Compares the `sensorpipe analyze` outputs of two builds (called by ecg-diff.sh).

Layout read: OLD/<label>/{exit_code,stdout.txt,stderr.txt,tables/*.csv}, the same under NEW, and
the recordings list (label<TAB>path). Rules:
- both builds must exit alike (a recording that fails in both is listed, not counted as a
  difference);
- heart_rate.csv, hrv.csv and quality.csv must be byte-identical, unless the mapping has a
  section for the table: then it is compared by column like beats, and the summary shows it is
  no longer byte-identical ("identical files");
- beats.csv is compared column by column by name, row by row (in file order, after the rows the
  mapping drops), following the mapping file:

  {
    "beats": {
      "rename":  {"old_column": "new_column"},   # same meaning, new name
      "ignore_new": ["nn_time"],                 # columns only the new build has; not compared
      "removed": ["correction"],                 # old columns the new build no longer writes
      "changed": ["time"],                       # old columns whose values may differ (reported)
      "drop_new_rows_where": {"inserted": ["1"]},# new rows left out before rows are matched
      "coalesce": {"time": ["nn_time", "time"]}, # old column = the first non-empty of new columns
      "order_by": ["stream", "time"]             # match rows after sorting both tables by these
    },                                           # (old) columns (numbers numerically), for a
                                                 # build that writes rows in another order
    "hrv": {"ignore_new": ["source"]},           # optional: compare hrv by column instead of bytes
    "rename_tables": {"quality": "ecg_quality"}, # old table → new table (new file name)
    "ignore_new_tables": ["stream_attributes"]   # new tables not compared
  }

  Any other difference is unexpected: a new column that is neither renamed-to nor ignored, an
  old column missing from the new table, a different row count, a differing cell in a column not
  listed as changed, a table only one build wrote.
Prints, per table, recordings, rows, identical and differing rows, and for beats (and for any
differing byte-compared table) the differing cells and the largest absolute difference of each
numeric column. Exit status 0 when nothing unexpected differs, 1 otherwise, 64 for bad usage.
"""
import argparse
import csv
import json
import math
import os
import sys

BYTE_TABLES = ["heart_rate", "hrv", "quality"]
COLUMN_TABLES = ["beats"]
MAPPING_KEYS = {"rename", "ignore_new", "removed", "changed", "drop_new_rows_where", "order_by", "coalesce"}


def usage_error(message):
    print(f"ecg_diff_compare: {message}", file=sys.stderr)
    sys.exit(64)


def load_mapping(path):
    """{"tables": {old table: column mapping}, "rename_tables": {...}, "ignore_new_tables": [...]}."""
    m = {}
    if path is not None:
        with open(path) as f:
            m = json.load(f)
    tables = {}
    for key, value in m.items():
        if key in ("rename_tables", "ignore_new_tables"):
            continue
        if key not in BYTE_TABLES + COLUMN_TABLES:
            usage_error(f"{path}: unknown key {key!r} (known: {', '.join(BYTE_TABLES + COLUMN_TABLES)}, "
                        "rename_tables, ignore_new_tables)")
        unknown = set(value) - MAPPING_KEYS
        if unknown:
            usage_error(f"{path}: unknown key(s) {key}.{sorted(unknown)} (known: {sorted(MAPPING_KEYS)})")
        tables[key] = value
    for t in COLUMN_TABLES:
        tables.setdefault(t, {})
    return {"tables": tables, "rename_tables": m.get("rename_tables", {}),
            "ignore_new_tables": m.get("ignore_new_tables", [])}


def number(text):
    """The cell as a float, or None when it is not a number (empty cells are None)."""
    if text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return None


def same_cell(a, b):
    if a == b:
        return True
    x, y = number(a), number(b)
    return x is not None and y is not None and math.isnan(x) and math.isnan(y)


class ColumnStats:
    def __init__(self):
        self.cells = 0
        self.differing = 0
        self.max_abs = 0.0
        self.non_numeric = 0       # differing cells where one side is not a number (e.g. empty)

    def add(self, a, b):
        self.cells += 1
        if same_cell(a, b):
            return True
        self.differing += 1
        x, y = number(a), number(b)
        if x is None or y is None:
            self.non_numeric += 1
        elif math.isinf(x) or math.isinf(y):
            self.max_abs = math.inf
        else:
            self.max_abs = max(self.max_abs, abs(x - y))
        return False

    def describe(self):
        if self.differing == 0:
            return "0"
        parts = []
        if self.differing > self.non_numeric:
            parts.append(f"max |Δ| {self.max_abs:.6g}")
        if self.non_numeric:
            parts.append(f"{self.non_numeric} with a non-number on one side")
        return f"{self.differing} ({'; '.join(parts)})"


class TableStats:
    def __init__(self, name):
        self.name = name
        self.recordings = 0
        self.identical_recordings = 0
        self.rows_old = 0
        self.rows_new = 0
        self.identical_rows = 0
        self.expected_rows = 0     # rows differing only in columns the mapping lists as changed
        self.differing_rows = 0
        self.columns = {}          # old column name → ColumnStats
        self.new_only = set()      # new columns that were ignored

    def column(self, name):
        return self.columns.setdefault(name, ColumnStats())


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return [], []
    return rows[0], rows[1:]


def compare_rows(stats, header_old, rows_old, header_new, rows_new, columns, changed, problems, where):
    """Cell-by-cell comparison of matched columns; returns False if an unexpected cell differs."""
    ok = True
    index_old = {c: i for i, c in enumerate(header_old)}
    index_new = {c: i for i, c in enumerate(header_new)}
    stats.rows_old += len(rows_old)
    stats.rows_new += len(rows_new)
    if len(rows_old) != len(rows_new):
        problems.append(f"{where}: {len(rows_old)} rows (old) vs {len(rows_new)} (new)")
        ok = False
    for r, (a, b) in enumerate(zip(rows_old, rows_new)):
        unexpected = expected = False
        for old_name, new_name in columns:
            x = a[index_old[old_name]] if index_old[old_name] < len(a) else ""
            y = b[index_new[new_name]] if index_new[new_name] < len(b) else ""
            if not stats.column(old_name).add(x, y):
                if old_name in changed:
                    expected = True
                else:
                    unexpected = True
                    if len(problems) < 10_000:
                        problems.append(f"{where} row {r + 2}: {old_name} = {x!r} (old) vs "
                                        f"{new_name} = {y!r} (new)")
        if unexpected:
            stats.differing_rows += 1
            ok = False
        elif expected:
            stats.expected_rows += 1
        else:
            stats.identical_rows += 1
    return ok


def compare_byte_table(stats, old_path, new_path, problems, where):
    with open(old_path, "rb") as f:
        a = f.read()
    with open(new_path, "rb") as f:
        b = f.read()
    header_old, rows_old = read_csv(old_path)
    header_new, rows_new = read_csv(new_path)
    if a == b:
        stats.rows_old += len(rows_old)
        stats.rows_new += len(rows_new)
        stats.identical_rows += len(rows_old)
        for c in header_old:
            stats.column(c).cells += len(rows_old)
        return True
    problems.append(f"{where}: not byte-identical")
    if header_old != header_new:
        problems.append(f"{where}: header differs: old {header_old} new {header_new}")
    columns = [(c, c) for c in header_old if c in header_new]
    compare_rows(stats, header_old, rows_old, header_new, rows_new, columns, set(), problems, where)
    return False


def compare_by_column(stats, old_path, new_path, mapping, problems, where):
    header_old, rows_old = read_csv(old_path)
    header_new, rows_new = read_csv(new_path)
    rename = dict(mapping.get("rename", {}))
    ignore_new = set(mapping.get("ignore_new", []))
    removed = set(mapping.get("removed", []))
    changed = set(mapping.get("changed", []))
    ok = True
    for old_column, sources in mapping.get("coalesce", {}).items():
        missing = [c for c in sources if c not in header_new]
        if missing:
            problems.append(f"{where}: coalesce names {missing}, not new columns")
            ok = False
            continue
        idx = [header_new.index(c) for c in sources]
        virtual = f"{old_column}<-{'|'.join(sources)}"
        header_new = header_new + [virtual]
        rows_new = [r + [next((r[i] for i in idx if i < len(r) and r[i] != ""), "")] for r in rows_new]
        rename[old_column] = virtual
        ignore_new.update(sources)
    for column, values in mapping.get("drop_new_rows_where", {}).items():
        if column not in header_new:
            problems.append(f"{where}: drop_new_rows_where names {column!r}, not a new column")
            ok = False
            continue
        k = header_new.index(column)
        rows_new = [r for r in rows_new if (r[k] if k < len(r) else "") not in values]
    order = mapping.get("order_by", [])
    if order:
        def sort_key(header, names):
            idx = [header.index(c) for c in names]
            def key(row):
                out = []
                for i in idx:
                    v = row[i] if i < len(row) else ""
                    x = number(v)
                    out.append((0, x, "") if x is not None and not math.isnan(x) else (1, 0.0, v))
                return out
            return key
        missing_old = [c for c in order if c not in header_old]
        missing_new = [rename.get(c, c) for c in order if rename.get(c, c) not in header_new]
        if missing_old or missing_new:
            problems.append(f"{where}: order_by columns missing: old {missing_old}, new {missing_new}")
            ok = False
        else:
            rows_old = sorted(rows_old, key=sort_key(header_old, order))
            rows_new = sorted(rows_new, key=sort_key(header_new, [rename.get(c, c) for c in order]))
    columns = []
    for c in header_old:
        if c in removed:
            continue
        target = rename.get(c, c)
        if target not in header_new:
            problems.append(f"{where}: old column {c!r} has no new column {target!r}")
            ok = False
            continue
        columns.append((c, target))
    mapped = {t for _, t in columns}
    for c in header_new:
        if c in mapped:
            continue
        if c in ignore_new:
            stats.new_only.add(c)
        else:
            problems.append(f"{where}: new column {c!r} is not in the mapping (rename or ignore_new)")
            ok = False
    return compare_rows(stats, header_old, rows_old, header_new, rows_new, columns, changed,
                        problems, where) and ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--recordings", required=True, help="label<TAB>path per line")
    ap.add_argument("--mapping")
    ap.add_argument("--show", type=int, default=20, help="unexpected differences to list (default 20)")
    args = ap.parse_args()
    mapping = load_mapping(args.mapping)
    with open(args.recordings) as f:
        recordings = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]

    stats = {t: TableStats(t) for t in BYTE_TABLES + COLUMN_TABLES}
    problems = []
    both_failed = []
    unexpected_recordings = set()
    for label, path in recordings:
        o, n = os.path.join(args.old, label), os.path.join(args.new, label)
        codes = []
        for d in (o, n):
            try:
                with open(os.path.join(d, "exit_code")) as f:
                    codes.append(int(f.read().strip()))
            except (OSError, ValueError):
                codes.append(None)
        if codes[0] != codes[1]:
            problems.append(f"{label}: exit code {codes[0]} (old) vs {codes[1]} (new)")
            unexpected_recordings.add(label)
        if codes[0] != 0 and codes[1] != 0:
            with open(os.path.join(o, "stderr.txt"), errors="replace") as f:
                both_failed.append((label, f.read().strip().splitlines()[-1:] or ["(no message)"]))
            continue
        to, tn = os.path.join(o, "tables"), os.path.join(n, "tables")
        old_tables = {x[:-4] for x in os.listdir(to) if x.endswith(".csv")} if os.path.isdir(to) else set()
        new_tables = {x[:-4] for x in os.listdir(tn) if x.endswith(".csv")} if os.path.isdir(tn) else set()
        renamed = {t: mapping["rename_tables"].get(t, t) for t in old_tables}
        for t in sorted(old_tables):
            if renamed[t] not in new_tables:
                problems.append(f"{label}: table {t} written by the old build only"
                                + (f" (no {renamed[t]} in the new build)" if renamed[t] != t else ""))
                unexpected_recordings.add(label)
        for t in sorted(new_tables - set(renamed.values())):
            if t not in mapping["ignore_new_tables"]:
                problems.append(f"{label}: table {t} written by the new build only (not in ignore_new_tables)")
                unexpected_recordings.add(label)
        for t in sorted(t for t in old_tables if renamed[t] in new_tables):
            if t not in stats:
                stats[t] = TableStats(t)
            s = stats[t]
            s.recordings += 1
            where = f"{label}/{t}.csv" + (f" → {renamed[t]}.csv" if renamed[t] != t else "")
            op, np_ = os.path.join(to, t + ".csv"), os.path.join(tn, renamed[t] + ".csv")
            with open(op, "rb") as f1, open(np_, "rb") as f2:
                if f1.read() == f2.read():
                    s.identical_recordings += 1
            if t in mapping["tables"]:
                same = compare_by_column(s, op, np_, mapping["tables"][t], problems, where)
            else:
                same = compare_byte_table(s, op, np_, problems, where)
            if not same:
                unexpected_recordings.add(label)

    print(f"\n{len(recordings)} recordings; {len(both_failed)} failed in both builds"
          + (":" if both_failed else ""))
    for label, msg in both_failed:
        print(f"  {label}: {msg[0]}")
    print()
    head = ["table", "recordings", "identical files", "rows old", "rows new", "identical rows",
            "changed as stated", "unexpected rows"]
    lines = [head]
    for t, s in stats.items():
        lines.append([t, str(s.recordings), str(s.identical_recordings), str(s.rows_old), str(s.rows_new),
                      str(s.identical_rows), str(s.expected_rows), str(s.differing_rows)])
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    for r in lines:
        print("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(r)))
    for t, s in stats.items():
        if t not in mapping["tables"] and all(c.differing == 0 for c in s.columns.values()):
            continue
        how = "by column (mapping)" if t in mapping["tables"] else "not byte-identical; by column for information"
        print(f"\n{t} ({how}): differing cells per column (max |Δ| for numeric columns)")
        rename = mapping["tables"].get(t, {}).get("rename", {})
        changed = set(mapping["tables"].get(t, {}).get("changed", []))
        for c, cs in s.columns.items():
            name = f"{c} → {rename[c]}" if c in rename else c
            note = "  (changed, as stated)" if c in changed else ""
            print(f"  {name:<28} {cs.cells:>9} cells  differing {cs.describe()}{note}")
        if s.new_only:
            print(f"  new columns ignored: {', '.join(sorted(s.new_only))}")
    if problems:
        print(f"\nUNEXPECTED: {len(problems)} difference(s) in {len(unexpected_recordings)} recording(s)"
              + (f"; first {args.show}:" if len(problems) > args.show else ":"))
        for p in problems[: args.show]:
            print(f"  {p}")
        return 1
    print("\nOK: no unexpected differences")
    return 0


if __name__ == "__main__":
    sys.exit(main())
