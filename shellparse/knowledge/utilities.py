"""Read-only utilities, each with its whole option table (the shell's builtins are in
``shell_builtins``).

The tables are closed-world: an option a program's entry does not list is an
``unknown_option``, never allowed unless a rule names it. So every entry here lists the
options of coreutils, util-linux, procps, iproute2/net-tools, the BSD/macOS userland and
busybox applets that share the name (busybox takes a subset of the GNU options). Options that
do more than print -- ``date -s`` sets the clock, ``ss -K`` kills sockets, ``fc -s`` re-runs a
command, ``enable -f`` loads a shared object -- carry the classes of what they do.

``expr``'s words are not options: it reads them itself (``own_options``).
"""

from __future__ import annotations

from clearance.shellparse.spec import GNU_HELP, Opt, Spec, opts

_SIGNALS = (
    "-HUP -INT -QUIT -ILL -TRAP -ABRT -BUS -FPE -KILL -USR1 -SEGV -USR2 -PIPE -ALRM -TERM "
    "-STKFLT -CHLD -CONT -STOP -TSTP -TTIN -TTOU -URG -XCPU -XFSZ -VTALRM -PROF -WINCH -IO "
    "-PWR -SYS -SIGHUP -SIGINT -SIGQUIT -SIGKILL -SIGUSR1 -SIGUSR2 -SIGTERM -SIGCONT "
    "-SIGSTOP -SIGTSTP -SIGCHLD -SIGWINCH -SIGALRM -SIGPIPE -SIGABRT -SIGSEGV"
)

