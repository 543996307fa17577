"""Builds, tests, linters and formatters: the everyday loop of a coding agent.

A build runs the project's own code (its Makefile, its tests): that is what ``build`` and
``test`` mean, and a policy that allows them trusts the project. What these tools can be told
to do *beyond* the project -- load a plugin from elsewhere, write a report outside, delete a
directory they were given -- is in their option tables.
"""

from __future__ import annotations

from clearance.shellparse.handlers import build
from clearance.shellparse.spec import Opt, Spec, opts, runs_command, shared, sub

_CONFIG = [*opts("-c/--config --config-file --rcfile --settings", value="required", role="read")]


def _formatter(names: str, checks: str, options: list[Opt], flags: str) -> Spec:
    """A formatter: it rewrites the files it is given, unless one of ``checks`` (``--check``,
    ``--diff``…) has it only report (``build.check_only``); ``options`` are its others."""
    return Spec(
        names,
        "build write",
        operands="write",
        handler=build.check_only,
        options=[*opts(checks), *options],
        flags=flags,
    )


_MAKE_FLAGS = (
    "-B/--always-make -d --debug=? -e/--environment-overrides -i/--ignore-errors "
    "-I/--include-dir= -j/--jobs=? -k/--keep-going -l/--load-average/--max-load=? "
    "-L/--check-symlink-times -o/--old-file/--assume-old= -O/--output-sync=? "
    "-p/--print-data-base -q/--question -r/--no-builtin-rules -R/--no-builtin-variables "
    "-s/--silent/--quiet --no-silent -S/--no-keep-going/--stop -t/--touch --trace "
    "-v/--version -w/--print-directory --no-print-directory -W/--what-if/--new-file/--assume-new= "
    "--warn-undefined-variables --shuffle=? -h/--help"
)

_PYTEST_FLAGS = (
    "-k= -m= -x/--exitfirst -q/--quiet -v/--verbose -s -l/--showlocals --tb= -r= "
    "--maxfail= --lf/--last-failed --ff/--failed-first --nf/--new-first --sw/--stepwise "
    "--co/--collect-only --durations= --durations-min= -W/--pythonwarnings= --capture= "
    "--deselect= --ignore= --ignore-glob= --log-level= --log-cli-level= --cache-clear "
    "--color= --strict-markers --strict-config --doctest-modules --doctest-glob= "
    "--timeout= -n/--numprocesses= --dist= --cov=? --cov-report= --cov-fail-under= "
    "--no-cov --cov-append --cov-branch --import-mode= --runxfail --pdb --trace "
    "--setup-show --setup-only --setup-plan --fixtures --markers --version -V -h/--help "
    "-o/--override-ini= --no-header --no-summary --full-trace --disable-warnings "
    "--pyargs --rootdir= --confcutdir= --noconftest --keep-duplicates --count= --reruns= "
    "--benchmark-only --benchmark-skip --hypothesis-show-statistics --hypothesis-seed= "
    "-p= --randomly-seed= -rA -ra -rf -rs -rx -rE"
)

_JS_TEST_FLAGS = (
    "-t/--testNamePattern= -i/--runInBand --ci --silent --verbose --bail=? "
    "--passWithNoTests --coverage --watch --watchAll --run --reporter= --project= "
    "--environment= --env= --testPathPattern= --testMatch= --maxWorkers= -w= --shard= "
    "--testTimeout= --detectOpenHandles --forceExit --no-cache --clearCache --json "
    "--listTests --onlyChanged -o --changedSince= --findRelatedTests --root= --dir= "
    "--globals= --threads --no-threads --pool= --mode= --typecheck --ui --open --browser= "
    "--headed --debug --grep= -g= --workers= -j= --retries= --repeat-each= --timeout= "
    "--spec= --config-file= -c= --dev --quiet --max-failures= --forbid-only --list "
    "--update-snapshots --last-failed"
)

