/**
 * What a replacement keeps of the file it replaces (src/location/replaced-file.ts), on real files:
 * a toolgate running as root wrote the person's `0640` file back as root's, locking its owner out
 * of it; a set-user-ID file lost nothing else. Owners are given away with real `chown`, so those
 * cases need root; without it they are skipped with the reason printed.
 */
import { spawnSync } from "node:child_process"
import { chmod, chown, readFile, stat, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { FileMutation } from "../../src/location/file-mutation.js"
import { ReplacedFile } from "../../src/location/replaced-file.js"
import { tmpdir } from "../lib/tmp.js"

const root = process.getuid?.() === 0
/** A user and group that are not root's, to own the person's file. */
const PERSON = 1000
if (!root) console.warn("replaced-file.test.ts: not root, so the cases that give a file to another user are skipped")

const ownerOf = (file: string) => Effect.promise(async () => {
  const info = await stat(file)
  return { uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 }
})

describe("ReplacedFile.groupMatters", () => {
  it("is whether the group is granted anything other than what everyone is", () => {
    expect(ReplacedFile.groupMatters(0o640)).toBe(true)
    expect(ReplacedFile.groupMatters(0o660)).toBe(true)
    expect(ReplacedFile.groupMatters(0o604)).toBe(true)
    expect(ReplacedFile.groupMatters(0o644)).toBe(false)
    expect(ReplacedFile.groupMatters(0o600)).toBe(false)
    expect(ReplacedFile.groupMatters(0o4755)).toBe(false)
  })
})

describe.skipIf(!root)("a replacement by root", () => {
  it.live("keeps the owner, the group and the mode (set-user-ID too) of the person's file", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const file = path.join(dir, "owned.txt")
      yield* Effect.promise(async () => {
        await writeFile(file, "mine\n")
        await chown(file, PERSON, PERSON)
        await chmod(file, 0o4750)
      })
      yield* FileMutation.writeAtomic(file, "yours\n")
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("yours\n")
      expect(yield* ownerOf(file)).toEqual({ uid: PERSON, gid: PERSON, mode: 0o4750 })
    }),
  )

  it.live("gives a new file the one who runs toolgate", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const file = path.join(dir, "new.txt")
      yield* FileMutation.writeAtomic(file, "new\n")
      expect((yield* ownerOf(file)).uid).toBe(0)
    }),
  )
})

/** Whether `chattr +i` works on the temp folder's file system (it needs root and ext4 or the like). */
const immutable = (file: string) => spawnSync("chattr", ["+i", file]).status === 0

describe.skipIf(!root)("a file no one may write", () => {
  it.live("is refused with NOT_WRITABLE before anything is written, root or not", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const file = path.join(dir, "frozen.txt")
      yield* Effect.promise(() => writeFile(file, "frozen\n"))
      // Made immutable only for this test's scope: the temp folder is removed after it.
      const frozen = yield* Effect.acquireRelease(
        Effect.sync(() => immutable(file)),
        () => Effect.sync(() => spawnSync("chattr", ["-i", file])),
      )
      if (!frozen) {
        console.warn("replaced-file.test.ts: chattr +i is not available here, so the immutable file case is skipped")
        return
      }
      const failed = yield* Effect.flip(FileMutation.writeAtomic(file, "thawed\n"))
      expect(failed.detail).toBe(ReplacedFile.NOT_WRITABLE)
      expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("frozen\n")
    }),
  )
})