SPECS = [
    # --- coreutils: text and numbers --------------------------------------------------------
    Spec(
        "tr",
        "read_only",
        flags="-c/-C/--complement -d/--delete -s/--squeeze-repeats -t/--truncate-set1" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "seq",
        "read_only",
        flags="-f/--format= -s/--separator= -w/--equal-width -t=" + GNU_HELP,
        families="-[0-9]*",
        permute=False,
    ),
    Spec(
        "yes|factor|hostid|logname|users|groups|whoami|tty|nproc|sync",
        "read_only",
        flags="-s/--silent/--quiet --all --ignore= -d/--data -f/--file-system -h -e" + GNU_HELP,
    ),
    Spec("expr", "read_only", own_options=True),
    Spec(
        "bc",
        "read_only",
        flags="-l/--mathlib -q/--quiet -s/--standard -w/--warn "
        "-i/--interactive -h/--help -v/--version -c -e=",
    ),
    Spec(
        "dc",
        "code_exec",
        operands="exec",
        options=[
            Opt("-e/--expression", value="required", role="code"),
            Opt("-f/--file", value="required", role="exec"),
        ],
        flags=GNU_HELP,
    ),
    Spec(
        "cal|ncal",
        "read_only",
        flags="-1/--one -3/--three -y/--year -Y/--twelve -m/--monday -s/--sunday -j/--julian "
        "-A= -B= -n/--months= -S/--span -w/--week=? -h -b -C -e -o -p -J -M -N -H= -d= "
        "--color=? --reform= --iso -v --vertical" + GNU_HELP,
        families="--color*",
    ),
    Spec(
        "uuidgen",
        "read_only",
        flags="-r/--random -t/--time -m/--md5 -s/--sha1 -n/--namespace= -N/--name= "
        "-x/--hex -C/--count= -h/--help -V/--version",
    ),
    Spec("sleep", "read_only", flags=GNU_HELP),
    Spec(
        "date|gdate",
        "read_only",
        options=[
            *opts("-f/--file -r/--reference", value="required", role="read"),
            Opt("-s/--set", value="required", adds="system"),
        ],
        flags="-d/--date= -I/--iso-8601=? -R/--rfc-email --rfc-3339= -u/--utc/--universal "
        "--debug -j -n -v= -z= --resolution" + GNU_HELP,
        abbrev=True,
    ),
    Spec("clear", "read_only", flags="-T= -x -V"),
    Spec("reset|tset", "read_only", flags="-c -e= -I -i= -k= -m= -q -r -s -w -Q -V"),
    Spec("tput", "read_only", flags="-T= -S -V -x"),
    Spec(
        "stty",
        "read_only",
        flags="-a/--all -g/--save -F/--file= -f= -e -echo -icanon -isig -ixon -ixoff -icrnl "
        "-onlcr -opost -iexten -brkint -inpck -istrip -parenb -crtscts -clocal -cread -hupcl "
        "-raw -cooked -echoctl -echoe -echok -echonl -noflsh -tostop -ixany -imaxbel -iutf8 "
        "-ocrnl -onlret -onocr -ignbrk -ignpar -parmrk -inlcr -igncr -cstopb -flusho "
        "-extproc" + GNU_HELP,
        single_dash_long=True,
    ),
    Spec(
        "uname",
        "read_only",
        flags="-a/--all -s/--kernel-name -n/--nodename -r/--kernel-release "
        "-v/--kernel-version -m/--machine -p/--processor -i/--hardware-platform "
        "-o/--operating-system" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "hostname",
        "read_only",
        options=[Opt("-F/--file", value="required", role="read", adds="system")],
        flags="-a/--alias -A/--all-fqdns -b/--boot -d/--domain -f/--fqdn/--long "
        "-i/--ip-address -I/--all-ip-addresses -s/--short -y/--yp/--nis -h/--help "
        "-V/--version",
    ),
    Spec(
        "id",
        "read_only",
        flags="-a -Z/--context -g/--group -G/--groups -n/--name -r/--real -u/--user "
        "-z/--zero -p -P -A" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "who",
        "read_only",
        flags="-a/--all -b/--boot -d/--dead -H/--heading -l/--login --lookup -m -p/--process "
        "-q/--count -r/--runlevel -s/--short -t/--time -T/-w/--mesg/--message/--writable "
        "-u/--users --ips" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "w",
        "read_only",
        flags="-h/--no-header -u/--no-current -s/--short -f/--from -o/--old-style "
        "-i/--ip-addr -p/--pids -n -V/--version --help",
    ),
    Spec("uptime", "read_only", flags="-p/--pretty -s/--since -r/--raw -h/--help -V/--version"),
    Spec(
        "locale",
        "read_only",
        flags="-a/--all-locales -m/--charmaps -c/--category-name -k/--keyword-name "
        "-v/--verbose" + GNU_HELP,
    ),
    Spec("getconf", "read_only", flags="-a -v="),
    Spec(
        "lsb_release",
        "read_only",
        flags="-a/--all -i/--id -d/--description -r/--release -c/--codename -s/--short "
        "-v/--version -h/--help",
    ),
    Spec(
        "sw_vers",
        "read_only",
        flags="-productName -productVersion -productVersionExtra -buildVersion",
        single_dash_long=True,
    ),
    # --- procps, util-linux: the machine -----------------------------------------------------
    Spec(
        "free",
        "read_only",
        flags="-b/--bytes -k/--kibi -m/--mebi -g/--gibi --tebi --pebi --kilo --mega --giga "
        "--tera --peta -h/--human -w/--wide -t/--total -l/--lohi -L/--line -s/--seconds= "
        "-c/--count= --si -v/--committed -V/--version --help",
    ),
    Spec(
        "vmstat",
        "read_only",
        flags="-a/--active -f/--forks -m/--slabs -n/--one-header -s/--stats -d/--disk "
        "-D/--disk-sum -p/--partition= -S/--unit= -t/--timestamp -w/--wide -y/--no-first "
        "-V/--version -h/--help",
    ),
    Spec(
        "iostat|mpstat|pidstat|sar",
        "read_only",
        flags="-c -d -h -k -m -N -t -V -x -y -z -p= -j= -g= -H -o= -s -A -n= -u -T -I= -P= "
        "-r -b -B -q -W -S -w -R -v -e= -f= -i= --human --compact --pretty --dec= -l",
        families="-[0-9]*",
    ),
    Spec(
        "lscpu|lsblk|lsmem|lsusb|lspci|lsipc|lslocks|lsns|lsirq|lshw|hwinfo|dmidecode|"
        "inxi|findmnt|blkid|lslogins|lsfd",
        "read_only",
        flags="-a/--all -b/--bytes -c/--cpus -d/--nodeps -D/--discard -e/--extended=? "
        "-E/--dedup= -f/--fs -i/--ascii -I/--include= -J/--json -l/--list -m/--perms "
        "-M/--merge -n/--noheadings -o/--output= -O/--output-all -p/--paths/--parse=? "
        "-P/--pairs -r/--raw -s/--inverse/--summary=? -S/--scsi -t/--topology/--tree "
        "-T= -x -z/--zoned -A/--noempty -N/--nvme -v/--verbose -w/--width= "
        "-y/--physical -B -C/--caches=? -k -nn -vv -vvv -q -qq -t -u/--unique --hex --sort= "
        "-U/--uuid= -L/--label= -F/--fstab -K -R -g -G --sysroot= --online --offline "
        "--output-all --json --short -class= -C= --tree --list --real --kernel --mtab "
        "--submounts --target= --source= --types= -mm -H= -D= --no-pager -h/--help "
        "-V/--version",
    ),
    Spec(
        "lsof",
        "read_only",
        flags="-a -b -c= -C -d= -D= -e= -f -F= -g=? -h -i=? -K -l -L -n -N -o -O -p= -P -R "
        "-s=? -S=? -t -T=? -u= -U -v -V -w -x=? -X -z=? -Q -M -E -H",
    ),
    Spec(
        "ps",
        "read_only",
        flags="-e -f -F -A -a -d -N/--deselect -T -r -x -u/--user= -U= -g/--group= -G= "
        "-p/--pid= -q/--quick-pid= -s/--sid= -t/--tty= -C= -o/--format= -O= -l -j -L -m "
        "-M -w -Z/--context -H -y -c -n= --forest --sort= --ppid= --cols/--columns/--width= "
        "--rows/--lines= --headers --no-headers/--no-header/--no-heading -k= --cumulative "
        "--info -V --version "
        "--help=?",
    ),
    Spec(
        "pstree",
        "read_only",
        flags="-a/--arguments -A/--ascii -c/--compact-not -C/--color= -g/--show-pgids "
        "-G/--vt100 -h/--highlight-all -H/--highlight-pid= -l/--long -n/--numeric-sort "
        "-N/--ns-sort= -p/--show-pids -s/--show-parents -S/--ns-changes -t/--thread-names "
        "-T/--hide-threads -u/--uid-changes -U/--unicode -V/--version -Z/--security-context",
    ),
    Spec(
        "pgrep|pidof",
        "read_only",
        flags="-d/--delimiter= -l/--list-name -a/--list-full -c/--count -f/--full "
        "-g/--pgroup= -G/--group= -i/--ignore-case -n/--newest -o/--oldest -O/--older= "
        "-P/--parent= -s/--session= -t/--terminal= -u/--euid= -U/--uid= -v/--inverse "
        "-w/--lightweight -x/--exact -F/--pidfile= -L/--logpidfile -r/--runstates= "
        "-A/--ignore-ancestors --ns= --nslist= -q -z -S= -V/--version -h/--help",
    ),
    Spec(
        "top|htop|btop|atop|glances|bpytop|nmon|iotop|iftop|nethogs|bmon|powertop",
        "read_only",
        # ``atop -w FILE`` records into FILE
        options=[Opt("-w", value="required", role="write")],
        flags="-b -c -d/--delay= -e= -E= -H -i -n= -o= -O -p/--pid= -s/--sort-key= -S -u/--user=? "
        "-U -1 -h/--help -v/--version -C/--no-color -F/--filter= -M/--no-mouse -t/--tree "
        "--readonly -lc --utf-force -l -P -a -o= -k",
    ),
    Spec(
        "kill",
        "process_control",
        operands="none",
        flags="-s/--signal= -n= -l/--list=? -L/--table -q/--queue= --verbose --timeout= "
        + _SIGNALS
        + GNU_HELP,
        families="-[0-9]*",
    ),
    Spec(
        "pkill|killall|skill|slay|xkill",
        "process_control",
        operands="none",
        flags="-d/--delimiter= -f/--full -g/--pgroup= -G/--group= -i/--ignore-case "
        "-n/--newest -o/--oldest/--older-than= -O/--older= -P/--parent= -s/--session= "
        "-t/--terminal= -u/--euid/--user= -U/--uid= -v/--inverse -x/--exact -F/--pidfile= "
        "-e/--exact -I -r/--regexp -w/--wait -q/--quiet -y/--younger-than= -Z/--context= "
        "-l/--list -c/--count -e -V/--version --signal= --ns= --nslist= -9 -k= -z -W" + _SIGNALS,
        families="-[0-9]*",
    ),
    # --- manuals and fun --------------------------------------------------------------------
    Spec(
        "whatis|apropos",
        "read_only",
        flags="-d/--debug -v/--verbose -r/--regex -w/--wildcard -e/--exact -l/--long "
        "-a/--and -s/--sections/--section= -m/--systems= -M/--manpath= -L/--locale= "
        "-C/--config-file=" + GNU_HELP,
    ),
    Spec(
        "info|pinfo",
        "read_only",
        options=[
            Opt("-o/--output", value="required", role="write"),
            Opt("-f/--file", value="required", role="read"),
        ],
        flags="-a/--all -k/--apropos= -d/--directory= -n/--node= -O/--show-options "
        "-w/--where --vi-keys --subnodes" + GNU_HELP,
    ),
    Spec(
        "tldr|tlrc|cheat",
        "read_only",
        flags="-p/--platform= -u/--update -l/--list -L/--language= -r/--render -s/--search= "
        "-c/--color -m/--markdown -o/--os= -1 --random -q/--quiet -t= -v/--version -h/--help "
        "--list-all --clear-cache --raw --short-options --long-options --info -C= -d",
    ),
    Spec(
        "cowsay|cowthink|figlet|toilet|lolcat|neofetch|fastfetch|screenfetch|fortune|sl",
        "read_only",
        # neofetch's configuration is a shell script it sources
        options=[Opt("--config", value="required", role="exec")],
        flags="-b -d -g -p -s -t -w= -y -e= -f= -T= -W= -l -n -c -r -x -k -S -o -L -R -a "
        "-F= -i -h -v --off --stdout --ascii_distro= --logo= -C=",
    ),
    Spec(
        "tokei|cloc|scc",
        "read_only",
        operands="read",
        options=[
            *opts("--out --report-file -o/--output", value="required", role="write"),
            *opts("--list-file -i/--input", value="required", role="read"),
        ],
        flags="-e/--exclude= -f/--files -l/--languages -s/--sort= -t/--type= -c/--columns= "
        "-C/--compact --hidden --no-ignore --no-ignore-vcs -n/--num-format= --by-file "
        "--by-file-by-lang --json --yaml --csv --md --quiet --vcs= --git --diff "
        "--exclude-dir= --exclude-lang= --exclude-ext= --include-lang= --include-ext= "
        "--format= --no-cocomo --no-complexity -w/--wide -x= -M/--not-match= -z -v",
    ),
    Spec("timew|timewarrior", "read_only"),
    # --- iproute2 / net-tools: sockets --------------------------------------------------------
    Spec(
        "ss",
        "read_only",
        options=[
            Opt("-K/--kill", adds="process_control"),
            Opt("-D/--diag", value="required", role="write"),
            Opt("-F/--filter", value="required", role="read"),
        ],
        flags="-a/--all -l/--listening -t/--tcp -u/--udp -x/--unix -w/--raw -n/--numeric "
        "-p/--processes -e/--extended -m/--memory -o/--options -i/--info -r/--resolve "
        "-s/--summary -4/--ipv4 -6/--ipv6 -0/--packet -H/--no-header -E/--events "
        "-b/--bpf -Z/--context -z/--contexts -N/--net= -f/--family= -A/--query/--socket= "
        "-M/--mptcp -S/--sctp --tipc --vsock --xdp -O/--oneline -T/--threads -h/--help "
        "-V/--version",
    ),
    Spec(
        "netstat|sockstat",
        "read_only",
        flags="-a/--all -l/--listening -t/--tcp -u/--udp -x/--unix -w/--raw -n/--numeric "
        "-p/--program -e/--extend -o/--timers -r/--route -i/--interfaces -s/--statistics "
        "-c/--continuous -g/--groups -M/--masquerade -v/--verbose -W/--wide "
        "-N/--symbolic -4 -6 -A= -f= -I= -b -d -m -q -T -R -L -Z -c -P= -j -C -U",
    ),
    Spec(
        "envsubst|gettext|ngettext",
        "read_only",
        flags="-v/--variables -d/--domain= -e -E -n -s -c/--context=" + GNU_HELP,
    ),
]

