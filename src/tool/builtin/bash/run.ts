/**
 * Runs one shell command for the bash tool (07): stdout and stderr share one pipe (true arrival
 * order) into a BashOutputBuffer (1 MiB tail, all of it spooled beyond). The command runs in its
 * own process group; a timeout or `stop` signals the group (SIGTERM, SIGKILL after
 * `KILL_GRACE_MS` while any member lives), and so does fiber interruption, before it completes.
 * Done = the shell exited and the output closed; a background job still holding the output
 * `DRAIN_GRACE_MS` after the exit is stopped with the group, one whose output goes elsewhere
 * keeps running. An interrupted Effect returns nothing: for the partial output, pass `stop`.
 */
export * as BashRun from "./run.js"

import { type ChildProcess, spawn } from "node:child_process"
import { readFile, readdir } from "node:fs/promises"
import { Effect, Exit, Schema } from "effect"
import { ToolOutputPreview } from "../../../tool-output-preview.js"
import { BashOutputBuffer } from "./output-buffer.js"
import { BashShell } from "./shell.js"

/** SIGTERM to SIGKILL, when something in the group is still alive. */
export const KILL_GRACE_MS = 2_000
/** After SIGKILL, how long to wait for the group to be gone (a process in uninterruptible sleep may take longer). */
export const KILL_WAIT_MS = 2_000
/** After the shell exits, how long the rest of the output may take before the group is stopped. */
export const DRAIN_GRACE_MS = 500
/** How often group membership and the pipes are checked while waiting. */
export const POLL_MS = 25
/**
 * What the trampoline shell runs: the chosen shell with the command as its `-c` string, its
 * stderr joined to stdout, so both arrive through one pipe in the order they were written.
 */
export const TRAMPOLINE = `exec "$0" -c "$1" 2>&1`

export const Messages = {
  exited: (code: number) => `Command exited with code ${code}.`,
  timedOut: (ms: number) => `Command timed out after ${ms} ms. Retry with a larger timeout if the command is expected to take longer.`,
  stopped: "Command stopped by user.",
  killed: (signal: string) => `Command was terminated by signal ${signal}.`,
  noOutput: "(no output)",
  /** The marker after the tail preview of a truncated output. */
  truncated: ToolOutputPreview.Messages.shellMarker,
  /** In place of `truncated` when the full output could not be saved. */
  notSaved: (file: string, detail: string) => `[output truncated; the full output could not be saved to ${file}: ${detail}]`,
  spawn: (shell: string, cwd: string, detail: string) => `Could not start ${shell} in ${cwd}: ${detail}`,
} as const

/** The structured output of the bash tool (07). */
export const Output = Schema.Struct({
  exit: Schema.NullOr(Schema.Int),
  signal: Schema.optionalKey(Schema.String),
  timedOut: Schema.Boolean,
  truncated: Schema.Boolean,
  outputPath: Schema.optionalKey(Schema.String),
}).annotate({ identifier: "BashRun.Output" })
export type Output = typeof Output.Type

export interface Input {
  readonly command: string
  /** Absolute, existing directory (the tool checks it just before). */
  readonly cwd: string
  /** Milliseconds from the spawn; on the Effect Clock. */
  readonly timeout: number
  /** From `BashShell.resolve`. */
  readonly shell: string
  /** Absolute path of `tool-output/shell_<id>`; created only when the output passes 1 MiB. */
  readonly spoolPath: string
  /** The complete environment of the command; default `process.env`. */
  readonly env?: BashShell.Env
  /** When this completes, the group is stopped and the run returns with `interrupted: true` and the output so far. */
  readonly stop?: Effect.Effect<void>
}

export interface Result extends Output {
  /** Combined output in arrival order; when `truncated`, only the last ≤ 1 MiB. */
  readonly output: string
  /** True when `stop` ended the run. */
  readonly interrupted: boolean
  /** The timeout that applied, for the notice. */
  readonly timeout: number
  /** Set when the output passed 1 MiB but could not be saved in full; then there is no `outputPath`. */
  readonly spoolError?: BashOutputBuffer.SpoolError
}

export class SpawnError extends Schema.TaggedError<SpawnError>()("BashRun.SpawnError", {
  shell: Schema.String,
  cwd: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.spawn(this.shell, this.cwd, this.detail)
  }
}

export type Error = SpawnError

/**
 * The line the model reads after the output.
 * @example notice({ exit: 0, timedOut: false, interrupted: false, timeout: 120_000 }) // "Command exited with code 0."
 */
export const notice = (result: Pick<Result, "exit" | "signal" | "timedOut" | "interrupted" | "timeout">): string => {
  if (result.interrupted) return Messages.stopped
  if (result.timedOut) return Messages.timedOut(result.timeout)
  if (result.exit !== null) return Messages.exited(result.exit)
  return Messages.killed(result.signal ?? "unknown")
}

