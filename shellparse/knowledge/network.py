"""The network: fetching, uploading, remote shells, tunnels and listeners.

What leaves the machine is what a policy on exfiltration needs: curl's ``-d @file``, ``-T``,
``-F name=@file``, wget's ``--post-file``, scp's local sources are all reads of those files
(and ``secret_read`` when the file holds credentials), next to the hosts they go to.
"""

from __future__ import annotations

from clearance.shellparse.handlers import network
from clearance.shellparse.spec import Opt, Spec, opts, shared, sub

_SSH_FLAGS = (
    "-b= -c= -D= -E= -e= -F= -I= -J= -L= -l= -m= -O= -o= -p= -Q= -R= -S= -W= -w= -B= -i= "
    "-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V/--version -v -vv -vvv -X -x -Y -y"
)

#: What the openssl tools read (a key, a certificate, a password file) and write.
_OPENSSL_OPTIONS = [
    *opts(
        "-in -key -inkey -kfile -passin -CAfile -cert -signkey -secret",
        value="required",
        role="read",
    ),
    Opt("-out", value="required", role="write"),
    Opt("-connect", value="required", role="host"),
]
_OPENSSL_FLAGS = (
    "-aes-256-cbc -aes256 -e -d -a -A -base64 -salt -nosalt -pbkdf2 -iter= -md= -k= -pass= "
    "-servername= -showcerts -noout -text -subj= -days= -newkey= -nodes -x509 -new -batch"
)

