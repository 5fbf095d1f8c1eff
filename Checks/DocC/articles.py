#!/usr/bin/env python3
"""Writes the guides in Docs/ into Salvo's DocC catalog as articles, or checks they are current.

    python3 Checks/DocC/articles.py           # write Sources/Salvo/Salvo.docc/Articles/*.md
    python3 Checks/DocC/articles.py --check   # exit 1 if an article differs from its guide

Docs/*.md is the one source: GitHub shows it, and the articles are derived from it. The only
difference is the links between guides. GitHub follows `[text](Paging.md#swiftui)`; DocC would
keep that as a relative URL that leads nowhere, so an article says `[text](doc:Paging#SwiftUI)`,
which DocC resolves, and warns about when the guide or heading does not exist. Any other relative
link is refused here, because neither form would work in both places.
"""

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDES = ROOT / "Docs"
ARTICLES = ROOT / "Sources" / "Salvo" / "Salvo.docc" / "Articles"

LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"(`+[^`]*`+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def plain(heading):
    """A heading's text without inline markup, as both GitHub and DocC read it for anchors."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return text.replace("`", "").replace("*", "")


def github_anchor(text):
    """GitHub's anchor for a heading: lowercase, punctuation other than - and _ removed, spaces to -."""
    return "".join(c for c in text.lower() if c.isalnum() or c in "-_ ").replace(" ", "-")


def docc_anchor(text):
    """DocC's anchor for a heading: case kept, runs of spaces and dashes to one -, punctuation removed."""
    words = [w for w in re.split(r"[\s\-\u2013\u2014]+", text.strip()) if w]
    joined = "-".join(words)
    return "".join(c for c in joined if c == "-" or not (unicodedata.category(c).startswith("P") or c == "`"))


def prose_lines(lines):
    """Yields (index, line) for lines outside fenced code blocks."""
    fenced = False
    for index, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield index, line


def anchors(path):
    """Maps each GitHub anchor of a guide's headings to DocC's anchor for the same heading."""
    lines = path.read_text().splitlines()
    mapping, seen = {}, {}
    for _, line in prose_lines(lines):
        match = HEADING.match(line)
        if not match or len(match.group(1)) == 1:
            continue
        text = plain(match.group(2))
        anchor = github_anchor(text)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        mapping[anchor if count == 0 else f"{anchor}-{count}"] = docc_anchor(text)
    return mapping


def article(path, guide_names):
    """The DocC article for one guide, and an error for each link it cannot carry over."""
    name = path.stem
    lines = path.read_text().splitlines()
    errors = []

    def rewrite(match, line_number):
        target = match.group(1)
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):  # https:, mailto:, doc:
            return match.group(0)
        file, _, fragment = target.partition("#")
        guide = name if file == "" else file[:-3] if file.endswith(".md") else None
        if guide not in guide_names:
            errors.append(f"Docs/{path.name}:{line_number}: link to {target!r} is neither a guide in Docs/ nor an absolute URL")
            return match.group(0)
        destination = f"doc:{guide}"
        if fragment:
            docc = anchors(GUIDES / f"{guide}.md").get(fragment)
            if docc is None:
                errors.append(f"Docs/{path.name}:{line_number}: no heading in Docs/{guide}.md has the anchor #{fragment}")
                return match.group(0)
            destination += f"#{docc}"
        return f"]({destination})"

    for index, line in prose_lines(lines):
        # Odd pieces are code spans, where `[T]()` is code, not a link.
        pieces = CODE_SPAN.split(line)
        for piece in range(0, len(pieces), 2):
            pieces[piece] = LINK.sub(lambda m: rewrite(m, index + 1), pieces[piece])
        lines[index] = "".join(pieces)

    # After the title and the first paragraph, which DocC shows as the article's summary.
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    start = next(i for i in range(title + 1, len(lines)) if lines[i].strip())
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    note = f"<!-- Generated from Docs/{path.name} by Checks/DocC/articles.py: edit that file, then run the script. -->"
    lines[end:end] = ["", note]
    return "\n".join(lines) + "\n", errors


def main(arguments):
    check = arguments == ["--check"]
    if arguments and not check:
        print("\n".join(__doc__.strip().splitlines()[2:4]), file=sys.stderr)
        return 2
    guides = sorted(GUIDES.glob("*.md"))
    names = {guide.stem for guide in guides}
    expected, errors = {}, []
    for guide in guides:
        text, problems = article(guide, names)
        expected[ARTICLES / guide.name] = text
        errors += problems
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    existing = set(ARTICLES.glob("*.md"))
    stale = sorted(p for p, text in expected.items() if not p.is_file() or p.read_text() != text)
    orphans = sorted(existing - set(expected))
    if check:
        for path in stale + orphans:
            print(f"{path.relative_to(ROOT)} is not what Docs/ says: run python3 Checks/DocC/articles.py", file=sys.stderr)
        return 1 if stale or orphans else 0
    ARTICLES.mkdir(parents=True, exist_ok=True)
    for path in stale:
        path.write_text(expected[path])
    for path in orphans:
        path.unlink()
    print(f"{len(expected)} articles in {ARTICLES.relative_to(ROOT)}: {len(stale)} written, {len(orphans)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
