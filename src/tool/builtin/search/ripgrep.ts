/**
 * ripgrep for `glob` and `grep` (07): where the binary is (`RIPGREP_PATH`, else the one shipped by
 * `@vscode/ripgrep`, else `rg` on PATH) and a streaming runner. The runner parses records as they
 * arrive and kills ripgrep as soon as `limit + 1` results are in, so a common word over a huge
 * tree costs what the first page costs. Every exit path — done, stopped, timed out, interrupted —
 * waits for the process to be gone. Exit 1 is "nothing found"; exit 2 with results, or with only
 * per-path I/O errors on stderr, is a partial search that still succeeds. Never `--follow`:
 * links inside the tree are not walked, so a search cannot leave its root through one.
 */
export * as Ripgrep from "./ripgrep.js"

import { type ChildProcess, spawn } from "node:child_process"
import { constants } from "node:fs"
import { access, stat } from "node:fs/promises"
import path from "node:path"
import { Duration, Effect, Schema } from "effect"

export const ENV_OVERRIDE = "RIPGREP_PATH"
export const DEFAULT_TIMEOUT = Duration.seconds(60)
/** Bytes of stderr kept for error messages. */
export const MAX_STDERR = 16 * 1024
/**
 * The most characters of one record held in memory. `rg --json` writes a record per matching
 * line with every submatch: a 10 MiB line of a common letter makes a 50 MB record, which joined
 * and parsed took gigabytes and then threw inside a stream listener. Past this, only the record's
 * head is kept and `oversized` decides what it means.
 */
export const MAX_RECORD_CHARS = 4 * 1024 * 1024
/** How much of an oversized record is kept for `oversized`. */
export const RECORD_HEAD_CHARS = 64 * 1024
/** Arguments of every search: no user config file, `.gitignore` honoured outside a git repository too. */
export const BASE_ARGS = ["--no-config", "--no-require-git"] as const
/**
 * Keeps a walk out of every `.git` (folder, or file of a worktree). Needed with `--hidden` only:
 * without it `.git` is hidden anyway, and an extra glob costs ripgrep a match per entry.
 */
export const EXCLUDE_GIT = "--glob=!.git"
/** The file type that carries a pattern's prefilter (see GlobPattern). */
export const TYPE_NAME = "toolgate"

export const Messages = {
  notFound: `ripgrep (rg) was not found: install the @vscode/ripgrep package for this platform or ripgrep itself, or set ${ENV_OVERRIDE} to an rg binary`,
  badOverride: (file: string) => `${ENV_OVERRIDE} is not an executable file: ${file}`,
  timedOut: (seconds: number) => `Search timed out after ${seconds} seconds. Consider using a more specific path or pattern.`,
  invalidRegex: (detail: string) => `Invalid regex pattern: ${detail}`,
  invalidGlob: (detail: string) => `Invalid glob pattern: ${detail}`,
  failed: (detail: string) => `Search failed: ${detail}`,
  exited: (code: number | null, signal: string | null) => (signal === null ? `ripgrep exited with code ${code}` : `ripgrep was killed by ${signal}`),
  unstartable: (binary: string, detail: string) => `could not start ${binary}: ${detail}`,
  unparsable: (detail: string) => `unreadable ripgrep output: ${detail}`,
} as const

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("Ripgrep.NotFoundError", {
  /** The `RIPGREP_PATH` value that is not usable; absent when nothing was found at all. */
  override: Schema.optionalKey(Schema.String),
}) {
  override get message() {
    return this.override === undefined ? Messages.notFound : Messages.badOverride(this.override)
  }
}

export class TimeoutError extends Schema.TaggedError<TimeoutError>()("Ripgrep.TimeoutError", { seconds: Schema.Number }) {
  override get message() {
    return Messages.timedOut(this.seconds)
  }
}

export class InvalidPatternError extends Schema.TaggedError<InvalidPatternError>()("Ripgrep.InvalidPatternError", {
  kind: Schema.Literals(["regex", "glob"]),
  detail: Schema.String,
}) {
  override get message() {
    return this.kind === "regex" ? Messages.invalidRegex(this.detail) : Messages.invalidGlob(this.detail)
  }
}

