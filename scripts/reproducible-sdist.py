"""Rewrites a Python sdist (.tar.gz) so the same sources give the same bytes, as reproducible-builds.org asks:
setuptools stamps the files it writes during the build (PKG-INFO, setup.cfg, the egg-info) with the time of the
build, and gzip's header with the current time. Every member's time becomes SOURCE_DATE_EPOCH (or earlier, as it
was), its owner root, and the gzip header carries no name or time.

    python reproducible-sdist.py <sdist.tar.gz>    (SOURCE_DATE_EPOCH in the environment)
"""
import gzip
import io
import os
import sys
import tarfile

path = sys.argv[1]
epoch = int(os.environ["SOURCE_DATE_EPOCH"])
out = io.BytesIO()
with tarfile.open(path, "r:gz") as src, tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as dst:
    for member in src.getmembers():
        member.mtime = min(member.mtime, epoch)
        member.uid = member.gid = 0
        member.uname = member.gname = "root"
        member.pax_headers = {}
        dst.addfile(member, src.extractfile(member) if member.isfile() else None)
with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
    z.write(out.getvalue())
