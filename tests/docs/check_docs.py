#!/usr/bin/python3
"""Checks the documentation's references against the repository.

    python3 tests/docs/check_docs.py <repo_root> [--citations]

For README.md, docs/**/*.md and bench/results/README.md:

- every relative markdown link `[text](path)` and `[text](path#anchor)` names a
  file or directory that exists (relative to the markdown file), and every
  `#anchor` of a link to a markdown file in the repository is a heading of
  that file (GitHub's slugs: lower case, punctuation dropped, spaces as
  hyphens, `-1`, `-2` for repeats);
- every `backticked` repository path (one starting with a top-level directory
  of the repository, such as `scripts/demo.sh` or `tests/kernels/`; globs and
  `{a,b}` alternatives allowed) exists, relative to the repository root;
- every backticked dated result file (`2026-11-30-....csv|txt`) exists in
  bench/results/;
- README.md has at most 300 lines.

Paths under build directories, placeholders (`<stem>`, `...`) and code blocks
are not checked. Prints what is missing and a summary line
`docs: N passed, M failed`; exits 1 when something failed, 2 on bad usage.

With --citations it also lists (without failing) the comments in the code
that still cite a section of the README ("README, "Math functions"" and the
like), for moving them to the docs/ pages.

Standard library only.
"""
import glob
import os
import re
import sys

MAX_README_LINES = 300
# Top-level directories whose paths a backticked name is taken to be.
REPO_DIRS = ("bench", "cmake", "docs", "examples", "fuzz", "generated", "generator", "runtime", "scripts",
             "templates", "tests", ".ci")
DATED = re.compile(r"^\d{4}-\d\d-\d\d-[A-Za-z0-9._-]+\.(csv|txt)$")
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files(root):
    files = [os.path.join(root, "README.md"), os.path.join(root, "bench", "results", "README.md")]
    for dirpath, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".md")]
    return [f for f in files if os.path.isfile(f)]


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    in_fence = False
    previous_blank, in_indented = True, False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        # An indented code block: indented by 4 after a blank line (or more
        # of it), and not a list item.
        indented = line.startswith("    ") and not re.match(r"\s*([-*+]|\d+\.)\s", line)
        in_indented = indented and (previous_blank or in_indented)
        previous_blank = not line.strip()
        if not in_indented:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose_lines(open(path, encoding="utf-8").read()):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def expand_braces(pattern):
    m = re.search(r"\{([^{}]*)\}", pattern)
    if not m:
        return [pattern]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(pattern[:m.start()] + alt + pattern[m.end():])
    return out


def path_exists(root, relative):
    full = os.path.join(root, relative)
    if any(c in relative for c in "*?["):
        return bool(glob.glob(full))
    return os.path.exists(full)


def check_file(root, md, failures):
    passed = 0
    text = open(md, encoding="utf-8").read()
    rel_md = os.path.relpath(md, root)
    here = os.path.dirname(md)
    for number, line in prose_lines(text):
        where = f"{rel_md}:{number}"
        # Markdown links (the code spans taken out first: `[a](b)` in code is text).
        plain = CODE_SPAN.sub("", line)
        for target in LINK.findall(plain) + IMAGE.findall(plain):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(here, path)) if path else md
            if not os.path.exists(full):
                failures.append(f"{where}: link to a missing file: {target}")
                continue
            passed += 1
            if anchor and full.endswith(".md") and os.path.commonpath([os.path.abspath(full), root]) == root:
                if anchor in anchors(full):
                    passed += 1
                else:
                    failures.append(f"{where}: no heading '#{anchor}' in {os.path.relpath(full, root)}")
        # Backticked repository paths and dated result files.
        for _, span in CODE_SPAN.findall(line):
            token = span.strip()
            if " " in token or "<" in token or "..." in token or "…" in token or "$" in token:
                continue
            if DATED.match(token):
                if path_exists(root, os.path.join("bench", "results", token)):
                    passed += 1
                else:
                    failures.append(f"{where}: missing result file bench/results/{token}")
                continue
            if "/" not in token or not re.match(r"^[A-Za-z0-9_.{}*?,/+-]+$", token):
                continue
            if token.split("/", 1)[0] not in REPO_DIRS:
                continue
            for candidate in expand_braces(token):
                if path_exists(root, candidate.rstrip("/") if candidate.endswith("/") else candidate):
                    passed += 1
                else:
                    failures.append(f"{where}: missing path `{candidate}`")
    return passed


def citations(root):
    """Comments and strings in the code that cite a README section."""
    # Any mention of the top-level README, not of another directory's README.
    cite = re.compile(r"(?<![/\w])README")
    other = re.compile(r"\w+/README|README\.md\"|-x README\.md|-name README\.md")
    exts = (".cpp", ".h", ".inl", ".c", ".sh", ".py", ".yaml", ".mustache", ".cmake", ".txt", ".js", ".sollya")
    found = []
    for top in REPO_DIRS:
        if top == "docs":
            continue
        for dirpath, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("corpus", "node_modules") and not d.startswith("build")]
            for n in sorted(names):
                if not n.endswith(exts) and n != "CMakeLists.txt":
                    continue
                p = os.path.join(dirpath, n)
                if os.path.abspath(p) == os.path.abspath(__file__):
                    continue
                try:
                    lines = open(p, encoding="utf-8", errors="replace").read().splitlines()
                except OSError:
                    continue
                for i, line in enumerate(lines, 1):
                    if cite.search(other.sub("", line)):
                        found.append(f"{os.path.relpath(p, root)}:{i}: {line.strip()}")
    return found


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    flags = [a for a in argv[1:] if a.startswith("--")]
    if len(args) != 1 or any(f != "--citations" for f in flags):
        print("usage: check_docs.py <repo_root> [--citations]", file=sys.stderr)
        return 2
    root = os.path.abspath(args[0])
    if not os.path.isfile(os.path.join(root, "README.md")):
        print(f"check_docs.py: no README.md in {root}", file=sys.stderr)
        return 2
    failures = []
    passed = 0
    lines = len(open(os.path.join(root, "README.md"), encoding="utf-8").read().splitlines())
    if lines <= MAX_README_LINES:
        passed += 1
    else:
        failures.append(f"README.md: {lines} lines, more than {MAX_README_LINES}")
    for md in markdown_files(root):
        passed += check_file(root, md, failures)
    for f in failures:
        print(f)
    if "--citations" in flags:
        for c in citations(root):
            print(f"citation: {c}")
    print(f"docs: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
