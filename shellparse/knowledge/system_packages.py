"""System package managers, with their options: apt/apt-get/apt-cache/apt-mark, apk, dnf/yum,
pacman, zypper.

Installing, removing and upgrading system packages is ``package_install network system`` (the
default pack asks); queries are ``read_only`` (those that refresh an index first are network
reads). Options are closed-world like everywhere: what a table does not list is
``unknown_option``. apt's ``-o KEY=VALUE`` and ``-c FILE`` are judged by the ``apt_option``
handler: the ``*::Pre-Invoke``/``Post-Invoke``/``Pre-Install-Pkgs`` hooks are shell commands
(judged as such, and the part is code execution), a configuration file can hold such hooks
(code), and ``Dir::*``/``Dpkg::Options`` move or change what dpkg does (system).
"""

from __future__ import annotations

from clearance.shellparse.handlers import system_packages
from clearance.shellparse.spec import Opt, Spec, opts, shared, sub

_INSTALL = "package_install network network_write system"
_REMOVE = "package_install system"
_READ = "read_only"
_REFRESH = "network network_read system"

_APT_COMMON = (
    "-y/--yes/--assume-yes --assume-no -q/--quiet=? -qq -s/--simulate/--just-print/--dry-run/"
    "--recon/--no-act -d/--download-only -f/--fix-broken -m/--ignore-missing/--fix-missing "
    "--no-download -b/--compile/--build --no-install-recommends --install-recommends "
    "--install-suggests --no-install-suggests --reinstall --only-upgrade --no-upgrade "
    "--allow-downgrades --allow-remove-essential --allow-change-held-packages "
    "--allow-unauthenticated --allow-insecure-repositories --autoremove/--auto-remove "
    "--purge --list-cleanup --no-list-cleanup -t/--target-release/--default-release= "
    "--trivial-only -V/--verbose-versions --fix-policy --ignore-hold --force-yes "
    "--print-uris -u/--show-upgraded --no-remove --arch-only --indep-only --with-new-pkgs "
    "--show-progress --mark-auto -a/--host-architecture= -P/--build-profiles= --solver= "
    "--no-show-upgraded --no-install-recommends=? --install-recommends=? "
    "--allow-releaseinfo-change --update --no-update -h/--help -v/--version "
    "--full --installed --upgradable --upgradeable --all-versions -n/--names-only "
    "--manual-installed --color --no-color -i/--important --recurse --no-pre-depends "
    "--no-depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces "
    "--no-enhances --pkg-names --generate --no-generate --no-all-names --all-names "
    "--no-all-versions --target= --format="
)
_APT_OPTIONS = [
    Opt("-o/--option", value="required"),
    Opt("-c/--config-file", value="required", role="read"),
]
_APT_QUERIES = (
    "list",
    "search",
    "show",
    "showpkg",
    "showsrc",
    "policy",
    "madison",
    "depends",
    "rdepends",
    "pkgnames",
    "stats",
    "dump",
    "dumpavail",
    "unmet",
    "dotty",
    "xvcg",
    "check",
    "showhold",
    "showauto",
    "showmanual",
    "moo",
)


def _apt(name: str) -> Spec:
    return Spec(
        name,
        _INSTALL,
        options=_APT_OPTIONS,
        flags=_APT_COMMON,
        handler=system_packages.apt_option,
        subcommands={
            **shared(_APT_QUERIES, _READ, flags=_APT_COMMON, options=_APT_OPTIONS),
            **shared(("update",), _REFRESH, flags=_APT_COMMON, options=_APT_OPTIONS),
            "changelog": sub("changelog", "network network_read read_only", _APT_COMMON),
            **shared(
                (
                    "install",
                    "upgrade",
                    "dist-upgrade",
                    "full-upgrade",
                    "reinstall",
                    "build-dep",
                    "satisfy",
                ),
                _INSTALL,
                flags=_APT_COMMON,
                options=_APT_OPTIONS,
                handler=system_packages.apt_option,
            ),
            **shared(
                ("remove", "purge", "autoremove", "autopurge", "clean", "autoclean", "dist-clean"),
                _REMOVE,
                flags=_APT_COMMON,
                options=_APT_OPTIONS,
                handler=system_packages.apt_option,
            ),
            **shared(
                ("download", "source"),
                "network network_read write",
                flags=_APT_COMMON,
                options=_APT_OPTIONS,
                handler=system_packages.apt_option,
            ),
            **shared(("edit-sources",), "system write", flags=_APT_COMMON),
        },
        default=sub(name, "unknown"),
    )


