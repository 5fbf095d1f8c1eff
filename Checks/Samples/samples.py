#!/usr/bin/env python3
"""Fails for a ```swift block in README.md or Docs/*.md that is neither compiled nor marked as a
fragment, so that every sample a reader copies is code that builds.

A block is compiled when every one of its lines appears in one compiled sample file: a file of
Tests/SalvoTests/CodeSamples/, or of the packages that compile the samples of their own guides
(the demo, Checks/Combine, Integrations/*/Tests, Transports/*/Tests). Lines are compared after trimming indentation;
blank lines, comment lines and end-of-line `//` comments do not count, so a sample may be
indented differently or commented differently where it is compiled, but not spelled differently.

A block compiled in another test file (a suite it quotes) names it on the line before its fence,
and its lines must appear there:

    <!-- compiled in Tests/SalvoTests/Testing/TestClockTests.swift -->
    ```swift

A genuine fragment (a manifest, a list of expressions, a line that needs an app around it) says
so on the line before its fence:

    <!-- fragment: a Package.swift manifest -->
    ```swift

    python3 Checks/Samples/samples.py            # check; exit 1 naming each block
    python3 Checks/Samples/samples.py --verbose  # also the lines each failing block misses
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDES = [ROOT / "README.md"] + sorted((ROOT / "Docs").glob("*.md"))
COMPILED = [
    "Tests/SalvoTests/CodeSamples/**/*.swift",
    "Sources/SalvoDemo/**/*.swift",
    "Sources/SalvoDemoKit/**/*.swift",
    "Checks/Combine/Tests/**/CodeSamples/**/*.swift",
    "Integrations/*/Tests/**/*.swift",
    "Transports/*/Tests/**/*.swift",
]
FRAGMENT = re.compile(r"^<!--\s*fragment\b.*-->\s*$")
COMPILED_IN = re.compile(r"^<!--\s*compiled in (\S+)\s*-->\s*$")


def without_comment(line):
    """`line` without an end-of-line `//` comment; a `//` inside a string literal stays."""
    for match in re.finditer(r"\s//", line):
        if line[:match.start()].count('"') % 2 == 0:
            return line[:match.start()]
    return line


def normalised(lines):
    kept = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        line = without_comment(line).strip()
        if line:
            kept.append(line)
    return kept


def blocks(path):
    """(line number, the marker line before it, lines) of each ```swift block of a guide."""
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        fence = lines[index].strip()
        if fence.startswith("```swift"):
            previous = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
            end = index + 1
            while end < len(lines) and not lines[end].strip().startswith("```"):
                end += 1
            yield index + 1, previous, lines[index + 1:end]
            index = end
        index += 1


def main():
    compiled = {path: set(normalised(path.read_text().splitlines()))
                for pattern in COMPILED for path in sorted(ROOT.glob(pattern))}
    failures, total, fragments = [], 0, 0
    for guide in GUIDES:
        for line_number, previous, lines in blocks(guide):
            total += 1
            if FRAGMENT.match(previous):
                fragments += 1
                continue
            block = normalised(lines)
            named = COMPILED_IN.match(previous)
            candidates = compiled
            if named:
                path = ROOT / named.group(1)
                candidates = {path: set(normalised(path.read_text().splitlines())) if path.exists() else set()}
            if any(all(line in source for line in block) for source in candidates.values()):
                continue
            closest = max(candidates.items(), key=lambda item: sum(line in item[1] for line in block))
            missing = [line for line in block if line not in closest[1]]
            failures.append((f"{guide.relative_to(ROOT)}:{line_number}", closest[0].relative_to(ROOT), missing))
    print(f"{total} swift blocks in README.md and Docs/: {total - fragments - len(failures)} compiled, "
          f"{fragments} marked as fragments, {len(failures)} neither")
    if failures:
        print("not compiled in Tests/SalvoTests/CodeSamples (or the demo and the packages' sample tests) "
              "and not marked <!-- fragment: why --> on the line before the fence:", file=sys.stderr)
        for place, closest, missing in failures:
            print(f"  {place}: {len(missing)} lines not in {closest}, the closest", file=sys.stderr)
            if "--verbose" in sys.argv:
                for line in missing:
                    print(f"      {line}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
