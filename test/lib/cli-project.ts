/**
 * A project folder for the built CLI as a child process: its global config holds `permission`
 * (the rules every command of the project runs under), its home and data folder sit inside the
 * root, and `files` (name → content) are in its working folder. `start` runs `toolgate <args>` there
 * without a terminal and hands back the child; `run` waits for it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { tmpdir } from "./tmp.js"
import { OWN_PROCESS } from "./own-process.js"

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface Started {
  readonly child: ChildProcess
  /** What it printed so far. */
  readonly out: { stdout: string; stderr: string }
  readonly closed: Promise<Ran>
}

export const cliProject = (permission: unknown, files: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const work = path.join(root, "work")
    const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data"), ...OWN_PROCESS }
    yield* Effect.promise(async () => {
      await mkdir(path.join(root, "home", ".config", "toolgate"), { recursive: true })
      await writeFile(path.join(root, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission }))
      await mkdir(work)
      for (const [name, content] of Object.entries(files)) await writeFile(path.join(work, name), content)
    })
    const start = (args: ReadonlyArray<string>, options: { readonly detached?: boolean } = {}): Started => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"], detached: options.detached === true })
      const out = { stdout: "", stderr: "" }
      child.stdout?.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
      child.stderr?.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
      const closed = new Promise<Ran>((resolve, reject) => {
        child.once("error", reject)
        child.once("close", (code) => resolve({ code, ...out }))
      })
      return { child, out, closed }
    }
    const run = (args: ReadonlyArray<string>) => Effect.promise(() => start(args).closed)
    return { root, work, env, start, run }
  })
