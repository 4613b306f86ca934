/**
 * `toolgate session revert` killed outright mid-checkout, git with it (SIGKILL to its process
 * group, as a crash or a closed terminal's hang-up leaves things): the next `session unrevert`
 * returns every file the session wrote, none missing or cut short, and `session revert` then
 * puts every original back. The built CLI in child processes, real git, 1 500 real files.
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { tmpdir } from "../lib/tmp.js"

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")
const FILES = 1500
const names = Array.from({ length: FILES }, (_, index) => `f${String(index + 1).padStart(4, "0")}.txt`)

interface Ran {
  readonly code: number | null
  readonly output: string
}

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
      const root = yield* tmpdir
      const work = path.join(root, "work")
      const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data") }
      yield* Effect.promise(async () => {
        await mkdir(path.join(root, "home", ".config", "toolgate"), { recursive: true })
        await writeFile(path.join(root, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission: { "*": { "*": "allow" } } }))
        await mkdir(work)
        for (const name of names) await writeFile(path.join(work, name), `original ${name}\n`)
      })
      const toolgate = (args: ReadonlyArray<string>) =>
        Effect.promise(
          () =>
            new Promise<Ran>((resolve, reject) => {
              const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] })
              const output: Array<Buffer> = []
              child.stdout.on("data", (chunk: Buffer) => output.push(chunk))
              child.stderr.on("data", (chunk: Buffer) => output.push(chunk))
              child.once("error", reject)
              child.once("close", (code) => resolve({ code, output: Buffer.concat(output).toString("utf8") }))
            }),
        )
      const changed = yield* toolgate(["call", "bash", JSON.stringify({ command: "for f in f*.txt; do echo 'written by the session' > \"$f\"; done", description: "rewrite" }), "--session", "ses_k", "--message", "msg_k"])
      expect(changed.code, changed.output).toBe(0)
      expect(census(work).session).toBe(FILES)

      // The revert in a process group of its own, killed whole the moment its checkout reached f0050.
      const watched = path.join(work, "f0050.txt")
      const killed = yield* Effect.promise(
        () =>
          new Promise<boolean>((resolve, reject) => {
            const child = spawn(process.execPath, [BIN, "session", "revert", "ses_k", "msg_k"], { cwd: work, env, stdio: "ignore", detached: true })
            child.once("error", reject)
            let fired = false
            child.once("exit", () => resolve(fired))
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
      expect(unreverted.code, unreverted.output).toBe(0)
      expect(census(work)).toEqual({ original: 0, session: FILES, other: 0, missing: 0 })
      const reverted = yield* toolgate(["session", "revert", "ses_k", "msg_k"])
      expect(reverted.code, reverted.output).toBe(0)
      expect(census(work)).toEqual({ original: FILES, session: 0, other: 0, missing: 0 })
    }))
})