SPECS = [
    # builds
    Spec(
        "make|gmake|bmake",
        "build",
        operands="none",
        handler=build.make,
        abbrev=True,
        options=[
            Opt("-C/--directory", value="required", role="cwd"),
            Opt("-f/--file/--makefile", value="required", role="read"),
            Opt("-E/--eval", value="required", adds="code_exec"),
            Opt("-n/--just-print/--dry-run/--recon", adds="read_only"),
        ],
        flags=_MAKE_FLAGS,
    ),
    Spec(
        "cmake",
        "build",
        options=[
            Opt("-B -S", value="required", role="write"),
            *opts("--build --install", value="required", role="cwd"),
            Opt("-P", value="required", role="exec"),
            Opt("-E", ends=True, operands="none"),
        ],
        handler=build.cmake_tool,
        flags="-G= -C= -D= -U= -T= -A= --preset= --target= -t= --config= -j/--parallel=? "
        "--fresh --clean-first -v/--verbose --prefix= --component= --strip --log-level= "
        "--toolchain= --install-prefix= --graphviz= --list-presets=? --workflow --help "
        "--version --trace --warn-uninitialized -L -LA -LH -N -Wdev -Wno-dev -Werror=",
    ),
    Spec(
        "ninja|meson|buck|buck2|pants|scons|premake5|xmake|mage|"
        "earthly|tup|ant|sbt|lein|mix|rebar3|"
        "zig|swift|xcodebuild|msbuild|rush|vite|webpack|rollup|esbuild|"
        "parcel|tsup|swc|babel|next|nuxt|astro|gatsby|ng|vue-cli-service|react-scripts|"
        "hugo|jekyll|mkdocs|sphinx-build|docusaurus|storybook|maturin|flit|"
        "setup.py|tox-build",
        "build",
        operands="none",
        options=[
            Opt("-C", value="required", role="cwd"),
            Opt("-o", value="required", role="write"),
            # a build file or configuration names the code the build runs (``webpack --config``)
            *opts("-f -c --config", value="required", role="read"),
        ],
        flags="-j= -k= -v -q -t= -p= -D= -P= --project= --filter= --scope=",
        handler=build.runs_what_it_reads,
    ),
    Spec(
        "gcc|g++|cc|c++|clang|clang++|rustc|javac|kotlinc|scalac|ghc|ocamlfind|ocamlopt|"
        "nasm|as|ld|ar|tsc|vue-tsc|protoc|flatc|thrift|sass|lessc|cython|nuitka|"
        "pyinstaller|wasm-pack",
        "build",
        operands="read",
        options=[
            *opts("-o --outDir --outdir --out-dir --outFile", value="required", role="write"),
            Opt("-p --project", value="required", role="read"),
            Opt("--noEmit", adds=""),
        ],
        flags="-I= -L= -l= -D= -U= -x= -std= -include= -isystem= -W= -march= -mtune= "
        "--target= --module= --lib= --jsx= --moduleResolution= --rootDir= "
        "--declarationDir= --tsBuildInfoFile= --pretty -b --build -w --watch --incremental "
        "--strict --skipLibCheck --listFiles --showConfig --init --version --help "
        "--edition= --crate-type= --crate-name= --emit= -C= -g -O -c -S -E -v",
        single_dash_long=False,
    ),
    # tests
    Spec(
        "pytest|py.test",
        "test",
        operands="read",
        options=[
            # pytest empties the base temporary directory before a run
            Opt("--basetemp", value="required", role="delete"),
            *opts(
                "--junitxml/--junit-xml --html --result-log --report-log --json-report-file "
                "--cov-config",
                value="required",
                role="write",
            ),
            Opt("-c/--config-file", value="required", role="read"),
            *opts("--rootdir --confcutdir", value="required", role="read"),
        ],
        flags=_PYTEST_FLAGS,
        handler=build.runs_what_it_reads,
    ),
    Spec(
        "jest|vitest|mocha|ava|tap|karma|jasmine|cypress|playwright",
        "test",
        operands="read",
        options=[
            *opts(
                "--outputFile/--output-file --coverageDirectory --outputDir --output",
                value="required",
                role="write",
            ),
            *opts("-c/--config --config-file --rootDir", value="required", role="read"),
            Opt("-u --updateSnapshot --update", adds="write"),
        ],
        flags=_JS_TEST_FLAGS,
        handler=build.runs_what_it_reads,
    ),
    Spec(
        "tox|nox",
        "test",
        operands="none",
        # the configuration (tox.ini, noxfile.py) names the commands the run executes
        options=[*opts("-c -f/--noxfile", value="required", role="read")],
        flags="-e= -p/--parallel=? -r/--recreate -s= -k= -t= -R -x= --notest "
        "--skip-missing-interpreters=? -v -q --list -l -a --installpkg= --develop",
        handler=build.runs_what_it_reads,
    ),
    Spec(
        "rspec|phpunit|pest|bats|shellspec|behave|ward|nose2|nosetests|trial|"
        "unittest|gotestsum|ginkgo|hardhat|forge|stestr|testr|green",
        "test",
        operands="read",
        options=[*opts("-c --config", value="required", role="read")],
        flags="-p= -j= -k= -v -q --filter= -R= -E= -L= --output-on-failure "
        "--test-dir= -f= --format= --tag= -e=",
        handler=build.runs_what_it_reads,
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
                options=[
                    *opts("--fix --unsafe-fixes --add-noqa --fix-only", adds="write"),
                    Opt("-o/--output-file", value="required", role="write"),
                    *_CONFIG,
                ],
                flags="--no-fix --show-fixes --no-show-fixes --diff -w/--watch "
                "--select= --ignore= --extend-select= --extend-ignore= --per-file-ignores= "
                "--extend-per-file-ignores= --fixable= --unfixable= --exclude= "
                "--extend-exclude= --respect-gitignore --no-respect-gitignore "
                "--force-exclude --no-force-exclude --output-format= --target-version= "
                "--preview --no-preview --line-length= --dummy-variable-rgx= -n/--no-cache "
                "--cache-dir= --isolated --stdin-filename= -e/--exit-zero "
                "--exit-non-zero-on-fix --statistics --show-files --show-settings "
                "-q/--quiet -s/--silent -v/--verbose --extension=",
            ),
            "format": _formatter(
                "format",
                "--check --diff",
                _CONFIG,
                "--preview --no-preview --line-length= --target-version= --exclude= "
                "--force-exclude --no-force-exclude --respect-gitignore -n/--no-cache "
                "--cache-dir= --isolated --stdin-filename= --range= -q/--quiet -s/--silent "
                "-v/--verbose --exit-non-zero-on-format --extension=",
            ),
            "rule": Spec("rule", "read_only"),
            "version": Spec("version", "read_only"),
            "clean": Spec("clean", "delete build"),
            "analyze": Spec("analyze", "build"),
            "server": Spec("server", "build"),
            "config": Spec("config", "read_only"),
        },
        default=Spec("ruff", "build", operands="read"),
        flags="--version -V -h/--help",
    ),
    Spec(
        "mypy|dmypy|pyright|basedpyright|pyre|pytype|pylint|flake8|pyflakes|pycodestyle|"
        "pydocstyle|bandit|vulture|radon|xenon|semgrep|shellcheck|hadolint|actionlint|"
        "yamllint|markdownlint|markdownlint-cli2|stylelint|htmlhint|jshint|tslint|"
        "golangci-lint|staticcheck|revive|golint|errcheck|clippy-driver|cppcheck|"
        "clang-tidy|cpplint|checkov|tflint|tfsec|trivy|grype|codespell|typos|"
        "commitlint|lychee|vale|alex|editorconfig-checker|license-checker|knip|depcheck|"
        "madge|cspell|oxlint|pip-audit|safety|deptry|import-linter|lint-imports|"
        "interrogate|ty",
        "build",
        operands="read",
        handler=build.configuration_runs,
        options=[
            *_CONFIG,
            *opts(
                "-o/--output --output-file --junit-xml --html-report --txt-report "
                "--xml-report --cobertura-xml-report --linecount-report --any-exprs-report "
                "--lineprecision-report --cache-dir",
                value="required",
                role="write",
            ),
            *opts("--fix -w/--write -i/--in-place --autofix", adds="write"),
        ],
        flags="-p/--package= -m/--module= --python-version= --python-executable= --strict "
        "--ignore-missing-imports --follow-imports= --exclude= --disable-error-code= "
        "--enable-error-code= --pretty --show-error-codes --no-error-summary "
        "--install-types --non-interactive --show-traceback --platform= --select= "
        "--ignore= --extend-select= --extend-ignore= --max-line-length= --format= "
        "--severity= -S= -e= -f= -r --recursive -j= --jobs= -l= --level= --disable= "
        "--enable= --rcfile= --max-complexity= --count --statistics -q -v --quiet "
        "--verbose --skip= -x= --exclude-dir= --outputjson --project= -P= --warnings "
        "--pythonpath= --pythonplatform= --verifytypes= --lib --watch",
    ),
    Spec(
        "eslint",
        "build",
        operands="read",
        options=[
            Opt("--fix", adds="write", operands="write"),
            Opt("-o/--output-file", value="required", role="write"),
            # rules and plugins are code loaded from wherever they are named
            *opts("--rulesdir --resolve-plugins-relative-to", value="required", role="exec"),
            *_CONFIG,
        ],
        flags="--fix-dry-run --fix-type= --ext= --no-eslintrc --no-config-lookup "
        "--plugin= --parser= --parser-options= --env= --global= --rule= -f/--format= "
        "--max-warnings= --cache --no-cache --cache-location= --cache-strategy= "
        "--ignore-path= --ignore-pattern= --no-ignore --quiet --debug "
        "--report-unused-disable-directives --report-unused-disable-directives-severity= "
        "--no-inline-config --stdin --stdin-filename= --print-config= --color --no-color "
        "--no-error-on-unmatched-pattern --exit-on-fatal-error --flag= --inspect-config "
        "--pass-on-no-patterns --no-warn-ignored --stats -v/--version -h/--help "
        "--concurrency=",
        abbrev=False,
        handler=build.configuration_runs,
    ),
    Spec(
        "prettier",
        "build",
        operands="read",
        options=[
            Opt("-w/--write", adds="write", operands="write"),
            Opt("--plugin", value="required", role="exec"),
            *opts("--config --ignore-path", value="required", role="read"),
        ],
        flags="-c/--check -l/--list-different -u/--ignore-unknown --no-config "
        "--no-editorconfig --config-precedence= --parser= --stdin-filepath= --log-level= "
        "--cache --cache-location= --cache-strategy= --no-color --no-error-on-unmatched-pattern "
        "--print-width= --tab-width= --use-tabs --no-semi --single-quote --jsx-single-quote "
        "--quote-props= --trailing-comma= --no-bracket-spacing --bracket-same-line "
        "--arrow-parens= --prose-wrap= --end-of-line= --embedded-language-formatting= "
        "--single-attribute-per-line --experimental-ternaries --object-wrap= "
        "--find-config-path= --file-info= --support-info --with-node-modules -v/--version "
        "-h/--help",
    ),
    Spec(
        "biome|dprint",
        "build",
        operands="read",
        options=[
            *opts("--write --fix --apply --apply-unsafe --unsafe", adds="write", operands="write"),
            *_CONFIG,
        ],
        flags="--config-path= --max-diagnostics= --formatter-enabled= --linter-enabled= "
        "--organize-imports-enabled= --reporter= --diagnostic-level= --skip= --only= "
        "--staged --changed --since= --files-ignore-unknown= --no-errors-on-unmatched "
        "--colors= --verbose --log-level=",
    ),
    _formatter(
        "black|blackd|blacken-docs",
        "--check --diff",
        _CONFIG,
        "-l/--line-length= -t/--target-version= --pyi --ipynb --python-cell-magics= "
        "-x/--skip-source-first-line -S/--skip-string-normalization "
        "-C/--skip-magic-trailing-comma --preview --unstable --enable-unstable-feature= "
        "--color --no-color --fast --safe --required-version= --include= --exclude= "
        "--extend-exclude= --force-exclude= --stdin-filename= -W/--workers= -q/--quiet "
        "-v/--verbose --version -h/--help --line-ranges=",
    ),
    _formatter(
        "isort",
        "-c/--check-only/--check --diff",
        [Opt("--settings-path --settings-file --sp", value="required", role="read")],
        "--profile= -l/--line-length/-w/--line-width= --py= -m/--multi-line= "
        "--skip= --skip-glob= --extend-skip= --filter-files --atomic -q/--quiet "
        "-v/--verbose --color --float-to-top --ca/--combine-as --tc/--trailing-comma "
        "--src= --known-first-party= --known-third-party= -j/--jobs= --gitignore "
        "--only-modified --honor-noqa --stdout -n/--ensure-newline-before-comments",
    ),
    # Formatters that print the result unless told to rewrite the files.
    Spec(
        "gofmt|goimports|gofumpt|clang-format|shfmt|autopep8|yapf|autoflake|docformatter",
        "build",
        operands="read",
        options=[
            *opts("-w/--write -i/--in-place", adds="write", operands="write"),
            *opts("-l -d --diff --list"),
            *_CONFIG,
        ],
        flags="-e -s -r= -cpuprofile= -local= -extra -lang= -modpath= -style= --style= "
        "-ln= --language-dialect= -p/--posix -sr -kp -fn -bn -ci -mn --max-line-length= "
        "--select= --ignore= --exclude= -a/--aggressive -j/--jobs= -r/--recursive "
        "--remove-all-unused-imports --remove-unused-variables --expand-star-imports "
        "--indent-size= --fallback-style= --assume-filename= --dry-run --Werror "
        "--sort-includes -v/--verbose -q/--quiet",
    ),
    _formatter(
        "rustfmt",
        "--check",
        [Opt("--config-path", value="required", role="read")],
        "--edition= --emit= --backup --config= --color= --print-config= "
        "-l/--files-with-diff -v/--verbose -q/--quiet -V/--version -h/--help",
    ),
    # Formatters that rewrite the files unless told only to check.
    _formatter(
        "stylua|taplo|nixfmt|swiftformat|ktlint|scalafmt|php-cs-fixer|djlint|mdformat|"
        "pyupgrade|add-trailing-comma|terraform-fmt|mix-format|prettier-write",
        "--check --diff --dry-run -n --list-different --lint --verify",
        _CONFIG,
        "--profile= --indent-size= --exclude= --py36-plus --py37-plus --py38-plus "
        "--py39-plus --py310-plus --py311-plus --py312-plus --color --no-color -v "
        "--verbose -q --quiet --format= --reformat",
    ),
    Spec(
        "rubocop|standardrb",
        "build",
        operands="read",
        options=[
            *opts(
                "-a/--autocorrect -A/--autocorrect-all --fix-layout -x",
                adds="write",
                operands="write",
            ),
            Opt("-o/--out", value="required", role="write"),
            # a Ruby file loaded before the run: code from wherever it is named
            Opt("-r/--require", value="required", role="exec"),
            *_CONFIG,
        ],
        flags="-f/--format= --only= --except= -D/--display-cop-names -P/--parallel "
        "--no-parallel -L/--list-target-files --force-exclusion -s/--stdin= --lint",
    ),
    Spec(
        "sqlfluff",
        "build",
        subcommands={
            "lint": Spec("lint", "build", operands="read", flags="--dialect= -f/--format="),
            "parse": Spec("parse", "build", operands="read", flags="--dialect="),
            "fix": Spec("fix", "build write", operands="write", flags="--dialect= -f/--force"),
            "format": Spec("format", "build write", operands="write", flags="--dialect="),
        },
        default=Spec("sqlfluff", "build", operands="read"),
    ),
    Spec("pre-commit|lefthook|husky", "build code_exec", operands="none"),
    Spec(
        "coverage",
        "test",
        flags="-h/--help --version",
        subcommands={
            # ``coverage run -m pytest``, ``coverage run script.py``: the program runs, measured
            "run": Spec(
                "run",
                "test",
                operands=("exec", "none"),
                permute=False,
                options=[
                    Opt("-m/--module", value="required", role="module", ends=True),
                    *opts("--rcfile --data-file", value="required", role="read"),
                ],
                flags="-a/--append --branch --concurrency= --context= -L/--pylib "
                "-p/--parallel-mode --source= --omit= --include= --timid --debug= "
                "--save-signal= -h/--help",
                handler=build.runs_what_it_reads,
            ),
            **shared(
                ("report", "combine", "erase", "debug"),
                "test",
                "--rcfile= --data-file= --omit= --include= -m/--show-missing --skip-covered "
                "--skip-empty --fail-under= --precision= --sort= --format= --contexts= "
                "-i/--ignore-errors --keep -a/--append -q/--quiet --debug= -h/--help",
            ),
            **shared(
                ("html", "xml", "json", "lcov", "annotate"),
                "test write",
                "--rcfile= --data-file= --omit= --include= --skip-covered --skip-empty "
                "--fail-under= --precision= --contexts= --show-contexts --pretty-print "
                "-i/--ignore-errors -q/--quiet --debug= --title= -h/--help",
                options=[*opts("-d/--directory -o", value="required", role="write")],
            ),
        },
    ),
]


