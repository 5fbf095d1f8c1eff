#!/usr/bin/env python3
"""Fails when a module's DocC landing page has a topic group DocC made up itself.

    python3 Checks/DocC/topics.py                      # the archives Checks/DocC built last
    python3 Checks/DocC/topics.py path/to/X.doccarchive ...

A public type, article or extended module that the landing page (Sources/<Module>/<Module>.docc/
<Module>.md) does not list under `## Topics` still appears: DocC puts it in a group it names
itself ("Structures", "Type Aliases", "Articles", "Extended Modules"). `--warnings-as-errors`
does not catch that, since DocC warns about nothing. The render JSON of the module page marks
such a group with `"generated": true`; this script fails on any, and on an "Extended Modules"
group however it got there, naming each page left out and where to list it.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = Path(__file__).resolve().parent / ".build" / "plugins" / "Swift-DocC" / "outputs"


def automatic_groups(archive):
    """(module, group title, [identifiers]) for each automatic group on the archive's module page."""
    pages = sorted((archive / "data" / "documentation").glob("*.json"))
    if not pages:
        raise SystemExit(f"{archive}: no module page under data/documentation; build the documentation first")
    found = []
    for page in pages:
        node = json.loads(page.read_text(encoding="utf-8"))
        if node.get("metadata", {}).get("role") != "collection":
            continue
        module = node["metadata"].get("title", page.stem)
        for section in node.get("topicSections", []):
            if section.get("generated") or section.get("title") == "Extended Modules":
                found.append((module, section.get("title", "?"), section.get("identifiers", [])))
    return found


def main(arguments):
    archives = [Path(argument) for argument in arguments] or sorted(OUTPUTS.glob("*.doccarchive"))
    if not archives:
        print(f"no .doccarchive in {OUTPUTS}; run generate-documentation first", file=sys.stderr)
        return 1
    failures = [group for archive in archives for group in automatic_groups(archive)]
    for module, title, identifiers in failures:
        listed = ", ".join(identifier.rsplit("/", 1)[-1] for identifier in identifiers)
        print(f"{module}: DocC made the topic group \"{title}\" for {listed}; list each under a "
              f"heading of `## Topics` in Sources/{module}/{module}.docc/{module}.md", file=sys.stderr)
    if not failures:
        print(f"no automatic topic groups on {', '.join(archive.stem for archive in archives)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