SPECS = [
    Spec(
        "curl",
        "network",
        operands="url",
        handler=network.curl,
        abbrev=True,
        options=[
            Opt("-o/--output", value="required", role="write"),
            *opts("-O/--remote-name --remote-name-all -J/--remote-header-name", adds="write"),
            Opt("--output-dir", value="required", role="write"),
            Opt("-T/--upload-file", value="required", role="read"),
            Opt("-K/--config", value="required", role="read"),
            *opts(
                "-d/--data --data-binary --data-raw --data-ascii --data-urlencode -F/--form "
                "--form-string --json",
                value="required",
            ),
            *opts("-x/--proxy --preproxy", value="required", role="url"),
            *opts(
                "-c/--cookie-jar -D/--dump-header --trace --trace-ascii --stderr "
                "--etag-save --hsts --alt-svc",
                value="required",
                role="write",
            ),
            Opt("--url", value="required", role="url"),
            Opt("-q/--disable"),
        ],
        flags="-u/--user= -U/--proxy-user= --oauth2-bearer= -H/--header= -A/--user-agent= "
        "-e/--referer= -X/--request= -b/--cookie= -m/--max-time= --connect-timeout= "
        "--retry= -w/--write-out= -r/--range= -Y/--speed-limit= -y/--speed-time= "
        "-z/--time-cond= --resolve= --connect-to= --cacert= --capath= -E/--cert= --key= "
        "--cert-type= --key-type= --ciphers= --interface= --limit-rate= --max-filesize= "
        "--max-redirs= --proto= --proto-redir= --proto-default= --dns-servers= --unix-socket= "
        "--abstract-unix-socket= --url-query= --variable= --expand-url= --create-dirs "
        "--create-file-mode= --retry-delay= --retry-max-time= -C/--continue-at= -Q/--quote= "
        "-P/--ftp-port= -t/--telnet-option= --noproxy= --aws-sigv4= --pass= --pinnedpubkey= "
        "--doh-url= --tls-max= --happy-eyeballs-timeout-ms= --keepalive-time= "
        "--local-port= --mail-from= --mail-rcpt= --mail-auth= --sasl-authzid= "
        "--service-name= --socks4= --socks4a= --socks5= --socks5-hostname= "
        "--proxy-header= --request-target= --compressed --compressed-ssh -s/--silent "
        "-S/--show-error -f/--fail --fail-with-body --fail-early -L/--location "
        "--location-trusted -I/--head -i/--include -k/--insecure -v/--verbose -g/--globoff "
        "-G/--get -N/--no-buffer -Z/--parallel --parallel-max= --parallel-immediate "
        "-0/--http1.0 --http1.1 --http2 --http2-prior-knowledge --http3 --http3-only "
        "-1/--tlsv1 -2/--sslv2 -3/--sslv3 -4/--ipv4 -6/--ipv6 -#/--progress-bar "
        "--no-progress-meter -j/--junk-session-cookies -l/--list-only -M/--manual "
        "-n/--netrc --netrc-optional --netrc-file= -p/--proxytunnel -R/--remote-time "
        "-a/--append -B/--use-ascii --crlf --raw --tcp-nodelay --path-as-is --ssl "
        "--ssl-reqd --retry-all-errors --retry-connrefused --digest --basic --ntlm "
        "--negotiate --anyauth --styled-output --no-styled-output -h/--help=? "
        "-V/--version --tls13-ciphers= --max-time=",
    ),
    Spec(
        "wget|wget2",
        "network network_read write",
        operands="url",
        abbrev=True,
        options=[
            Opt("-O/--output-document", value="required", role="write"),
            Opt("-P/--directory-prefix", value="required", role="write"),
            *opts(
                "-i/--input-file --load-cookies --ca-certificate --certificate --private-key",
                value="required",
                role="read",
            ),
            # what wget sends: a body, or a method other than GET
            *opts("--post-file --body-file", value="required", role="read", adds="network_write"),
            *opts("--post-data --body-data --method", value="required", adds="network_write"),
            *opts(
                "-o/--output-file -a/--append-output --save-cookies --warc-file",
                value="required",
                role="write",
            ),
            # ``-e COMMAND`` is a wgetrc line: ``-e use_proxy=on``, ``-e output_document=…``
            Opt("-e/--execute", value="required", adds="code_exec"),
        ],
        flags="--header= -U/--user-agent= --user= --password= "
        "--http-user= --http-password= --method= -t/--tries= -T/--timeout= --limit-rate= "
        "-l/--level= -A/--accept= -R/--reject= -D/--domains= --exclude-domains= "
        "-I/--include-directories= -X/--exclude-directories= --referer= -w/--wait= "
        "--waitretry= --dns-timeout= --connect-timeout= --read-timeout= -Q/--quota= "
        "--bind-address= --cut-dirs= --default-page= --restrict-file-names= "
        "--max-redirect= --proxy-user= --proxy-password= --https-only --secure-protocol= "
        "--progress= -q/--quiet -v/--verbose -nv/--no-verbose -d/--debug -c/--continue "
        "-N/--timestamping -r/--recursive -np/--no-parent -nd/--no-directories "
        "-x/--force-directories -nH/--no-host-directories -m/--mirror "
        "-k/--convert-links -K/--backup-converted -p/--page-requisites -H/--span-hosts "
        "-S/--server-response --spider -b/--background --no-check-certificate "
        "--no-cache --no-cookies --content-disposition --trust-server-names "
        "-E/--adjust-extension --no-clobber -nc -4/--inet4-only -6/--inet6-only "
        "-F/--force-html -B/--base= --compression= -V/--version -h/--help",
    ),
    Spec(
        "http|https|xh|xhs|httpie|aria2c|axel|lynx|w3m|links|elinks",
        "network",
        operands="url",
        options=[*opts("-o/--output -d/--dir", value="required", role="write")],
        flags="-a/--auth= -A/--auth-type= -v/--verbose -h/--headers -b/--body -f/--form "
        "-j/--json --download -F/--follow --print= -p= --session= --timeout= -x= -s= -c",
    ),
    Spec(
        "ssh|autossh|mosh",
        "network",
        operands=("host", "remote_shell"),
        permute=False,
        flags=_SSH_FLAGS,
        handler=network.ssh,
    ),
    Spec(
        "scp|sftp",
        "network",
        operands="url_or_path",
        options=[
            Opt("-i -F", value="required", role="read"),
            Opt("-S", value="required", role="exec"),
            Opt("-r", operands="url_or_path_tree"),
        ],
        flags="-P= -o= -c= -l= -J= -D= -X= -b= -s= -3 -4 -6 -A -B -C -O -p -q -R -T -v",
        handler=network.ssh_transfer,
    ),
    Spec(
        "rsync",
        "read_only",
        operands="copy_tree",
        handler=network.rsync,
        abbrev=True,
        options=[
            Opt("-e/--rsh", value="required", role="shell"),
            Opt("--rsync-path", value="required", role="shell"),
            *opts(
                "--delete --delete-before --delete-during --delete-after "
                "--delete-delay --delete-excluded --remove-source-files",
                adds="delete",
            ),
            *opts(
                "--exclude-from --include-from --files-from --password-file",
                value="required",
                role="read",
            ),
            Opt("--log-file", value="required", role="write"),
            Opt("-n/--dry-run", adds="read_only"),
        ],
        flags="--exclude= --include= -f/--filter= --chmod= --chown= --timeout= --port= "
        "--partial-dir= -T/--temp-dir= --backup-dir= --suffix= --compare-dest= "
        "--link-dest= --copy-dest= --bwlimit= --max-size= --min-size= --info= --debug= "
        "-a/--archive -v/--verbose -z/--compress -r/--recursive -l/--links -p/--perms "
        "-t/--times -g/--group -o/--owner -D -P -h/--human-readable -u/--update "
        "-c/--checksum -q/--quiet -i/--itemize-changes -H/--hard-links -A/--acls "
        "-X/--xattrs -S/--sparse -W/--whole-file -x/--one-file-system -R/--relative "
        "-b/--backup -k/--copy-dirlinks -K/--keep-dirlinks -L/--copy-links -E/--executability "
        "--progress --partial --stats --mkpath --ignore-existing --existing --inplace "
        "--append --append-verify --size-only --no-motd --list-only --numeric-ids "
        "--safe-links --munge-links --force --prune-empty-dirs -m -C/--cvs-exclude "
        "-F -y/--fuzzy -8/--8-bit-output -4/--ipv4 -6/--ipv6 --version --help",
    ),
    Spec(
        "nc|ncat|netcat",
        "network",
        operands=("host", "none"),
        handler=network.netcat,
        options=[
            *opts("-e/--exec -c/--sh-exec --lua-exec", value="required"),
            Opt("-l/--listen", adds="process_control"),
            Opt("-o/--output", value="required", role="write"),
        ],
        flags="-p/--source-port= -s/--source= -w/--wait= -i/--idle-timeout= -q= -x/--proxy= "
        "-X/--proxy-type= -m/--max-conns= -g= -G= -n/--nodns -u/--udp -v/--verbose -vv "
        "-z -k/--keep-open -N/--no-shutdown -4 -6 -U/--unixsock -C/--crlf -t/--telnet "
        "--ssl --send-only --recv-only --allow= --deny= -d/--delay= -b -D -r -h",
    ),
    Spec(
        "socat|telnet|ftp|tftp|lftp|ncftp|smbclient|s_client|websocat|wscat|grpcurl|"
        "mosquitto_pub|mosquitto_sub|kcat",
        "network",
        operands="host",
        handler=network.netcat,
    ),
    # Database clients: a query on the command line is code (``DROP TABLE``, psql's ``\!``
    # shell escape, sqlite's ``.shell``); a file of queries is code not seen.
    Spec(
        "psql",
        "network",
        options=[
            Opt("-c/--command", value="required"),
            Opt("-f/--file", value="required", role="exec"),  # SQL nobody has seen
            Opt("-o/--output -L/--log-file", value="required", role="write"),
            Opt("-l/--list"),
        ],
        flags="-h/--host= -p/--port= -U/--username= -d/--dbname= -v/--set/--variable= "
        "-P/--pset= -w/--no-password -W/--password -A/--no-align -t/--tuples-only "
        "-x/--expanded -X/--no-psqlrc -q/--quiet -1/--single-transaction -e/--echo-queries "
        "-E/--echo-hidden -a/--echo-all -b/--echo-errors -n/--no-readline -s/--single-step "
        "-S/--single-line -F/--field-separator= -R/--record-separator= -T/--table-attr= "
        "-z/--field-separator-zero -0/--record-separator-zero -H/--html --csv -V/--version",
        abbrev=True,
        handler=network.database,
    ),
    Spec(
        "mysql|mariadb",
        "network",
        options=[Opt("-e/--execute", value="required")],
        flags="-h/--host= -P/--port= -u/--user= -p/--password=? -D/--database= -S/--socket= "
        "-B/--batch -N/--skip-column-names -s/--silent -t/--table -v/--verbose -E/--vertical "
        "-A/--no-auto-rehash --protocol= --ssl-mode= --default-character-set= -f/--force",
        abbrev=True,
        handler=network.database,
    ),
    Spec(
        "sqlite3",
        "",
        operands=("write", "none"),
        options=[Opt("-init", value="required", role="read"), Opt("-cmd", value="required")],
        flags="-bail -batch -csv -column -header -noheader -html -json -line -list -markdown "
        "-table -box -readonly -separator= -nullvalue= -echo -version -safe -quote -ascii "
        "-tabs -newline= -nofollow -stats -interactive -append -deserialize -memtrace "
        "-mmap= -vfs= -zip -A= -help",
        single_dash_long=True,
        handler=network.database,
    ),
    Spec(
        "redis-cli|mongo|mongosh|sqlcmd|cqlsh",
        "network",
        options=[
            Opt("--eval -e -Q -q --execute", value="required"),
            Opt("--file -f", value="required", role="read", adds="unknown"),
        ],
        flags="-h= -p= -a= -n= -u= --host= --port= --username= --password= --user= "
        "--pass= --tls --cacert= --cert= --key= --raw --no-raw --csv --json --quoted-input "
        "--no-auth-warning -c -x -d= -D= -r= -i= --scan --pattern= --count= --bigkeys "
        "--memkeys --hotkeys --stat --latency --latency-history --intrinsic-latency= "
        "--quiet --nodb --norc --shell --verbose --apiVersion= -3 --resp3 -2 --resp2 "
        "--authenticationDatabase= --authenticationMechanism= -U= -P= -S= -d/--database= "
        "-s= -W= -H= -l= -t= -y= -v= -k= -b= -C= -o= -V= -N= -E= --help --version",
        handler=network.database,
    ),
    Spec(
        "openssl",
        "",
        subcommands={
            # what the installed library is and can do: its version, commands, ciphers, an error
            **shared(
                ("version", "help", "list", "ciphers", "errstr"),
                "read_only",
                "-a -b -o -f -p -d -c -e -m -r -s -v -V -stdname -tls1_2 -tls1_3 -commands "
                "-digest-commands -cipher-commands -digest-algorithms -cipher-algorithms "
                "-public-key-algorithms -public-key-methods -mac-algorithms -kdf-algorithms "
                "-options= -disabled -1",
                single_dash_long=True,
            ),
            # certificates and revocation lists printed or checked (``-out`` writes, a key
            # read is judged as any read)
            **shared(
                ("x509", "verify", "asn1parse", "crl"),
                "read_only",
                _OPENSSL_FLAGS + " -fingerprint -sha1 -sha256 -subject -issuer -dates -enddate "
                "-startdate -serial -pubkey -modulus -purpose -ext= -nameopt= -inform= -outform= "
                "-CApath= -untrusted= -verbose -show_chain -crl_check -noverify -hash -email "
                "-ocspid -ocsp_uri -alias -i -dump -strparse= -offset= -length=",
                operands="read",
                single_dash_long=True,
                options=_OPENSSL_OPTIONS,
            ),
        },
        default=Spec(
            "openssl",
            "",
            operands="unknown",
            single_dash_long=True,
            options=_OPENSSL_OPTIONS,
            flags=_OPENSSL_FLAGS,
        ),
    ),
    # lookups and probes that send nothing local: network reads
    Spec(
        "ping|ping6|traceroute|traceroute6|tracepath|mtr|fping|arping",
        "network network_read",
        operands="host",
        flags="-c/--count= -i/--interval= -W/--timeout= -w/--deadline= -t/--ttl= -s= -p= "
        "-I/--interface= -q -n -v -4 -6 -T= -U -b -D -O -a -A -f -l= -m/--max-hops= "
        "-r/--report -z -g= -e --report-cycles= -M= -F= -N= -R -d -h --help -V --version",
    ),
    Spec(
        "dig|nslookup|host|whois|drill|delv",
        "network network_read",
        operands="host",
        flags="-t= -c= -x= -p= -q= -y= -k= -b= -f= -4 -6 -a -d -l -r -s -v -h -T -C -W= -R= "
        "-N= -i -m -H= --help --version -V",
    ),
    Spec(
        "nmap|masscan|hping3|tcpdump|tshark|wireshark|iperf|iperf3|speedtest|speedtest-cli|curlie",
        "network",
        operands="host",
        flags="-c= -i= -W= -w= -t= -s= -p= -I= -q -n -v -4 -6 -T= -U -b",
    ),
]