# --- build and task tools with run-anything modes ------------------------------------------------
# What they run on the user's behalf is code (a built program, a plugin, a recipe); a command
# they are given is unwrapped and judged on its own; publishing is a network write; options
# that move work outside the workspace (a cache or user home, an init script) are paths.

_MVN_FLAGS = (
    "-B/--batch-mode -q/--quiet -e/--errors -X/--debug -U/--update-snapshots -o/--offline "
    "-N/--non-recursive -T/--threads= -P/--activate-profiles= -pl/--projects= -am/--also-make "
    "-amd/--also-make-dependents -rf/--resume-from= -fae/--fail-at-end -ff/--fail-fast "
    "-fn/--fail-never -ntp/--no-transfer-progress -V/--show-version -v/--version "
    "-C/--strict-checksums -c/--lax-checksums -nsu/--no-snapshot-updates -l/--log-file= "
    "--color= -D/--define= -h/--help"
)
_GRADLE_FLAGS = (
    "-q/--quiet -i/--info -d/--debug -w/--warn -s/--stacktrace -S/--full-stacktrace "
    "--continue --parallel --no-parallel --daemon --no-daemon --offline --build-cache "
    "--no-build-cache --configuration-cache --no-configuration-cache --rerun-tasks "
    "--refresh-dependencies -x/--exclude-task= -P/--project-prop= -D/--system-prop= "
    "--console= --warning-mode= --max-workers= --profile --dry-run/-m -t/--continuous "
    "--status --stop -v/--version -h/--help --no-scan --tests= --rerun --watch-fs --no-watch-fs"
)
_MONO_FLAGS = (
    "--scope= --ignore= --since=? --stream --parallel --no-bail --concurrency= "
    "--projects= -p= --exclude= --base= --head= --filter= --output-style= --skip-nx-cache "
    "--configuration= -c= --verbose --graph=? --dry-run --help --version --loglevel= "
    "--no-private --include-dependencies --include-dependents -t/--target/--targets= "
    "--cache-dir= --force --continue --summarize --framework-inference= --ui="
)
_BAZEL_FLAGS = (
    "-c/--compilation_mode= --config= -k/--keep_going --jobs= -j= --copt= --cxxopt= "
    "--linkopt= --host_copt= --define= --test_output= --test_filter= --test_tag_filters= "
    "--build_tag_filters= --test_size_filters= --test_timeout= --runs_per_test= "
    "--flaky_test_attempts= --nocache_test_results --cache_test_results= --verbose_failures "
    "-s/--subcommands --sandbox_debug --color= --curses= --show_progress_rate_limit= "
    "--noshow_progress --show_result= --platforms= --cpu= --features= --output= "
    "--output_groups= --check_visibility --nobuild --build_tests_only --announce_rc "
    "--remote_cache= --disk_cache= --incompatible_strict_action_env --enable_bzlmod "
    "--noenable_bzlmod --lockfile_mode= --experimental_convenience_symlinks= --help"
)

