"""The layers hold: the core imports no job folder; job folders never import the command line."""

import ast
import functools
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "drumscore"
JOBS = (
    "conductor",
    "render",
    "files",
    "play",
    "editions",
    "analysis",
    "apparatus",
    "site",
    "performance",
)
#: The core's modules at the top level of the package.
TOP = sorted(p for p in PACKAGE.glob("*.py") if p.name not in {"__init__.py", "__main__.py"})
#: The core's packages: the model, one idea in modules of its own (drumscore.model).
CORE_PACKAGES = ("model",)
#: Every file of the core, the top level's modules and the core packages' files.
CORE = TOP + sorted(p for name in CORE_PACKAGES for p in (PACKAGE / name).rglob("*.py"))
#: Leaves of a job folder that the core may use: they import nothing of drumscore but errors
#: and the catalogs (i18n, which imports nothing of drumscore).
LEAVES = {"drumscore.files.reading"}
LEAF_IMPORTS = {"drumscore.errors", "drumscore.i18n"}


def every_import(path: Path) -> set[str]:
    """Every module a file imports, as a dotted name, wherever the import stands (at the top,
    in a function, under `if`), and every module named to importlib.import_module or in a lazy
    table as a "drumscore.…" string."""
    return set(_imports(path)[0])


@functools.cache
def _imports(path: Path) -> tuple[frozenset[str], tuple[int, ...]]:
    """What every_import says of a file, and the lines of its relative imports: the file parsed
    once for every check that asks."""
    names = set()
    relative = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            relative.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            if node.module == "drumscore":  # from drumscore import site
                names.update(f"drumscore.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"drumscore(\.\w+)+|jinja2(\.\w+)*", node.value)
        ):
            names.add(node.value)
    return frozenset(names), tuple(relative)


def imported(path: Path) -> set[str]:
    """Every drumscore module a file imports, as a dotted name."""
    return {n for n in every_import(path) if n.split(".")[0] == "drumscore"}


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_imports_no_job_folder(path):
    outward = {n for n in imported(path) if n.split(".")[1:2] and n.split(".")[1] in (*JOBS, "cli")}
    outward = {
        n for n in outward if not any(n == leaf or n.startswith(leaf + ".") for leaf in LEAVES)
    }
    assert outward == set(), f"{path.relative_to(PACKAGE)} reaches out to {sorted(outward)}"


#: What the package itself (drumscore/__init__.py) and the core may never import, at any time.
NEVER_FROM_THE_CORE = ("drumscore.site", "drumscore.cli", "jinja2")


@pytest.mark.parametrize(
    "path", [PACKAGE / "__init__.py", *CORE], ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_the_package_and_the_core_never_import_the_site_the_command_line_or_jinja2(path):
    """Not at the top, not in a function, not under `if "IPython" in sys.modules`, not by name."""
    reached = {
        n
        for n in every_import(path)
        for top in NEVER_FROM_THE_CORE
        if n.split(".")[: top.count(".") + 1] == top.split(".")
    }
    assert reached == set(), f"{path.relative_to(PACKAGE)} imports {sorted(reached)}"


def test_the_layering_check_sees_an_import_inside_a_function_under_if(tmp_path):
    """The check itself could fail: a hook written as the old one was is caught."""
    hook = tmp_path / "hook.py"
    hook.write_text(
        "import sys\n"
        "def show():\n"
        "    if 'IPython' in sys.modules:\n"
        "        from drumscore.site.notebook import register\n"
        "        import jinja2\n"
        "        register()\n",
        encoding="utf-8",
    )
    assert {"drumscore.site.notebook", "jinja2"} <= every_import(hook)


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_the_leaves_the_core_may_use_import_only_errors(leaf):
    path = PACKAGE.joinpath(*leaf.split(".")[1:]).with_suffix(".py")
    assert imported(path) <= LEAF_IMPORTS


def test_the_catalogs_import_nothing_of_drumscore():
    assert imported(PACKAGE / "i18n.py") == set()


@pytest.mark.parametrize("job", JOBS)
def test_no_job_folder_imports_the_command_line(job):
    for path in (PACKAGE / job).rglob("*.py"):
        cli = {n for n in imported(path) if n.startswith("drumscore.cli")}
        assert cli == set(), f"{path.relative_to(PACKAGE)} imports {sorted(cli)}"


def test_the_top_level_holds_a_small_core():
    """A core package counts as one module of the top level."""
    top = [p.name for p in TOP] + [f"{name}/" for name in CORE_PACKAGES]
    assert len(top) <= 8, top


def test_every_core_package_is_a_package_so_the_checks_see_its_files():
    for name in CORE_PACKAGES:
        assert (PACKAGE / name / "__init__.py").is_file(), name


def test_relative_imports_are_not_used_so_the_layering_check_sees_every_import():
    for path in PACKAGE.rglob("*.py"):
        relative = _imports(path)[1]
        assert not relative, f"{path.relative_to(PACKAGE)} line {relative[0]}"


FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def string_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal in a file, docstrings and f-strings included."""
    found = []
    with path.open("rb") as file:
        for token in tokenize.tokenize(file.readline):
            if token.type == tokenize.STRING or token.type == getattr(
                tokenize, "FSTRING_MIDDLE", -1
            ):
                found.append((token.start[0], token.string))
    return found


def test_only_the_command_line_names_command_line_flags():
    """The library's messages name parameters (bpm), never flags (--bpm): the CLI adds those."""
    flagged = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "cli") in path.parents:
            continue
        if not FLAG.search(path.read_text(encoding="utf-8")):
            continue  # a string literal is text of its file: none names a flag here
        for line, text in string_literals(path):
            flagged += [f"{path.relative_to(PACKAGE)}:{line}: {m}" for m in FLAG.findall(text)]
    assert flagged == []
