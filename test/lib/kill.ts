/**
 * Crash tests: run a TypeScript module snippet in a child Node process (through tsx, by absolute
 * URL, so no build is needed) and SIGKILL it `delay` ms after it prints `ready`; a child that
 * loops calls through the library; and what the database looks like afterwards.
 */
import { spawn } from "node:child_process"
import { type FSWatcher, watch } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Effect } from "effect"
import { Database } from "../../src/storage/database.js"

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const TSX = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href

/** A module of the project as an import specifier a child can use. */
export const moduleUrl = (file: string): string => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href)

/** A moment to count the delay from, instead of `ready`: the first entry named `prefix…` appearing in `folder`. */
export interface Trigger {
  readonly folder: string
  readonly prefix: string
}

/**
 * Resolves `"finished"` when the child printed `done` before the kill, `"killed"` otherwise;
 * rejects when it died any other way or printed a line starting `failed `. With a `trigger`,
 * the kill comes `delay` ms after the trigger's entry appeared (once the child is ready): a
 * write's temp file, say, so the kill lands inside the write rather than anywhere.
 */
export const runAndKill = (script: string, delay: number, trigger?: Trigger) =>
  new Promise<"finished" | "killed">((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", TSX, "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
    const output: string[] = []
    const watching: { watcher?: FSWatcher } = {}
    const kill = () => setTimeout(() => child.kill("SIGKILL"), delay)
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output.push(chunk)
      if (!chunk.includes("ready")) return
      if (trigger === undefined) return kill()
      watching.watcher = watch(trigger.folder, (_, name) => {
        if (name === null || !name.startsWith(trigger.prefix)) return
        watching.watcher?.close()
        kill()
      })
    })
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk))
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      watching.watcher?.close()
      const text = output.join("")
      if (text.includes("done")) return resolve("finished")
      // A line of its own: a logged warning that mentions a failure is not the call failing.
      if (signal === "SIGKILL" && !/^failed /m.test(text)) return resolve("killed")
      reject(new Error(`child exited with ${code ?? signal}: ${text}`))
    })
  })

/** Where a crash test's child works: its Location, data folder and home. */
export interface Place {
  readonly work: string
  readonly data: string
  readonly home: string
}

/**
 * A child that opens `place.work` with the library (`Toolgate.open`) in session `ses_crash`,
 * says `ready`, then settles the call `call(round)` makes, round after round, until it is killed;
 * an outcome that is not a success ends it with a `failed ` line. `call` is the source of a
 * function `(round) => ({ name, input })`, run in the child (it may read the files, `fs` is in scope).
 */
export const loopScript = (place: Place, call: string) => `import { Effect } from "effect"
import fs from "node:fs"
const { Toolgate } = await import(${moduleUrl("src/toolgate.ts")})
const call = ${call}
const program = Effect.gen(function* () {
  const toolgate = yield* Toolgate.open({ directory: ${JSON.stringify(place.work)}, environment: { env: { TOOLGATE_DATA_DIR: ${JSON.stringify(place.data)} }, home: ${JSON.stringify(place.home)} } })
  const session = yield* toolgate.session({ id: "ses_crash", agent: "build" })
  process.stdout.write("ready\\n")
  for (let round = 0; ; round++) {
    const outcome = yield* toolgate.settle({ session, call: { id: "call_" + round, ...call(round) } })
    if (outcome.kind !== "success") return process.stdout.write("failed " + outcome.message + "\\n")
  }
})
await Effect.runPromise(Effect.scoped(program))`

/**
 * What a crash left of the database at `<data>/toolgate.db`, opened as toolgate opens it (so
 * it must open, WAL recovered and migrated): its integrity check and the ids of its sessions.
 */
export const database = (data: string) =>
  Effect.acquireUseRelease(
    Database.open(path.join(data, "toolgate.db")),
    (db) => Effect.sync(() => ({ integrity: db.pragma("integrity_check", { simple: true }), sessions: db.prepare<[], { id: string }>("SELECT id FROM session ORDER BY id").all().map((row) => row.id) })),
    (db) => Effect.sync(() => db.close()),
  )