# --- forges: GitHub and GitLab CLIs ---------------------------------------------------------
# Listings and views of a service the user is logged in to are network reads; anything that
# creates, edits, merges, comments, uploads or runs is a network write. ``auth token`` prints
# the token (a secret read); ``auth status``, ``secret list`` are metadata.

_FORGE_READ = (
    "-R/--repo= --json= -q/--jq= -t/--template= -w/--web -L/--limit= -s/--state= "
    "-a/--assignee= -A/--author= -l/--label= -B/--base= -H/--head= -S/--search= "
    "-m/--milestone= --app= -d/--draft -c/--comments --mention= -b/--branch= -u/--user= "
    "-e/--event= -w/--workflow= --status= --created= --commit= --log --log-failed --exit-status "
    "-i/--interval= --attempt= -v/--verbose --json-fields= --name-only --patch --color= "
    "--required --watch --fail-fast --fork --source --no-archived --archived --topic= "
    "--visibility= --language= -O/--owner= --order= --sort= -p/--page= --per-page= "
    "--include= --exclude= --orderBy= -o/--output= --since= --until= --hostname= "
    "--show-token=? -n/--no-browser -x/--exclude-drafts --exclude-pre-releases -F/--format= "
    "-P/--paginate --all --mine --closed --merged --opened --include-closed -D/--dir= "
    "--pattern= --skip-existing --clobber -A/--archive= --org= --env= --repo-owner= "
    "--key= --ref= --limit-results= --match= --in= --owner= --author-email= --committer= "
    "--hash= --created-by= --sha= --merge-base --since-date= -h/--help"
)
_FORGE_WRITE = (
    _FORGE_READ + " -T/--title= -b/--body= -F/--body-file= -f/--fill --fill-first --fill-verbose "
    "-r/--reviewer= -p/--project= --head= --base= --no-maintainer-edit --dry-run --recover= "
    "--add-label= --remove-label= --add-assignee= --remove-assignee= --add-reviewer= "
    "--remove-reviewer= --add-project= --remove-project= --squash --rebase --merge "
    "--auto --disable-auto --delete-branch --admin -y/--yes --edit-last --editor "
    "--notes= --notes-file= --target= --prerelease --latest=? --generate-notes "
    "--verify-tag --discussion-category= --public --private --internal --description= "
    "--homepage= --clone --add-readme --gitignore= --license= --template= --remote= "
    "--push --team= --disable-issues --disable-wiki --confirm --reason= --comment= "
    "--field= --raw-field= --body-text= --ref= --input= -X/--method= --detach --force"
)