export class FailedError extends Schema.TaggedError<FailedError>()("Ripgrep.FailedError", { detail: Schema.String }) {
  override get message() {
    return Messages.failed(this.detail)
  }
}

export type Error = NotFoundError | TimeoutError | InvalidPatternError | FailedError

export interface LocateOptions {
  /** Where `RIPGREP_PATH` and `PATH` are read; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>
  /** The binary shipped by `@vscode/ripgrep`, undefined when its platform package is missing. */
  readonly packaged?: () => Promise<string | undefined>
}

export interface Options extends LocateOptions {
  readonly timeout?: Duration.Duration
}

export interface Request<A> {
  readonly binary: string
  readonly args: ReadonlyArray<string>
  readonly cwd: string
  /** What ends a record: `"\n"` for `--json`, `"\0"` for `--null`. */
  readonly separator: string
  /** The result a record carries, or undefined for a record that is not one (or is filtered out). */
  readonly parse: (record: string) => A | undefined
  /** The result of a record longer than MAX_RECORD_CHARS, from its first RECORD_HEAD_CHARS; default none. */
  readonly oversized?: (head: string) => A | undefined
  readonly limit: number
  readonly timeout?: Duration.Duration
  /** Told when `binary` could not be started at all (a remembered binary gone: `Locator.forget`). */
  readonly unstartable?: (binary: string) => void
}

export interface Found<A> {
  /** At most `limit` results, in ripgrep's order. */
  readonly results: ReadonlyArray<A>
  /** More than `limit` results exist. */
  readonly truncated: boolean
  /** ripgrep was killed because enough results were in. */
  readonly stopped: boolean
}

/** What a stderr says: a bad pattern, only per-path I/O errors (the search itself ran), or a failure. */
export type Diagnosis = { readonly type: "regex" | "glob" | "failed"; readonly detail: string } | { readonly type: "partial" }

const PER_PATH_ERROR = /\(os error \d+\)$/
const GLOB_ERROR = /error parsing glob|invalid definition/
const REGEX_ERROR = /regex parse error|not allowed in a regex|regex exceeds|regex size limit/

/**
 * Reads ripgrep's stderr after exit code 2 without results.
 * @example Ripgrep.diagnose("rg: regex parse error:\n    (?:()\n    ^\nerror: unclosed group\n") // { type: "regex", ... }
 */
export const diagnose = (stderr: string): Diagnosis => {
  const lines = stderr.split("\n").filter((line) => line.trim() !== "")
  const detail = stderr.replace(/^rg: /, "").trimEnd()
  if (REGEX_ERROR.test(stderr)) return { type: "regex", detail }
  if (GLOB_ERROR.test(stderr)) return { type: "glob", detail }
  if (lines.length > 0 && lines.every((line) => PER_PATH_ERROR.test(line))) return { type: "partial" }
  return { type: "failed", detail: detail === "" ? Messages.exited(2, null) : detail }
}

const executable = (file: string) =>
  stat(file).then(
    (info) => info.isFile() && access(file, constants.X_OK).then(() => true, () => false),
    () => false,
  )

/**
 * The binary of `@vscode/ripgrep`; its module throws at import when the platform package is
 * missing. Imported once: even a cached dynamic import costs about a millisecond per search.
 */
const shippedPath = { promise: undefined as Promise<string | undefined> | undefined }
const shipped = () => {
  shippedPath.promise ??= import("@vscode/ripgrep").then((module) => module.rgPath, () => undefined)
  return shippedPath.promise
}

const BINARY = process.platform === "win32" ? "rg.exe" : "rg"

const find = async (options: LocateOptions): Promise<string | NotFoundError> => {
  const env = options.env ?? process.env
  const override = env[ENV_OVERRIDE]
  if (override !== undefined && override !== "") return (await executable(override)) ? override : new NotFoundError({ override })
  const packaged = await (options.packaged ?? shipped)()
  if (packaged !== undefined && (await executable(packaged))) return packaged
  for (const folder of (env.PATH ?? "").split(path.delimiter).filter((entry) => entry !== "")) {
    const candidate = path.join(folder, BINARY)
    if (await executable(candidate)) return candidate
  }
  return new NotFoundError({})
}

