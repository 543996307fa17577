"""Builds, tests, linters and formatters: the everyday loop of a coding agent."""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec

_CONFIG = [Opt("-c --config --config-file --rcfile --settings", value="required", role="read")]

SPECS = [
    # builds
    Spec(
        "make|gmake|bmake",
        "build",
        operands="none",
        options=[
            Opt("-C --directory", value="required", role="cwd"),
            Opt("-f --file --makefile", value="required", role="read"),
            Opt("-j --jobs -l --load-average -o -W -I --include-dir", value="required"),
            Opt("--eval", value="required", adds="code_exec"),
        ],
        short="knsqBeirtwS",
        abbrev=True,
    ),
    Spec(
        "cmake",
        "build",
        options=[Opt("-B -S --build --install -G -C -D -P", value="required"), Opt("-E", adds="")],
    ),
    Spec(
        "ninja|meson|bazel|bazelisk|buck|buck2|pants|scons|premake5|xmake|just|task|mage|"
        "earthly|tup|gradle|gradlew|mvn|mvnw|ant|sbt|lein|mix|rebar3|stack|cabal|dune|"
        "zig|swift|xcodebuild|msbuild|nx|turbo|lerna|rush|vite|webpack|rollup|esbuild|"
        "parcel|tsup|swc|babel|next|nuxt|astro|gatsby|ng|vue-cli-service|react-scripts|"
        "hugo|jekyll|mkdocs|sphinx-build|docusaurus|storybook",
        "build",
        operands="none",
    ),
    Spec(
        "gcc|g++|cc|c++|clang|clang++|rustc|javac|kotlinc|scalac|ghc|ocamlfind|ocamlopt|"
        "nasm|as|ld|ar|tsc|vue-tsc|protoc|flatc|thrift|sass|lessc|cython|nuitka|"
        "pyinstaller|wasm-pack",
        "build",
        operands="read",
        options=[Opt("-o --outDir --outdir --out-dir --outFile", value="required", role="write")],
    ),
    # tests
    Spec(
        "pytest|py.test|jest|vitest|mocha|ava|tap|karma|jasmine|cypress|playwright|"
        "tox|nox|rspec|phpunit|pest|ctest|bats|shellspec|behave|ward|nose2|nosetests|"
        "trial|unittest|gotestsum|ginkgo|deno-test|bun-test|hardhat|forge|elixir-test|"
        "stestr|testr|green",
        "test",
        operands="none",
        options=[
            Opt(
                "-c --config -p --rootdir --confcutdir --basetemp --junitxml "
                "--junit-xml --cov-report --html",
                value="required",
            )
        ],
    ),
    # linters and type checkers (read), formatters (write when told to)
    Spec(
        "ruff",
        "build",
        subcommands={
            "check": Spec(
                "check",
                "build",
                operands="read",
                options=[Opt("--fix --unsafe-fixes --add-noqa", adds="write"), *_CONFIG],
            ),
            "format": Spec(
                "format",
                "build write",
                operands="write",
                options=[Opt("--check --diff", adds=""), *_CONFIG],
                handler="check_only",
            ),
            "rule": Spec("rule", "read_only"),
            "version": Spec("version", "read_only"),
            "clean": Spec("clean", "delete build"),
            "analyze": Spec("analyze", "build"),
            "server": Spec("server", "build"),
            "config": Spec("config", "read_only"),
        },
        default=Spec("ruff", "build", operands="read"),
    ),
    Spec(
        "mypy|pyright|basedpyright|pyre|pytype|pylint|flake8|pyflakes|pycodestyle|"
        "pydocstyle|bandit|vulture|radon|xenon|semgrep|shellcheck|hadolint|actionlint|"
        "yamllint|markdownlint|markdownlint-cli2|stylelint|htmlhint|jshint|tslint|"
        "golangci-lint|staticcheck|revive|golint|errcheck|clippy-driver|cppcheck|"
        "clang-tidy|cpplint|checkov|tflint|tfsec|trivy|grype|codespell|typos|"
        "commitlint|lychee|vale|alex|editorconfig-checker|license-checker|knip|depcheck|"
        "madge|cspell|biome-lint|oxlint|dprint-check|pip-audit|safety|deptry|"
        "import-linter|lint-imports|interrogate|pyupgrade-check|ty",
        "build",
        operands="read",
        options=list(_CONFIG),
    ),
    Spec(
        "eslint",
        "build",
        operands="read",
        options=[Opt("--fix --fix-dry-run", adds="write"), *_CONFIG],
    ),
    Spec(
        "prettier|biome|dprint",
        "build",
        operands="read",
        options=[Opt("-w --write --fix --apply", adds="write"), *_CONFIG],
    ),
    Spec(
        "black|isort|autopep8|yapf|autoflake|pyupgrade|docformatter|add-trailing-comma|"
        "gofmt|goimports|gofumpt|rustfmt|clang-format|shfmt|stylua|taplo|nixfmt|"
        "terraform-fmt|swiftformat|ktlint|scalafmt|mix-format|rubocop|standardrb|"
        "php-cs-fixer|sqlfluff|djlint|mdformat|blacken-docs",
        "build write",
        operands="write",
        handler="check_only",
        options=[Opt("--check --diff -d -l --list -n --dry-run", adds=""), *_CONFIG],
    ),
    Spec("pre-commit|lefthook|husky", "build code_exec", operands="none"),
    Spec("coverage", "test", operands="none"),
]