_APK_COMMON = (
    "--no-cache -U/--update-cache --virtual= -t= --no-network --print-arch -q/--quiet "
    "-v/--verbose -i/--interactive --no-interactive --no-progress --progress --purge "
    "--force-broken-world --force-overwrite --force-old-apk --force-refresh "
    "--force-non-repository --force-missing-repositories --allow-untrusted "
    "--no-scripts --clean-protected --upgrade -u -l/--latest -a/--available "
    "-s/--simulate --wait= --root= -p= --arch= --cache-dir= --repositories-file= "
    "--keys-dir= -X/--repository= --repositories= --no-check-certificate --timeout= "
    "-h/--help -V/--version --installed --orphans --upgradable --origin --depends "
    "-r/--rdepends -d/--description -w/--webpage -L/--contents -R/--depends "
    "--replaces --provides --install-if --rinstall-if --size -W/--who-owns -e/--exact "
    "--all -x/--exact-match --no-self-upgrade --self-upgrade-only --prune --available "
    "--ignore=  --initdb --usermode"
)


def _apk() -> Spec:
    return Spec(
        "apk",
        _INSTALL,
        flags=_APK_COMMON,
        subcommands={
            **shared(
                ("info", "list", "search", "policy", "dot", "stats", "audit", "verify"),
                _READ,
                _APK_COMMON,
            ),
            "update": sub("update", _REFRESH, _APK_COMMON),
            **shared(("add", "upgrade", "fix", "fetch", "cache"), _INSTALL, _APK_COMMON),
            **shared(("del",), _REMOVE, _APK_COMMON),
            "version": sub("version", _READ, _APK_COMMON),
        },
        default=sub("apk", "unknown"),
    )


_DNF_COMMON = (
    "-y/--assumeyes --assumeno -q/--quiet -v/--verbose --nogpgcheck --refresh -C/--cacheonly "
    "--allowerasing --best --nobest --skip-broken --enablerepo= --disablerepo= "
    "--repo/--repoid= --exclude/-x= --disableexcludes= --installroot= --releasever= "
    "--nodocs --noplugins --disableplugin= --enableplugin= --downloadonly --downloaddir= "
    "--destdir= --security --bugfix --enhancement --advisory= --bz= --cve= --sec-severity= "
    "--showduplicates --installed --available --updates --upgrades --obsoletes --recent "
    "--extras --autoremove --all --forcearch= -e/--errorlevel= -d/--debuglevel= --color= "
    "--noautoremove --allowdowngrade --arch= --whatprovides --whatrequires "
    "--requires --provides --list --info -i -l --queryformat/--qf= --userinstalled "
    "--downgrades --duplicates --leaves --unneeded --installonly --location --tree "
    "--alldeps --resolve --recursive --changelogs --source --srpm --urls --help -h "
    "--version --comment= --add-repo= --set-enabled --set-disabled --enable --disable --dump "
    "--since= --count= --download-metadata --newest-only --remote-time --norepopath "
    "--deplist --skip-unavailable --spec --define= -p= --url"
)


#: A configuration file or ``--setopt`` can name plugin paths: code dnf loads.
_DNF_OPTIONS = opts("-c/--config --setopt", value="required", adds="code_exec")