# --- coreutils, binutils and friends: files by name, digest, dump ---------------------------
_DIGEST = (
    "-b/--binary -c/--check -t/--text -z/--zero --tag --untagged --ignore-missing --quiet "
    "--status --strict -w/--warn -l/--length= -a/--algorithm= --base64 --raw --debug "
    "-0/--01 -s -p -U/--UNIVERSAL" + GNU_HELP
)

SPECS += [
    Spec(
        "file",
        "read_only",
        operands="read",
        options=[*opts("-f/--files-from -m/--magic-file", value="required", role="read")],
        flags="-b/--brief -c/--checking-printout -d -E -e/--exclude= --exclude-quiet= "
        "-F/--separator= -h/--no-dereference -i/--mime -I --mime-type --mime-encoding "
        "--apple --extension -k/--keep-going -l/--list -L/--dereference -n/--no-buffer "
        "-N/--no-pad -p/--preserve-date -P/--parameter= -r/--raw -s/--special-files "
        "-S/--no-sandbox -z/--uncompress -Z/--uncompress-noreport -0/--print0 -v/--version "
        "--help",
        abbrev=True,
    ),
    Spec(
        "readlink|realpath|grealpath|greadlink",
        "read_only",
        operands="meta",  # names and metadata, not contents
        flags="-f/--canonicalize -e/--canonicalize-existing -m/--canonicalize-missing "
        "-n/--no-newline -q/--quiet -s/--silent/--strip/--no-symlinks -v/--verbose "
        "-z/--zero -L/--logical -P/--physical --relative-to= --relative-base=" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "basename|dirname",
        "read_only",
        flags="-a/--multiple -s/--suffix= -z/--zero" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "namei|lsattr|getfacl",
        "read_only",
        operands="meta",  # names and metadata, not contents
        flags="-x/--mountpoints -m/--modes -o/--owners -l/--long -n/--nosymlinks "
        "-v/--vertical -Z/--context -R/--recursive -V -a/--all -d/--directory/--default "
        "-p/--absolute-names -c/--omit-header -e/--all-effective -E/--no-effective "
        "-s/--skip-base -L/--logical -P/--physical -t/--tabular --numeric --access" + GNU_HELP,
    ),
    Spec(
        "md5sum|sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|shasum|b2sum|b3sum|cksum|"
        "sum|md5|sha1|sha256|sha512|gmd5sum|gsha256sum",
        "read_only",
        operands="read",
        flags=_DIGEST + " -r -q",
        abbrev=True,
    ),
    Spec(
        "strings",
        "read_only",
        operands="read",
        flags="-a/--all -d/--data -f/--print-file-name -n/--bytes= -t/--radix= "
        "-e/--encoding= -o -w/--include-all-whitespace -s/--output-separator= -T/--target= "
        "-U/--unicode= -h/--help -v/-V/--version",
        families="-[0-9]*",
    ),
    Spec(
        "xxd",
        "read_only",
        operands=("read", "write"),
        single_dash_long=True,
        flags="-a -autoskip -b -bits -C -capitalize -c= -cols= -E -EBCDIC -e -g= -groupsize= "
        "-h -help -i -include -l= -len= -n= -name= -o= -offset= -p -ps -postscript -plain "
        "-r -revert -R= -s= -seek= -u -uppercase -v -version -d",
    ),
    Spec(
        "od|hexdump|hd",
        "read_only",
        operands="read",
        options=[Opt("-f", value="required", role="read")],
        flags="-A/--address-radix= -j/--skip-bytes= -N/--read-bytes= -S/--strings=? "
        "-t/--format= -v/--output-duplicates -w/--width=? --endian= --traditional -a -b -c "
        "-d -i -l -o -s -x -B -D -e= -F -H -I -L=? -O -X -C -n= -h" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "identify|pdfinfo|pdffonts|exiftool|mediainfo|ffprobe",
        "read_only",
        operands="read",
        single_dash_long=True,
        flags="-verbose -format= -ping -quiet -regard-warnings -f= -l= -box -meta -js "
        "-struct -struct-text -isodates -rawdates -dests -enc= -listenc -opw= -upw= -v -h "
        "-help --help -a -u -g -g1 -s -S -j -json -csv -X -n -b -G -G1 -H -list -ver -r "
        "-ext= -q -m -fast -fast2 -sort -t -T -E -show_format -show_streams -show_entries= "
        "-of= -print_format= -select_streams= -show_frames -show_packets -hide_banner "
        "-loglevel= -v= -pretty -count_frames -i= --Output= --Full -F -version",
    ),
    Spec(
        "objdump|nm|readelf|size|otool|llvm-objdump|llvm-nm|llvm-readelf|llvm-size",
        "read_only",
        operands="read",
        flags="-d -D -S -s -t -T -r -R -h -x -f -p -g -e -a -C -l -w -z -j= -M= -b= -m= "
        "--disassemble=? --source --syms --dynamic-syms --reloc --headers --all-headers "
        "--demangle=? --start-address= --stop-address= --section= --full-contents "
        "--file-headers --private-headers --line-numbers --wide --no-show-raw-insn "
        "--visualize-jumps=? --dwarf=? -W --debugging -A -B -G -o -n -P -u -U -v -V -X= "
        "--defined-only --dynamic --extern-only --format= --numeric-sort --no-sort "
        "--portability --print-size --size-sort --undefined-only --print-file-name "
        "--reverse-sort --radix= --special-syms --with-symbol-versions --all "
        "--file-header --program-headers --segments --section-headers --sections "
        "--section-groups --section-details --symbols --notes --relocs --unwind "
        "--arch-specific --archive-index --use-dynamic --hex-dump= --string-dump= "
        "--relocated-dump= --debug-dump=? --histogram --common --totals -L -I -H -c -i "
        "-N= -K -y -E= -F" + GNU_HELP,
    ),
    # ldd runs the program's own loader on it: a binary in the workspace is code clearance
    # cannot see (a crafted ELF runs what it likes under ``ldd``)
    Spec("ldd", "read_only code_exec", operands="exec", flags="-v -u -d -r" + GNU_HELP),
    Spec(
        "comm",
        "read_only",
        operands="read",
        flags="-1 -2 -3 -i --check-order --nocheck-order --output-delimiter= --total "
        "-z/--zero-terminated" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "cmp",
        "read_only",
        operands="read",
        flags="-b/--print-bytes -i/--ignore-initial= -l/--verbose -n/--bytes= "
        "-s/--quiet/--silent" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "paste",
        "read_only",
        operands="read",
        flags="-d/--delimiters= -s/--serial -z/--zero-terminated" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "join",
        "read_only",
        operands="read",
        flags="-a= -e= -i/--ignore-case -j= -o= -t= -v= -1= -2= --check-order "
        "--nocheck-order --header -z/--zero-terminated" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "fold|fmt",
        "read_only",
        operands="read",
        flags="-b/--bytes -s/--spaces/--split-only -w/--width= -c/--crown-margin "
        "-p/--prefix= -t/--tagged-paragraph -u/--uniform-spacing -g/--goal=" + GNU_HELP,
        abbrev=True,
        families="-[0-9]*",
    ),
    Spec(
        "column",
        "read_only",
        operands="read",
        flags="-t/--table -s/--separator= -o/--output-separator= -c/--output-width= "
        "-x/--fillrows -n -e -J/--json -N/--table-columns= -l/--table-columns-limit= "
        "-R/--table-right= -H/--table-hide= -O/--table-order= -T/--table-truncate= "
        "-E/--table-noextreme= -W/--table-wrap= -d/--table-noheadings -r/--tree= "
        "-i/--tree-id= -p/--tree-parent= -L/--keep-empty-lines -h/--help -V/--version",
        abbrev=True,
    ),
    Spec(
        "expand|unexpand",
        "read_only",
        operands="read",
        flags="-i/--initial -t/--tabs= -a/--all --first-only" + GNU_HELP,
        abbrev=True,
        families="-[0-9]*",
    ),
    Spec(
        "shuf",
        "read_only",
        operands="read",
        options=[
            Opt("-o/--output", value="required", role="write"),
            Opt("--random-source", value="required", role="read"),
            Opt("-e/--echo", operands="none"),
        ],
        flags="-i/--input-range= -n/--head-count= -r/--repeat -z/--zero-terminated" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "numfmt",
        "read_only",
        flags="--debug -d/--delimiter= --field= --format= --from= --from-unit= --grouping "
        "--header=? --invalid= --padding= --round= --suffix= --to= --to-unit= "
        "-z/--zero-terminated" + GNU_HELP,
        abbrev=True,
    ),
    Spec(
        "iconv",
        "read_only",
        operands="read",
        options=[Opt("-o/--output", value="required", role="write")],
        flags="-f/--from-code= -t/--to-code= -l/--list -c -s/--silent --verbose" + GNU_HELP,
        abbrev=True,
    ),
]
