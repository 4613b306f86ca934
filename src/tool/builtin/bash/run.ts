/**
 * Runs one shell command for the bash tool (07): stdout and stderr share one pipe (true arrival
 * order) into a BashOutputBuffer (1 MiB tail, all of it spooled beyond, up to its cap). The
 * command runs in its own process group. A timeout or `stop` stops the command: SIGTERM to its
 * group and to every group of the shell's descendants (BashDescendants), SIGKILL after
 * `KILL_GRACE_MS` while anything of it lives; so does fiber interruption, before it completes.
 * The timeout is a hard deadline for the whole call: the pipes are abandoned `KILL_WAIT_MS` after
 * the SIGKILL at the latest, whoever holds them, and the result says `timedOut`.
 * Done = the shell exited and the output closed; a background job still holding the output
 * `DRAIN_GRACE_MS` after the exit is stopped with the command, a holder outside the command is
 * read for `FOREIGN_DRAIN_MS` at most; a job whose output goes elsewhere keeps running. An
 * interrupted Effect returns nothing: for the partial output, pass `stop`.
 */
export * as BashRun from "./run.js"

import { type ChildProcess, spawn } from "node:child_process"
import { Effect, Exit, Schema } from "effect"
import { ToolOutputPreview } from "../../../tool-output-preview.js"
import { SandboxBwrap } from "../../../sandbox/bwrap.js"
import { BashDescendants } from "./descendants.js"
import { BashOutputBuffer } from "./output-buffer.js"
import { BashShell } from "./shell.js"
import { Tracing } from "../../../tracing.js"

/** SIGTERM to SIGKILL, when something of the command is still alive. */
export const KILL_GRACE_MS = 2_000
/**
 * After SIGKILL, how long to wait for the command to be gone (a process in uninterruptible sleep
 * may take longer) and the pipes to close; then they are abandoned.
 */
export const KILL_WAIT_MS = 2_000
/** After the shell exits, how long the rest of the output may take before the command is stopped. */
export const DRAIN_GRACE_MS = 500
/**
 * After the command is stopped, how long a pipe still held by a process outside it (a daemon
 * that left with `setsid`) is read at most, however much it writes; then it is abandoned.
 */
export const FOREIGN_DRAIN_MS = 2_000
/** How often the process table and the pipes are checked while waiting. */
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
  /** Absolute path of `tool-output/<project>/<session>/shell_<id>`; created only when the output passes 1 MiB. */
  readonly spoolPath: string
  /** The complete environment of the command; default `process.env`. */
  readonly env?: BashShell.Env
  /** Bytes the spool file may hold; default `BashOutputBuffer.SPOOL_CAP`. Smaller values are for tests. */
  readonly spoolCap?: number
  /** When this completes, the group is stopped and the run returns with `interrupted: true` and the output so far. */
  readonly stop?: Effect.Effect<void>
  /**
   * Run inside the OS sandbox: `binary` (bwrap) with `args` in front of the trampoline
   * (sandbox/bwrap.ts). bwrap is then the leader of the process group that timeouts and stops
   * signal, and its namespace ends every process of the command with it. `filter` is the seccomp
   * program bwrap reads from descriptor `SandboxSeccomp.FD` (`args` name it).
   */
  readonly sandbox?: { readonly binary: string; readonly args: ReadonlyArray<string>; readonly filter: Buffer }
}

