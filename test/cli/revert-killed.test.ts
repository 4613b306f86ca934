/**
 * `toolgate session revert` killed outright mid-checkout, git with it (SIGKILL to its process
 * group, as a crash or a closed terminal's hang-up leaves things): the next `session unrevert`
 * returns every file the session wrote, none missing or cut short, and `session revert` then
 * puts every original back. The built CLI in child processes, real git, 1 500 real files.
 */
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cliProject } from "../lib/cli-project.js"

const FILES = 1500
const names = Array.from({ length: FILES }, (_, index) => `f${String(index + 1).padStart(4, "0")}.txt`)

/** What each file holds: how many hold the original, the session's content, anything else, or are missing. */
const census = (work: string) => {
  const present = new Set(readdirSync(work))
  const counts = { original: 0, session: 0, other: 0, missing: 0 }
  for (const name of names) {
    if (!present.has(name)) counts.missing++
    else {
      const text = readFileSync(path.join(work, name), "utf8")
      if (text === `original ${name}\n`) counts.original++
      else if (text === "written by the session\n") counts.session++
      else counts.other++
    }
  }
  return counts
}

/** The file's text; empty while git has it unlinked to write it anew. */
const contentOf = (file: string) => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    // Deliberate: missing for a moment mid-checkout.
    return ""
  }
}

describe("session revert killed with its git", () => {
  it.live("loses nothing: the unrevert returns every file, and a revert then puts every original back", () =>
    Effect.gen(function* () {
      const { work, start, run: toolgate } = yield* cliProject({ "*": { "*": "allow" } }, Object.fromEntries(names.map((name) => [name, `original ${name}\n`])))
      // "$f" is a write the gate cannot place: it asks an opaque edit even under an allow of everything, answered once here.
      const changed = yield* toolgate(["call", "bash", JSON.stringify({ command: "for f in f*.txt; do echo 'written by the session' > \"$f\"; done", description: "rewrite" }), "--session", "ses_k", "--message", "msg_k", "--on-ask", "once"])
      expect(changed.code, changed.stderr).toBe(0)
      expect(census(work).session).toBe(FILES)

      // The revert in a process group of its own, killed whole the moment its checkout reached f0050.
      const watched = path.join(work, "f0050.txt")
      const killed = yield* Effect.promise(
        () =>
          new Promise<boolean>((resolve) => {
            const { child, closed } = start(["session", "revert", "ses_k", "msg_k"], { detached: true })
            let fired = false
            void closed.then(() => resolve(fired))
            const poll = () => {
              if (child.exitCode !== null || child.signalCode !== null) return
              if (contentOf(watched).startsWith("original")) {
                fired = true
                process.kill(-(child.pid as number), "SIGKILL")
                return
              }
              setImmediate(poll)
            }
            poll()
          }),
      )
      expect(killed).toBe(true)
      const torn = census(work)
      // Mid-checkout: some files back, most not.
      expect(torn.original).toBeGreaterThan(0)
      expect(torn.session).toBeGreaterThan(0)

      const unreverted = yield* toolgate(["session", "unrevert", "ses_k"])
      expect(unreverted.code, unreverted.stderr).toBe(0)
      expect(census(work)).toEqual({ original: 0, session: FILES, other: 0, missing: 0 })
      const reverted = yield* toolgate(["session", "revert", "ses_k", "msg_k"])
      expect(reverted.code, reverted.stderr).toBe(0)
      expect(census(work)).toEqual({ original: FILES, session: 0, other: 0, missing: 0 })
    }))
})
