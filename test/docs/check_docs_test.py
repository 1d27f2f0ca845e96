#!/usr/bin/python3
"""Tests of check_docs.py on the small pages of fixtures/docs: which pass, and the message
of each that must fail."""

import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_docs  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures")


def check(page):
    """Runs the checker on fixtures/docs/<page>; returns (exit status, output)."""
    out = io.StringIO()
    status = check_docs.main([
        "--source-dir", FIXTURES,
        "--python-path", "",
        "--tool", "fake-tool=" + os.path.join(FIXTURES, "tools", "fake-tool.py"),
        os.path.join(FIXTURES, "docs", page),
    ], out=out)
    return status, out.getvalue()


class CheckDocsTest(unittest.TestCase):
    def assert_fails_with(self, page, *texts):
        status, output = check(page)
        self.assertEqual(status, 1, output)
        for text in texts:
            self.assertIn(text, output)
        self.assertIn("1 page(s) checked, 1 error(s)", output)

    def test_a_page_whose_blocks_match_passes_and_says_what_it_skipped(self):
        status, output = check("good.md")
        self.assertEqual(status, 0, output)
        self.assertEqual(output.count("ok: "), 5, output)
        self.assertIn("skipped: docs/good.md:52: snippet examples/later.cpp: "
                      "examples/later.cpp does not exist", output)
        self.assertIn("skipped: docs/good.md:57: command not-built-tool --help: "
                      "the tool not-built-tool was not built", output)

    def test_an_examples_standard_error_is_not_part_of_its_output(self):
        status, output = check("good_stderr.md")
        self.assertEqual(status, 0, output)
        self.assertIn("ok: docs/good_stderr.md:3: output examples/noisy.py", output)

    def test_a_changed_line_of_a_region_is_named_with_its_page_line(self):
        self.assert_fails_with(
            "snippet_differs.md",
            "error: docs/snippet_differs.md:6: snippet examples/sample.cpp#body: the block "
            "differs from the file at its line 2:",
            "    the file:   return answer - 42;",
            "    the page:   return answer - 41;")

    def test_a_block_missing_the_files_last_line_fails(self):
        self.assert_fails_with(
            "snippet_shorter.md",
            "docs/snippet_shorter.md:6: snippet examples/sample.cpp#body",
            "the file:   return answer - 42;", "the page: <end of block>")

    def test_a_region_the_file_lacks_is_an_error(self):
        self.assert_fails_with(
            "no_region.md", "docs/no_region.md:3: snippet examples/sample.cpp#missing: "
            "examples/sample.cpp has no region `[snippet:missing]`")

    def test_an_extra_output_line_fails(self):
        self.assert_fails_with(
            "output_differs.md", "docs/output_differs.md:7: output examples/hello.py",
            "the program's output: <end of block>", "the page: one more line")

    def test_an_excerpt_matches_a_run_of_lines_of_the_output(self):
        status, output = check("good_excerpt.md")
        self.assertEqual(status, 0, output)
        self.assertIn("ok: docs/good_excerpt.md:3: output examples/hello.py excerpt", output)

    def test_an_excerpt_that_is_not_in_the_output_fails(self):
        self.assert_fails_with(
            "excerpt_differs.md",
            "docs/excerpt_differs.md:5: output examples/hello.py excerpt: the block is not a "
            "run of consecutive lines of the program's output (its first line: hello from an "
            "example)")

    def test_durations_differ_unless_filtered(self):
        self.assert_fails_with(
            "times_unfiltered.md", "docs/times_unfiltered.md:6:",
            "the program's output: took 12.5 ms, 3.0% of the run")

    def test_an_example_that_fails_is_an_error_with_its_output(self):
        self.assert_fails_with(
            "output_fails.md", "docs/output_fails.md:3: output examples/failing.py: "
            "examples/failing.py exited with status 3", "about to fail")

    def test_a_commands_standard_error_is_compared_too(self):
        self.assert_fails_with(
            "command_differs.md", "docs/command_differs.md:7: command fake-tool input.txt",
            "the command's output: a warning on stderr",
            "the page: a warning on standard error")

    def test_a_comment_without_a_block_is_an_error(self):
        self.assert_fails_with(
            "no_fence.md", "docs/no_fence.md:3: the output comment is not followed by a "
            "fenced code block on the next line")

    def test_an_output_block_must_be_text(self):
        self.assert_fails_with("not_text.md", "docs/not_text.md:4: an output block must be a "
                               "```text block, not ```console")

    def test_an_unclosed_block_is_an_error(self):
        self.assert_fails_with("unclosed.md", "docs/unclosed.md:4: the code block is never closed")

    def test_every_fixture_but_the_good_ones_fails(self):
        pages = sorted(os.listdir(os.path.join(FIXTURES, "docs")))
        self.assertGreaterEqual(len(pages), 10)
        for page in pages:
            status, output = check(page)
            self.assertEqual(status, 0 if page.startswith("good") else 1, page + ":\n" + output)

    def test_the_times_filter_replaces_durations_and_percentages_only(self):
        self.assertEqual(check_docs.filter_times(["  1.5 ms  12.0%  3 passes 2s"]),
                         [" <time> <time>  3 passes <time>"])
        self.assertEqual(check_docs.filter_times(["O3 x86 v1.2 10 items"]),
                         ["O3 x86 v1.2 10 items"])

    def test_update_rewrites_the_blocks_that_differ_and_then_they_match(self):
        import shutil
        import tempfile
        root = tempfile.mkdtemp()
        try:
            tree = os.path.join(root, "tree")
            shutil.copytree(FIXTURES, tree)
            page = os.path.join(tree, "docs", "snippet_differs.md")
            args = ["--source-dir", tree, page]
            self.assertEqual(check_docs.main(["--update"] + args, out=io.StringIO()), 0)
            with open(page) as f:
                self.assertIn("  return answer - 42;\n```", f.read())
            self.assertEqual(check_docs.main(args, out=io.StringIO()), 0)
        finally:
            shutil.rmtree(root)

    def test_an_unknown_filter_is_an_error(self):
        with self.assertRaises(ValueError):
            check_docs.split_filter("ctir-opt x filter=colours")


if __name__ == "__main__":
    unittest.main()
