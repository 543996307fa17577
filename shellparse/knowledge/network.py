"""The network: fetching, uploading, remote shells, tunnels and listeners."""

from __future__ import annotations

from clearance.shellparse.spec import Opt, Spec

_SSH_VALUES = "-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B"

SPECS = [
    Spec(
        "curl",
        "network",
        operands="url",
        handler="curl",
        options=[
            Opt("-o --output", value="required", role="write"),
            Opt("-O --remote-name --remote-name-all -J --remote-header-name", adds="write"),
            Opt("-T --upload-file", value="required", role="read"),
            Opt("-K --config", value="required", role="read"),
            Opt(
                "-d --data --data-binary --data-raw --data-ascii --data-urlencode "
                "-F --form --form-string --json",
                value="required",
            ),
            Opt("-x --proxy --preproxy", value="required", role="url"),
            Opt("-u --user -U --proxy-user --oauth2-bearer", value="required"),
            Opt(
                "-H --header -A --user-agent -e --referer -X --request -b --cookie "
                "-c --cookie-jar -m --max-time --connect-timeout --retry -w "
                "--write-out -r --range -Y -y -z --time-cond --resolve --connect-to "
                "--cacert --capath -E --cert --key --ciphers --interface --limit-rate "
                "--max-filesize --max-redirs --proto --proto-redir --dns-servers "
                "--unix-socket --url-query --variable --expand-url --trace "
                "--trace-ascii --stderr -D --dump-header --create-dirs-mode "
                "--retry-delay --retry-max-time -C --continue-at -Q --quote",
                value="required",
            ),
            Opt("--url", value="required", role="url"),
        ],
        short="sSfLIikvq#gGNZ0123456",
    ),
    Spec(
        "wget|wget2",
        "network write",
        operands="url",
        abbrev=True,
        options=[
            Opt("-O --output-document", value="required", role="write"),
            Opt("-P --directory-prefix", value="required", role="write"),
            Opt(
                "-i --input-file --post-file --body-file --load-cookies",
                value="required",
                role="read",
            ),
            Opt(
                "-o --output-file -a --append-output --save-cookies", value="required", role="write"
            ),
            Opt(
                "--post-data --body-data --header -U --user-agent --user "
                "--password --method -e --execute -t --tries -T --timeout "
                "--limit-rate -l --level -A --accept -R --reject -D --domains",
                value="required",
            ),
        ],
        short="qvncrNpkmSbxEK",
    ),
    Spec("http|https|xh|xhs|httpie|aria2c|axel|lynx|w3m|links|elinks", "network", operands="url"),
    Spec(
        "ssh|autossh",
        "network",
        operands=("host", "remote_shell"),
        permute=False,
        options=[Opt(_SSH_VALUES, value="required")],
        short="46AaCfGgKkMNnqsTtVvXxYy",
        handler="ssh",
    ),
    Spec(
        "scp|sftp",
        "network",
        operands="url_or_path",
        options=[Opt("-P -i -F -o -c -l -S -J -D -X", value="required")],
        short="346ABCOpqRrTv",
        handler="ssh_transfer",
    ),
    Spec(
        "rsync",
        "read_only",
        operands="copy",
        handler="rsync",
        options=[
            Opt("-e --rsh", value="required", role="shell"),
            Opt("--rsync-path", value="required", role="shell"),
            Opt(
                "--delete --delete-before --delete-during --delete-after "
                "--delete-delay --delete-excluded --remove-source-files",
                adds="delete",
            ),
            Opt(
                "--exclude --include --exclude-from --include-from --files-from "
                "--filter -f --chmod --chown --timeout --port --password-file "
                "--log-file --partial-dir --temp-dir -T --backup-dir --suffix "
                "--compare-dest --link-dest --copy-dest --bwlimit --max-size "
                "--min-size --info --debug",
                value="required",
            ),
        ],
        short="avzrlptgoDPhnucqiHAXSWxRbkKLE",
        abbrev=True,
    ),
    Spec(
        "nc|ncat|netcat|socat|telnet|ftp|tftp|lftp|ncftp|smbclient|openssl|s_client|"
        "websocat|wscat|grpcurl|mosquitto_pub|mosquitto_sub|kcat|redis-cli|psql|mysql|"
        "mongo|mongosh|sqlcmd|cqlsh",
        "network",
        operands="host",
        handler="netcat",
    ),
    Spec(
        "ping|ping6|traceroute|tracepath|mtr|dig|nslookup|host|whois|nmap|masscan|"
        "arping|fping|hping3|tcpdump|tshark|wireshark|iperf|iperf3|speedtest|"
        "speedtest-cli|curlie",
        "network",
        operands="host",
    ),
]
