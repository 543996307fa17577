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

import re

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


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


_MATCHER: list[re.Pattern[str]] = []


def _matcher() -> re.Pattern[str]:
    if not _MATCHER:
        bodies = [_translate(p) for patterns in ECOSYSTEMS.values() for p in patterns]
        _MATCHER.append(re.compile(r"(?:.*/)?(?:" + "|".join(bodies) + r")(?:/.*)?"))
    return _MATCHER[0]


def runs_later(relative: str) -> bool:
    """Whether ``relative`` (a path inside the workspace, relative to its root) is, or is
    under, a file that tools execute without being asked."""
    return _matcher().fullmatch(relative) is not None


def ecosystem_of(relative: str) -> str | None:
    """The ecosystem whose pattern matches ``relative`` (for explanations), or ``None``."""
    if not runs_later(relative):
        return None
    for name, patterns in ECOSYSTEMS.items():
        for pattern in patterns:
            body = _translate(pattern)
            if re.fullmatch(r"(?:.*/)?" + body + r"(?:/.*)?", relative):
                return name
    return None
