#!/usr/bin/env python3
"""Checks the generated Swift bindings as far as a Linux machine can.

No Swift compiler runs here, so scripts/test-mobile checks:

  parse    every .swift file parses with tree-sitter-swift: no ERROR or
           MISSING node. UniFFI wraps attributes in `#if swift(>=5.8)` /
           `#endif` on lines of their own, which the grammar cannot attach
           to the declaration after the `#endif`; those two lines are blanked
           (spaces, so byte offsets and line numbers stay) when the block holds
           only attributes, and nothing else is touched.
  header   the C header compiles: gcc -fsyntax-only -D_Nullable= -D_Nonnull=.
  symbols  every `ffi_*` / `uniffi_*` function the generated .swift calls is
           declared in the header and exported by the library
           (nm -D --defined-only).
  api      every Encounter method and top-level function the hand-written
           example calls (`.name(` / `name(`) is declared in the generated
           .swift (or is a Swift standard library call on the allow list), so
           the example follows renames.
  labels   every call in the example of a generated function, method or
           record/object initializer passes argument labels that one of its
           declarations accepts, in order (parameters with a default may be
           left out): what the Swift compiler would check of those calls.

  check_swift.py check --swift Skirmish.swift --header SkirmishFFI.h \
      --library libskirmish_uniffi.so --example Example.swift
  check_swift.py self-test (same arguments): corrupts copies of the files
      in a temporary directory and asserts that each check fails on them.

Exit status 0 when everything passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import tree_sitter
import tree_sitter_swift

ATTRIBUTE_IF = re.compile(rb"^[ \t]*#if swift\(>=[0-9.]+\)[ \t]*$")
ENDIF = re.compile(rb"^[ \t]*#endif[ \t]*$")
ATTRIBUTE = re.compile(rb"^[ \t]*@[A-Za-z_][A-Za-z0-9_]*(\(.*\))?[ \t]*$")

FFI_CALL = re.compile(r"\b((?:ffi|uniffi)_[A-Za-z0-9_]+)\s*\(")
HEADER_DECL = re.compile(r"\b((?:ffi|uniffi)_[A-Za-z0-9_]+)\s*\(")

# Swift standard library / Foundation calls the example may make.
SWIFT_CALLS = {
    "map", "filter", "joined", "contains", "append", "print", "assert", "set", "string",
    "first", "isEmpty", "reduce", "sorted", "forEach", "compactMap", "count", "init",
    "Declaration", "CombatantSpec", "ContinuousConfig", "GraduatedConfig", "TickSystemConfig",
    "ActionBlocksConfig", "ActorTiming", "RateOfFire", "StrikeOptions", "Encounter",
}


def blank_attribute_ifs(source: bytes) -> bytes:
    """Blanks `#if swift(...)`/`#endif` pairs around attribute-only lines."""
    lines = source.split(b"\n")
    i = 0
    while i < len(lines):
        if ATTRIBUTE_IF.match(lines[i]):
            j = i + 1
            while j < len(lines) and ATTRIBUTE.match(lines[j]):
                j += 1
            if j > i + 1 and j < len(lines) and ENDIF.match(lines[j]):
                lines[i] = b" " * len(lines[i])
                lines[j] = b" " * len(lines[j])
                i = j
        i += 1
    return b"\n".join(lines)


def check_parse(path: Path) -> list[str]:
    """ERROR and MISSING nodes of the file, as 'file:line:col: what'."""
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_swift.language()))
    source = path.read_bytes()
    tree = parser.parse(blank_attribute_ifs(source))
    problems: list[str] = []
    cursor = [tree.root_node]
    while cursor and len(problems) < 10:
        node = cursor.pop()
        if node.is_error or node.is_missing:
            row, col = node.start_point
            kind = "missing " + node.type if node.is_missing else "syntax error"
            problems.append(f"{path}:{row + 1}:{col + 1}: {kind}")
            continue
        if node.has_error:
            cursor.extend(reversed(node.children))
    if tree.root_node.has_error and not problems:
        problems.append(f"{path}: the parse tree has an error")
    if not source.strip():
        problems.append(f"{path}: empty")
    return problems


def _parse(path: Path):
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_swift.language()))
    source = blank_attribute_ifs(path.read_bytes())
    return source, parser.parse(source)


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)


def _text(source: bytes, node) -> str:
    return source[node.start_byte : node.end_byte].decode()


def _parameters(source: bytes, decl) -> list[list]:
    """[label or None, has_default] for each parameter of a declaration."""
    params: list[list] = []
    for child in decl.children:
        if child.type == "parameter":
            names = [_text(source, c) for c in child.children if c.type == "simple_identifier"]
            label = names[0] if names and names[0] != "_" else None
            params.append([label, False])
        elif child.type == "=" and params:
            params[-1][1] = True
    return params


def declared_signatures(swift: Path) -> dict[str, list[list[list]]]:
    """Function, method and initializer parameter lists of the generated file, by name."""
    source, tree = _parse(swift)
    found: dict[str, list[list[list]]] = {}
    for node in _walk(tree.root_node):
        name = None
        if node.type == "function_declaration":
            ids = [c for c in node.children if c.type == "simple_identifier"]
            name = _text(source, ids[0]) if ids else None
        elif node.type == "init_declaration":
            owner = node.parent
            while owner is not None and owner.type != "class_declaration":
                owner = owner.parent
            if owner is not None:
                ids = [c for c in owner.children if c.type == "type_identifier"]
                name = _text(source, ids[0]) if ids else None
        if name:
            found.setdefault(name, []).append(_parameters(source, node))
    return found


def _accepts(params: list[list], labels: list) -> bool:
    i = 0
    for label, has_default in params:
        if i < len(labels) and labels[i] == label:
            i += 1
        elif not has_default:
            return False
    return i == len(labels)


def check_labels(example: Path, swift: Path) -> list[str]:
    declared = declared_signatures(swift)
    source, tree = _parse(example)
    local = {
        _text(source, c)
        for n in _walk(tree.root_node)
        if n.type == "function_declaration"
        for c in n.children[:3]
        if c.type == "simple_identifier"
    }
    problems: list[str] = []
    checked = 0
    for node in _walk(tree.root_node):
        if node.type != "call_expression" or len(node.children) < 2:
            continue
        callee, suffix = node.children[0], node.children[-1]
        if callee.type == "simple_identifier":
            name = _text(source, callee)
        elif callee.type == "navigation_expression":
            ids = [c for c in _walk(callee.children[-1]) if c.type == "simple_identifier"]
            name = _text(source, ids[-1]) if ids else None
        else:
            continue
        if not name or name in local or name not in declared or suffix.type != "call_suffix":
            continue
        args = [c for c in suffix.children if c.type == "value_arguments"]
        labels = []
        for arg in args[0].children if args else []:
            if arg.type == "value_argument":
                label = [c for c in arg.children if c.type == "value_argument_label"]
                labels.append(_text(source, label[0]) if label else None)
        checked += 1
        if not any(_accepts(p, labels) for p in declared[name]):
            row = node.start_point[0] + 1
            shown = ", ".join(f"{l}:" if l else "_" for l in labels)
            problems.append(f"{example}:{row}: {name}({shown}) matches no declaration of {name} in {swift.name}")
    if checked < 10 and not problems:
        problems.append(f"{example}: only {checked} calls of the bindings found")
    return problems


def check_header(header: Path) -> list[str]:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        return ["no C compiler (gcc or cc) to check the header with"]
    # Included from a translation unit, as a consumer (the Swift module map) uses it.
    with tempfile.TemporaryDirectory(prefix="skirmish-header-") as tmp:
        unit = Path(tmp) / "include_header.c"
        unit.write_text(f'#include "{header.resolve()}"\n')
        run = subprocess.run(
            [gcc, "-fsyntax-only", "-Wall", "-Werror", "-D_Nullable=", "-D_Nonnull=", str(unit)],
            capture_output=True,
            text=True,
        )
    if run.returncode != 0:
        return [f"{header}: gcc -fsyntax-only failed:\n{run.stderr.strip()}"]
    return []


def exported_symbols(library: Path) -> set[str]:
    run = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"nm failed on {library}: {run.stderr.strip()}")
    return {line.split()[-1] for line in run.stdout.splitlines() if line.strip()}


def check_symbols(swift: Path, header: Path, library: Path) -> list[str]:
    called = set(FFI_CALL.findall(swift.read_text()))
    declared = set(HEADER_DECL.findall(header.read_text()))
    exported = exported_symbols(library)
    problems: list[str] = []
    if len(called) < 10:
        problems.append(f"{swift}: only {len(called)} ffi_/uniffi_ calls found; not UniFFI output?")
    for name in sorted(called - declared):
        problems.append(f"{swift} calls {name}, which {header.name} does not declare")
    for name in sorted(called - exported):
        problems.append(f"{swift} calls {name}, which {library.name} does not export")
    return problems


def check_api(example: Path, swift: Path) -> list[str]:
    generated = swift.read_text()
    declared = set(re.findall(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)", generated))
    declared |= set(re.findall(r"\bcase\s+([A-Za-z_][A-Za-z0-9_]*)", generated))
    # Strip comments and string literals before looking for calls.
    code = re.sub(r"//[^\n]*", "", example.read_text())
    code = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', code)
    local = set(re.findall(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)", code))
    problems: list[str] = []
    for name in sorted(set(re.findall(r"(?<![A-Za-z0-9_])\.?([a-z][A-Za-z0-9_]*)\s*\(", code))):
        if name in SWIFT_CALLS or name in local or name in {"if", "for", "while", "switch", "return", "catch"}:
            continue
        if name not in declared:
            problems.append(f"{example} calls {name}(...), which {swift.name} does not declare")
    if not problems and "Encounter(" not in code:
        problems.append(f"{example} never creates an Encounter")
    return problems


def run_checks(swift: Path, header: Path, library: Path, example: Path | None) -> dict[str, list[str]]:
    results = {
        "parse": check_parse(swift) + (check_parse(example) if example else []),
        "header": check_header(header),
        "symbols": check_symbols(swift, header, library),
    }
    if example:
        results["api"] = check_api(example, swift)
        results["labels"] = check_labels(example, swift)
    return results


def report(results: dict[str, list[str]]) -> bool:
    ok = True
    for name, problems in results.items():
        if problems:
            ok = False
            print(f"FAIL {name}")
            for p in problems:
                print(f"     {p}")
        else:
            print(f"ok   {name}")
    return ok


def self_test(swift: Path, header: Path, library: Path, example: Path) -> bool:
    """Each check must fail on a corrupted copy, and pass on the originals."""
    failures: list[str] = []
    good = run_checks(swift, header, library, example)
    for name, problems in good.items():
        if problems:
            failures.append(f"the good files fail {name}: {problems[:2]}")
    with tempfile.TemporaryDirectory(prefix="skirmish-swift-check-") as tmp:
        d = Path(tmp)
        text = swift.read_text()
        call = sorted(set(FFI_CALL.findall(text)))[-1]

        def expect(check: str, what: str, problems: list[str]) -> None:
            if problems:
                print(f"ok   {check} fails on {what}")
            else:
                failures.append(f"{check} passed on {what}")

        truncated = d / "truncated.swift"
        truncated.write_text(text[: len(text) * 3 // 5])
        expect("parse", "a truncated .swift", check_parse(truncated))

        unbalanced = d / "unbalanced.swift"
        i = text.index("public func ")
        unbalanced.write_text(text[:i] + "public func broken( {\n" + text[i:])
        expect("parse", "a .swift with a broken declaration", check_parse(unbalanced))

        example_text = example.read_text()
        broken_example = d / "Example.swift"
        broken_example.write_text(example_text[: len(example_text) // 2])
        expect("parse", "a truncated Example.swift", check_parse(broken_example))

        renamed = d / "Renamed.swift"
        renamed.write_text(example_text.replace("addCombatant(", "addCombatantt("))
        expect("api", "an example calling a method the bindings lack", check_api(renamed, swift))

        relabelled = d / "Relabelled.swift"
        relabelled.write_text(example_text.replace('combatant: id("Roland")', 'fighter: id("Roland")', 1))
        expect("labels", "an example passing a wrong argument label", check_labels(relabelled, swift))

        missing_arg = d / "MissingArgument.swift"
        missing_arg.write_text(example_text.replace("seed: 0)", ")", 1))
        expect("labels", "an example leaving out an argument without a default", check_labels(missing_arg, swift))

        bad_header = d / "bad.h"
        htext = header.read_text()
        j = htext.rindex(";")
        bad_header.write_text(htext[:j] + htext[j + 1 :] + "\n")
        expect("header", "a header missing a semicolon", check_header(bad_header))

        typo_header = d / "typo.h"
        typo_header.write_text(htext.replace("uint64_t", "uint64_tt", 1))
        expect("header", "a header with an unknown type", check_header(typo_header))

        missing_decl = d / "missing.h"
        missing_decl.write_text("\n".join(line for line in htext.splitlines() if call + "(" not in line) + "\n")
        expect("symbols", f"a header without {call}", check_symbols(swift, missing_decl, library))

        calls_unknown = d / "unknown.swift"
        calls_unknown.write_text(text.replace(call + "(", call + "_gone(", 1))
        expect("symbols", "a .swift calling a symbol the library lacks", check_symbols(calls_unknown, header, library))
    for f in failures:
        print(f"FAIL self-test: {f}")
    return not failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["check", "self-test"])
    ap.add_argument("--swift", type=Path, required=True)
    ap.add_argument("--header", type=Path, required=True)
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--example", type=Path, required=True)
    args = ap.parse_args()
    if args.mode == "check":
        ok = report(run_checks(args.swift, args.header, args.library, args.example))
    else:
        ok = self_test(args.swift, args.header, args.library, args.example)
    print("Swift checks " + ("passed" if ok else "FAILED") + f" ({args.mode})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
