import { describe, expect, it } from "vitest"
import { parse } from "../../../lib/bash-gate.js"

/** The paths a line writes (null when unknown), or "opaque". */
const written = (command: string) => {
  const parsed = parse(command)
  return parsed.opaque ? "opaque" : parsed.targets.map((target) => target.path ?? null)
}

describe("BashProgramsRemove: deleting, creating and changing an operand writes it", () => {
  it("rm, rmdir, unlink, nuke and shred write every operand, whatever their options", () => {
    expect(written("rm -rf ../sib")).toEqual(["../sib"])
    expect(written("rm .git/config")).toEqual([".git/config"])
    expect(written("rm -r .git/hooks x")).toEqual([".git/hooks", "x"])
    expect(written("rm --interactive=never --preserve-root=all -- -x")).toEqual(["-x"])
    expect(written("rm a -f --one-file-system")).toEqual(["a"])
    expect(written("rmdir -p ../a/b")).toEqual(["../a/b"])
    expect(written("unlink .envrc")).toEqual([".envrc"])
    expect(written("busybox nuke .git ../sib")).toEqual([".git", "../sib"])
    expect(written("shred -n 3 -s 1K --random-source r -u --remove=wipe .git/config")).toEqual([".git/config"])
  })

  it("touch, mkdir write every operand; chmod, chown, chgrp all but the mode or owner", () => {
    expect(written("touch -d 'now' -r ref .envrc")).toEqual([".envrc"])
    expect(written("mkdir -p -m 700 .vscode ../out")).toEqual([".vscode", "../out"])
    expect(written("chmod 755 .git/hooks/pre-commit x")).toEqual([".git/hooks/pre-commit", "x"])
    expect(written("chmod -R u+x ../sib")).toEqual(["../sib"])
    expect(written("chmod -w .git/config")).toEqual([".git/config"])
    expect(written("chmod --reference=ref .git/config")).toEqual([".git/config"])
    expect(written("chown -R me:me ../x")).toEqual(["../x"])
    expect(written("chgrp staff .envrc")).toEqual([".envrc"])
  })

  it("a word that is not static, or one xargs adds, is a write to an unknown path (no option of these writes elsewhere)", () => {
    expect(written('rm -f -- "$F"')).toEqual([null])
    expect(written("rm -rf $F x")).toEqual([null, "x"])
    expect(written('touch "$F"')).toEqual([null])
    expect(written("ls | xargs rm")).toEqual([null])
    expect(written("find . -name '*.o' -print0 | xargs -0 rm -f")).toEqual([null])
  })
})
