"""A browser that trusts a library's certificate authority the way a person's does after
`voicealarm serve trust`, without any flag that ignores certificate errors.

Chromium on Linux reads the NSS database in $HOME/.pki/nssdb: `home_trusting(folder, authority)`
makes a HOME whose database trusts the authority for web sites (Debian's `certutil`), to hand to
chromedriver. WebKitGTK reads the system's bundle (/etc/ssl/certs/ca-certificates.crt, through
GnuTLS): the Swift tests start WebKit in a mount namespace of its own with a bundle holding the
authority bound over that file, so nothing outside the test changes.
"""
import os
import subprocess


def home_trusting(folder, authority):
    """A HOME inside `folder` whose NSS database trusts `authority` (a PEM file)."""
    home = os.path.join(folder, "home")
    database = os.path.join(home, ".pki", "nssdb")
    if not os.path.exists(os.path.join(database, "cert9.db")):
        os.makedirs(database, exist_ok=True)
        subprocess.run(["certutil", "-N", "-d", "sql:" + database, "--empty-password"], check=True)
    subprocess.run(["certutil", "-A", "-d", "sql:" + database, "-n", "VoiceAlarm", "-t", "C,,", "-i", authority], check=True)
    return home


def chromium_environment(folder):
    """The environment for chromedriver: HOME trusting $AUTHORITY when it is set."""
    environment = dict(os.environ)
    if os.environ.get("AUTHORITY"):
        environment["HOME"] = home_trusting(folder, os.environ["AUTHORITY"])
    return environment
