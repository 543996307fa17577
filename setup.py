"""Build hook: the hot modules compiled with mypyc, pure Python otherwise.

``pip install .`` compiles the modules in :func:`compiled_sources` (the shell parser and
classifier, the engine's decision path, the hook adapters as a whole package, and the gate's
per-line code) into C extensions when mypyc (the build requirement ``mypy``), a C compiler and
the Python headers are present (about two and a half minutes of CPU here, the C files compiled
side by side on every core: mypy's analysis about 25 s of it, gcc the rest).
Anything missing, or any failure while compiling, gives the same package in pure Python,
silently (one line on stderr says why, which ``pip -v`` shows). Both builds decide alike
(``benchmarks/build_parity.py``) and the suite runs against both (``.ci/run``).
``CLEARANCE_PURE=1`` forces pure Python; editable installs (``pip install -e``) are always pure,
so that the checkout stays what runs. ``CLEARANCE_MYPYC_OPT`` sets the C optimisation level
(default 3, gcc -O3: the whole build 91 s of wall time here against 76 s at -O1, and 1.6% fewer
instructions in ``benchmarks/gate_instructions.py``, about 5% faster by round in
``benchmarks/gate_throughput.py``; the hook's start the same). Everything else (the packaging
metadata) is in ``pyproject.toml``.

What stays interpreted, and why: the pydantic models and the YAML loading behind them
(``engine/policy_model.py``, ``schema.py``, ``loader.py``, ``yamlsrc.py``, ``messages.py``,
``testing.py``, ``lint.py``: the slow path, behind the policy cache), the Lark table builder
(``shellparse/tables.py``), the generated LALR table (data, loaded from bytecode faster than
a compiled module builds it), the program tables' generator (``shellparse/knowledge/
generate.py``: YAML, never on the hook path), and the typer CLI. The program tables
themselves are data files (``shellparse/knowledge/*.yaml``, compiled to ``_data/*.json``,
package data), read by the compiled ``shellparse/knowledge/__init__.py``.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import sys
import sysconfig
import tempfile
from concurrent.futures import ThreadPoolExecutor
from glob import glob
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


#: A fresh build directory for every build, removed afterwards: a ``build/`` left in the
#: checkout by a compiled build would put its extensions into the next (pure) wheel.
#: ``CLEARANCE_BUILD_DIR`` keeps one instead (incremental rebuilds while working on the build).
def _build_base() -> str:
    kept = os.environ.get("CLEARANCE_BUILD_DIR")
    if kept:
        return kept
    base = tempfile.mkdtemp(prefix="clearance-build-")
    atexit.register(shutil.rmtree, base, True)
    return base


#: Interpreted on purpose (see the docstring), relative to the checkout.
INTERPRETED = frozenset(
    {
        "shellparse/tables.py",
        "shellparse/lalr_build.py",  # (tables.py's new name)
        "shellparse/_lalr_table.py",
        "shellparse/knowledge/generate.py",  # (not matched below: listed for the reader)
        "engine/policy_model.py",
        "engine/policy_schema.py",
        "engine/schema.py",
        "engine/decision_schema.py",
        "engine/loader.py",
        "engine/yamlsrc.py",
        "engine/messages.py",
        "engine/testing.py",
        "engine/policy_tests.py",
        "engine/lint.py",
        "engine/safefiles.py",  # UnsafeFile is an OSError: mypyc cannot subclass it natively
    }
)


#: mypy as the build runs it: not the project's strict configuration (that is CI's job), and
#: without the third-party packages, which a build environment does not hold (they are
#: ``Any`` to the compiled code, which calls them as Python objects).
MYPY_FLAGS = ("--config-file=", "--ignore-missing-imports")


def compiled_sources() -> list[str]:
    """The files mypyc compiles, as paths through ``clearance/`` (so that their module names
    are ``clearance.…``)."""
    found: list[str] = []
    for pattern in (
        "shellparse/*.py",
        "shellparse/handlers/*.py",
        "shellparse/lexer/*.py",
        "shellparse/knowledge/__init__.py",
        # the tables' lookups (the tables themselves are data: ``_index.py`` loads as bytecode)
        "shellparse/knowledge/autorun.py",
        "shellparse/knowledge/environment.py",
        "shellparse/knowledge/patterns.py",
        "engine/*.py",
        "hooks/*.py",
    ):
        for path in sorted(glob(pattern, root_dir=HERE)):
            if path in INTERPRETED or path.endswith("__main__.py"):
                continue
            found.append(os.path.join("clearance", path))
    # the gate's per-line code, where it lives below the CLI (hooks/gate.py is in hooks/)
    gate = os.path.join("cli", "commands", "gate.py")
    if os.path.isfile(os.path.join(HERE, gate)):
        found.append(os.path.join("clearance", gate))
    return found


def compiled_modules() -> list[str]:
    """The dotted names of the modules in :func:`compiled_sources`."""
    names = []
    for path in compiled_sources():
        name = path.removesuffix(".py").replace(os.sep, ".")
        names.append(name.removesuffix(".__init__"))
    return names


def _why_pure() -> str | None:
    """Why this build is pure Python (``None``: compile)."""
    if os.environ.get("CLEARANCE_PURE", "") not in ("", "0"):
        return "CLEARANCE_PURE is set"
    if any(arg.startswith(("editable_wheel", "develop")) for arg in sys.argv[1:]):
        return "editable install"
    if not any(arg.startswith(("bdist_wheel", "build", "install")) for arg in sys.argv[1:]):
        return "not building"  # sdist, egg_info, dist_info: no extensions needed
    include = sysconfig.get_paths().get("include") or ""
    if not os.path.isfile(os.path.join(include, "Python.h")):
        return "no Python headers"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    return None


def _extensions(build_base: str) -> list[object]:
    why = _why_pure()
    if why is not None:
        print(f"clearance: pure Python build ({why})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        return list(
            mypycify(
                [*MYPY_FLAGS, *compiled_sources()],
                opt_level=os.environ.get("CLEARANCE_MYPYC_OPT", "3"),
                debug_level="0",
                # one C file per module, compiled in parallel (one file of 450,000 lines takes
                # gcc over 10 minutes here); calls between modules stay native
                multi_file=True,
                group_name="clearance",
                target_dir=os.path.join(build_base, "mypyc"),
            )
        )
    except BaseException as exc:  # a type error, a crash: the pure build still works
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(f"clearance: pure Python build (mypyc failed: {exc!r})", file=sys.stderr)
        return []
    finally:
        os.chdir(cwd)


def _compile_in_parallel(
    compiler: Any,
    sources: list[str],
    output_dir: str | None = None,
    macros: Any = None,
    include_dirs: Any = None,
    debug: Any = False,
    extra_preargs: Any = None,
    extra_postargs: Any = None,
    depends: Any = None,
) -> list[str]:
    """``CCompiler.compile`` with the sources of one extension compiled side by side (the
    compiled modules are one extension of a C file per module)."""
    macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs
    )
    cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
    todo = [obj for obj in objects if obj in build]
    # the largest first, so that the last one to finish is small
    todo.sort(key=lambda obj: -os.path.getsize(build[obj][0]))

    def one(obj: str) -> None:
        src, ext = build[obj]
        compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for _ in pool.map(one, todo):
            pass
    return list(objects)


class OptionalBuildExt(build_ext):
    """A compiler error leaves the pure Python modules in place of every extension: no
    extension of a failed build is kept (a module's shim without the shared library it
    calls would not import)."""

    def build_extension(self, ext: Any) -> None:
        compiler = self.compiler
        if hasattr(compiler, "_setup_compile") and hasattr(compiler, "_compile"):
            compiler.compile = functools.partial(_compile_in_parallel, compiler)
        try:
            super().build_extension(ext)
        finally:
            compiler.__dict__.pop("compile", None)

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(f"clearance: pure Python build (compiling failed: {exc!r})", file=sys.stderr)
            for ext in self.extensions:
                for path in (self.get_ext_fullpath(ext.name),):
                    if os.path.exists(path):
                        os.remove(path)
            self.extensions = []


def _wheel_command() -> dict[str, Any]:
    """``bdist_wheel`` that tags a wheel by what it holds: when compiling failed (and
    ``OptionalBuildExt`` kept the sources), the wheel is pure Python, ``py3-none-any``, not
    tagged for this platform as if it held extensions."""
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
    except ImportError:  # setuptools before 70.1: the ``wheel`` package's
        try:
            from wheel.bdist_wheel import bdist_wheel  # type: ignore[import-untyped]
        except ImportError:
            return {}

    class WheelAsBuilt(bdist_wheel):  # type: ignore[misc]
        def run(self) -> None:
            if not self.skip_build:
                self.run_command("build")  # (run once: the base class's call is then a no-op)
                if not self.get_finalized_command("build_ext").extensions:
                    self.root_is_pure = True
            super().run()

    return {"bdist_wheel": WheelAsBuilt}


if __name__ == "__main__":  # setuptools runs this file; tests import it for the module list
    base = _build_base()
    setup(
        ext_modules=_extensions(base),
        cmdclass={"build_ext": OptionalBuildExt, **_wheel_command()},
        options={"build": {"build_base": base}},
    )
