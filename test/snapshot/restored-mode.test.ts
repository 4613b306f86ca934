/**
 * A revert writes a file back with its owner and permissions (src/snapshot/restored-mode.ts).
 * Found with the built CLI: the person's `0600` file, edited by the session and reverted, came
 * back `0644` (git's mode, readable by every user), and as root it came back root's. Real files,
 * real git; the owner case needs root to give the file away, and is skipped without it (the
 * reason is printed).
 */
import { chmod, chown, readFile, stat } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { RestoredMode } from "../../src/snapshot/restored-mode.js"
import { cliProject } from "../lib/cli-project.js"

const root = process.getuid?.() === 0
const PERSON = 1000
if (!root) console.warn("restored-mode.test.ts: not root, so the case of a file owned by another user is skipped")

describe("RestoredMode.merge", () => {
  it("keeps the file's bits and takes the executable ones from the checkout, where the file may be read", () => {
    expect(RestoredMode.merge(0o600, 0o644)).toBe(0o600)
    expect(RestoredMode.merge(0o640, 0o755)).toBe(0o750)
    expect(RestoredMode.merge(0o750, 0o644)).toBe(0o640)
    expect(RestoredMode.merge(0o4755, 0o755)).toBe(0o4755)
    expect(RestoredMode.merge(0o400, 0o755)).toBe(0o500)
  })
})

/** Edits `name` in one message of a session under `* allow`, then reverts that message. */
const editThenRevert = (name: string, prepare: (file: string) => Promise<void>) =>
  Effect.gen(function* () {
    const project = yield* cliProject({ "*": { "*": "allow" } }, { [name]: "v1\n" })
    const file = path.join(project.work, name)
    yield* Effect.promise(() => prepare(file))
    const edited = yield* project.run(["call", "edit", JSON.stringify({ path: name, oldString: "v1", newString: "v2" }), "--session", "ses_mode", "--message", "msg_edit"])
    expect(edited.code, edited.stderr).toBe(0)
    const reverted = yield* project.run(["session", "revert", "ses_mode", "msg_edit"])
    expect(reverted.code, reverted.stderr).toBe(0)
    expect(yield* Effect.promise(() => readFile(file, "utf8"))).toBe("v1\n")
    return yield* Effect.promise(() => stat(file))
  })

describe("a revert of a file the session edited", () => {
  it.live("gives it back its own permissions, not git's", () =>
    Effect.gen(function* () {
      const info = yield* editThenRevert("private.txt", (file) => chmod(file, 0o600))
      expect(info.mode & 0o7777).toBe(0o600)
    }),
  )

  it.live.skipIf(!root)("gives it back to its owner", () =>
    Effect.gen(function* () {
      const info = yield* editThenRevert("owned.txt", async (file) => {
        await chown(file, PERSON, PERSON)
        await chmod(file, 0o640)
      })
      expect([info.uid, info.gid, info.mode & 0o7777]).toEqual([PERSON, PERSON, 0o640])
    }),
  )
})
