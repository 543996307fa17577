"""Files and text: reading, searching, writing, moving, deleting, archives."""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec

SPECS = [
    # --- read-only inspection ---------------------------------------------------------------
    Spec(
        "ls|dir|vdir|exa|eza|lsd",
        "read_only",
        operands="read",
        short="aAlhRrtSdFiL1c",
        long="all almost-all long human-readable recursive reverse color= sort= time= "
        "group-directories-first classify",
        abbrev=True,
    ),
    Spec(
        "cat|tac|nl|more|less|most|bat|batcat|view",
        "read_only",
        operands="read",
        short="nbsAvETe",
        long="number show-all plain paging= language= style=",
        abbrev=True,
    ),
    Spec(
        "head|tail",
        "read_only",
        operands="read",
        short="n:c:fqvF",
        long="lines= bytes= follow= quiet verbose retry pid= sleep-interval=",
        abbrev=True,
    ),
    Spec(
        "wc",
        "read_only",
        operands="read",
        short="lwcmL",
        long="lines words bytes chars",
        abbrev=True,
    ),
    Spec(
        "grep|egrep|fgrep|zgrep",
        "read_only",
        operands=("none", "read"),
        options=[
            Opt("-e --regexp", value="required", operands="read"),
            Opt("-f --file", value="required", role="read", operands="read"),
        ],
        short="iIvwxcnlLhHoqsrRFEPzaUTZ0bA:B:C:m:d:D:",
        long="ignore-case invert-match word-regexp line-regexp count line-number "
        "files-with-matches files-without-match recursive dereference-recursive "
        "include= exclude= exclude-dir= color= colour= max-count= context= "
        "after-context= before-context= null text binary-files= label=",
        abbrev=True,
    ),
    Spec(
        "rg|ripgrep",
        "read_only",
        operands=("none", "read"),
        options=[
            Opt("-e --regexp", value="required", operands="read"),
            Opt("-f --file", value="required", role="read", operands="read"),
            Opt("--pre", value="required", role="exec"),
        ],
        short="iSsvwxcnlhHoqLuzaUFPt:T:g:A:B:C:m:M:j:r:E:",
        long="ignore-case smart-case case-sensitive invert-match word-regexp count "
        "files files-with-matches line-number no-line-number hidden no-ignore "
        "glob= iglob= type= type-not= max-count= context= after-context= "
        "before-context= max-columns= threads= replace= json vimgrep sort= "
        "follow fixed-strings pcre2 multiline null color= heading no-heading "
        "max-depth= stats trim only-matching passthru",
    ),
    Spec("ag|ack", "read_only", operands=("none", "read")),
    Spec(
        "fd|fdfind",
        "read_only",
        operands=("none", "read"),
        options=[
            Opt("-x --exec", value="required", role="none"),
            Opt("-X --exec-batch", value="required", role="none"),
        ],
        short="HIsiLpgFalt:e:E:d:c:j:",
        long="hidden no-ignore case-sensitive ignore-case follow full-path glob "
        "fixed-strings absolute-path list-details type= extension= exclude= "
        "max-depth= min-depth= color= threads=",
        handler="fd_exec",
    ),
    Spec("tree", "read_only", operands="read", short="adfilLpshugDFCnrtx", long="dirsfirst"),
    Spec(
        "stat|file|du|df|readlink|realpath|basename|dirname|namei|lsattr|getfacl|md5sum|"
        "sha1sum|sha256sum|sha512sum|shasum|b2sum|cksum|sum|wc|strings|xxd|od|hexdump|hd|"
        "identify|exiftool|pdfinfo|objdump|nm|readelf|ldd|size",
        "read_only",
        operands="read",
    ),
    Spec(
        "diff|cmp|comm|colordiff|difft|delta",
        "read_only",
        operands="read",
        short="uUcqsrNaiwbBEytp",
        long="unified= context= brief report-identical-files "
        "recursive new-file text ignore-case color=",
        abbrev=True,
    ),
    Spec(
        "sort",
        "read_only",
        operands="read",
        options=[Opt("-o --output", value="required", role="write")],
        short="bdfgiMhnRrVcCsumzk:t:S:T:",
        long="key= field-separator= unique reverse numeric-sort human-numeric-sort",
        abbrev=True,
    ),
    Spec(
        "uniq|cut|paste|join|fold|fmt|pr|column|expand|unexpand|look|tsort|shuf|numfmt|"
        "iconv|dos2unix|unix2dos|jq|yq|gojq|jless|fx|xmllint|tidy|csvlook|mlr|xsv|qsv|"
        "html2text|pandoc|glow",
        "read_only",
        operands="read",
    ),
    Spec(
        "tr|rev|base64|base32|basenc|seq|yes|expr|factor|bc|dc|cal|uuidgen|true|false|"
        ":|test|[|sleep|echo|printf|date|clear|reset|tput|stty|tty|nproc|arch|uname|"
        "hostname|hostid|whoami|id|groups|logname|users|who|w|last|uptime|locale|"
        "getconf|lsb_release|sw_vers|free|vmstat|iostat|mpstat|lscpu|lsblk|lsusb|lspci|"
        "lsmem|lsof|ps|pstree|pgrep|top|htop|btop|pidof|jobs|wait|type|which|whereis|"
        "command_not_found_handle|hash|help|man|info|whatis|apropos|tldr|cheat|history|"
        "dirs|pwd|cd|pushd|popd|shopt|set|umask|ulimit|times|caller|let|local|declare|"
        "typeset|readonly|shift|return|exit|break|continue|getopts|read|mapfile|"
        "readarray|unset|export|unalias|compgen|complete|fc|enable|"
        "logout|suspend|chdir|cowsay|figlet|lolcat|neofetch|fastfetch|screenfetch|tokei|"
        "cloc|scc|timew|ss|netstat|envsubst|gettext|ngettext|mktemp|tempfile|sync",
        "read_only",
    ),
    # --- writing ------------------------------------------------------------------------------
    Spec(
        "touch",
        "write",
        operands="write",
        short="acmhd:r:t:",
        long="no-create date= reference= time=",
        abbrev=True,
    ),
    Spec(
        "mkdir", "write", operands="write", short="pvm:Z", long="parents verbose mode=", abbrev=True
    ),
    Spec(
        "tee", "write", operands="write", short="aip", long="append ignore-interrupts", abbrev=True
    ),
    Spec(
        "cp|install|ditto",
        "write",
        operands="copy",
        options=[Opt("-t --target-directory", value="required", role="target_dir")],
        short="aRrfinlLPsuvxbdpHTZS:",
        long="archive recursive force interactive "
        "no-clobber link dereference no-dereference "
        "symbolic-link update verbose backup= "
        "preserve= no-preserve= parents reflink= "
        "sparse= suffix= no-target-directory "
        "remove-destination strip-trailing-slashes "
        "one-file-system",
        abbrev=True,
    ),
    Spec(
        "mv",
        "write",
        operands="move",
        options=[Opt("-t --target-directory", value="required", role="target_dir")],
        short="finuvbTZS:",
        long="force interactive no-clobber update verbose backup= "
        "suffix= no-target-directory strip-trailing-slashes",
        abbrev=True,
    ),
    Spec(
        "ln|link",
        "write",
        operands=("read", "write"),
        options=[Opt("-t --target-directory", value="required", role="target_dir")],
        short="sfnrivLPbTS:",
        long="symbolic force no-dereference relative interactive "
        "verbose logical physical backup= suffix=",
        abbrev=True,
    ),
    Spec(
        "truncate",
        "write",
        operands="write",
        short="cos:r:",
        long="no-create io-blocks size= reference=",
        abbrev=True,
    ),
    Spec("split|csplit", "write", operands="read"),
    Spec(
        "patch",
        "write",
        operands=("write", "read"),
        options=[
            Opt("-i --input", value="required", role="read"),
            Opt("-o --output", value="required", role="write"),
        ],
        short="p:RNtfsuEbd:D:F:",
        long="strip= reverse forward dry-run",
        abbrev=True,
    ),
    Spec(
        "chmod",
        "write",
        operands=("none", "write"),
        handler="chmod",
        options=[Opt("--reference", value="required", role="read")],
        short="RcfvH",
        long="recursive changes silent quiet verbose preserve-root no-preserve-root",
        abbrev=True,
    ),
    Spec(
        "chown|chgrp",
        "write",
        operands=("none", "write"),
        handler="chown",
        options=[Opt("--reference", value="required", role="read")],
        short="RcfvhHLP",
        long="recursive changes silent quiet verbose dereference "
        "no-dereference from= preserve-root no-preserve-root",
        abbrev=True,
    ),
    Spec("chattr|setfacl|xattr|setfattr", "write system", operands=("none", "write")),
    # --- deleting -----------------------------------------------------------------------------
    Spec(
        "rm|unlink|srm",
        "delete",
        operands="delete",
        options=[
            Opt("-r -R --recursive", adds=""),
            Opt("-f --force"),
            Opt("-i -I -d -v --dir --verbose --one-file-system --preserve-root"),
            Opt("--no-preserve-root"),
            Opt("--interactive", value="optional"),
        ],
        abbrev=True,
    ),
    Spec(
        "rmdir",
        "delete",
        operands="delete",
        short="pv",
        long="parents verbose ignore-fail-on-non-empty",
        abbrev=True,
    ),
    Spec(
        "shred|wipe",
        "delete",
        operands="delete",
        short="fn:s:uvxz",
        long="force iterations= size= remove= verbose exact zero",
        abbrev=True,
    ),
    # --- search and edit with scripts ---------------------------------------------------------
    Spec("find|gfind", "read_only", handler="find", permute=False),
    Spec(
        "sed|gsed",
        "read_only",
        operands=("none", "read"),
        handler="sed",
        options=[
            Opt("-e --expression", value="required", operands="read"),
            Opt("-f --file", value="required", role="read", operands="read"),
            Opt("-i --in-place", value="optional", adds="write"),
            Opt(
                "-s --separate -n --quiet --silent -E -r --regexp-extended -z "
                "--null-data -u --unbuffered --posix --debug --sandbox"
            ),
            Opt("-l --line-length", value="required"),
        ],
        abbrev=True,
    ),
    Spec(
        "awk|gawk|mawk|nawk",
        "read_only",
        operands=("none", "read"),
        handler="awk",
        options=[
            Opt("-f --file", value="required", role="read", operands="read"),
            Opt("-F --field-separator -v --assign", value="required"),
            Opt("-i --include -l --load", value="required", role="read"),
            Opt("-E --exec", value="required", role="read", ends=True),
        ],
    ),
    Spec("perl-rename|rename|prename", "write", operands=("none", "move")),
    # --- archives -----------------------------------------------------------------------------
    Spec("tar|gtar|bsdtar", "read_only", handler="tar"),
    Spec(
        "zip",
        "write",
        operands=("write", "read"),
        short="rqjvyuDTmdf0123456789",
        options=[
            Opt("-TT --unzip-command", value="required", role="shell"),
            Opt("-P --password", value="required"),
        ],
    ),
    Spec(
        "unzip",
        "write",
        operands=("read", "none"),
        options=[Opt("-d", value="required", role="write")],
        short="lqonvtzP:x:",
    ),
    Spec(
        "gzip|gunzip|bzip2|bunzip2|xz|unxz|zstd|unzstd|lz4|brotli|compress|uncompress|"
        "pigz|lzma|unlzma",
        "write",
        operands="write",
        short="cdfkvqrtl0123456789S:",
        long="stdout decompress force keep verbose recursive test",
        abbrev=True,
    ),
    Spec("zcat|bzcat|xzcat|zstdcat|zless|zmore|zdiff", "read_only", operands="read"),
    Spec("7z|7za|7zr|rar|unrar", "write", operands=("none", "write", "read")),
    # --- copying across places ----------------------------------------------------------------
    Spec("dd", "read_only", handler="dd"),
]
