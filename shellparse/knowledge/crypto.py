"""GnuPG: the operation is an option, and it decides what is read.

Listing and verifying read public material (``--list-keys``, ``--verify``, ``--fingerprint``;
``--list-secret-keys`` lists secret keys' metadata, which is not a secret read). Decrypting
and exporting secret keys are secret reads; signing uses the secret key to vouch for content
(system: it asks). Keyserver operations are network reads (``--recv-keys``) or writes
(``--send-keys``). With no operation gpg guesses from its input -- usually decrypting -- so
the ``gpg`` handler makes such a part a secret read. Options that run programs
(``--exec-path``, ``--photo-viewer``, ``--keyserver-options`` helpers) are not listed:
closed world, ``unknown_option``.
"""

from __future__ import annotations

from clearance.shellparse.handlers import crypto
from clearance.shellparse.spec import Opt, Spec, opts

#: The operations that only read public material or metadata (and print).
READS = (
    "-k/--list-keys/--list-public-keys -K/--list-secret-keys --fingerprint --list-sigs "
    "--check-sigs --list-packets --show-keys --print-md --print-mds --list-config "
    "--dump-options --version --help -h --warranty --export --export-ssh-key "
    "--locate-keys --locate-external-keys --card-status --list-signatures "
    "--check-signatures --verify --verify-files -e/--encrypt --encrypt-files -c/--symmetric "
    "--enarmor --dearmor --export-ownertrust"
)
_COMMON = (
    "--batch --no-batch --yes --no --no-tty -a/--armor --no-armor -q/--quiet -v/--verbose "
    "--status-fd= --logger-fd= --attribute-fd= --command-fd= --passphrase-fd= "
    "--pinentry-mode= --passphrase= --trust-model= --always-trust --no-default-keyring "
    "-r/--recipient= -R/--hidden-recipient= -u/--local-user= --default-key= "
    "--default-recipient= --default-recipient-self --encrypt-to= --hidden-encrypt-to= "
    "--no-encrypt-to --cipher-algo= --digest-algo= --compress-algo= -z= --s2k-mode= "
    "--s2k-digest-algo= --s2k-cipher-algo= --s2k-count= --import-options= "
    "--export-options= --auto-key-locate= --no-auto-key-locate --auto-key-retrieve "
    "--no-auto-key-retrieve --ignore-time-conflict --ignore-valid-from "
    "--ignore-crc-error --ignore-mdc-error --no-greeting --no-permission-warning "
    "--no-secmem-warning --require-secmem --expert --no-expert --utf8-strings --charset= "
    "--display-charset= --no-options --no-symkey-cache --use-agent --no-use-agent "
    "--compliance= --openpgp --rfc4880 --gnupg --set-filename= --for-your-eyes-only "
    "--throw-keyids --no-throw-keyids --textmode -t --no-textmode --emit-version "
    "--no-emit-version --comment= --no-comments --sig-notation= --set-notation= "
    "--personal-cipher-preferences= --personal-digest-preferences= "
    "--personal-compress-preferences= --default-new-key-algo= --quick-set-expire "
    "--status-file= --logger-file= --trustdb-name= --primary-keyring= --lock-never "
    "--debug-level= --debug= --enable-special-filenames --multifile --with-colons "
    "--with-fingerprint --with-subkey-fingerprint --with-keygrip --with-secret "
    "--with-sig-check --with-wkd-hash --keyid-format= --list-options= --verify-options= "
    "--fixed-list-mode"
)

SPECS = [
    Spec(
        "gpg|gpg2",
        "",
        operands="read",
        handler=crypto.gpg,
        options=[
            *opts(READS, adds="read_only"),
            Opt("-o/--output", value="required", role="write"),
            Opt("--homedir", value="required", role="read_tree"),
            Opt("--keyring --secret-keyring", value="required", role="read"),
            Opt("--passphrase-file", value="required", role="read"),
            Opt("--keyserver", value="required", role="host"),
            *opts(
                "-d/--decrypt --decrypt-files --export-secret-keys --export-secret-subkeys",
                adds="secret_read",
            ),
            *opts("-s/--sign --clearsign/--clear-sign -b/--detach-sign", adds="system"),
            *opts("--import --fast-import", adds="write system"),
            *opts(
                "--recv-keys/--receive-keys --fetch-keys --refresh-keys --search-keys",
                adds="network network_read system",
            ),
            Opt("--send-keys", adds="network network_write system"),
            *opts(
                "--delete-keys --delete-secret-keys --delete-secret-and-public-key",
                adds="delete system",
            ),
            *opts(
                "--gen-key --generate-key --full-generate-key --full-gen-key "
                "--quick-generate-key --quick-gen-key --quick-add-key --quick-add-uid "
                "--quick-revoke-uid --quick-sign-key --quick-lsign-key --sign-key "
                "--lsign-key --edit-key --gen-revoke --generate-revocation --import-ownertrust "
                "--update-trustdb --check-trustdb --rebuild-keydb-caches",
                adds="write system",
            ),
        ],
        flags=_COMMON,
    ),
    Spec(
        "gpgv|gpgv2",
        "read_only",
        operands="read",
        options=[
            Opt("--keyring", value="required", role="read"),
            Opt("--homedir", value="required", role="read_tree"),
            Opt("-o/--output", value="required", role="write"),
        ],
        flags="-v/--verbose -q/--quiet --status-fd= --logger-fd= --ignore-time-conflict "
        "--weak-digest= --enable-special-filenames --assert-pubkey-algo= "
        "--help --version",
    ),
]

SPECS += [
    Spec(
        "ssh-keygen",
        "",
        handler=crypto.ssh_keygen,
        options=[
            # a PKCS#11 or FIDO provider is a library ssh-keygen loads: code
            *opts("-D -w", value="required", adds="code_exec"),
        ],
        flags="-f= -t= -b= -N= -P= -C= -E= -a= -O= -n= -I= -V= -z= -Z= -m= -q -v -l -B -y -e "
        "-i -F= -H -R= -L -p -c -k -u -s= -h -r= -Y= -U -K -A -M= -G= -T= -x -g -o -Q -X",
    ),
]
