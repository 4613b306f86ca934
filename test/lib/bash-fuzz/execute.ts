/**
 * Runs one line in real bash, as the bash tool does (`bash -c <line>`), in the sandbox: cwd the
 * workdir, the sandbox's environment only, stdin from /dev/null, its own process group. It waits
 * until every holder of the output pipes is gone (background jobs too), killing the group after
 * TIMEOUT_MS, then reads the log: programs the shims ran, names bash found no program for, and the
 * commands the DEBUG trap saw (builtins included).
 */
export * as BashFuzzExecute from "./execute.js"

import { spawn } from "node:child_process"
import { readdirSync, readFileSync, truncateSync } from "node:fs"
import path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import type { BashFuzzSandbox } from "./sandbox.js"

export const TIMEOUT_MS = 2_000
/** How long the group may outlive the pipes (a job that closed them) before it is killed. */
export const LINGER_MS = 300
/** Output kept per line, for a finding's report. */
export const MAX_OUTPUT = 4_096

export interface Record {
  /** The program's name (a shim's basename, or the name bash could not find). */
  readonly program: string
  /** The whole record: `<shim path> <args>`, or the name. */
  readonly text: string
}

export interface Result {
  /** Programs the shims recorded. */
  readonly programs: ReadonlyArray<Record>
  /** Names bash searched PATH for and did not find (command_not_found_handle). */
  readonly missing: ReadonlyArray<Record>
  /** `$BASH_COMMAND` of every simple command the DEBUG trap saw. */
  readonly trap: ReadonlyArray<string>
  readonly output: string
  readonly timedOut: boolean
  readonly code: number | null
  /** Why bash did not start, when it did not. */
  readonly error: string | undefined
}

/** Whether the group has a member that is not a zombie (this machine's init may never reap them). */
const alive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false
  }
  return readdirSync("/proc").some((entry) => {
    if (!/^\d+$/.test(entry)) return false
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      return Number(group) === pgid && state !== "Z"
    } catch {
      // Gone while we looked.
      return false
    }
  })
}

const kill = (pgid: number) => {
  try {
    process.kill(-pgid, "SIGKILL")
  } catch {
    // Already gone: the usual case.
  }
}

/** The records of the log, split at NUL. */
export const records = (log: string): Pick<Result, "programs" | "missing" | "trap"> => {
  const entries = log.split("\0").filter((entry) => entry.length > 1)
  const body = (entry: string) => entry.slice(2)
  return {
    programs: entries.filter((entry) => entry.startsWith("P ")).map((entry) => ({ program: path.basename(body(entry).split(" ")[0] ?? ""), text: body(entry) })),
    missing: entries.filter((entry) => entry.startsWith("N ")).map((entry) => ({ program: path.basename(body(entry)), text: body(entry) })),
    trap: entries.filter((entry) => entry.startsWith("D ")).map(body),
  }
}

const started = (sandbox: BashFuzzSandbox.Sandbox, line: string) =>
  new Promise<{ readonly output: string; readonly timedOut: boolean; readonly code: number | null; readonly error: string | undefined }>((resolve) => {
    const state = { output: "", timedOut: false }
    const child = (() => {
      try {
        return spawn(sandbox.bash, ["-c", line], { cwd: sandbox.work, env: sandbox.env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
      } catch (cause) {
        // Deliberate: spawn throws synchronously for arguments it rejects (a NUL byte).
        return cause instanceof Error ? cause : new Error(String(cause))
      }
    })()
    if (child instanceof Error) return resolve({ output: "", timedOut: false, code: null, error: child.message })
    const append = (chunk: Buffer) => {
      if (state.output.length < MAX_OUTPUT) state.output += chunk.toString("utf8").slice(0, MAX_OUTPUT - state.output.length)
    }
    child.stdout.on("data", append)
    child.stderr.on("data", append)
    const timer = setTimeout(() => {
      state.timedOut = true
      if (child.pid !== undefined) kill(child.pid)
    }, TIMEOUT_MS)
    child.on("error", (cause) => {
      clearTimeout(timer)
      resolve({ output: state.output, timedOut: false, code: null, error: cause.message })
    })
    child.on("close", async (code) => {
      clearTimeout(timer)
      const pgid = child.pid as number
      const deadline = Date.now() + LINGER_MS
      while (alive(pgid) && Date.now() < deadline) await sleep(10)
      kill(pgid)
      resolve({ output: state.output, timedOut: state.timedOut, code, error: undefined })
    })
  })

/**
 * Runs `line`; the log is emptied first.
 * @example (await run(sandbox, "echo hi")).trap // ["echo hi"]
 */
export const run = async (sandbox: BashFuzzSandbox.Sandbox, line: string): Promise<Result> => {
  truncateSync(sandbox.log, 0)
  const ran = await started(sandbox, line)
  return { ...ran, ...records(readFileSync(sandbox.log, "utf8")) }
}
