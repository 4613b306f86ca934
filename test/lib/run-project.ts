/**
 * A fresh project folder for `toolgate run` as a child process, whose config asks before `echo *`,
 * with its home and data inside the root; `run` runs the built CLI there without a terminal.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { tmpdir } from "./tmp.js"

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The project, with `files` (name → content) in its working folder. */
export const project = (files: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const work = path.join(root, "work")
    yield* Effect.promise(async () => {
      await mkdir(path.join(root, "home"))
      await mkdir(work)
      for (const [name, content] of Object.entries(files)) await writeFile(path.join(work, name), content)
      await writeFile(path.join(root, "extra.json"), JSON.stringify({ permission: [{ action: "bash", resource: "echo *", effect: "ask" }] }))
    })
    /** `toolgate <args>` in the project, without a terminal; `started` gets the child once spawned. */
    const run = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}, started?: (child: ChildProcess) => void) =>
      Effect.promise(
        () =>
          new Promise<Ran>((resolve, reject) => {
            const child = spawn(process.execPath, [BIN, ...args, "--config", path.join(root, "extra.json")], {
              cwd: work,
              env: { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data"), ...env },
              stdio: ["ignore", "pipe", "pipe"],
            })
            started?.(child)
            const out: Array<Buffer> = []
            const err: Array<Buffer> = []
            child.stdout.on("data", (chunk: Buffer) => out.push(chunk))
            child.stderr.on("data", (chunk: Buffer) => err.push(chunk))
            child.once("error", reject)
            child.once("close", (code) => resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }))
          }),
      )
    return { root, work, run }
  })
