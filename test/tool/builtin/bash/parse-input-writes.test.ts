/**
 * Programs whose writes are named by their input (BashInputWrites): each spelling that extracts
 * or applies yields the folder it writes into as a fed target (the tool asks an opaque `edit` of
 * it); the modes that write nothing yield none. The real CLI, git and tar replay the repro in
 * input-writes-oracle.test.ts.
 */
import { describe, expect, it } from "vitest"
import { directory, fed, named, parse } from "../../../lib/bash-gate.js"

const feeds = (command: string) => fed(parse(command).targets)

/** Each writes what its input names, into `.` unless the line says where. */
const WRITES = [
  ...["tar xf e.tar", "tar -xf e.tar", "tar -x -f e.tar", "tar --extract -f e.tar", "tar --get -f e.tar", "tar -xvzf e.tgz", "tar xvf e.tar", "tar --extract --file=e.tar", "tar -x < e.tar", "cat e.tar | tar x", "gtar xf e.tar"],
  ...["bsdtar xf e.tar", "bsdtar -xf e.tar", "busybox tar xf e.tar", "toybox tar -xf e.tar", "sudo tar xf e.tar"],
  ...["cpio -i < e.cpio", "cpio -id < e.cpio", "cpio -idmv < e.cpio", "cpio --extract < e.cpio", "cpio -iF e.cpio", "rpm2cpio x.rpm | cpio -idm", "bsdcpio -i < e.cpio", "busybox cpio -i < e.cpio"],
  ...["unzip e.zip", "unzip -o e.zip", "unzip -q e.zip", "busybox unzip e.zip"],
  ...["7z x e.7z", "7za x e.7z", "7zr e e.7z", "7zz x e.7z", "jar xf e.jar", "jar -xf e.jar", "jar xvf e.jar", "jar --extract --file e.jar", "ar x e.a", "ar xv e.a", "ar -x e.a"],
  ...["pax -r -f e.pax", "pax -rf e.pax", "pax -r < e.pax", "unrar x e.rar", "rar e e.rar", "unar e.zip", "cabextract e.cab", "gem unpack x.gem", "unshar x.shar", "dpkg-deb -x x.deb ."],
  ...["python3 -m zipfile -e e.zip .", "python -m tarfile -e e.tar", "python3 -m tarfile --extract e.tar", "python3.11 -mzipfile -e e.zip out"],
  ...["patch < x.diff", "patch -p1 < x.diff", "patch -p1 -i x.diff", "patch -R -p0 < x.diff", "patch -b -p1 < x.diff", "patch f.txt x.diff"],
  ...["git apply x.diff", "git apply --index x.diff", "git apply -3 x.diff", "git apply --reject x.diff", "git apply --stat --apply x.diff", "git-apply x.diff"],
  ...["git am x.mbox", "git am < x.mbox", "git am --continue", "git am --skip", "git-am x.mbox"],
]

/** Each lists, tests, prints or only changes the index: nothing lands in a folder. */
const CLEAR = [
  ...["tar tf e.tar", "tar -tvf e.tar", "tar --list -f e.tar", "tar xOf e.tar", "tar -xf e.tar -O", "tar --extract --to-stdout -f e.tar", "tar cf e.tar dir", "bsdtar tf e.tar"],
  ...["cpio -t < e.cpio", "cpio -it < e.cpio", "cpio -o > e.cpio < list", "cpio -i --to-stdout < e.cpio"],
  ...["unzip -l e.zip", "unzip -t e.zip", "unzip -p e.zip", "unzip -Z1 e.zip", "unzip -v e.zip", "7z l e.7z", "7z t e.7z", "7z x -so e.7z", "jar tf e.jar", "jar cf e.jar dir", "ar t e.a", "ar p e.a x", "ar rcs e.a x.o"],
  ...["pax -f e.pax", "pax -w -f e.pax dir", "unrar l e.rar", "cabextract -l e.cab", "gem list", "python3 -m zipfile -l e.zip", "python3 -m tarfile -l e.tar", "python3 x.py -m zipfile -e a b", "python3 -m http.server"],
  ...["patch --dry-run -p1 < x.diff", "patch -o out.txt f < x.diff", "patch --output=out.txt f < x.diff"],
  ...["git apply --check x.diff", "git apply --stat x.diff", "git apply --numstat x.diff", "git apply --summary x.diff", "git apply --cached x.diff", "git am --show-current-patch", "git am --quit"],
  ...["git commit -m \"$MSG\"", "git status", "git archive -o e.tar HEAD", "cp a b", "rsync -a src/ dst/"],
]

describe("BashInputWrites", () => {
  for (const command of WRITES) it(`${JSON.stringify(command)} writes what its input names: a fed folder`, () => expect([command, feeds(command).length > 0]).toEqual([command, true]))
  for (const command of CLEAR) it(`${JSON.stringify(command)} writes nothing its input names`, () => expect([command, feeds(command)]).toEqual([command, []]))

  it("reads where the input lands: -C, -d, -o, -D, --target, git -C", () => {
    expect(feeds("tar xf e.tar")).toEqual([directory(".")])
    expect(feeds("tar xvf e.tar -C sub")).toEqual([directory(".", "sub")])
    expect(feeds("unzip e.zip -d .git/hooks")).toEqual([directory(".git/hooks")])
    expect(feeds("7z x -osub e.7z")).toEqual([directory("sub")])
    expect(feeds("cpio -i -D sub < e.cpio")).toEqual([directory("sub")])
    expect(feeds("cpio -pd out < list")).toEqual([directory("out")])
    expect(feeds("gem unpack x.gem --target=vendor")).toEqual([directory("vendor")])
    expect(feeds("patch -d sub -p1 < x.diff")).toEqual([directory("sub")])
    expect(feeds("git -C sub apply x.diff")).toEqual([directory(".", "sub")])
    expect(feeds("cd sub && tar xf ../e.tar")).toEqual([directory(".", "sub")])
  })

  it("reads a word that may be any option, or a work tree moved elsewhere, as a write somewhere unknown", () => {
    for (const command of ["cpio $OPTS < e.cpio", "7z x e.7z $OUT", "git apply $ARGS", "git --work-tree=/w apply x.diff", "python3 -m zipfile -e e.zip \"$D\""]) {
      expect([command, feeds(command)]).toEqual([command, [directory(undefined)]])
    }
    // A module that expands is already an opaque line.
    expect(parse('python3 -m "$M" -e e.zip d').opaque).toBe(true)
  })

  it("keeps a written folder apart from the same folder entered: `unzip -d .git/hooks; cd .git/hooks` still writes it", () => {
    expect(named(parse("unzip e.zip -d .git/hooks; cd .git/hooks").targets)).toContainEqual(directory(".git/hooks"))
  })
})
