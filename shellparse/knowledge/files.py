"""Files and text: reading, searching, writing, moving, deleting, archives.

The GNU tools accept unambiguous prefixes of their long options (``rm --rec --for``), so their
tables list every long option: an abbreviation only resolves against what is listed, and a
missing option would let a prefix resolve to the wrong one.
"""

from __future__ import annotations

from clearance.shellparse.handlers import files
from clearance.shellparse.spec import Opt, Spec, opts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.shellparse.facts import Handler

_RECURSIVE_COPY = Opt("-r/-R/--recursive", operands="copy_tree")
#: ``cp``, ``install``, ``mv``, ``ln -t DIR``: every operand is a source, DIR the destination.
_TARGET_DIRECTORY = Opt("-t/--target-directory", value="required", role="target_dir")


def _changes_attributes(names: str, handler: Handler, flags: str = "") -> Spec:
    """chmod, chown, chgrp (coreutils): a mode or an owner, then the files it is given to
    (``--reference FILE``: every operand is a file, the attributes copied from FILE); the
    options they share, and ``flags`` of their own."""
    return Spec(
        names,
        "write",
        operands=("none", "write"),
        handler=handler,
        options=[
            Opt("--reference", value="required", role="read", operands="write"),
            Opt("-R/--recursive"),
        ],
        flags="-c/--changes -f/--silent/--quiet -v/--verbose --dereference "
        f"-h/--no-dereference --no-preserve-root --preserve-root -H -L -P --help --version {flags}",
        abbrev=True,
    )


