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

from clearance.shellparse.knowledge.patterns import Split, first, split, star_match

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


__all__ = ["ECOSYSTEMS", "autorun_index", "ecosystem_of", "runs_later", "star_match"]

#: Patterns over several components, by their first (literal) component:
#: ``(ecosystem's position, the components, ecosystem)``.
PathIndex = dict[str, tuple[tuple[int, tuple[str, ...], str], ...]]


def autorun_index() -> tuple[Split, PathIndex]:
    """``ECOSYSTEMS`` as dictionaries (written into the generated ``_index`` by
    ``python -m clearance.shellparse.knowledge``): one-component patterns split by
    ``patterns.split`` with the ecosystem's position, and the multi-component ones by their
    first component, which must be literal."""
    names: list[tuple[str, str]] = []
    positions: list[int] = []
    paths: dict[str, list[tuple[int, tuple[str, ...], str]]] = {}
    for position, (ecosystem, patterns) in enumerate(ECOSYSTEMS.items()):
        for pattern in patterns:
            if "/" in pattern:
                head, *rest = pattern.split("/")
                if "*" in head or not rest:
                    raise ValueError(f"autorun pattern {pattern!r}: the first component is a glob")
                paths.setdefault(head, []).append((position, (head, *rest), ecosystem))
            else:
                names.append((pattern, ecosystem))
                positions.append(position)
    exact, prefixes, suffixes, plen, slen, others = split(names)

    # ``split`` numbers the patterns; the order that counts is the ecosystems'
    def eco(entry: tuple[int, str]) -> tuple[int, str]:
        return positions[entry[0]], entry[1]

    return (
        (
            {k: eco(v) for k, v in exact.items()},
            {k: eco(v) for k, v in prefixes.items()},
            {k: eco(v) for k, v in suffixes.items()},
            plen,
            slen,
            tuple((positions[i], p, v) for i, p, v in others),
        ),
        {k: tuple(v) for k, v in paths.items()},
    )


def runs_later(relative: str) -> bool:
    """Whether ``relative`` (a path inside the workspace, relative to its root) is, or is
    under, a file that tools execute without being asked."""
    return ecosystem_of(relative) is not None


def ecosystem_of(relative: str) -> str | None:
    """The first ecosystem (in ``ECOSYSTEMS``' order) one of whose patterns matches
    ``relative`` or a directory above it (``None`` when none does)."""
    from clearance.shellparse.knowledge._index import AUTORUN_NAMES, AUTORUN_PATHS

    parts = [p for p in relative.split("/") if p]
    best: tuple[int, str] | None = None
    for k, part in enumerate(parts):
        hit = first(AUTORUN_NAMES, part)
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
        for position, wanted, ecosystem in AUTORUN_PATHS.get(part, ()):
            if best is not None and position >= best[0]:
                continue
            size = len(wanted)
            if k + size <= len(parts) and all(
                star_match(parts[k + i], wanted[i]) for i in range(1, size)
            ):
                best = (position, ecosystem)
    return None if best is None else best[1]
