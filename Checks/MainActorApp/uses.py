#!/usr/bin/env python3
"""Fails when a public API of Salvo or SalvoTesting that takes a closure or a model type has no use
in the main-actor app check package (Checks/MainActorApp), so that every such API is proven to
compile, as the guides write it, in an app target with Xcode 26's defaults.

The APIs come from the modules' symbol graphs (swift-symbolgraph-extract over the check package's
build, so run it after `swift build --package-path Checks/MainActorApp --build-tests`):

- a function, initializer or subscript with a parameter of function type (a closure), or with a
  model type: a metatype parameter (`as: Value.Type`), a `some Encodable`/`Decodable` value, or a
  generic parameter that must be `Encodable`, `Decodable` or `Codable`;
- a settable property of function type (`responder.progressHandler = { … }`).

A use is the API's name called in Checks/MainActorApp/Sources or Tests (`name(`, `name {`,
`.name(`; an initializer by its type's name or `.init(`), with the argument labels that tell it
from its overloads (a closure label may be a trailing closure). Overloads that differ only in
isolation or constraints (`MockRoute.pages` for `Sendable` and for main-actor models) are the same
spelling to an app developer, hence one entry.

    python3 Checks/MainActorApp/uses.py           # check; exit 1 naming the APIs without a use
    python3 Checks/MainActorApp/uses.py --list    # every API it checks, and where it is used
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent
MODULES = ["Salvo", "SalvoTesting"]
CALLABLE = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript"}
PROPERTY = {"swift.property", "swift.type.property"}
MODEL_PROTOCOLS = ("Encodable", "Decodable", "Codable")


def symbol_graphs():
    """The symbol graph JSON of each module, extracted from the check package's build."""
    bin_path = subprocess.run(["swift", "build", "--package-path", str(ROOT), "--show-bin-path"],
                              check=True, capture_output=True, text=True).stdout.strip()
    modules = pathlib.Path(bin_path) / "Modules"
    if not (modules / "Salvo.swiftmodule").exists():
        sys.exit(f"uses.py: no Salvo module in {modules}: build the check package first")
    triple = subprocess.run(["swiftc", "-print-target-info"], check=True, capture_output=True, text=True)
    target = json.loads(triple.stdout)["target"]["triple"]
    with tempfile.TemporaryDirectory() as out:
        for module in MODULES:
            subprocess.run(["swift-symbolgraph-extract", "-module-name", module, "-I", str(modules),
                            "-target", target, "-minimum-access-level", "public", "-output-dir", out],
                           check=True)
        # Only each module's own graph: `SalvoTesting@Salvo` holds SalvoTesting's extensions of
        # Salvo's types, which are SalvoTesting's API too; `@Foundation`/`@Testing` ones as well.
        return [json.loads(path.read_text()) for path in sorted(pathlib.Path(out).glob("*.symbols.json"))]


def declaration(symbol):
    return "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))


def parameters(symbol):
    """(label, type text, has default) for each parameter, from the declaration text."""
    # "->" would read as a closing angle bracket.
    text = declaration(symbol).replace("->", "\u2192")
    base = symbol["names"]["title"].split("(")[0]
    name = re.search(rf"\b{re.escape(base)}\b", text) if base != "subscript" or "subscript" in text else None
    if not name:
        return []
    start = name.end()
    depth = 0
    while start < len(text) and (text[start] != "(" or depth):
        depth += {"<": 1, ">": -1}.get(text[start], 0)
        start += 1
    if start >= len(text):
        return []
    depth, params, current = 0, [], ""
    for char in text[start + 1:]:
        if char in "([<":
            depth += 1
        elif char in ")]>":
            if depth == 0:
                params.append(current)
                break
            depth -= 1
        if char == "," and depth == 0:
            params.append(current)
            current = ""
        else:
            current += char
    result = []
    for param in (p for p in params if p.strip()):
        head, _, rest = param.partition(":")
        words = [word for word in head.split() if not word.startswith("@") and word not in ("inout", "consuming", "borrowing")]
        label = words[0] if words else "_"
        type_text, _, default = rest.partition(" = ")
        result.append((label, type_text.strip().replace("\u2192", "->"), bool(default.strip())))
    return result


def takes_model(symbol, params):
    generics = symbol.get("swiftGenerics", {}).get("constraints", []) + \
        symbol.get("swiftExtension", {}).get("constraints", [])
    if any(c.get("kind") == "conformance" and c.get("rhs") in MODEL_PROTOCOLS for c in generics):
        return True
    return any(t.endswith(".Type") or re.search(r"\bsome (Encodable|Decodable|Codable)\b", t) for _, t, _ in params)


def witnesses(graphs):
    """The precise identifiers of protocol requirements and of the members that implement them:
    an app writes these (a session's `start`), it does not call them."""
    requirements, conformances, titles = {}, {}, {}
    for graph in graphs:
        for symbol in graph["symbols"]:
            titles[symbol["identifier"]["precise"]] = symbol["names"]["title"]
    for graph in graphs:
        for relation in graph["relationships"]:
            if relation["kind"] == "requirementOf":
                requirements.setdefault(relation["target"], set()).add(titles.get(relation["source"]))
            elif relation["kind"] == "conformsTo":
                target = relation.get("targetFallback", relation["target"]).split(".")[-1]
                conformances.setdefault(relation["source"], set()).update({relation["target"], target})
    written = set()
    for graph in graphs:
        members = {}
        for relation in graph["relationships"]:
            if relation["kind"] == "memberOf":
                members.setdefault(relation["target"], []).append(relation["source"])
            if relation["kind"] in ("requirementOf", "defaultImplementationOf"):
                written.add(relation["source"])
        for owner, protocols in conformances.items():
            names = set().union(*(requirements.get(p, set()) | EXTERNAL_REQUIREMENTS.get(p, set()) for p in protocols))
            written.update(member for member in members.get(owner, []) if titles.get(member) in names)
    return written


