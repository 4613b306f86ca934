/**
 * File names that are not UTF-8 (Linux allows any byte), changed by real bash commands: the
 * snapshot holds them byte for byte, the diff lists them, and a revert puts them back under their
 * own bytes. Before, their names were decoded with replacement characters: git could not find
 * them, and a revert left them deleted without a word.
 */
import { execFileSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BytePath } from "../../src/location/byte-path.js"
import { scene } from "./history-harness.js"

/** A command run by bash in the Location, as the bash tool runs it. */
const bash = (work: string, command: string) => Effect.sync(() => void execFileSync("bash", ["-c", command], { cwd: work }))

/** Every file under `work` but `.git`, by its exact bytes (hex of the name → content). */
const tree = (work: string) =>
  Effect.sync(() => {
    const found: Record<string, string> = {}
    const walk = (folder: Buffer, prefix: Buffer) => {
      for (const entry of readdirSync(folder, { withFileTypes: true, encoding: "buffer" })) {
        if (entry.name.toString("latin1") === ".git") continue
        const name = Buffer.concat([prefix, entry.name])
        const full = Buffer.concat([folder, Buffer.from("/"), entry.name])
        if (entry.isDirectory()) walk(full, Buffer.concat([name, Buffer.from("/")]))
        else found[name.toString("hex")] = readFileSync(full, "latin1")
      }
    }
    walk(Buffer.from(work), Buffer.alloc(0))
    return found
  })

const name = (...parts: Array<string | number>) => BytePath.decode(Buffer.concat(parts.map((part) => (typeof part === "number" ? Buffer.of(part) : Buffer.from(part)))))

const SETUP = "printf 'precious\\n' > $'caf\\xe9.txt'; mkdir $'d\\xefr'; printf 'deep\\n' > $'d\\xefr/in\\xff.txt'; printf 'near\\n' > cafe.txt"

describe("History and file names that are not UTF-8", () => {
  it.live("reverts a command that deleted and created such files, byte for byte, and unreverts it", () =>
    scene({ "a.txt": "one\n" }, (s) =>
      Effect.gen(function* () {
        yield* bash(s.work, SETUP)
        const before = yield* tree(s.work)
        expect(Object.keys(before)).toHaveLength(4)
        yield* s.shell("msg_1", bash(s.work, "rm -rf caf*.txt d*r; printf new > $'\\xfe.txt'; echo two > a.txt"))
        const after = yield* tree(s.work)
        expect((yield* s.history.diff(s.id)).map((file) => [file.path, file.status])).toEqual([
          ["a.txt", "modified"],
          // In the order of their bytes, as git sorts them.
          ["cafe.txt", "deleted"],
          [name("caf", 0xe9, ".txt"), "deleted"],
          [name("d", 0xef, "r/in", 0xff, ".txt"), "deleted"],
          [name(0xfe, ".txt"), "added"],
        ])
        yield* s.history.revert(s.id, "msg_1")
        expect(yield* tree(s.work)).toEqual(before)
        yield* s.history.unrevert(s.id)
        expect(yield* tree(s.work)).toEqual(after)
      }),
    ))

  it.live("reverts one such file a command changed and leaves its near namesakes alone", () =>
    scene({ "a.txt": "one\n" }, (s) =>
      Effect.gen(function* () {
        yield* bash(s.work, `${SETUP}; printf 'other\\n' > $'caf\\xe8.txt'`)
        yield* s.shell("msg_1", bash(s.work, "printf 'changed\\n' > $'caf\\xe9.txt'"))
        // The person's own edit of a name that differs only in that byte, after the session.
        yield* bash(s.work, "printf 'mine\\n' > $'caf\\xe8.txt'")
        expect(yield* s.history.revert(s.id, "msg_1")).toEqual([{ path: name("caf", 0xe9, ".txt"), action: "restore" }])
        const files = yield* tree(s.work)
        expect(files[Buffer.from("caf\xe9.txt", "latin1").toString("hex")]).toBe("precious\n")
        expect(files[Buffer.from("caf\xe8.txt", "latin1").toString("hex")]).toBe("mine\n")
        expect(files[Buffer.from("cafe.txt").toString("hex")]).toBe("near\n")
        expect(readFileSync(path.join(s.work, "a.txt"), "utf8")).toBe("one\n")
      }),
    ))
})
