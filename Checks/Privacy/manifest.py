#!/usr/bin/env python3
"""Checks Sources/Salvo/PrivacyInfo.xcprivacy, the privacy manifest Salvo ships (Docs/Privacy.md).

It must parse as a property list, collect no data, track nothing, and declare exactly the
required-reason API categories Salvo's sources use, found by the same search a reviewer runs:
  SystemBootTime  the uptime clock (DispatchTime.now().uptimeNanoseconds, systemUptime, mach_absolute_time)
  FileTimestamp   file metadata (stat, fstat, attributesOfItem, modification or creation dates)
  DiskSpace       free or total volume capacity
  UserDefaults    UserDefaults
So a source that starts (or stops) using one of them fails here until the manifest says so.

Usage: python3 Checks/Privacy/manifest.py   (from the repository root; exit status 1 on a problem)
"""

import pathlib
import plistlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "Sources/Salvo/PrivacyInfo.xcprivacy"
SOURCES = ROOT / "Sources"

CATEGORIES = {
    "NSPrivacyAccessedAPICategorySystemBootTime": r"uptimeNanoseconds|systemUptime|mach_absolute_time",
    "NSPrivacyAccessedAPICategoryFileTimestamp": r"\bf?stat\(|lstat\(|attributesOfItem|modificationDate|creationDate|ModificationDate|CreationDate|getattrlist",
    "NSPrivacyAccessedAPICategoryDiskSpace": r"volumeAvailableCapacity|volumeTotalCapacity|systemFreeSize|systemSize|statfs",
    "NSPrivacyAccessedAPICategoryUserDefaults": r"\bUserDefaults\b",
}


def used_categories():
    used = {}
    for path in SOURCES.rglob("*.swift"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for category, pattern in CATEGORIES.items():
                if re.search(pattern, line):
                    used.setdefault(category, f"{path.relative_to(ROOT)}:{number}")
    return used


def main():
    problems = []
    try:
        with MANIFEST.open("rb") as handle:
            manifest = plistlib.load(handle)
    except Exception as error:  # any parse failure is the finding
        print(f"{MANIFEST.relative_to(ROOT)} does not parse as a property list: {error}", file=sys.stderr)
        return 1
    if manifest.get("NSPrivacyTracking") is not False:
        problems.append("NSPrivacyTracking must be false: Salvo does not track")
    if manifest.get("NSPrivacyTrackingDomains") != []:
        problems.append("NSPrivacyTrackingDomains must be an empty array")
    if manifest.get("NSPrivacyCollectedDataTypes") != []:
        problems.append("NSPrivacyCollectedDataTypes must be an empty array: Salvo collects no data")
    declared = {}
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons", [])
        if not reasons:
            problems.append(f"{entry.get('NSPrivacyAccessedAPIType')} declares no reason")
        declared[entry.get("NSPrivacyAccessedAPIType")] = reasons
    used = used_categories()
    for category, place in sorted(used.items()):
        if category not in declared:
            problems.append(f"{place} uses a {category} API that the manifest does not declare")
    for category in sorted(set(declared) - set(used)):
        problems.append(f"the manifest declares {category}, which no source uses: remove it")
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"privacy manifest ok: {', '.join(sorted(declared)) or 'no required-reason APIs'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
