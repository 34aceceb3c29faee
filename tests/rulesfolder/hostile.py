"""Hostile commits put straight into a shared (bare) repository, as someone with
access to the server (or a careless git user) would: a blob bomb, names that write
into ``.git`` or outside the folder, a commit that does not validate."""
from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

from dulwich.objects import Blob, Tree
from dulwich.pack import write_pack_index
from dulwich.repo import Repo

from rulesbook.rulesfolder.repo import Identity, make_commit

MAIN = b"refs/heads/main"
MALLORY = Identity("Mallory Outsider", "mallory@example.org")


def _pack_header(kind: int, size: int) -> bytes:
    out = bytearray()
    byte = (kind << 4) | (size & 0x0F)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def add_bomb_blob(bare: Path, size: int = 1 << 30, fill: bytes = b"#") -> bytes:
    """Store a blob of ``size`` bytes of ``fill`` as one packed object (about 1 MB for
    1 GiB, as git packs it), without ever holding it whole; its id."""
    step = 16 << 20
    assert size % step == 0
    chunk = fill * step
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = raw.compress(chunk) + raw.flush(zlib.Z_FULL_FLUSH)  # the same for every chunk
    sha = hashlib.sha1(b"blob %d\0" % size)
    adler = 1
    for _ in range(size // step):
        sha.update(chunk)
        adler = zlib.adler32(chunk, adler)
    stream = (b"\x78\xda" + piece * (size // step) + raw.flush(zlib.Z_FINISH)
              + struct.pack(">I", adler))
    entry = _pack_header(3, size) + stream
    body = b"PACK" + struct.pack(">II", 2, 1) + entry
    pack = body + hashlib.sha1(body).digest()
    blob_id = sha.hexdigest().encode()
    name = f"pack-{hashlib.sha1(body).hexdigest()}"
    folder = bare / "objects" / "pack"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.pack").write_bytes(pack)
    with open(folder / f"{name}.idx", "wb") as idx:
        write_pack_index(idx, [(bytes.fromhex(blob_id.decode()), 12, zlib.crc32(entry))],
                         pack[-20:])
    return blob_id


def commit_on_main(bare: Path, change, message: str = "a change",
                   author: Identity = MALLORY) -> bytes:
    """Commit on the bare repository's main a tree ``change(repo, tree)`` edits in
    place (adding entries with any name or mode); the new commit's id."""
    with Repo(str(bare)) as repo:
        head = repo.refs[MAIN]
        tree = repo[repo[head].tree]
        change(repo, tree)
        repo.object_store.add_object(tree)
        commit = make_commit(repo, tree.id, [head], message, author)
        repo.refs[MAIN] = commit
        return commit


def add_file(repo: Repo, tree: Tree, path: list[bytes], data: bytes | None = None,
             blob_id: bytes | None = None, mode: int = 0o100644) -> None:
    """Put a file at ``path`` (tree names as bytes, any of them) into ``tree``."""
    if blob_id is None:
        blob = Blob.from_string(data or b"pwned\n")
        repo.object_store.add_object(blob)
        blob_id = blob.id
    if len(path) == 1:
        tree.add(path[0], mode, blob_id)
        return
    sub = Tree()
    if path[0] in tree:
        existing = repo[tree[path[0]][1]]
        if isinstance(existing, Tree):
            sub = existing
    add_file(repo, sub, path[1:], data, blob_id, mode)
    repo.object_store.add_object(sub)
    tree.add(path[0], 0o040000, sub.id)


def replace_file(repo: Repo, tree: Tree, name: bytes, edit) -> None:
    """Replace a top-level file's bytes with ``edit(old bytes)``."""
    old = repo[tree[name][1]].as_raw_string()
    blob = Blob.from_string(edit(old))
    repo.object_store.add_object(blob)
    tree.add(name, 0o100644, blob.id)


def commit_a_name_twice(bare: Path, name: bytes = b"apca") -> bytes:
    """Commit on main a tree listing ``name`` twice: first as a link to /etc/passwd,
    then as the real folder (git fsck: duplicateEntries). dulwich reads a tree into a
    dict and keeps the folder; git checks out the link. The new commit's id."""
    with Repo(str(bare)) as repo:
        head = repo.refs[MAIN]
        raw = repo[repo[head].tree].as_raw_string()
        link = Blob.from_string(b"/etc/passwd")
        repo.object_store.add_object(link)
        twice = Tree.from_raw_string(
            Tree.type_num, b"120000 " + name + b"\0" + bytes.fromhex(link.id.decode()) + raw)
        repo.object_store.add_object(twice)
        assert len(twice) == len(repo[repo[head].tree])  # dulwich shows one of the two
        commit = make_commit(repo, twice.id, [head], f"{name.decode()} twice", MALLORY)
        repo.refs[MAIN] = commit
        return commit




def commit_many_files(bare: Path, count: int, per_folder: int | None = None,
                      same: bool = False, salt: bytes = b"") -> bytes:
    """Commit on the bare repository's main ``count`` more files under ``notes/``,
    ``per_folder`` to a folder (None: all in one), each its own blob (``same``: all
    one blob), stored in one pack: 200,000 notes are about 14 MB packed. ``salt``
    makes a call's blobs its own (another commit's are other files). The new
    commit's id."""
    blobs = [Blob.from_string(b"note\n" if same else b"n: %d%s\n" % (i, salt))
             for i in range(1 if same else count)]
    folders: dict[bytes, Tree] = {}
    for i in range(count):
        name = b"notes" if per_folder is None else b"%06d" % (i // per_folder)
        folders.setdefault(name, Tree()).add(b"n%06d.yaml" % i, 0o100644,
                                            blobs[0 if same else i].id)
    objects: list = [*blobs, *folders.values()]
    with Repo(str(bare)) as repo:
        head = repo.refs[MAIN]
        tree = repo[repo[head].tree]
        if per_folder is None:
            tree.add(b"notes", 0o040000, folders[b"notes"].id)
        else:
            notes = Tree()
            for name, folder in folders.items():
                notes.add(name, 0o040000, folder.id)
            tree.add(b"notes", 0o040000, notes.id)
            objects.append(notes)
        objects.append(tree)
        repo.object_store.add_objects([(o, None) for o in objects])
        commit = make_commit(repo, tree.id, [head], "many files", MALLORY)
        repo.refs[MAIN] = commit
        return commit


def commit_new_files_each_time(bare: Path, commits: int, files: int) -> None:
    """Commit on the bare repository's main ``commits`` commits, each replacing
    ``notes/`` with ``files`` one-line files of its own (new blobs every time: each
    commit within a commit's bound of files, together far over what so many commits
    may bring), made by ``git fast-import`` (60 x 10,000 files: a few seconds)."""
    import subprocess

    from .servers import env, git_program

    head = subprocess.run([git_program(), "rev-parse", "refs/heads/main"], cwd=bare,
                          env=env(), capture_output=True, text=True, check=True).stdout.strip()
    with Repo(str(bare)) as repo:
        tree = repo[repo[head.encode()].tree]
        kept = [(name, mode, sha) for name, mode, sha in tree.iteritems() if name != b"notes"]
    stream = bytearray()
    for c in range(commits):
        stream += b"commit refs/heads/main\n"
        stream += b"committer Mallory Outsider <mallory@example.org> 1700000000 +0000\n"
        stream += b"data 4\nmany"
        stream += b"\nfrom %s\n" % head.encode() if c == 0 else b"\n"
        stream += b"deleteall\n"
        for name, mode, sha in kept:
            stream += b"M %o %s %s\n" % (mode, sha.decode().encode(), name)
        for i in range(files):
            line = b"n: %d %d\n" % (c, i)
            stream += b"M 100644 inline notes/n%06d.yaml\ndata %d\n%s" % (i, len(line), line)
        stream += b"\n"
    subprocess.run([git_program(), "fast-import", "--quiet", "--force"], cwd=bare,
                   env=env(), input=bytes(stream), capture_output=True, check=True)
