#!/usr/bin/env python3
"""Library archives (`voicealarm export`) read and spoiled with Python's own tarfile, independently
of libarchive:

  library_archive.py check ARCHIVE       one JSON document: every member (name, type, size, mode),
                                          the manifest, and whether each file it names is present
                                          with its length and SHA-256
  library_archive.py bad ARCHIVE FOLDER   writes FOLDER/CASE.tar for each way an archive can be
                                          wrong (see CASES), each made from the good ARCHIVE
"""
import hashlib
import io
import json
import sys
import tarfile

FOLDER = "voicealarm-export"
CASES = ["dotdot", "absolute", "outside", "symlink", "hardlink", "device", "fifo", "oversize", "wrongsha",
         "wronglength", "unknownversion", "nomanifest", "unlisted", "missing", "truncated", "garbage", "toomany",
         "notjson"]


def members(path):
    with tarfile.open(path, "r:") as tar:
        out = []
        for m in tar.getmembers():
            data = tar.extractfile(m).read() if m.isfile() else None
            out.append((m, data))
        return out


def check(path):
    found = members(path)
    files = {m.name: data for m, data in found if m.isfile()}
    manifest = json.loads(files[FOLDER + "/manifest.json"])
    verified = all(
        FOLDER + "/" + f["path"] in files
        and len(files[FOLDER + "/" + f["path"]]) == f["bytes"]
        and hashlib.sha256(files[FOLDER + "/" + f["path"]]).hexdigest() == f["sha256"]
        for f in manifest["files"])
    named = {FOLDER + "/" + f["path"] for f in manifest["files"]} | {FOLDER + "/manifest.json"}
    print(json.dumps({
        "members": [{"name": m.name, "type": "file" if m.isfile() else "dir" if m.isdir() else "other",
                     "size": m.size, "mode": m.mode} for m, _ in found],
        "manifest": manifest,
        "verified": verified and named == set(files),
    }))


def write(path, entries, raw_tail=b""):
    """entries: (TarInfo, bytes or None)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:", format=tarfile.PAX_FORMAT) as tar:
        for info, data in entries:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    with open(path, "wb") as out:
        out.write(buffer.getvalue() + raw_tail)


def info(name, data=b"", kind=tarfile.REGTYPE, **extra):
    i = tarfile.TarInfo(name)
    i.type = kind
    i.size = len(data) if kind == tarfile.REGTYPE else 0
    i.mode = 0o600
    for key, value in extra.items():
        setattr(i, key, value)
    return i


def bad(path, folder):
    good = members(path)
    entries = [(m, d) for m, d in good]
    manifest_name = FOLDER + "/manifest.json"
    manifest = json.loads(next(d for m, d in good if m.name == manifest_name))
    clip = next(m for m, d in good if m.isfile() and "/clips/" in m.name)

    def with_manifest(changed):
        data = json.dumps(changed).encode()
        return [(info(m.name, data), data) if m.name == manifest_name else (m, d) for m, d in entries]

    def replaced(name, data):
        return [(info(m.name, data), data) if m.name == name else (m, d) for m, d in entries]

    made = {
        "dotdot": entries + [(info(FOLDER + "/../escaped.txt", b"x"), b"x")],
        "absolute": entries + [(info("/tmp/voicealarm-escaped.txt", b"x"), b"x")],
        "outside": entries + [(info("elsewhere/clips/x.flac", b"x"), b"x")],
        "symlink": entries + [(info(FOLDER + "/clips/link.flac", kind=tarfile.SYMTYPE, linkname="/etc/passwd"), None)],
        "hardlink": entries + [(info(FOLDER + "/clips/hard.flac", kind=tarfile.LNKTYPE, linkname=clip.name), None)],
        "device": entries + [(info(FOLDER + "/clips/null.flac", kind=tarfile.CHRTYPE, devmajor=1, devminor=3), None)],
        "fifo": entries + [(info(FOLDER + "/clips/pipe.flac", kind=tarfile.FIFOTYPE), None)],
        "wrongsha": replaced(clip.name, bytes(b ^ 1 if i == clip.size // 2 else b for i, b in enumerate(dict(entries)[clip]))),
        "wronglength": replaced(clip.name, dict(entries)[clip] + b"\0"),
        "unknownversion": with_manifest(dict(manifest, formatVersion=99)),
        "nomanifest": [(m, d) for m, d in entries if m.name != manifest_name],
        "unlisted": entries + [(info(FOLDER + "/clips/extra.flac", b"fLaC"), b"fLaC")],
        "missing": [(m, d) for m, d in entries if m.name != clip.name],
        "notjson": replaced(manifest_name, b"{not json"),
        "toomany": entries + [(info(FOLDER + "/clips/%05d.flac" % n), b"") for n in range(10_001)],
    }
    for case, spoiled in made.items():
        write("%s/%s.tar" % (folder, case), spoiled)
    # A header that claims 200 MB, followed by far less: refused by its header alone.
    big = info(FOLDER + "/clips/huge.flac")
    big.size = 200 * 1024 * 1024
    body = b""
    for m, d in entries:
        body += m.tobuf(format=tarfile.PAX_FORMAT)
        if d:
            body += d + b"\0" * (-len(d) % 512)
    with open("%s/oversize.tar" % folder, "wb") as out:
        out.write(body + big.tobuf(format=tarfile.PAX_FORMAT) + b"\0" * 4096)
    with open(path, "rb") as source:
        whole = source.read()
    with open("%s/truncated.tar" % folder, "wb") as out:
        out.write(whole[: len(whole) // 2])
    with open("%s/garbage.tar" % folder, "wb") as out:
        out.write(bytes((n * 7919 + 13) % 256 for n in range(40_000)))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2])
    elif sys.argv[1] == "bad":
        bad(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
