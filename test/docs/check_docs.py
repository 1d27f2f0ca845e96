#!/usr/bin/python3
"""Checks that the code blocks of docs/*.md still match what they quote.

A block is bound to its source by an HTML comment on the line right before its fence:

    <!-- snippet: examples/foo.cpp -->         the block equals the whole file
    <!-- snippet: examples/foo.cpp#name -->    the block equals the lines between
                                               `// [snippet:name]` and `// [/snippet]`
                                               (`#` instead of `//` in Python and shell files)
    <!-- output: examples/foo.cpp -->          a ```text block equal to the standard output
                                               of the built example ctir_example_foo (a .py
                                               example runs with this Python)
    <!-- command: ctir-opt -O3 model.ctir -->  a ```text block equal to the standard output
                                               and standard error of the command, run in
                                               (a copy of) test/data/tools with the built tools

` filter=times` at the end of an output or command comment replaces durations and
percentages by a placeholder on both sides before comparing. ` excerpt` there instead asks
for a block that is a run of consecutive lines of the output rather than all of it (a page
that quotes the part of an output it is explaining).

What does not exist yet is skipped, and said so: a file a snippet names, an example or a
tool that was not built. Everything else that does not match is an error naming the page,
the line and the first differing line. Exit status: 0 when every checked block matches,
1 otherwise, 2 for bad arguments. With --update, a block that differs is replaced by what
it quotes (review the change before committing it).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!--\s*(snippet|output|command):\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^`\s]*)\s*$")
REGION_START = re.compile(r"^\s*(?://|#)\s*\[snippet:([A-Za-z0-9_.-]+)\]\s*$")
REGION_END = re.compile(r"^\s*(?://|#)\s*\[/snippet\]\s*$")
# A duration (a number and a time unit) or a percentage, with the blanks that align it.
TIMES = re.compile(r"[ \t]*[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[ \t]*"
                   r"(?:ns|us|\u00b5s|ms|s|sec|min|%)(?![A-Za-z0-9_])")
TIME_PLACEHOLDER = " <time>"
COMMAND_TIMEOUT = 120


class CheckError(Exception):
    """A block that does not match; the message names the page and line."""


class Skipped(Exception):
    """A block whose source does not exist (yet): reported, not an error."""


class Settings:
    def __init__(self, source_dir, examples_dir=None, tools=None, python_path=None,
                 python=sys.executable):
        self.source_dir = os.path.abspath(source_dir)
        self.examples_dir = os.path.abspath(examples_dir) if examples_dir else None
        self.tools = {name: os.path.abspath(path) for name, path in (tools or {}).items()}
        self.python_path = python_path
        self.python = python
        self._tools_copy = None

    def tools_workdir(self):
        """A private copy of test/data/tools, so that commands writing files leave the
        source tree alone and parallel runs do not meet."""
        if self._tools_copy is None:
            original = os.path.join(self.source_dir, "test", "data", "tools")
            if not os.path.isdir(original):
                raise Skipped("test/data/tools does not exist")
            root = tempfile.mkdtemp(prefix="ctir_docs_")
            self._tools_copy = os.path.join(root, "tools")
            shutil.copytree(original, self._tools_copy)
        return self._tools_copy

    def cleanup(self):
        if self._tools_copy is not None:
            shutil.rmtree(os.path.dirname(self._tools_copy), ignore_errors=True)
            self._tools_copy = None


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def parse_blocks(page_path, shown):
    """The bound blocks of a page: (kind, argument, marker line, first content line, lines).

    Raises CheckError for a marker without a fence after it, or a fence never closed."""
    lines = read_lines(page_path)
    page_path = shown
    blocks = []
    i = 0
    while i < len(lines):
        match = MARKER.match(lines[i].strip())
        if not match:
            i += 1
            continue
        marker_line = i + 1
        kind, argument = match.group(1), match.group(2)
        if i + 1 >= len(lines) or not FENCE.match(lines[i + 1]):
            raise CheckError(f"{page_path}:{marker_line}: the {kind} comment is not followed "
                             "by a fenced code block on the next line")
        fence = FENCE.match(lines[i + 1])
        opener, info = fence.group(1), fence.group(2)
        if kind in ("output", "command") and info != "text":
            raise CheckError(f"{page_path}:{marker_line + 1}: an {kind} block must be a "
                             f"```text block, not ```{info}")
        body = []
        j = i + 2
        while j < len(lines):
            closing = lines[j].strip()
            if closing and set(closing) == {opener[0]} and len(closing) >= len(opener):
                break
            body.append(lines[j])
            j += 1
        else:
            raise CheckError(f"{page_path}:{marker_line + 1}: the code block is never closed")
        blocks.append((kind, argument, marker_line, marker_line + 2, body))
        i = j + 1
    return blocks


def split_filter(argument):
    """`ctir-opt x filter=times excerpt` -> ("ctir-opt x", {"times", "excerpt"})."""
    filters = set()
    words = argument.split()
    while words and (words[-1].startswith("filter=") or words[-1] == "excerpt"):
        word = words.pop()
        if word == "excerpt":
            filters.add(word)
        else:
            filters.update(f for f in word[len("filter="):].split(",") if f)
    unknown = filters - {"times", "excerpt"}
    if unknown:
        raise ValueError(f"unknown filter {', '.join(sorted(unknown))} (known: times)")
    return " ".join(words), filters


def filter_times(lines):
    return [TIMES.sub(TIME_PLACEHOLDER, line) for line in lines]


def snippet_lines(settings, argument):
    path, _, region = argument.partition("#")
    full = os.path.join(settings.source_dir, path)
    if not os.path.isfile(full):
        raise Skipped(f"{path} does not exist")
    lines = read_lines(full)
    if not region:
        return lines
    start = None
    for number, line in enumerate(lines):
        match = REGION_START.match(line)
        if match and match.group(1) == region:
            if start is not None:
                raise ValueError(f"{path} has two regions named '{region}'")
            start = number + 1
    if start is None:
        raise ValueError(f"{path} has no region `[snippet:{region}]`")
    for number in range(start, len(lines)):
        if REGION_END.match(lines[number]):
            return lines[start:number]
        if REGION_START.match(lines[number]):
            break
    raise ValueError(f"the region '{region}' of {path} is not closed by `[/snippet]`")


def run(argv, cwd, env=None, merge_stderr=True):
    """Runs a program: (its output lines, its standard error lines, its exit status). With
    `merge_stderr`, the output is standard output and standard error as they interleave."""
    try:
        result = subprocess.run(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE,
                                timeout=COMMAND_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise ValueError(f"`{' '.join(argv)}` did not finish in {COMMAND_TIMEOUT} s")

    def lines(data):
        return (data or b"").decode("utf-8", errors="replace").splitlines()

    return lines(result.stdout), lines(result.stderr), result.returncode


def python_env(settings):
    env = dict(os.environ)
    if settings.python_path:
        env["PYTHONPATH"] = settings.python_path + os.pathsep + env.get("PYTHONPATH", "")
    return env


def output_lines(settings, argument):
    path, _ = split_filter(argument)
    source = os.path.join(settings.source_dir, path)
    if not os.path.isfile(source):
        raise Skipped(f"{path} does not exist")
    if path.endswith(".py"):
        if settings.python_path is None:
            raise Skipped(f"{path}: the Python frontend was not built")
        lines, errors, status = run([settings.python, source], os.path.dirname(source),
                                    python_env(settings), merge_stderr=False)
    else:
        if not settings.examples_dir:
            raise Skipped(f"{path}: the examples were not built")
        name = os.path.splitext(os.path.basename(path))[0]
        program = os.path.join(settings.examples_dir, "ctir_example_" + name)
        if not os.path.isfile(program):
            raise ValueError(f"the example program {program} was not built")
        lines, errors, status = run([program], settings.examples_dir, merge_stderr=False)
    if status != 0:
        raise ValueError(f"{path} exited with status {status}:\n    " +
                         "\n    ".join((lines + errors)[-10:]))
    return lines


def command_lines(settings, argument):
    command, _ = split_filter(argument)
    argv = shlex.split(command)
    if not argv:
        raise ValueError("the command is empty")
    tool = argv[0]
    if tool not in settings.tools:
        raise Skipped(f"the tool {tool} was not built")
    program = settings.tools[tool]
    if not os.path.isfile(program):
        raise Skipped(f"the tool {tool} was not built ({program})")
    if program.endswith(".py"):
        argv = [settings.python, program] + argv[1:]
    else:
        argv = [program] + argv[1:]
    lines, _, _ = run(argv, settings.tools_workdir())
    return lines


def is_excerpt(expected, found):
    """Whether `found` is a run of consecutive lines of `expected`."""
    n = len(found)
    return n > 0 and any(expected[i:i + n] == found for i in range(len(expected) - n + 1))


def first_difference(expected, found):
    for index, (a, b) in enumerate(zip(expected, found)):
        if a != b:
            return index, a, b
    n = min(len(expected), len(found))
    if len(expected) == len(found):
        return None
    return (n, expected[n] if n < len(expected) else "<end of block>",
            found[n] if n < len(found) else "<end of block>")


def check_page(settings, page_path, report, shown=None, update=False):
    """Checks one page (named `shown` in messages); returns the list of error messages.
    With `update`, rewrites the blocks that differ and reports them instead."""
    shown = shown or page_path
    errors = []
    replacements = []
    try:
        blocks = parse_blocks(page_path, shown)
    except CheckError as error:
        return [str(error)]
    for kind, argument, marker_line, first_line, body in blocks:
        where = f"{shown}:{marker_line}"
        try:
            if kind == "snippet":
                expected = snippet_lines(settings, argument)
                filters = set()
            else:
                _, filters = split_filter(argument)
                expected = (output_lines if kind == "output" else command_lines)(settings,
                                                                                 argument)
        except Skipped as skip:
            report(f"skipped: {where}: {kind} {argument}: {skip}")
            continue
        except (ValueError, OSError) as error:
            errors.append(f"{where}: {kind} {argument}: {error}")
            continue
        found = body
        raw_expected = expected
        if "times" in filters:
            expected, found = filter_times(expected), filter_times(found)
        if "excerpt" in filters:
            if is_excerpt(expected, found):
                report(f"ok: {where}: {kind} {argument}")
            else:
                source = "the program's output" if kind == "output" else "the command's output"
                errors.append(f"{shown}:{first_line}: {kind} {argument}: the block is not a run "
                              f"of consecutive lines of {source} (its first line: "
                              f"{found[0] if found else '<empty>'})")
            continue
        difference = first_difference(expected, found)
        if difference is None:
            report(f"ok: {where}: {kind} {argument}")
            continue
        index, want, have = difference
        if update:
            replacements.append((first_line, len(body), raw_expected))
            report(f"updated: {where}: {kind} {argument}")
            continue
        source = {"snippet": "the file", "output": "the program's output",
                  "command": "the command's output"}[kind]
        errors.append(f"{shown}:{first_line + index}: {kind} {argument}: the block differs "
                      f"from {source} at its line {index + 1}:\n"
                      f"    {source}: {want}\n"
                      f"    the page: {have}")
    if replacements:
        lines = read_lines(page_path)
        for first, length, new in reversed(replacements):
            lines[first - 1:first - 1 + length] = new
        with open(page_path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return errors


def parse_tool(text):
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got '{text}'")
    return name, path


def main(argv=None, out=sys.stdout):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source-dir", required=True, help="the root of the ctir sources")
    parser.add_argument("--examples-dir", help="where the built ctir_example_* programs are")
    parser.add_argument("--tool", action="append", type=parse_tool, default=[],
                        metavar="NAME=PATH", help="a built tool (ctir-opt=/path/to/ctir-opt)")
    parser.add_argument("--tools-dir",
                        help="where the built tools are (a command's first word names one)")
    parser.add_argument("--python-path", help="PYTHONPATH for .py examples (the built frontend)")
    parser.add_argument("--update", action="store_true",
                        help="replace each block that differs by what it quotes")
    parser.add_argument("--quiet", action="store_true", help="report errors and skips only")
    parser.add_argument("pages", nargs="*",
                        help="the pages to check (default: every docs/*.md of the sources)")
    args = parser.parse_args(argv)

    tools = {}
    if args.tools_dir and os.path.isdir(args.tools_dir):
        tools = {name: os.path.join(args.tools_dir, name) for name in os.listdir(args.tools_dir)
                 if os.access(os.path.join(args.tools_dir, name), os.X_OK)}
    tools.update(dict(args.tool))
    settings = Settings(args.source_dir, args.examples_dir, tools, args.python_path)
    pages = args.pages
    if not pages:
        docs = os.path.join(settings.source_dir, "docs")
        pages = sorted(os.path.join(docs, name) for name in os.listdir(docs)
                       if name.endswith(".md"))

    def report(line):
        if not args.quiet or not line.startswith("ok:"):
            print(line, file=out)

    errors = []
    checked = 0
    try:
        for page in pages:
            shown = os.path.relpath(os.path.abspath(page), settings.source_dir)
            errors.extend(check_page(settings, page, report, shown, args.update))
            checked += 1
    finally:
        settings.cleanup()
    for error in errors:
        print("error: " + error, file=out)
    print(f"{checked} page(s) checked, {len(errors)} error(s)", file=out)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
