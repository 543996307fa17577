"""Files that tools execute without being asked: writing one is writing code that runs later.

A test run imports ``conftest.py``, ``npm test`` runs the ``scripts`` of ``package.json``,
Python executes ``*.pth`` files at start-up, ``git commit`` runs ``.git/hooks/*``, an editor
runs ``.vscode/tasks.json``, CI runs ``.github/workflows/*``. Writing any of them (by a
redirection, ``cp``/``mv``/``ln``, an archive, a patch, or a Write/Edit tool) carries the
``sensitive_write`` marker, which the default pack asks about; and within one command line a
write of one followed by a run of anything that would load it is code execution.

``ECOSYSTEMS`` holds, per ecosystem, gitignore-style patterns over the path *inside the
workspace* (relative to its root): a pattern without a ``/`` matches a last component at any
depth (``conftest.py``), one with a ``/`` matches that path at any depth (``.vscode/tasks.json``
matches ``web/.vscode/tasks.json`` too, for nested projects); ``*`` stays in one component,
``**`` crosses them, and a pattern covers everything under what it names.
"""

from __future__ import annotations

ECOSYSTEMS: dict[str, tuple[str, ...]] = {
    "python": (
        "conftest.py",
        "pytest.ini",
        "tox.ini",
        "noxfile.py",
        "setup.py",
        "setup.cfg",
        "pyproject.toml",
        "*.pth",
        "sitecustomize.py",
        "usercustomize.py",
        ".pdbrc",
        ".pdbrc.py",
        ".venv/bin",
        "venv/bin",
        ".venv/lib/*/site-packages",
        ".tox",
        ".nox",
    ),
    "node": (
        "package.json",
        ".npmrc",
        ".yarnrc",
        ".yarnrc.yml",
        ".yarn/plugins",
        ".yarn/releases",
        ".pnpmfile.cjs",
        "pnpmfile.js",
        "bunfig.toml",
        "deno.json",
        "deno.jsonc",
        "node_modules/.bin",
        "node_modules/.hooks",
        "jest.config.*",
        "jest.setup.*",
        "vitest.config.*",
        "vitest.setup.*",
        "vite.config.*",
        "webpack.config.*",
        "rollup.config.*",
        "esbuild.config.*",
        "babel.config.*",
        ".babelrc",
        ".babelrc.*",
        "eslint.config.*",
        ".eslintrc.js",
        ".eslintrc.cjs",
        "prettier.config.*",
        ".prettierrc.js",
        ".prettierrc.cjs",
        "next.config.*",
        "nuxt.config.*",
        "svelte.config.*",
        "astro.config.*",
        "postcss.config.*",
        "tailwind.config.*",
        "playwright.config.*",
        "cypress.config.*",
        "karma.conf.*",
        ".mocharc.*",
        "turbo.json",
        "nx.json",
        "project.json",
        ".lintstagedrc*",
        "lint-staged.config.*",
    ),
    "ruby": (
        "Gemfile",
        "Rakefile",
        "*.gemspec",
        ".rspec",
        "spec/spec_helper.rb",
        ".irbrc",
        ".pryrc",
    ),
    "rust": ("build.rs", "Cargo.toml", ".cargo/config", ".cargo/config.toml", "rust-toolchain*"),
    "go": ("go.mod", "go.work"),
    "jvm": (
        "pom.xml",
        ".mvn",
        "mvnw",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "gradle.properties",
        "gradle/wrapper",
        "gradlew",
        "build.xml",
        "build.sbt",
        "project/*.sbt",
        "project/*.scala",
    ),
    "native": (
        "Makefile",
        "makefile",
        "GNUmakefile",
        "*.mk",
        "CMakeLists.txt",
        "*.cmake",
        "CMakePresets.json",
        "CMakeUserPresets.json",
        "meson.build",
        "configure",
        "configure.ac",
        "BUILD",
        "BUILD.bazel",
        "WORKSPACE",
        "WORKSPACE.bazel",
        "MODULE.bazel",
        ".bazelrc",
    ),
    "dotnet_php": (
        "*.csproj",
        "Directory.Build.props",
        "Directory.Build.targets",
        "global.json",
        "NuGet.config",
        "composer.json",
    ),
    "task_runners": (
        "justfile",
        "Justfile",
        ".justfile",
        "Taskfile.yml",
        "Taskfile.yaml",
        "Procfile",
        ".envrc",
        "mise.toml",
        ".mise.toml",
        ".tool-versions",
    ),
    "ci": (
        ".github/workflows",
        ".github/actions",
        ".gitlab-ci.yml",
        ".circleci",
        "azure-pipelines.yml",
        ".travis.yml",
        "Jenkinsfile",
        ".buildkite",
        "bitbucket-pipelines.yml",
        ".drone.yml",
    ),
    "editors": (
        ".vscode/tasks.json",
        ".vscode/settings.json",
        ".vscode/launch.json",
        ".idea/workspace.xml",
        ".idea/runConfigurations",
        ".nvim.lua",
        ".nvimrc",
        ".exrc",
    ),
    "dev_containers": (".devcontainer", ".devcontainer.json"),
    "git": (
        ".git",
        ".gitmodules",
        ".gitattributes",
        ".pre-commit-config.yaml",
        ".husky",
        "lefthook.yml",
        ".lefthook.yml",
    ),
}