/**
 * The text the model reads: the output (or `(no output)`), a blank line, the notice. Pass the
 * tail preview as `output` when the result is truncated.
 * @example render(result) // "hello\n\nCommand exited with code 0."
 */
export const render = (result: Pick<Result, "output" | "exit" | "signal" | "timedOut" | "interrupted" | "timeout">, output: string = result.output): string => {
  if (output === "") return `${Messages.noOutput}\n\n${notice(result)}`
  return `${output.endsWith("\n") ? output.slice(0, -1) : output}\n\n${notice(result)}`
}

/** The structured output of a result. */
export const toOutput = (result: Result): Output => ({
  exit: result.exit,
  ...(result.signal === undefined ? {} : { signal: result.signal }),
  timedOut: result.timedOut,
  truncated: result.truncated,
  ...(result.outputPath === undefined ? {} : { outputPath: result.outputPath }),
})

interface Status {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** A spawned command: its group, its output sink, and the state of its pipes. */
interface Running {
  readonly pgid: number
  readonly sink: BashOutputBuffer.Sink
  readonly exited: Promise<Status>
  /** Resolves true once both pipes are closed, false once `grace` ms of flowing time passed (see `drain`). */
  readonly drain: (grace: number, quiet: boolean, signal: AbortSignal) => Promise<boolean>
  /** Stops reading: for pipes held open by a process outside the group. */
  readonly detach: () => void
}

const errorDetail = (cause: unknown) => (cause as NodeJS.ErrnoException).code ?? String(cause)

const signalGroup = (pgid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: the group is already gone. EPERM: a member we may not signal; nothing more to do.
  }
}

/** Members of the group that are not zombies, from /proc (Linux). */
const liveMembers = async (pgid: number): Promise<boolean> => {
  const names = await readdir("/proc").catch(() => [] as string[])
  const stats = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => readFile(`/proc/${name}/stat`, "utf8").catch(() => "")))
  return stats.some((stat) => {
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so parse after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return fields[2] === String(pgid) && fields[0] !== "Z" && fields[0] !== "X"
  })
}

/**
 * Whether anything of the group still runs. Zombies do not count: an orphan is only reaped by
 * init, and some container inits never reap, which would keep a dead group "alive" for ever.
 */
const groupAlive = async (pgid: number): Promise<boolean> => {
  try {
    process.kill(-pgid, 0)
  } catch (cause) {
    if (errorDetail(cause) === "ESRCH") return false
  }
  return process.platform === "linux" ? liveMembers(pgid) : true
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop)
      resolve()
    }, ms)
    signal.addEventListener("abort", stop, { once: true })
  })

/** True once the group is gone; false when `within` ms passed first. Real time: it waits on the OS. */
const gone = (pgid: number, within: number) =>
  Effect.promise(async (signal) => {
    for (const started = Date.now(); !signal.aborted; await sleep(POLL_MS, signal)) {
      if (!(await groupAlive(pgid))) return true
      if (Date.now() - started >= within) return false
    }
    return false
  })

/** SIGTERM (and SIGCONT, so a stopped member can act on it), then SIGKILL if the group outlives the grace. */
const terminate = Effect.fnUntraced(function* (pgid: number) {
  signalGroup(pgid, "SIGTERM")
  signalGroup(pgid, "SIGCONT")
  if (yield* gone(pgid, KILL_GRACE_MS)) return
  signalGroup(pgid, "SIGKILL")
  yield* gone(pgid, KILL_WAIT_MS)
})