#: Where ``gh run|release download`` writes: a directory, or one file (``-O``).
_DOWNLOAD = [*opts("-D/--dir -O/--output", value="required", role="write")]


def _forge(name: str, reads: tuple[str, ...], subs: dict[str, Spec] | None = None) -> Spec:
    """A forge command group (``gh pr``): ``reads`` are network reads, the rest writes."""
    return sub(
        name,
        "network network_write vcs_write",
        subcommands={
            **shared(reads, "network network_read vcs_read", _FORGE_READ),
            **(subs or {}),
        },
        default=Spec(name, "network network_write vcs_write", flags=_FORGE_WRITE),
    )


_FORGE_GROUPS = {
    "pr": _forge(
        "pr",
        ("view", "list", "status", "diff", "checks"),
        {
            "checkout": sub(
                "checkout", "network network_read vcs_write", _FORGE_READ + " -f --force"
            )
        },
    ),
    "issue": _forge("issue", ("view", "list", "status")),
    "mr": _forge("mr", ("view", "list", "diff", "status")),
    "repo": _forge(
        "repo",
        ("view", "list"),
        {
            # ``gh repo clone OWNER/REPO [DIR]``: the clone is written to DIR
            "clone": sub(
                "clone",
                "network network_read vcs_write write",
                _FORGE_READ,
                operands=("none", "write"),
            ),
            **shared(("delete", "archive"), "network network_write vcs_destructive", _FORGE_WRITE),
        },
    ),
    "run": _forge(
        "run",
        ("view", "list", "watch"),
        {"download": sub("download", "network network_read write", _FORGE_READ, options=_DOWNLOAD)},
    ),
    "release": _forge(
        "release",
        ("view", "list"),
        {
            "download": sub(
                "download", "network network_read write", _FORGE_READ, options=_DOWNLOAD
            ),
            "delete": sub("delete", "network network_write vcs_destructive", _FORGE_WRITE),
        },
    ),
    "workflow": _forge("workflow", ("view", "list")),
    "label": _forge("label", ("list",)),
    "gist": _forge("gist", ("view", "list")),
    "cache": _forge("cache", ("list",)),
    "ruleset": _forge("ruleset", ("view", "list", "check")),
    "project": _forge("project", ("view", "list", "item-list", "field-list")),
    "codespace": _forge("codespace", ("list", "view")),
    "variable": _forge("variable", ("list", "get")),
    "ci": _forge("ci", ("view", "list", "status", "trace", "get")),
    "pipeline": _forge("pipeline", ("view", "list", "status", "ci")),
    "secret": sub(
        "secret",
        "network network_write secret_read",
        subcommands={"list": sub("list", "network network_read read_only", _FORGE_READ)},
        default=Spec("secret", "network network_write secret_read", flags=_FORGE_WRITE),
    ),
    "search": sub(
        "search",
        "network network_read vcs_read",
        subcommands=shared(
            ("repos", "issues", "prs", "commits", "code"),
            "network network_read vcs_read",
            _FORGE_READ,
        ),
        default=Spec("search", "unknown"),
    ),
    "api": sub(
        "api",
        "network",
        handler=network.gh_api,
        options=[
            Opt("--input", value="required", role="read"),
            *opts("-f/--raw-field -F/--field", value="required"),
        ],
        flags="-X/--method= -H/--header= -i/--include --paginate --slurp -q/--jq= "
        "-t/--template= --cache= --hostname= -p/--preview= --silent --verbose",
    ),
    "auth": sub(
        "auth",
        "network network_write system",
        subcommands={
            "token": sub("token", "secret_read", "-h/--hostname= -u/--user="),
            "status": sub(
                "status",
                "network network_read vcs_read",
                "-h/--hostname= -a/--active",
                options=[Opt("-t/--show-token", adds="secret_read")],
            ),
        },
        default=Spec("auth", "network network_write system", flags=_FORGE_WRITE),
    ),
    "extension": sub("extension", "network package_install code_exec"),
    "browse": sub("browse", "network network_read vcs_read", _FORGE_READ),
    "status": sub("status", "network network_read vcs_read", _FORGE_READ),
}

SPECS += [
    Spec(
        "gh|glab",
        "network",
        subcommands=_FORGE_GROUPS,
        default=Spec("gh", "network unknown"),
        flags="-R/--repo= --version -h/--help",
    ),
]
