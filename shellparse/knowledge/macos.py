"""The macOS userland that has no GNU twin: the clipboard, preferences, Spotlight, property
lists, system reports and Xcode's developer-directory queries.

The BSD spellings of the shared utilities (``ls -G``, ``sed -i ''``, ``stat -f FORMAT``,
``date -j -f``/``-v``, ``find -E``) are in their tables in ``utilities``/``files``.
"""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec, opts, shared, sub

SPECS = [
    # writes the clipboard from stdin; nothing on disk
    Spec("pbcopy", "read_only", flags="-pboard= -help"),
    Spec(
        "defaults",
        "system",
        subcommands={
            **shared(("read", "read-type", "domains", "find", "help"), "read_only", "-g -app="),
            "export": sub("export", "read_only", operands=("none", "write")),
            **shared(
                ("write", "delete", "import", "rename"),
                "system write",
                "-g -app= -string -data -int -integer -float -bool -boolean -date -array "
                "-array-add -dict -dict-add",
            ),
        },
        flags="-currentHost -host=",
        default=sub("defaults", "unknown"),
    ),
    Spec(
        "plutil",
        "read_only",
        operands="read",
        options=[
            Opt("-o", value="required", role="write"),
            *opts(
                "-convert -replace -insert -remove",
                value="required",
                adds="write",
                operands="write",
            ),
        ],
        flags="-p -lint -s -r -e= -help -type= -extract= -raw -n",
    ),
    Spec(
        "mdfind",
        "read_only",
        options=[Opt("-onlyin", value="required", role="meta")],
        flags="-0 -live -count -name= -literal -interpret -attr= -s= -reprint",
    ),
    Spec(
        "system_profiler",
        "read_only",
        flags="-listDataTypes -json -xml -detailLevel= -timeout= -nospinner -usage",
    ),
    Spec(
        "xcode-select",
        "read_only",
        options=[Opt("-s/--switch --install -r/--reset", adds="system")],
        flags="-p/--print-path -v/--version -h/--help",
    ),
    Spec(
        "lipo",
        "read_only",
        operands="read",
        options=[
            Opt("-output", value="required", role="write"),
            Opt("-create", adds="write"),
            *opts("-remove -replace -thin -extract", value="required", adds="write"),
        ],
        flags="-info -detailed_info -archs -verify_arch -arch=",
        single_dash_long=True,
    ),
    Spec(
        "sips",
        "read_only",
        operands="read",
        options=[
            Opt("-o/--out", value="required", role="write"),
            *opts(
                "-s/--setProperty -d/--deleteProperty -r/--rotate -f/--flip "
                "-z/--resampleHeightWidth -Z/--resampleHeightWidthMax --resampleWidth "
                "--resampleHeight -c/--cropToHeightWidth -p/--padToHeightWidth -i/--addIcon "
                "-e/--embedProfile -m/--matchTo -M/--matchToWithIntent",
                adds="write",
                operands="write",
            ),
        ],
        flags="-g/--getProperty= -1/--oneLine -x/--extractProfile= -X/--extractTag= "
        "--debug -h/--help -H/--helpProperties --formats",
    ),
]