/** Wires a spawned child to a sink; everything is attached synchronously, so no event is missed. */
const watch = (child: ChildProcess, pgid: number, spoolPath: string): Running => {
  const pipes = [child.stdout, child.stderr].filter((stream) => stream !== null)
  const flow = { open: pipes.length, paused: false, chunks: 0, waiters: new Set<() => void>() }
  const sink = BashOutputBuffer.make({
    spoolPath,
    onPressure: (paused) => {
      flow.paused = paused
      pipes.forEach((stream) => (paused ? stream.pause() : stream.resume()))
    },
  })
  for (const stream of pipes) {
    stream.on("data", (chunk: Buffer) => {
      flow.chunks++
      sink.write(chunk)
    })
    stream.on("error", () => undefined)
    stream.once("close", () => {
      flow.open--
      if (flow.open === 0) flow.waiters.forEach((wake) => wake())
    })
  }
  const exited = new Promise<Status>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })))
  // Errors after a successful spawn (a failed kill, say) carry nothing the run needs.
  child.on("error", () => undefined)

  const drain = (grace: number, quiet: boolean, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (flow.open === 0) return resolve(true)
      const state = { flowing: 0, chunks: flow.chunks }
      const done = (closed: boolean) => {
        clearInterval(timer)
        flow.waiters.delete(wake)
        signal.removeEventListener("abort", abort)
        resolve(closed)
      }
      const wake = () => done(true)
      const abort = () => done(false)
      // Time only counts while the pipes are read: a slow spool file pauses them, and data
      // waiting behind that pause is not a background job holding the pipe.
      const timer = setInterval(() => {
        if (flow.paused) return
        if (quiet && flow.chunks !== state.chunks) {
          state.chunks = flow.chunks
          state.flowing = 0
          return
        }
        state.flowing += POLL_MS
        if (state.flowing >= grace) done(false)
      }, POLL_MS)
      flow.waiters.add(wake)
      signal.addEventListener("abort", abort, { once: true })
    })

  const detach = () => pipes.forEach((stream) => stream.destroy())
  return { pgid, sink, exited, drain, detach }
}

const spawnShell = (input: Input): ChildProcess | globalThis.Error => {
  try {
    // `detached` makes the shell the leader of a new process group (and session): the unit that
    // timeouts and stops signal. The trampoline is /bin/sh, which every POSIX system has.
    return spawn(BashShell.FALLBACK, ["-c", TRAMPOLINE, input.shell, input.command], {
      cwd: input.cwd,
      env: input.env ?? process.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    })
  } catch (cause) {
    // Deliberate: spawn throws synchronously for arguments it rejects (a NUL byte in the command).
    return cause instanceof globalThis.Error ? cause : new globalThis.Error(String(cause))
  }
}

const start = (input: Input) =>
  Effect.callback<Running, SpawnError>((resume) => {
    const failed = (cause: unknown) => resume(Effect.fail(new SpawnError({ shell: input.shell, cwd: input.cwd, detail: errorDetail(cause) })))
    const child = spawnShell(input)
    if (child instanceof globalThis.Error) return failed(child)
    // Without a pid the spawn failed (a missing cwd, say); the reason follows as an "error" event.
    if (child.pid === undefined) return void child.once("error", failed)
    resume(Effect.succeed(watch(child, child.pid, input.spoolPath)))
  })

/** Waits for the pipes after the shell is gone; stops whatever still holds them. */
const settle = Effect.fnUntraced(function* (running: Running) {
  if (yield* Effect.promise((signal) => running.drain(DRAIN_GRACE_MS, false, signal))) return
  // A background job still writes to (or holds) the output: it is part of the command and stops with it.
  yield* terminate(running.pgid)
  if (yield* Effect.promise((signal) => running.drain(DRAIN_GRACE_MS, true, signal))) return
  // Held by a process outside the group (it called setsid): stop reading rather than wait for ever.
  running.detach()
})

const supervise = Effect.fnUntraced(function* (running: Running, input: Input) {
  const ended = yield* Effect.raceAll([
    Effect.promise(() => running.exited).pipe(Effect.as("exited" as const)),
    Effect.sleep(input.timeout).pipe(Effect.as("timedOut" as const)),
    (input.stop ?? Effect.never).pipe(Effect.as("stopped" as const)),
  ])
  if (ended !== "exited") yield* terminate(running.pgid)
  yield* settle(running)
  const status = yield* Effect.promise(() => running.exited)
  const collected = yield* running.sink.finish
  const result: Result = {
    output: collected.text,
    exit: status.code,
    ...(status.signal === null ? {} : { signal: status.signal }),
    timedOut: ended === "timedOut",
    interrupted: ended === "stopped",
    truncated: collected.truncated,
    ...(collected.outputPath === undefined ? {} : { outputPath: collected.outputPath }),
    ...(collected.spoolError === undefined ? {} : { spoolError: collected.spoolError }),
    timeout: input.timeout,
  }
  return result
})

/**
 * Runs `input.command` with `input.shell -c` in `input.cwd`, in a new process group, until it
 * and its output are done, the timeout passes, `input.stop` completes, or the fiber is
 * interrupted (then the group is stopped before the interruption completes).
 * @example const result = yield* BashRun.run({ command: "ls", cwd, timeout: 120_000, shell, spoolPath })
 */
export const run = Effect.fn("BashRun.run")(function* (input: Input) {
  return yield* Effect.acquireUseRelease(
    start(input),
    (running) => supervise(running, input),
    (running, exit) =>
      Exit.isSuccess(exit)
        ? Effect.void
        : terminate(running.pgid).pipe(
            Effect.andThen(Effect.sync(running.detach)),
            Effect.andThen(running.sink.abort),
          ),
  )
})