SPECS = [
    # --- read-only inspection ---------------------------------------------------------------
    Spec(
        "ls|dir|vdir",
        "read_only",
        operands="meta",
        flags="-a/--all -A/--almost-all --author -b/--escape --block-size= -B/--ignore-backups "
        "-c -C --color=? -d/--directory -D/--dired -f -F/--classify=? --file-type --format= "
        "--full-time -g --group-directories-first -G/--no-group -h/--human-readable --si "
        "-H/--dereference-command-line --dereference-command-line-symlink-to-dir --hide= "
        "--hyperlink=? --indicator-style= -i/--inode -I/--ignore= -k/--kibibytes -l "
        "-L/--dereference -m -n/--numeric-uid-gid -N/--literal -o -p -q/--hide-control-chars "
        "--show-control-chars -Q/--quote-name --quoting-style= -r/--reverse -R/--recursive "
        "-s/--size -S --sort= --time= --time-style= -t -T/--tabsize= -u -U -v -w/--width= "
        "-x -X -Z/--context --zero -1 --help --version",
        abbrev=True,
    ),
    Spec(
        "exa|eza|lsd",
        "read_only",
        operands="meta",
        flags="-a/--all -l/--long -h/--header -R/--recurse -T/--tree -L/--level= --git "
        "-s/--sort= -r/--reverse -1/--oneline -G/--grid --icons=? --color=? -d/--list-dirs "
        "-D/--only-dirs -I/--ignore-glob=",
        abbrev=True,
    ),
    Spec(
        "nl",
        "read_only",
        operands="read",
        flags="-b/--body-numbering= -d/--section-delimiter= -f/--footer-numbering= "
        "-h/--header-numbering= -i/--line-increment= -l/--join-blank-lines= "
        "-n/--number-format= -p/--no-renumber -s/--number-separator= "
        "-v/--starting-line-number= -w/--number-width= --help --version",
        abbrev=True,
    ),
    Spec(
        "cat|tac",
        "read_only",
        operands="read",
        flags="-A/--show-all -b/--number-nonblank -e -E/--show-ends -n/--number "
        "-s/--squeeze-blank -t -T/--show-tabs -u -v/--show-nonprinting -r/--regex "
        "-S/--separator= -i/--line-increment= -w/--number-width= --help --version",
        abbrev=True,
    ),
    Spec(
        "bat|batcat",
        "read_only",
        operands="read",
        flags="-A/--show-all -p/--plain -l/--language= -H/--highlight-line= -n/--number "
        "--style= --paging= --color= -r/--line-range= --theme= -P --decorations=",
        abbrev=True,
    ),
    Spec(
        "man",
        "read_only",
        options=[
            Opt("-P/--pager", value="required", role="shell"),
            Opt("-H/--html", value="optional", role="shell"),
            Opt("-l/--local-file", operands="read"),
        ],
        flags="-a/--all -k/--apropos -f/--whatis -w/--where/--path -M/--manpath= "
        "-S/-s/--sections= -L/--locale= -E/--encoding= -T/--troff-device=? -t/--troff "
        "-i/--ignore-case -I/--match-case --regex --wildcard --names-only -7/--ascii",
        abbrev=True,
    ),
    Spec(
        "less|more|most|view",
        "read_only",
        operands="read",
        handler=files.pager,
        flags="-N/--LINE-NUMBERS -R/--RAW-CONTROL-CHARS -S/--chop-long-lines "
        "-F/--quit-if-one-screen -X/--no-init -i/--ignore-case -p/--pattern= -x/--tabs= -+ "
        "-r/--raw-control-chars -E/--QUIT-AT-EOF -e/--quit-at-eof -f/--force "
        "-I/--IGNORE-CASE -K/--quit-on-intr -M/--LONG-PROMPT -m/--long-prompt "
        "-n/--line-numbers -s/--squeeze-blank-lines -j/--jump-target= -z/--window= "
        "-g/--hilite-search -G/--HILITE-SEARCH -w/--hilite-unread -W/--HILITE-UNREAD "
        "-J/--status-column -q/--quiet/--silent -Q/--QUIET/--SILENT -c/--clear-screen "
        "-a/--search-skip-screen -#/--shift= --mouse --wheel-lines= --use-color "
        "--incsearch --no-histdups --help -V/--version",
    ),
    Spec(
        "head|tail",
        "read_only",
        operands="read",
        flags="-n/--lines= -c/--bytes= -f --follow=? -F -q/--quiet/--silent -v/--verbose "
        "--retry --pid= -s/--sleep-interval= --max-unchanged-stats= -z/--zero-terminated "
        "--help --version",
        abbrev=True,
        number="--lines",
    ),
    Spec(
        "wc",
        "read_only",
        operands="read",
        options=[Opt("--files0-from", value="required", role="read")],
        flags="-c/--bytes -m/--chars -l/--lines -w/--words -L/--max-line-length "
        "--total= --help --version",
        abbrev=True,
    ),
    Spec(
        "grep|egrep|fgrep|zgrep",
        "read_only",
        operands=("none", "read"),
        options=[
            Opt("-e/--regexp", value="required", operands="read"),
            Opt("-f/--file", value="required", role="read", operands="read"),
            Opt("-r/--recursive", operands=("none", "read_tree")),
            Opt("-R/--dereference-recursive", operands=("none", "read_tree")),
        ],
        flags="-E/--extended-regexp -F/--fixed-strings -G/--basic-regexp -P/--perl-regexp "
        "-i/-y/--ignore-case --no-ignore-case -v/--invert-match -w/--word-regexp "
        "-x/--line-regexp -c/--count --color=? --colour=? -L/--files-without-match "
        "-l/--files-with-matches -m/--max-count= -o/--only-matching -q/--quiet/--silent "
        "-s/--no-messages -b/--byte-offset -H/--with-filename -h/--no-filename --label= "
        "-n/--line-number --line-buffered -T/--initial-tab -Z/--null -A/--after-context= "
        "-B/--before-context= -C/--context= -a/--text --binary-files= -D/--devices= "
        "-d/--directories= --exclude= --exclude-from= --exclude-dir= -I --include= "
        "-U/--binary -z/--null-data -V/--version --help --no-messages",
        abbrev=True,
        number="--context",
    ),
    Spec(
        "rg|ripgrep",
        "read_only",
        operands=("none", "read_tree"),
        options=[
            Opt("-e/--regexp", value="required", operands="read_tree"),
            Opt("-f/--file", value="required", role="read", operands="read_tree"),
            Opt("--pre", value="required", role="exec"),
            Opt("-z/--search-zip"),
        ],
        flags="-i/--ignore-case -S/--smart-case -s/--case-sensitive -v/--invert-match "
        "-w/--word-regexp -x/--line-regexp -c/--count --count-matches --files "
        "-l/--files-with-matches --files-without-match -n/--line-number -N/--no-line-number "
        "-H/--with-filename -I/--no-filename -o/--only-matching -q/--quiet -L/--follow "
        "-u/--unrestricted -uu -uuu --hidden --no-ignore --no-ignore-vcs --no-ignore-dot "
        "--no-ignore-global --no-ignore-parent --no-ignore-exclude --no-ignore-files "
        "--no-require-git --ignore-file= --ignore-file-case-insensitive "
        "-a/--text -F/--fixed-strings -P/--pcre2 -U/--multiline --multiline-dotall "
        "-t/--type= -T/--type-not= --type-add= --type-list -g/--glob= --iglob= "
        "-m/--max-count= -M/--max-columns= --max-columns-preview -d/--max-depth= "
        "--max-filesize= -j/--threads= -r/--replace= -A/--after-context= "
        "-B/--before-context= -C/--context= --json --vimgrep --sort= --sortr= "
        "-0/--null --color= --colors= --heading --no-heading -p/--pretty --stats --trim "
        "--passthru -b/--byte-offset --column --no-messages --debug --trace -V/--version "
        "-h/--help --engine= -E/--encoding= --no-config --line-buffered --block-buffered",
    ),
    # (not ``--pager``, which runs a program, nor ack's ``--output``, a Perl expression)
    Spec(
        "ag",
        "read_only",
        operands=("none", "read_tree"),
        flags="-i/--ignore-case -s/--case-sensitive -S/--smart-case -w/--word-regexp "
        "-v/--invert-match -l/--files-with-matches -L/--files-without-matches -c/--count "
        "-o/--only-matching -Q/--literal -F/--fixed-strings -G/--file-search-regex= -g= "
        "--ignore= --ignore-dir= -t/--all-text -u/--unrestricted -a/--all-types "
        "-U/--skip-vcs-ignores --hidden -f/--follow -n/--norecurse -r/--recurse --depth= "
        "-A/--after=? -B/--before=? -C/--context=? --color --nocolor --color-match= "
        "--color-path= --color-line-number= --column --nogroup --group --heading "
        "--noheading --break --nobreak --filename --nofilename -H --numbers --nonumbers "
        "--stats --stats-only --vimgrep -0/--null/--print0 -m/--max-count= --silent "
        "-p/--path-to-ignore= --filename-pattern= --print-long-lines -W/--width= "
        "--one-device -z/--search-zip --workers= -V/--version -h/--help",
        abbrev=True,
    ),
    Spec(
        "ack|ack-grep",
        "read_only",
        operands=("none", "read_tree"),
        flags="-i/--ignore-case -I/--no-ignore-case -S/--smart-case -w/--word-regexp "
        "-v/--invert-match -l/--files-with-matches -L/--files-without-matches -c/--count "
        "-o -h/--no-filename -H/--with-filename -n/--no-recurse -r/-R/--recurse "
        "-Q/--literal -f -g= --type= -t= -T= -k/--known-types --ignore-dir= "
        "--noignore-dir= --ignore-file= --color/--colour --nocolor/--nocolour "
        "--color-filename= --color-match= --color-lineno= --column --nocolumn "
        "-A/--after-context= -B/--before-context= -C/--context=? --group --nogroup "
        "--heading --noheading --break --nobreak --filter --nofilter -1 -m/--max-count= "
        "--sort-files --show-types --print0 --flush --follow --nofollow -s -x "
        "--range-start= --range-end= --match= --noenv --help --version",
    ),
    Spec(
        "fd|fdfind",
        "read_only",
        operands=("none", "read"),
        options=[
            Opt("-x/--exec", value="required", role="none"),
            Opt("-X/--exec-batch", value="required", role="none"),
        ],
        flags="-H/--hidden -I/--no-ignore -u/--unrestricted -s/--case-sensitive "
        "-i/--ignore-case -g/--glob --regex -F/--fixed-strings -a/--absolute-path "
        "-l/--list-details -L/--follow -p/--full-path -0/--print0 -t/--type= "
        "-e/--extension= -E/--exclude= -d/--max-depth= --min-depth= --exact-depth= "
        "-c/--color= -j/--threads= -S/--size= --changed-within= --changed-before= "
        "-o/--owner= --base-directory= --search-path= --max-results= -1 -q/--quiet",
        handler=files.fd_exec,
    ),
    Spec(
        "tree",
        "read_only",
        operands="meta",
        options=[Opt("-o", value="required", role="write")],
        flags="-a -d -f -i -l -L= -P= -I= -p -s -h -u -g -D -F -C -n -r -t -x -J -X -q -N -Q "
        "-A -S -v -c -U -R -H= -T= --dirsfirst --filesfirst --gitignore --noreport "
        "--charset= --du --prune --matchdirs --inodes --device --filelimit= --timefmt= "
        "--sort= --fromfile --info --metafirst --help --version",
    ),
    Spec(
        "stat",
        "read_only",
        operands="meta",
        flags="-c/--format= --printf= -L/--dereference -f/--file-system -t/--terse --cached=",
        abbrev=True,
    ),
    Spec(
        "du",
        "read_only",
        operands="meta",
        options=[Opt("--files0-from", value="required", role="read")],
        flags="-0/--null -a/--all --apparent-size -B/--block-size= -b/--bytes -c/--total "
        "-D/--dereference-args -d/--max-depth= -H -h/--human-readable --inodes "
        "-k -L/--dereference -l/--count-links -m -P/--no-dereference -S/--separate-dirs --si "
        "-s/--summarize -t/--threshold= --time=? --time-style= -X/--exclude-from= "
        "--exclude= -x/--one-file-system --help --version",
        abbrev=True,
    ),
    Spec(
        "df",
        "read_only",
        operands="meta",
        flags="-a/--all -B/--block-size= -h/--human-readable -H/--si -i/--inodes -k "
        "-l/--local --no-sync --output=? -P/--portability --sync --total -t/--type= "
        "-T/--print-type -x/--exclude-type= --help --version",
        abbrev=True,
    ),
    Spec(
        "diff|colordiff|difft|delta",
        "read_only",
        operands="read",
        flags="-u -U/--unified= -c -C/--context= -q/--brief -s/--report-identical-files "
        "-r/--recursive -N/--new-file -a/--text -i/--ignore-case -w/--ignore-all-space "
        "-b/--ignore-space-change -B/--ignore-blank-lines -E/--ignore-tab-expansion "
        "-y/--side-by-side -t/--expand-tabs -p/--show-c-function --color=? "
        "-x/--exclude= -X/--exclude-from= --label= --strip-trailing-cr -W/--width= "
        "--minimal -d --speed-large-files --suppress-common-lines --left-column "
        "--suppress-blank-empty --normal -e/--ed -n/--rcs -D/--ifdef= "
        "-Z/--ignore-trailing-space -I/--ignore-matching-lines= -T/--initial-tab "
        "-F/--show-function-line= --horizon-lines= -P/--unidirectional-new-file "
        "-S/--starting-file= --tabsize= --no-dereference --ignore-file-name-case "
        "--no-ignore-file-name-case --palette= -l/--paginate --new-line-format= "
        "--old-line-format= --unchanged-line-format= --line-format= "
        "--changed-group-format= --old-group-format= --new-group-format= "
        "--unchanged-group-format= --help -v/--version",
        options=[*opts("--from-file --to-file", value="required", role="read")],
        abbrev=True,
    ),
    Spec(
        "sort",
        "read_only",
        operands="read",
        options=[
            Opt("-o/--output", value="required", role="write"),
            # the program sort pipes its temporary files through (run with no arguments and -d)
            Opt("--compress-program", value="required", role="shell"),
            Opt("--files0-from", value="required", role="read"),
        ],
        flags="-b/--ignore-leading-blanks -d/--dictionary-order -f/--ignore-case "
        "-g/--general-numeric-sort -i/--ignore-nonprinting -M/--month-sort "
        "-h/--human-numeric-sort -n/--numeric-sort -R/--random-sort --random-source= "
        "-r/--reverse --sort= -V/--version-sort --batch-size= -c --check=? -C "
        "--compress-program= --debug -k/--key= -m/--merge -s/--stable "
        "-S/--buffer-size= -t/--field-separator= -T/--temporary-directory= --parallel= "
        "-u/--unique -z/--zero-terminated --help --version",
        abbrev=True,
    ),
    Spec(
        "uniq",
        "read_only",
        operands=("read", "write"),
        flags="-c/--count -d/--repeated -D --all-repeated=? -f/--skip-fields= --group=? "
        "-i/--ignore-case -s/--skip-chars= -u/--unique -z/--zero-terminated "
        "-w/--check-chars= --help --version",
        abbrev=True,
    ),
    Spec(
        "cut",
        "read_only",
        operands="read",
        flags="-b/--bytes= -c/--characters= -d/--delimiter= -f/--fields= -n --complement "
        "-s/--only-delimited --output-delimiter= -z/--zero-terminated --help --version",
        abbrev=True,
    ),
    Spec(
        "pr|look|tsort|tidy|csvlook|mlr|xsv|qsv|html2text|glow|jless|fx",
        "read_only",
        operands="read",
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-d/--delimiters= -s/--serial -w/--width= -t/--table -s/--separator= "
        "-f/--from-code= -t/--to-code= -n= -e=",
    ),
    # (not ``--shell``, whose commands save files)
    Spec(
        "xmllint",
        "read_only",
        # a document, schema or DTD may be a URL (fetched: a network read)
        operands="url_or_path",
        options=[
            Opt("-o/--output", value="required", role="write"),
            *opts(
                "--schema --dtdvalid --relaxng --schematron", value="required", role="url_or_path"
            ),
        ],
        flags="--catalogs --format --noout --xpath= --valid --postvalid --html --xmlout --nonet "
        "--noent "
        "--encode= --pretty= --c14n --c14n11 --exc-c14n --recover --noblanks --nowarning "
        "--noenc --nocdata --nsclean --timing --quiet --debug --version --huge --stream "
        "--load-trace --dropdtd --insert --walker --sax --sax1",
    ),
    Spec(
        "sdiff",
        "read_only",
        operands="read",
        # (not ``--diff-program``, which runs a program)
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-s/--suppress-common-lines -l/--left-column -w/--width= -i/--ignore-case "
        "-b/--ignore-space-change -W/--ignore-all-space -B/--ignore-blank-lines "
        "-E/--ignore-tab-expansion -Z/--ignore-trailing-space -t/--expand-tabs -a/--text "
        "-d/--minimal -H/--speed-large-files --strip-trailing-cr -I/--ignore-matching-lines= "
        "--tabsize= --help -v/--version",
        abbrev=True,
    ),
    Spec("zipinfo", "read_only", operands="read", flags="-1 -2 -s -m -l -v -h -M -t -T -z -C"),
    Spec(
        "locate|plocate|mlocate",
        "read_only",
        operands="none",
        options=[Opt("-d/--database", value="required", role="read")],
        flags="-i/--ignore-case -c/--count -l/-n/--limit= -b/--basename -r/--regexp= --regex "
        "-e/--existing -L/--follow -S/--statistics -0/--null -w/--wholename -A/--all "
        "-q/--quiet -h/--help -V/--version",
    ),
    Spec(
        "jq|gojq|jaq",
        "read_only",
        operands=("none", "read"),
        handler=files.jq,
        options=[
            Opt("-f/--from-file", value="required", role="read", operands="read"),
            # ``-n`` starts from ``null``, but the files are still inputs (``input``, ``inputs``)
            Opt("-n/--null-input"),
            *opts("--args --jsonargs", operands=("none", "none")),
            *opts("--arg --argjson", value="required", nargs=2),
            *opts("--slurpfile --rawfile", value="required", nargs=2, role="read"),
        ],
        flags="-r/--raw-output --raw-output0 -j/--join-output -a/--ascii-output "
        "-s/--slurp -R/--raw-input -c/--compact-output -C/--color-output "
        "-M/--monochrome-output -S/--sort-keys -e/--exit-status --tab --indent= --seq "
        "--stream --stream-errors -L= --unbuffered -h/--help -V/--version --build-configuration",
    ),
    Spec(
        "yq",
        "read_only",
        operands=("none", "read"),
        handler=files.jq,
        options=[Opt("-i/--inplace", operands=("none", "write"), adds="write")],
        flags="-o/--output-format= -p/--input-format= -r/--unwrapScalar -n/--null-input "
        "-e/--exit-status -I/--indent= -P/--prettyPrint -C/--colors -M/--no-colors "
        "-s/--split-exp= --arg= -j/--tojson -y/--yaml-output",
    ),
    Spec(
        "pandoc",
        "read_only",
        operands="read",
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-f/--from= -r/--read= -t/--to= -w/--write= -s/--standalone --toc "
        "--template= -V/--variable= -M/--metadata=",
    ),
    Spec(
        "base64|base32|basenc|rev",
        "read_only",
        operands="read",
        flags="-d/--decode -D -i/--ignore-garbage -w/--wrap= --base64 --base64url --base32 "
        "--base32hex --base16 --base2msbf --base2lsbf --z85 --help --version",
        abbrev=True,
    ),
    # A shell's history file is where typed secrets end up.
    Spec("history", "read_only secret_read", flags="-c -d= -a -n -r -w -p -s"),
    Spec(
        "mktemp|tempfile",
        "write",
        options=[
            Opt("-p", value="required", role="write"),
            Opt("--tmpdir", value="optional", role="write"),
            Opt("-t", adds=""),
        ],
        flags="-d/--directory -u/--dry-run -q/--quiet --suffix=",
        handler=files.mktemp,
    ),
    # --- writing ------------------------------------------------------------------------------
    Spec(
        "touch",
        "write",
        operands="write",
        flags="-a -c/--no-create -d/--date= -f -h/--no-dereference -m -r/--reference= "
        "-t= --time= --help --version",
        abbrev=True,
    ),
    Spec(
        "mkdir",
        "write",
        operands="write",
        flags="-m/--mode= -p/--parents -v/--verbose -Z --context=? --help --version",
        abbrev=True,
    ),
    Spec(
        "tee",
        "write",
        operands="write",
        flags="-a/--append -i/--ignore-interrupts -p --output-error=? --help --version",
        abbrev=True,
    ),
    Spec(
        "cp",
        "write",
        operands="copy",
        options=[
            _TARGET_DIRECTORY,
            Opt("-a/--archive", operands="copy_tree"),
            _RECURSIVE_COPY,
        ],
        flags="--attributes-only --backup=? -b --copy-contents -d --debug -f/--force "
        "-i/--interactive -H -l/--link -L/--dereference -n/--no-clobber -P/--no-dereference "
        "-p --preserve=? --no-preserve= --parents --reflink=? --remove-destination "
        "--sparse= --strip-trailing-slashes -s/--symbolic-link -S/--suffix= "
        "-T/--no-target-directory -u --update=? -v/--verbose -x/--one-file-system -Z "
        "--context=? --keep-directory-symlink --help --version",
        abbrev=True,
    ),
    Spec(
        "install",
        "write",
        operands="copy",
        options=[
            _TARGET_DIRECTORY,
            Opt("-d/--directory", operands="write"),
        ],
        flags="--backup=? -b -c -C/--compare -D -g/--group= -m/--mode= -o/--owner= "
        "-p/--preserve-timestamps -s/--strip --strip-program= -S/--suffix= "
        "-T/--no-target-directory -v/--verbose --preserve-context -Z --context=? "
        "--help --version",
        abbrev=True,
    ),
    Spec("ditto", "write", operands="copy_tree"),
    Spec(
        "mv",
        "write",
        operands="move",
        options=[_TARGET_DIRECTORY],
        flags="--backup=? -b --debug --exchange -f/--force -i/--interactive "
        "-n/--no-clobber --no-copy --strip-trailing-slashes -S/--suffix= "
        "-T/--no-target-directory -u --update=? -v/--verbose -Z/--context --help --version",
        abbrev=True,
    ),
    Spec(
        "ln|link",
        "write",
        # the target is what the link exposes under a new name: a read, so that a link to a
        # secret is a secret read
        operands=("read", "write"),
        handler=files.ln,
        options=[_TARGET_DIRECTORY],
        flags="--backup=? -b -d/-F/--directory -f/--force -i/--interactive -L/--logical "
        "-n/--no-dereference -P/--physical -r/--relative -s/--symbolic -S/--suffix= "
        "-T/--no-target-directory -v/--verbose --help --version",
        abbrev=True,
    ),
    Spec(
        "truncate",
        "write",
        operands="write",
        flags="-c/--no-create -o/--io-blocks -r/--reference= -s/--size= --help --version",
        abbrev=True,
    ),
    # ``split FILE PREFIX`` writes PREFIXaa, PREFIXab… (``xaa`` in the working directory
    # without one); ``--filter`` hands each piece to a shell command instead
    Spec(
        "split",
        "write",
        operands=("read", "write"),
        options=[Opt("--filter", value="required", role="shell")],
        flags="-l/--lines= -b/--bytes= -C/--line-bytes= -n/--number= -a/--suffix-length= "
        "-d --numeric-suffixes=? -x --hex-suffixes=? --additional-suffix= -e/--elide-empty-files "
        "-u/--unbuffered -t/--separator= --verbose --help --version",
        abbrev=True,
    ),
    # ``csplit FILE PATTERN…`` writes xx00, xx01… or PREFIX00… (``-f``)
    Spec(
        "csplit",
        "write",
        operands=("read", "none"),
        options=[Opt("-f/--prefix", value="required", role="write")],
        flags="-b/--suffix-format= -k/--keep-files --suppress-matched -n/--digits= "
        "-s/--quiet/--silent -z/--elide-empty-files --help --version",
        abbrev=True,
    ),
    Spec(
        "patch",
        "write",
        operands=("write", "read"),
        options=[
            Opt("-i/--input", value="required", role="read"),
            Opt("-o/--output", value="required", role="write"),
            Opt("-d/--directory", value="required", role="cwd"),
            *opts("--dry-run -C/--check", adds="read_only"),
        ],
        flags="-p/--strip= -R/--reverse -N/--forward -t/--batch -f/--force -s/--silent/--quiet "
        "-u/--unified -c/--context -E/--remove-empty-files -b/--backup -F/--fuzz= "
        "-D/--ifdef= -l/--ignore-whitespace --verbose --posix --binary -r/--reject-file= "
        "--merge=? -V/--version-control= -z/--suffix= --no-backup-if-mismatch",
        abbrev=True,
    ),
    _changes_attributes("chmod", files.chmod),
    _changes_attributes("chown|chgrp", files.chown, "--from="),
    Spec(
        "chattr|setfacl|xattr|setfattr",
        "write system",
        operands=("none", "write"),
        flags="-R -V -f -v= -n= -x= -m= -M=",
    ),
    # --- deleting -----------------------------------------------------------------------------
    Spec(
        "rm|srm",
        "delete",
        operands="delete",
        flags="-f/--force -i -I --interactive=? --one-file-system --no-preserve-root "
        "--preserve-root=? -r/-R/--recursive -d/--dir -v/--verbose --help --version",
        abbrev=True,
    ),
    Spec("unlink", "delete", operands="delete", flags="--help --version", abbrev=True),
    Spec(
        "rmdir",
        "delete",
        operands="delete",
        flags="--ignore-fail-on-non-empty -p/--parents -v/--verbose --help --version",
        abbrev=True,
    ),
    Spec(
        "shred|wipe",
        "delete",
        operands="delete",
        flags="-f/--force -n/--iterations= --random-source= -s/--size= -u --remove=? "
        "-v/--verbose -x/--exact -z/--zero --help --version",
        abbrev=True,
    ),
    # --- search and edit with scripts ---------------------------------------------------------
    Spec("find|gfind", "read_only", handler=files.find, permute=False, own_options=True),
    Spec(
        "sed|gsed",
        "read_only",
        operands=("none", "read"),
        handler=files.sed,
        options=[
            Opt("-e/--expression", value="required", operands="read"),
            Opt("-f/--file", value="required", role="read", operands="read"),
            Opt("-i/--in-place", value="optional", adds="write"),
        ],
        flags="-n/--quiet/--silent --debug --follow-symlinks -l/--line-length= --posix "
        "-E/-r/--regexp-extended -s/--separate --sandbox -u/--unbuffered "
        "-z/--null-data --help --version",
        abbrev=True,
    ),
    Spec(
        "awk|gawk|mawk|nawk",
        "read_only",
        operands=("none", "read"),
        handler=files.awk,
        options=[
            Opt("-f/--file", value="required", role="read", operands="read"),
            *opts("-i/--include -l/--load", value="required", role="read"),
            Opt("-E/--exec", value="required", role="read", ends=True),
            *opts("-F/--field-separator -v/--assign", value="required"),
            # program text given as an option (gawk): every operand is then a file
            Opt("-e/--source", value="required", operands="read"),
        ],
        flags="-b/--characters-as-bytes -c/--traditional -C/--copyright -d/--dump-variables=? "
        "-D/--debug=? -g/--gen-pot -h/--help -I/--trace -k/--csv "
        "-L/--lint=? -M/--bignum -N/--use-lc-numeric -n/--non-decimal-data "
        "-o/--pretty-print=? -O/--optimize -p/--profile=? -P/--posix -r/--re-interval "
        "-s/--no-optimize -S/--sandbox -t/--lint-old -V/--version",
    ),
    Spec("perl-rename|rename|prename", "write", operands=("none", "move")),
    # --- archives -----------------------------------------------------------------------------
    # The tar handler expands the old-style first word (``tar czf a.tgz dir``) and parses the
    # result against this table; modes and roles are read from the canonical names.
    Spec(
        "tar|gtar|bsdtar",
        "read_only",
        handler=files.tar,
        abbrev=True,
        options=[
            *opts(
                "-A/--catenate/--concatenate -c/--create -d/--diff/--compare --delete "
                "-r/--append -t/--list --test-label -u/--update -x/--extract/--get"
            ),
            Opt("-f/--file", value="required"),
            Opt("-C/--directory", value="required", role="cwd"),
            *opts("-T/--files-from -X/--exclude-from", value="required", role="read"),
            Opt("-I/--use-compress-program", value="required"),
            *opts(
                "--to-command -F/--info-script/--new-volume-script --rsh-command --rmt-command",
                value="required",
                role="shell",
            ),
            Opt("--checkpoint-action", value="required"),
            *opts("--index-file -g/--listed-incremental", value="required", role="write"),
            Opt("--remove-files", adds="delete"),
            Opt("-P/--absolute-names"),
        ],
        flags="-b/--blocking-factor= -H/--format= -K/--starting-file= -L/--tape-length= "
        "-N/--newer/--after-date= -V/--label= --exclude= --transform/--xform= "
        "--strip-components= --owner= --group= --mode= --mtime= --backup=? --suffix= "
        "--checkpoint=? --occurrence=? --record-size= --volno-file= --sort= --newer-mtime= "
        "--hole-detection= --one-top-level=? --exclude-tag= --exclude-tag-all= "
        "--exclude-tag-under= --quoting-style= --quote-chars= --no-quote-chars= "
        "--pax-option= --warning= --totals=? --atime-preserve=? --level= --sparse-version= "
        "-z/--gzip/--gunzip/--ungzip -j/--bzip2 -J/--xz --zstd --lzma --lzip --lzop "
        "-Z/--compress/--uncompress -a/--auto-compress -v/--verbose "
        "-p/--preserve-permissions/--same-permissions -k/--keep-old-files --keep-newer-files "
        "--keep-directory-symlink --overwrite --overwrite-dir -m/--touch -O/--to-stdout "
        "-h/--dereference -l/--check-links -S/--sparse -W/--verify "
        "-w/--interactive/--confirmation -B/--read-full-records -i/--ignore-zeros "
        "-M/--multi-volume -R/--block-number -s/--preserve-order/--same-order "
        "-U/--unlink-first --recursive-unlink --no-recursion --recursion --wildcards "
        "--no-wildcards --wildcards-match-slash --numeric-owner --same-owner "
        "--no-same-owner --no-same-permissions --exclude-vcs --exclude-vcs-ignores "
        "--exclude-backups --exclude-caches --exclude-caches-all --ignore-case "
        "--no-ignore-case --anchored --no-anchored --full-time --show-transformed-names "
        "--utc --null --no-null --verbatim-files-from --unquote --no-unquote "
        "--ignore-failed-read --restrict --skip-old-files --delay-directory-restore "
        "--acls --no-acls --selinux --no-selinux --xattrs --no-xattrs --seek -n "
        "--no-seek --check-device --no-check-device --force-local --posix "
        "--old-archive/--portability -o -G/--incremental --show-defaults --show-omitted-dirs "
        "--show-stored-names --index-file= --help --usage --version -e -q --fast-read "
        "--no-same-owner --include= --options= -y -s --strip=",
    ),
    Spec(
        "zip",
        "write",
        operands=("write", "read"),
        handler=files.zip_program,
        options=[
            Opt("--unzip-command", value="required"),
            Opt("-r/--recurse-paths", operands=("write", "read_tree")),
            Opt("-m/--move", adds="delete"),
        ],
        flags="-P/--password= -q/--quiet -j/--junk-paths -v/--verbose -y/--symlinks "
        "-u/--update -D/--no-dir-entries -T/--test -d/--delete -f/--freshen -0 -1 -2 -3 "
        "-4 -5 -6 -7 -8 -9 -x/--exclude= -i/--include= -e/--encrypt",
    ),
    Spec(
        "unzip",
        "write",
        operands=("read", "none"),
        options=[
            Opt("-d", value="required", role="write"),
            Opt("-l -t -v -Z -p", adds="read_only"),
        ],
        flags="-q -o -n -z -P= -x= -j -a -C -L -X",
        handler=files.unzip,
    ),
    Spec(
        "gzip|gunzip|bzip2|bunzip2|xz|unxz|zstd|unzstd|lz4|brotli|compress|uncompress|"
        "pigz|lzma|unlzma",
        "write",
        operands="write",
        # to standard output: the file is read, and its content goes wherever stdout does
        options=[
            Opt("-c/--stdout/--to-stdout", operands="read"),
            Opt("-o", value="required", role="write"),  # brotli, zstd: the output file
        ],
        flags="-c/--stdout/--to-stdout -d/--decompress/--uncompress -f/--force -k/--keep "
        "-v/--verbose -q/--quiet -r/--recursive -t/--test -l/--list -n/--no-name "
        "-N/--name -S/--suffix= -T/--threads= -0 -1/--fast -2 -3 -4 -5 -6 -7 -8 -9/--best "
        "--rm --long=? --ultra -h/--help -V/--version",
        abbrev=True,
    ),
    Spec("zcat|bzcat|xzcat|zstdcat|zless|zmore|zdiff", "read_only", operands="read"),
    Spec("7z|7za|7zr|rar|unrar", "write", operands=("none", "write", "read")),
    # --- copying across places ----------------------------------------------------------------
    Spec("dd", "read_only", handler=files.dd),
]