SPECS += [
    Spec(
        "ctest",
        "test",
        operands="none",
        options=[
            # a dashboard script is CMake code run as a script; submitting sends results out
            *opts("-S -SP --script --script-new-process", value="required", role="exec"),
            Opt("--test-dir", value="required", role="cwd"),
            *opts("-O/--output-log --output-junit", value="required", role="write"),
            Opt("-D/--dashboard", value="required", adds="network network_write"),
        ],
        flags="-C/--build-config= -j/--parallel=? -R/--tests-regex= -E/--exclude-regex= "
        "-L/--label-regex= -LE/--label-exclude= -I/--tests-information= -N/--show-only=? "
        "-V/--verbose -VV/--extra-verbose -Q/--quiet --output-on-failure --rerun-failed "
        "--repeat= --repeat-until-fail= --timeout= --stop-on-failure -T/--test-action= "
        "--schedule-random --no-tests= --progress --test-timeout= --max-width= -F "
        "--debug --print-labels --help --version",
    ),
    Spec(
        "mvn|mvnw|mvnd",
        "build",
        operands="none",
        handler=build.maven,
        options=[
            *opts(
                "-s/--settings -gs/--global-settings -t/--toolchains", value="required", role="read"
            ),
            Opt("-f/--file", value="required", role="read"),
            Opt("-l/--log-file", value="required", role="write"),
        ],
        flags=_MVN_FLAGS,
    ),
    Spec(
        "gradle|gradlew",
        "build",
        operands="none",
        handler=build.gradle,
        options=[
            Opt("-p/--project-dir", value="required", role="cwd"),
            Opt("-I/--init-script", value="required", role="exec"),
            *opts("-g/--gradle-user-home --project-cache-dir", value="required", role="write"),
            Opt("-c/--settings-file -b/--build-file", value="required", role="read"),
            Opt("--scan", adds="network network_write"),
        ],
        flags=_GRADLE_FLAGS,
    ),
    Spec(
        "bazel|bazelisk",
        "build",
        options=[
            *opts("--output_base --output_user_root", value="required", role="write"),
            Opt("--bazelrc", value="required", role="read"),
        ],
        flags="--batch --nohome_rc --nosystem_rc --noworkspace_rc --max_idle_secs= "
        "--host_jvm_args= --version --help",
        subcommands={
            **shared(("build", "fetch", "sync", "clean", "coverage"), "build", _BAZEL_FLAGS),
            "test": sub(
                "test",
                "test",
                _BAZEL_FLAGS,
                options=[
                    Opt("--run_under", value="required", role="shell"),
                    Opt("--test_env", value="required", adds="code_exec"),
                ],
            ),
            # ``bazel run //target``: the built program runs
            "run": sub(
                "run",
                "build code_exec",
                _BAZEL_FLAGS,
                options=[
                    Opt("--run_under", value="required", role="shell"),
                    Opt("--script_path", value="required", role="write"),
                ],
            ),
            **shared(
                ("query", "cquery", "aquery", "info", "version", "help", "mod", "config"),
                "read_only",
                _BAZEL_FLAGS,
            ),
        },
        default=sub("bazel", "unknown"),
    ),
    Spec(
        "hatch|pdm",
        "build",
        flags="-e/--env= -p/--project= -v/--verbose -q/--quiet --color --no-color "
        "--interactive --no-interactive --data-dir= --cache-dir= --config= -h/--help "
        "--version -g/--global",
        subcommands={
            # the rest is a command (or a script the project defines): unwrapped
            "run": runs_command("run", "", "-l/--list -s/--site-packages"),
            "shell": sub("shell", "code_exec"),
            **shared(("build", "fmt", "lint", "sync", "lock"), "build"),
            "test": sub("test", "test", flags="-a/--all -c/--cover -p/--parallel -r/--retries="),
            **shared(("version", "status", "list", "show", "info", "config", "env"), "read_only"),
            **shared(
                ("add", "install", "remove", "update", "dep", "python"), "package_install network"
            ),
            **shared(("publish", "release"), "network network_write"),
        },
        default=sub("hatch", "unknown"),
    ),
    Spec(
        "cabal|stack",
        "build",
        flags="-v/--verbose=? --verbosity= -j/--jobs=? --project-file= --stack-yaml= "
        "--resolver= --silent --help --version",
        subcommands={
            **shared(
                ("build", "configure", "clean", "haddock", "check", "sdist", "freeze"), "build"
            ),
            **shared(("test", "bench"), "test"),
            # ``cabal exec -- cmd`` / ``stack exec cmd``: the command runs in the project's env
            "exec": runs_command("exec", "", flags="--package= --"),
            **shared(
                ("run", "repl", "ghci", "runghc", "runhaskell", "eval", "script"), "build code_exec"
            ),
            **shared(
                ("install", "update", "setup", "get", "unpack", "upgrade"),
                "package_install network",
            ),
            **shared(("upload", "publish"), "network network_write"),
            **shared(("list", "info", "path", "ls", "query", "list-bin", "outdated"), "read_only"),
        },
        default=sub("cabal", "unknown"),
    ),
    Spec(
        "dune",
        "build",
        flags="--root= --profile= --release -j= --display= --verbose --help --version "
        "-w/--watch --auto-promote",
        subcommands={
            **shared(("build", "clean", "fmt", "promote", "runtest", "test", "init"), "build"),
            # ``dune exec ./main.exe``: the built program runs
            "exec": sub("exec", "build code_exec", operands="exec", permute=False),
            **shared(("describe", "rules", "installed-libraries", "show"), "read_only"),
            "utop": sub("utop", "build code_exec"),
        },
        default=sub("dune", "unknown"),
    ),
    Spec(
        "lerna|nx|turbo",
        "build",
        flags=_MONO_FLAGS,
        subcommands={
            **shared(
                ("run", "run-many", "affected", "build", "test", "lint", "prune", "watch"),
                "build",
                _MONO_FLAGS,
            ),
            # ``lerna exec -- cmd`` / ``nx exec -- cmd``: the command runs in every package
            "exec": runs_command(
                "exec",
                "",
                flags="--scope= --ignore= --stream --parallel --no-bail --concurrency= "
                "--projects= -p= --exclude= --",
            ),
            **shared(
                ("publish", "release", "version", "deploy"), "network network_write vcs_write"
            ),
            **shared(
                ("list", "ls", "show", "graph", "changed", "diff", "info", "report"), "read_only"
            ),
            **shared(
                ("add", "bootstrap", "import", "link", "create", "generate", "g", "migrate"),
                "write package_install network",
            ),
        },
        default=sub("nx", "unknown"),
    ),
    Spec(
        "just|task|go-task",
        "build",
        operands="none",
        handler=build.task_runner,
        options=[
            Opt("-f/--justfile/-t/--taskfile", value="required", role="read"),
            Opt("-d/--working-directory/--dir", value="required", role="cwd"),
            Opt("--dotenv-path/--dotenv-filename", value="required", role="read"),
            *opts("--shell --shell-arg", value="required", adds="code_exec"),
            # ``just --command CMD ARGS…`` runs CMD (with the justfile's variables): judged
            Opt("-c/--command", operands="command", ends=True),
        ],
        flags="-l/--list -n/--dry-run --summary --show= -s --evaluate --dump --variables "
        "-v/--verbose -q/--quiet --yes --choose --unstable --color= --list-all -a "
        "--parallel -p -w/--watch --force -F --status -x/--exit-code --silent -h/--help "
        "--version -V --init -i --global -g --set= --output= -o= --dry -j/--concurrency=",
    ),
]