# Requirements of protocols from other modules that Salvo's and SalvoTesting's types implement.
EXTERNAL_REQUIREMENTS = {
    "TestScoping": {"provideScope(for:testCase:performing:)"},
    # `for try await` calls these; an app does not write them.
    "AsyncSequence": {"makeAsyncIterator()"},
    "AsyncIteratorProtocol": {"next()", "next(isolation:)"},
}


def apis(graphs):
    """{key: info} of the APIs to check; a key is owner, base name and labels."""
    found, overloads = {}, {}
    written = witnesses(graphs)
    for graph in graphs:
        for symbol in graph["symbols"]:
            kind = symbol["kind"]["identifier"]
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or symbol["identifier"]["precise"] in written:
                continue
            path = symbol["pathComponents"]
            owner = path[-2] if len(path) > 1 else ""
            title = symbol["names"]["title"]
            text = declaration(symbol)
            if kind in PROPERTY:
                if "->" in text and "set }" in text:
                    found[(owner, title, ())] = {"kind": "property", "owner": owner, "name": title, "labels": [],
                                                 "closures": [], "declaration": text}
                continue
            if kind not in CALLABLE:
                continue
            params = parameters(symbol)
            overloads.setdefault((owner, title.split("(")[0]), set()).add(tuple(label for label, _, _ in params))
            closures = [label for label, type_text, _ in params if "->" in type_text]
            if not closures and not takes_model(symbol, params):
                continue
            base = title.split("(")[0]
            labels = tuple(label for label, _, _ in params)
            key = (owner, base, labels)
            entry = found.setdefault(key, {"kind": "init" if kind == "swift.init" else "call", "owner": owner,
                                           "name": base, "labels": list(labels), "closures": closures,
                                           "required": [label for label, _, default in params if not default],
                                           "declaration": text})
            entry["closures"] += [label for label in closures if label not in entry["closures"]]
    # The labels that tell an API from its overloads (same owner and name, whatever they take): a
    # label it requires that some overload lacks.
    for (owner, name, labels), entry in found.items():
        siblings = [set(other) for other in overloads.get((owner, name), set()) if other != labels]
        entry["telling"] = [label for label in entry.get("required", [])
                            if label != "_" and any(label not in other for other in siblings)]
    return found


def sources():
    files = sorted(p for folder in ("Sources", "Tests") for p in (ROOT / folder).rglob("*.swift"))
    return [(p.relative_to(ROOT), p.read_text()) for p in files]


def call_spans(text, opener):
    """The text of each call that starts at a match of `opener`: up to its closing parenthesis, and
    a trailing closure after it."""
    for match in re.finditer(opener, text):
        before = text[:match.start()].rstrip()
        # A declaration (`func observe(`) or a type (`-> Pager<Book> {`, `var x: Owner {`) is no call.
        is_type_context = text[match.start()] != "." and text[match.end() - 1] == "{" and before.endswith(("->", ":"))
        if before.endswith("func") or is_type_context:
            continue
        index, depth, end = match.end() - 1, 0, None
        while index < len(text):
            char = text[index]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth <= 0:
                    end = index + 1
                    break
            elif char == "\n" and depth == 0:
                end = index
                break
            index += 1
        span = text[match.start():end or len(text)]
        tail = text[end or len(text):(end or len(text)) + 40] if end else ""
        yield span, tail.lstrip().startswith("{") or span.rstrip().endswith("}")


def is_used(entry, files):
    name = re.escape(entry["name"])
    if entry["kind"] == "property":
        pattern = rf"\.{name}\s*=|\b{name}\s*:"
        return [str(path) for path, text in files if re.search(pattern, text)]
    if entry["kind"] == "init":
        opener = rf"(\b{re.escape(entry['owner'])}(<[^>\n]*>)?|\.init)\s*[({{]"
    elif entry["name"] == "subscript":
        opener = r"\w\["
    else:
        opener = rf"(\.|\b){name}(<[^>\n]*>)?\s*[({{]"
    used = []
    for path, text in files:
        for span, has_trailing_closure in call_spans(text, opener):
            missing = [label for label in entry["telling"] if not re.search(rf"\b{re.escape(label)}\s*:", span)]
            # The last closure parameter may be written as a trailing closure.
            if missing == [label for label in missing if label in entry["closures"][-1:]] and (not missing or has_trailing_closure):
                used.append(str(path))
                break
    return used


def main():
    found = apis(symbol_graphs())
    files = sources()
    unused = []
    for key in sorted(found):
        entry = found[key]
        used = is_used(entry, files)
        signature = f"{entry['owner'] + '.' if entry['owner'] else ''}{entry['name']}" + \
            ("" if entry["kind"] == "property" else "(" + "".join(f"{label}:" for label in entry["labels"]) + ")")
        if "--list" in sys.argv:
            print(f"{'ok ' if used else 'NO '} {signature}  {', '.join(sorted(set(used))[:2])}")
        if not used:
            unused.append(signature)
    print(f"{len(found) - len(unused)} of {len(found)} APIs of {' and '.join(MODULES)} that take a closure or a model type are used in Checks/MainActorApp")
    if unused:
        print("no use in Checks/MainActorApp (add one in Sources/ or Tests/, written as the guides write it):", file=sys.stderr)
        for signature in unused:
            print(f"  {signature}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