/**
 * The rg binary to run: `RIPGREP_PATH`, else the shipped one, else `rg` on PATH.
 * @example const binary = yield* Ripgrep.locate()
 */
export const locate = (options: LocateOptions = {}): Effect.Effect<string, NotFoundError> =>
  Effect.flatMap(
    Effect.promise(() => find(options)),
    (found) => (found instanceof NotFoundError ? Effect.fail(found) : Effect.succeed(found)),
  )

/** A lookup that remembers what it found; `forget` makes the next `locate` look again. */
export interface Locator {
  readonly locate: Effect.Effect<string, NotFoundError>
  readonly forget: (binary: string) => void
}

/**
 * `locate`, remembered for a tool's lifetime: a search does not pay a `stat` and an `access`
 * check (two thread-pool round trips) to find the same binary again. A remembered binary that can
 * no longer be started fails that one search (`unstartable`, then `forget`); the next one looks
 * again, so a removed or replaced rg is found anew.
 */
export const locator = (options: LocateOptions = {}): Locator => {
  const found = { binary: undefined as string | undefined }
  return {
    locate: Effect.suspend(() =>
      found.binary !== undefined ? Effect.succeed(found.binary) : Effect.tap(locate(options), (binary) => Effect.sync(() => void (found.binary = binary))),
    ),
    forget: (binary) => {
      if (found.binary === binary) found.binary = undefined
    },
  }
}

/** Arguments that make ripgrep consider only files whose name matches `glob`. */
export const typeArgs = (glob: string | undefined): ReadonlyArray<string> =>
  glob === undefined ? [] : [`--type-add=${TYPE_NAME}:${glob}`, `--type=${TYPE_NAME}`]

interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly error: globalThis.Error | undefined
}

interface Running<A> {
  readonly results: Array<A>
  readonly state: { stopped: boolean; closed: boolean; stderr: string; unparsable: string | undefined }
  readonly exited: Promise<Exit>
  /** Parses what is left after the last separator (a last record without one). */
  readonly flush: () => void
  /** Kills ripgrep unless it is gone, and resolves once it is. */
  readonly terminate: () => Promise<Exit>
}

class Unparsable {
  constructor(readonly detail: string) {}
}

const parseSafely = <A>(parse: (record: string) => A | undefined, record: string): A | undefined | Unparsable => {
  try {
    return parse(record)
  } catch (error) {
    // A parser throws (JSON.parse) inside a stream listener, where a throw would crash the process.
    return new Unparsable(error instanceof globalThis.Error ? error.message : String(error))
  }
}