_GLOB = frozenset("*?[")
#: Built on first use: names (a component anywhere), component globs, multi-component paths.
_INDEX: list[tuple[frozenset[str], tuple[str, ...], tuple[tuple[str, ...], ...]]] = []


def _index() -> tuple[frozenset[str], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    if not _INDEX:
        names: set[str] = set()
        globs: list[str] = []
        paths: list[tuple[str, ...]] = []
        for patterns in ECOSYSTEMS.values():
            for pattern in patterns:
                if "/" in pattern:
                    paths.append(tuple(pattern.split("/")))
                elif _GLOB.intersection(pattern):
                    globs.append(pattern)
                else:
                    names.add(pattern)
        _INDEX.append((frozenset(names), tuple(globs), tuple(paths)))
    return _INDEX[0]


def star_match(name: str, pattern: str) -> bool:
    """``fnmatch`` for patterns whose only wildcard is ``*`` -- the only one the tables use
    (a test holds it) -- without compiling a regular expression (a hook call is short)."""
    if "*" not in pattern:
        return name == pattern
    pieces = pattern.split("*")
    head, tail = pieces[0], pieces[-1]
    if len(name) < len(head) + len(tail) or not name.startswith(head) or not name.endswith(tail):
        return False
    at = len(head)
    end = len(name) - len(tail)
    for piece in pieces[1:-1]:
        found = name.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _component(name: str, pattern: str) -> bool:
    return star_match(name, pattern)


def _matches(parts: list[str], pattern: str) -> bool:
    """Whether ``pattern`` (no ``/``) names one of ``parts`` -- the file or a directory above
    it, since a pattern covers what is under what it names."""
    return any(_component(part, pattern) for part in parts)


def runs_later(relative: str) -> bool:
    """Whether ``relative`` (a path inside the workspace, relative to its root) is, or is
    under, a file that tools execute without being asked."""
    return ecosystem_of(relative) is not None


def ecosystem_of(relative: str) -> str | None:
    """The ecosystem whose pattern matches ``relative`` (``None`` when none does)."""
    parts = [p for p in relative.split("/") if p]
    if not parts:
        return None
    names, globs, paths = _index()
    if names.isdisjoint(parts) and not any(_matches(parts, g) for g in globs):
        hit = False
        for path in paths:
            size = len(path)
            for start in range(len(parts) - size + 1):
                if all(_component(parts[start + i], path[i]) for i in range(size)):
                    hit = True
                    break
            if hit:
                break
        if not hit:
            return None
    for ecosystem, patterns in ECOSYSTEMS.items():
        for pattern in patterns:
            wanted = pattern.split("/")
            size = len(wanted)
            for start in range(len(parts) - size + 1):
                if all(_component(parts[start + i], wanted[i]) for i in range(size)):
                    return ecosystem
    return None
