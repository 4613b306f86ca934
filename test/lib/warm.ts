/**
 * A project for the built CLI with waiting processes on (cli/warm/): its home, config and data
 * folder inside a temporary root, bash allowed. `toolgate` runs one whole process and reports
 * which process ran the command's bash (its parent's command line, read from /proc by the
 * command itself); `untilWaiting` runs probes until a waiting process answers (a bounded number
 * of tries, never a timed assertion). When the scope closes the root is removed and every
 * waiting process of it is killed.
 */
import { spawn } from "node:child_process"
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { Effect, Schedule } from "effect"
import { BIN } from "./cli-project.js"
import { tmpdir } from "./tmp.js"

export interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  /** The pid of the `toolgate` process started. */
  readonly pid: number
}

/** A bash command that prints the command line of the process that ran it (toolgate's `node`). */
export const PARENT = `cat /proc/$PPID/cmdline | tr '\\0' ' '; echo`

/** The waiting process's file, as its command line shows it. */
export const SCRIPT = "warm.cjs"

/** Pids of the waiting processes whose command line names `root`. */
export const waitingProcesses = async (root: string): Promise<ReadonlyArray<number>> => {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name))
  const found: Array<number> = []
  for (const pid of pids) {
    const line = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")
    if (line.includes(SCRIPT) && line.includes(root)) found.push(Number(pid))
  }
  return found
}

/** Every action allowed: the default rules of a project here. */
export const ALLOW_ALL = { "*": { "*": "allow" } }

/** Polls `check` until it holds (at most 200 times, 50 ms apart); dies when it never does. */
export const until = (check: () => boolean | Promise<boolean>): Effect.Effect<void> =>
  Effect.promise(async () => check()).pipe(
    Effect.repeat({ until: (held) => held, schedule: Schedule.spaced("50 millis"), times: 200 }),
    Effect.flatMap((held) => (held ? Effect.void : Effect.die(new Error("never held")))),
  )

/** The pids from `pid` up its ancestors (read from /proc), at most 8. */
const lineage = async (pid: number): Promise<ReadonlyArray<number>> => {
  const found: Array<number> = []
  for (let current = pid; found.length < 8 && current > 1; ) {
    found.push(current)
    const status = await readFile(`/proc/${current}/status`, "utf8").catch(() => "")
    current = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0)
  }
  return found
}

/** Whether `ancestor` is `pid` or one of its ancestors. */
export const isAncestor = async (ancestor: number, pid: number): Promise<boolean> => (await lineage(pid)).includes(ancestor)

/** Whether a waiting process is among the ancestors of `pid`. */
export const underWaiting = async (pid: number): Promise<boolean> => {
  for (const current of await lineage(pid)) if ((await readFile(`/proc/${current}/cmdline`, "utf8").catch(() => "")).includes(SCRIPT)) return true
  return false
}

export const warmProject = (files: Readonly<Record<string, string>> = {}, permission: unknown = ALLOW_ALL) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    yield* Effect.addFinalizer(() => Effect.promise(async () => (await waitingProcesses(root)).forEach((pid) => process.kill(pid, "SIGKILL"))))
    const work = path.join(root, "work")
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), TOOLGATE_DATA_DIR: path.join(root, "data"), TOOLGATE_WARM_IDLE_MS: "120000" }
    yield* Effect.promise(async () => {
      await mkdir(path.join(root, "home", ".config", "toolgate"), { recursive: true })
      await writeFile(path.join(root, "home", ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission }))
      await mkdir(work)
      for (const [name, content] of Object.entries(files)) await writeFile(path.join(work, name), content)
    })
    /**
     * Starts the CLI with `args`: `options.bin` instead of the built one, under `options.wrap` (a
     * command that runs the rest of its arguments: `nice`, a sandbox), with `options.node` as
     * Node's own flags.
     */
    const start = (
      args: ReadonlyArray<string>,
      options: {
        readonly env?: Readonly<Record<string, string>>
        readonly cwd?: string
        readonly input?: string
        readonly bin?: string
        readonly wrap?: ReadonlyArray<string>
        readonly node?: ReadonlyArray<string>
      } = {},
    ) => {
      const command = [...(options.wrap ?? []), process.execPath, ...(options.node ?? []), options.bin ?? BIN, ...args]
      const child = spawn(command[0] as string, command.slice(1), { cwd: options.cwd ?? work, env: { ...env, ...options.env }, stdio: ["pipe", "pipe", "pipe"] })
      const out = { stdout: "", stderr: "" }
      child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
      child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
      child.stdin.end(options.input ?? "")
      const closed = new Promise<Ran>((resolve, reject) => {
        child.once("error", reject)
        child.once("close", (code) => resolve({ code, ...out, pid: child.pid ?? -1 }))
      })
      return { child, out, closed }
    }
    const toolgate = (args: ReadonlyArray<string>, options: Parameters<typeof start>[1] = {}) => Effect.promise(() => start(args, options).closed)
    /** Runs `command` with bash; whether a waiting process ran it. */
    const bash = (command: string, options: Parameters<typeof start>[1] = {}) =>
      toolgate(["call", "bash", JSON.stringify({ command: `${PARENT}; ${command}` })], options).pipe(Effect.map((ran) => ({ ...ran, waiting: ran.stdout.includes(SCRIPT) })))
    /** Probes until a waiting process ran one (at most `tries`). */
    const untilWaiting = (tries = 100, options: Parameters<typeof start>[1] = {}): Effect.Effect<void> =>
      bash("true", options).pipe(
        Effect.flatMap((ran) =>
          ran.waiting
            ? Effect.void
            : tries <= 1
              ? Effect.die(new Error(`no waiting process answered: ${ran.stderr}`))
              : Effect.sleep(100).pipe(Effect.andThen(untilWaiting(tries - 1, options))),
        ),
      )
    return { root, work, env, start, toolgate, bash, untilWaiting }
  })
