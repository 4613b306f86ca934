/**
 * A revert interrupted (SIGINT in the CLI interrupts the fiber) once it has started writing:
 * it finishes and is logged, so the unrevert puts back everything it wrote. git is a wrapper
 * that says when the checkout starts and takes its time, then runs the real git.
 */
import { execFileSync } from "node:child_process"
import { chmod, mkdir, writeFile } from "node:fs/promises"
import { watch } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { put, scene } from "./history-harness.js"

const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim()

/** A `git` on PATH that touches `marker` and waits a moment before a checkout. */
const slowCheckoutGit = (folder: string, marker: string) =>
  Effect.promise(async () => {
    await mkdir(folder, { recursive: true })
    const script = `#!/bin/sh\ncase " $* " in *" checkout "*) : > '${marker}'; sleep 1 ;; esac\nexec '${realGit}' "$@"\n`
    await writeFile(path.join(folder, "git"), script)
    await chmod(path.join(folder, "git"), 0o755)
  })

/** Waits until `file` appears in its folder (watched, not polled). */
const appeared = (file: string) =>
  Effect.callback<void>((resume) => {
    const watcher = watch(path.dirname(file), (_, name) => {
      if (name !== path.basename(file)) return
      watcher.close()
      resume(Effect.void)
    })
    return Effect.sync(() => watcher.close())
  })

describe("History.revert interrupted", () => {
  it.live("finishes a revert that has started writing, and the unrevert puts back everything", () =>
    scene({ "a.txt": "one\n", "b.txt": "bee\n" }, (s) =>
      Effect.gen(function* () {
        yield* s.shell("msg_1", Effect.andThen(put(s.work, "a.txt", "agent a\n"), put(s.work, "b.txt", "agent b\n")))
        const bin = path.join(path.dirname(s.work), "slow-git")
        const marker = path.join(bin, "checkout-started")
        yield* slowCheckoutGit(bin, marker)
        const saved = process.env.PATH
        process.env.PATH = `${bin}${path.delimiter}${saved ?? ""}`
        yield* Effect.gen(function* () {
          const reverting = yield* Effect.forkChild(s.history.revert(s.id, "msg_1"))
          yield* appeared(marker)
          yield* Fiber.interrupt(reverting)
        }).pipe(Effect.ensuring(Effect.sync(() => (process.env.PATH = saved))))
        expect(yield* s.files).toEqual({ "a.txt": "one\n", "b.txt": "bee\n" })
        expect(yield* s.history.unrevert(s.id)).toEqual([
          { path: "a.txt", action: "restore" },
          { path: "b.txt", action: "restore" },
        ])
        expect(yield* s.files).toEqual({ "a.txt": "agent a\n", "b.txt": "agent b\n" })
      }),
    ))
})