export interface Result extends Output {
  /** Combined output in arrival order; when `truncated`, only the last ≤ 1 MiB. */
  readonly output: string
  /** True when `stop` ended the run (before the shell exited, or while its output was still open). */
  readonly interrupted: boolean
  /**
   * The timeout that applied, for the notice. `timedOut` is also true when the shell exited in
   * time but its output was still open at the deadline; `exit` then keeps its code.
   */
  readonly timeout: number
  /**
   * Set when the output passed 1 MiB but could not be saved in full (a disk error, or an output
   * larger than the spool cap: detail `BashOutputBuffer.Messages.capped`); then there is no
   * `outputPath` and no file.
   */
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

/** How long `drain` waits for the pipes to close. */
interface DrainLimit {
  /** Ms of flowing time: time while the pipes are read, not paused behind a slow spool file. */
  readonly grace: number
  /** When true, every chunk starts `grace` again: wait for the output to go quiet. */
  readonly quiet: boolean
  /** Ms of real time after which it gives up whatever happens, paused or not. */
  readonly cap: number
}

/** A spawned command: its processes, its output sink, and the state of its pipes. */
interface Running {
  readonly tree: BashDescendants.Tree
  readonly sink: BashOutputBuffer.Sink
  readonly exited: Promise<Status>
  /** Resolves true once both pipes are closed, false once the limit passed (see `DrainLimit`) or `signal` aborts. */
  readonly drain: (limit: DrainLimit, signal: AbortSignal) => Promise<boolean>
  /** Stops reading: destroys the pipes, whoever still holds them. */
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

/**
 * Stops every process of the command: each poll reads the tree again (new descendants, new
 * groups) and sends SIGTERM (with SIGCONT, so a stopped process can act on it) to each group not
 * signalled yet; after `KILL_GRACE_MS`, SIGKILL to every group still alive, each poll, for up to
 * `KILL_WAIT_MS`. The tree is read before the first signal, while the shell still lives: a job in
 * a group of its own is found through its parent. True once nothing is alive. Real time: it waits
 * on the OS.
 */
const terminate = (tree: BashDescendants.Tree) =>
  Effect.promise(async (signal) => {
    const termed = new Set<number>()
    const started = Date.now()
    for (; !signal.aborted; await sleep(POLL_MS, signal)) {
      const { alive, groups } = await tree.refresh()
      if (!alive) return true
      if (signal.aborted) return false
      const elapsed = Date.now() - started
      if (elapsed >= KILL_GRACE_MS + KILL_WAIT_MS) return false
      if (elapsed >= KILL_GRACE_MS) {
        groups.forEach((group) => signalGroup(group, "SIGKILL"))
        continue
      }
      for (const group of groups.filter((group) => !termed.has(group))) {
        termed.add(group)
        signalGroup(group, "SIGTERM")
        signalGroup(group, "SIGCONT")
      }
    }
    return false
  })

/** Wires a spawned child to a sink; everything is attached synchronously, so no event is missed. */
const watch = (child: ChildProcess, tree: BashDescendants.Tree, input: Input): Running => {
  const pipes = [child.stdout, child.stderr].filter((stream) => stream !== null)
  const flow = { open: pipes.length, paused: false, chunks: 0, waiters: new Set<() => void>() }
  const sink = BashOutputBuffer.make({
    spoolPath: input.spoolPath,
    ...(input.spoolCap === undefined ? {} : { spoolCap: input.spoolCap }),
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

  const drain = (limit: DrainLimit, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      if (flow.open === 0) return resolve(true)
      if (signal.aborted) return resolve(false)
      const state = { flowing: 0, chunks: flow.chunks, started: Date.now() }
      const done = (closed: boolean) => {
        clearInterval(timer)
        flow.waiters.delete(wake)
        signal.removeEventListener("abort", abort)
        resolve(closed)
      }
      const wake = () => done(true)
      const abort = () => done(false)
      // Flowing time only counts while the pipes are read: a slow spool file pauses them, and
      // data waiting behind that pause is not a background job holding the pipe. The cap counts
      // all the time.
      const timer = setInterval(() => {
        if (Date.now() - state.started >= limit.cap) return done(false)
        if (flow.paused) return
        if (limit.quiet && flow.chunks !== state.chunks) {
          state.chunks = flow.chunks
          state.flowing = 0
          return
        }
        state.flowing += POLL_MS
        if (state.flowing >= limit.grace) done(false)
      }, POLL_MS)
      flow.waiters.add(wake)
      signal.addEventListener("abort", abort, { once: true })
    })

  const detach = () => pipes.forEach((stream) => stream.destroy())
  return { tree, sink, exited, drain, detach }
}

const spawnShell = (input: Input): ChildProcess | globalThis.Error => {
  try {
    // `detached` makes the shell the leader of a new process group (and session): the unit that
    // timeouts and stops signal. The trampoline is /bin/sh, which every POSIX system has.
    const shell = [BashShell.FALLBACK, "-c", TRAMPOLINE, input.shell, input.command]
    if (input.sandbox === undefined) return spawn(shell[0] as string, shell.slice(1), { cwd: input.cwd, env: input.env ?? process.env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    const child = spawn(input.sandbox.binary, [...input.sandbox.args, "--", ...shell], {
      cwd: input.cwd,
      env: input.env ?? process.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    })
    SandboxBwrap.feed(child, input.sandbox.filter)
    return child
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
    // Tracked at once: the shell cannot have been reaped before this synchronous code returns.
    resume(Effect.succeed(watch(child, BashDescendants.track(child.pid), input)))
  })

const drain = (running: Running, limit: DrainLimit) => Effect.promise((signal) => running.drain(limit, signal))

/**
 * After the shell exited: waits for the pipes. A job of the command still holding them
 * `DRAIN_GRACE_MS` later is stopped with the rest of the command; a holder outside it (a daemon
 * that left with `setsid` and lost its parent) is read until its output goes quiet for
 * `DRAIN_GRACE_MS`, `FOREIGN_DRAIN_MS` at most, then abandoned. Every step is bounded; the
 * timeout, racing this, bounds the whole.
 */
const settle = Effect.fnUntraced(function* (running: Running) {
  // No cap: flowing time is bounded, and a spool file that pauses the pipes is bounded by the timeout.
  if (yield* drain(running, { grace: DRAIN_GRACE_MS, quiet: false, cap: Number.POSITIVE_INFINITY })) return
  yield* terminate(running.tree)
  if (yield* drain(running, { grace: DRAIN_GRACE_MS, quiet: true, cap: FOREIGN_DRAIN_MS })) return
  running.detach()
})

/**
 * On a timeout or a stop: stops every process of the command, keeps what is still in the pipes
 * once they are gone (for `DRAIN_GRACE_MS` at most), and abandons the pipes in any case no later
 * than `KILL_GRACE_MS + KILL_WAIT_MS` after it began, whatever still holds them. Returns how
 * long the shell's exit status may still be waited for.
 */
const abandon = Effect.fnUntraced(function* (running: Running) {
  const started = Date.now()
  const end = started + KILL_GRACE_MS + KILL_WAIT_MS
  yield* terminate(running.tree)
  const closed = yield* drain(running, { grace: DRAIN_GRACE_MS, quiet: false, cap: Math.max(0, end - Date.now()) })
  if (!closed) running.detach()
  return Math.max(POLL_MS, end - Date.now())
})

/**
 * The shell's exit status; unknown (both null) when it has not exited within `within` ms (a
 * process stuck in the kernel survives SIGKILL). Without `within`, it has exited already.
 */
const statusOf = (running: Running, within: number | undefined) =>
  within === undefined
    ? Effect.promise(() => running.exited)
    : Effect.promise((signal) => Promise.race([running.exited, sleep(within, signal).then((): Status => ({ code: null, signal: null }))]))

const supervise = Effect.fnUntraced(function* (running: Running, input: Input) {
  const ended = yield* Effect.raceAll([
    Effect.promise(() => running.exited).pipe(Effect.andThen(settle(running)), Effect.as("finished" as const)),
    Effect.sleep(input.timeout).pipe(Effect.as("timedOut" as const)),
    (input.stop ?? Effect.never).pipe(Effect.as("stopped" as const)),
  ])
  const within = ended === "finished" ? undefined : yield* abandon(running)
  const status = yield* statusOf(running, within)
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

/** The process trees of the commands running now in this process, for `killAll`. */
const live = new Set<BashDescendants.Tree>()

/**
 * SIGKILLs every process of every command this process runs, at once: for an exit that cannot
 * wait for interruption (a second Ctrl-C). Resolves once each tree was read and signalled.
 * @example await BashRun.killAll()
 */
export const killAll = async (): Promise<void> => {
  await Promise.all(
    Array.from(live, async (tree) => {
      const { groups } = await tree.refresh()
      groups.forEach((group) => signalGroup(group, "SIGKILL"))
    }),
  )
}

/**
 * Runs `input.command` with `input.shell -c` in `input.cwd`, in a new process group, until it
 * and its output are done, the timeout passes, `input.stop` completes, or the fiber is
 * interrupted (then the command is stopped before the interruption completes).
 * @example const result = yield* BashRun.run({ command: "ls", cwd, timeout: 120_000, shell, spoolPath })
 */
export const run = Tracing.fn("BashRun.run")(function* (input: Input) {
  return yield* Effect.acquireUseRelease(
    Effect.tap(start(input), (running) => Effect.sync(() => live.add(running.tree))),
    (running) => supervise(running, input),
    (running, exit) =>
      (Exit.isSuccess(exit)
        ? Effect.void
        : terminate(running.tree).pipe(
            Effect.andThen(Effect.sync(running.detach)),
            Effect.andThen(running.sink.abort),
          )
      ).pipe(Effect.ensuring(Effect.sync(() => live.delete(running.tree)))),
  )
})