/** Spawns ripgrep and parses its stdout record by record, stopping it after `limit + 1` results. */
const start = <A>(request: Request<A>): Running<A> => {
  const child: ChildProcess = spawn(request.binary, request.args, { cwd: request.cwd, stdio: ["ignore", "pipe", "pipe"] })
  const results: Array<A> = []
  const state = { stopped: false, closed: false, stderr: "", unparsable: undefined as string | undefined }
  // Parts of a record split over chunks, joined once its separator arrives (linear for long records).
  const pending: Array<string> = []
  const stop = () => {
    state.stopped = true
    child.kill("SIGKILL")
    child.stdout?.destroy()
    child.stderr?.destroy()
  }
  const take = (record: string) => {
    if (state.stopped) return
    const result = parseSafely(request.parse, record)
    if (result instanceof Unparsable) {
      state.unparsable = result.detail
      return stop()
    }
    if (result === undefined) return
    results.push(result)
    if (results.length > request.limit) stop()
  }
  const exited = new Promise<Exit>((resolve) => {
    child.on("error", (error) => {
      // After a successful spawn an "error" (a failed kill) is followed by "close"; before it, nothing else comes.
      if (child.pid === undefined) resolve({ code: null, signal: null, error })
    })
    child.on("close", (code, signal) => resolve({ code, signal, error: undefined }))
  }).then((exit) => {
    state.closed = true
    return exit
  })
  /** A record past MAX_RECORD_CHARS: its head, kept while the rest is skipped. */
  const long = { chars: 0, head: undefined as string | undefined }
  const hold = (part: string) => {
    if (long.head !== undefined) return
    long.chars += part.length
    if (long.chars <= MAX_RECORD_CHARS) return void pending.push(part)
    long.head = (pending.join("") + part).slice(0, RECORD_HEAD_CHARS)
    pending.length = 0
  }
  /** The record that `rest` ends: the held parts and `rest`, or the oversized head. */
  const end = (rest: string) => {
    const head = long.head
    long.chars = 0
    long.head = undefined
    if (head === undefined) {
      const record = pending.join("") + rest
      pending.length = 0
      return take(record)
    }
    if (state.stopped) return
    const result = request.oversized === undefined ? undefined : parseSafely(request.oversized, head)
    if (result === undefined || result instanceof Unparsable) return
    results.push(result)
    if (results.length > request.limit) stop()
  }
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    const cursor = { start: 0, end: chunk.indexOf(request.separator) }
    if (cursor.end === -1) return hold(chunk)
    end(chunk.slice(0, cursor.end))
    for (cursor.start = cursor.end + 1; !state.stopped; cursor.start = cursor.end + 1) {
      cursor.end = chunk.indexOf(request.separator, cursor.start)
      if (cursor.end === -1) {
        if (cursor.start < chunk.length) hold(chunk.slice(cursor.start))
        return
      }
      take(chunk.slice(cursor.start, cursor.end))
    }
  })
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    if (state.stderr.length < MAX_STDERR) state.stderr += chunk.slice(0, MAX_STDERR - state.stderr.length)
  })
  const flush = () => {
    if (pending.length > 0 || long.head !== undefined) end("")
  }
  const terminate = () => {
    if (!state.closed && !state.stopped) stop()
    return exited
  }
  return { results, state, exited, flush, terminate }
}

/** The search's result once ripgrep is gone, or the error its exit means. */
const conclude = <A>(running: Running<A>, exit: Exit, request: Request<A>): Effect.Effect<Found<A>, FailedError | InvalidPatternError> => {
  if (exit.error !== undefined) {
    request.unstartable?.(request.binary)
    return Effect.fail(new FailedError({ detail: Messages.unstartable(request.binary, exit.error.message) }))
  }
  if (!running.state.stopped) running.flush()
  if (running.state.unparsable !== undefined) return Effect.fail(new FailedError({ detail: Messages.unparsable(running.state.unparsable) }))
  const found = { results: running.results.slice(0, request.limit), truncated: running.results.length > request.limit, stopped: running.state.stopped }
  if (running.state.stopped || exit.code === 0 || exit.code === 1) return Effect.succeed(found)
  if (exit.code === 2 && running.results.length > 0) return Effect.succeed(found)
  if (exit.code !== 2) return Effect.fail(new FailedError({ detail: running.state.stderr.trimEnd() || Messages.exited(exit.code, exit.signal) }))
  const diagnosis = diagnose(running.state.stderr)
  if (diagnosis.type === "partial") return Effect.succeed(found)
  if (diagnosis.type === "failed") return Effect.fail(new FailedError({ detail: diagnosis.detail }))
  return Effect.fail(new InvalidPatternError({ kind: diagnosis.type, detail: diagnosis.detail }))
}

/**
 * Runs one search to completion, to `limit + 1` results, or to the timeout (default 60 s).
 * Interruption kills ripgrep and waits for it to be gone.
 * @example yield* Ripgrep.search({ binary, args: ["--files", "--null", "--", root], cwd: root, separator: "\0", parse: (p) => p, limit: 100 })
 */
export const search = <A>(request: Request<A>): Effect.Effect<Found<A>, Error> => {
  const timeout = request.timeout ?? DEFAULT_TIMEOUT
  return Effect.acquireUseRelease(
    Effect.sync(() => start(request)),
    (running) => Effect.flatMap(Effect.promise(() => running.exited), (exit) => conclude(running, exit, request)),
    (running) => Effect.promise(() => running.terminate()),
  ).pipe(Effect.timeoutOrElse({ duration: timeout, orElse: () => Effect.fail(new TimeoutError({ seconds: Duration.toSeconds(timeout) })) }))
}