def _dnf(name: str) -> Spec:
    return Spec(
        name,
        _INSTALL,
        options=_DNF_OPTIONS,
        flags=_DNF_COMMON,
        subcommands={
            **shared(
                (
                    "list",
                    "info",
                    "search",
                    "provides",
                    "whatprovides",
                    "repolist",
                    "repoinfo",
                    "repoquery",
                    "deplist",
                    "history",
                    "check",
                    "check-update",
                    "check-upgrade",
                    "updateinfo",
                    "grouplist",
                    "groupinfo",
                    "version",
                    "alias",
                    "needs-restarting",
                    "changelog",
                    "ls",
                    "rq",
                    "info",
                ),
                _READ,
                _DNF_COMMON,
                options=_DNF_OPTIONS,
            ),
            "makecache": sub("makecache", _REFRESH, _DNF_COMMON, options=_DNF_OPTIONS),
            **shared(
                (
                    "install",
                    "reinstall",
                    "upgrade",
                    "update",
                    "distro-sync",
                    "downgrade",
                    "groupinstall",
                    "localinstall",
                    "builddep",
                    "group",
                    "module",
                    "swap",
                    "download",
                    "upgrade-minimal",
                    "in",
                    "system-upgrade",
                    "reposync",
                    "grp",
                ),
                _INSTALL,
                _DNF_COMMON,
                options=_DNF_OPTIONS,
            ),
            **shared(
                (
                    "remove",
                    "rm",
                    "erase",
                    "autoremove",
                    "clean",
                    "groupremove",
                    "mark",
                    "versionlock",
                    "config-manager",
                ),
                _REMOVE,
                _DNF_COMMON,
                options=_DNF_OPTIONS,
            ),
        },
        default=sub(name, "unknown"),
    )


def _pacman() -> Spec:
    """pacman: the operation is an option bundled with its modifiers (``-Syu``, ``-Qi``).
    Querying (``-Q``, ``-F``, ``-T``) reads; ``-S``/``-U`` install and ``-R`` removes (a
    search ``-Ss`` asks as an install would: the bundle is one option to the parser)."""
    return Spec(
        "pacman",
        _READ,
        options=[
            Opt("-S/--sync -U/--upgrade", adds=_INSTALL),
            Opt("-R/--remove", adds=_REMOVE),
            Opt("-D/--database", adds="system"),
        ],
        flags="-Q/--query -F/--files -T/--deptest --noconfirm --confirm --needed "
        "--noprogressbar --asdeps --asexplicit --overwrite= --ignore= --ignoregroup= --dbonly "
        "--nodeps --nosave --print --print-format= --cachedir= --dbpath= --root= -b= "
        "--logfile= --gpgdir= --arch= --color= --debug --disable-download-timeout "
        "--sysroot= -q/--quiet -v/--verbose -i/--info -s/--search -l/--list -o/--owns "
        "-e/--explicit -d/--deps -t/--unrequired -m/--foreign -n/--native -u/--upgrades "
        "-k/--check -c/--changelog -g/--groups -y/--refresh -w/--downloadonly -x/--regex "
        "-h/--help -V/--version",
    )


SPECS = [
    _apt("apt-get"),
    _apt("apt"),
    Spec(
        "apt-cache",
        _READ,
        options=_APT_OPTIONS,
        flags=_APT_COMMON,
        handler=system_packages.apt_option,
        subcommands=shared(_APT_QUERIES, _READ, flags=_APT_COMMON, options=_APT_OPTIONS),
        default=sub("apt-cache", "unknown"),
    ),
    Spec(
        "apt-mark",
        _REMOVE,
        flags=_APT_COMMON,
        subcommands={
            **shared(("showauto", "showmanual", "showhold", "showinstall", "showremove"), _READ),
            **shared(("auto", "manual", "hold", "unhold", "minimize-manual"), _REMOVE),
        },
        default=sub("apt-mark", "unknown"),
    ),
    _apk(),
    _dnf("dnf"),
    _dnf("yum"),
    _dnf("microdnf"),
    _pacman(),
]
