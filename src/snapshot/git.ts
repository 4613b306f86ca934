/**
 * Runs git as a child process, never through a shell: arguments are an array and the
 * environment is stripped of `GIT_*` variables so a hook's `GIT_DIR` cannot redirect the
 * shadow repository onto the project's own. The child is killed when the fiber is interrupted.
 * A missing executable is its own error (`MissingError`) so callers can disable snapshots.
 */
export * as Git from "./git.js"

import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { Effect, Schema } from "effect"
import { BytePath } from "../location/byte-path.js"

export const Messages = {
  failed: (args: ReadonlyArray<string>, stderr: string) => `git ${args.join(" ")} failed: ${stderr}`,
  missing: (git: string) => `git executable not found: ${git}`,
} as const

export class GitError extends Schema.TaggedError<GitError>()("Snapshot.GitError", {
  args: Schema.Array(Schema.String),
  stderr: Schema.String,
}) {
  override get message() {
    return Messages.failed(this.args, this.stderr)
  }
}

export class MissingError extends Schema.TaggedError<MissingError>()("Snapshot.GitMissingError", {
  git: Schema.String,
}) {
  override get message() {
    return Messages.missing(this.git)
  }
}

export interface RunOptions {
  readonly git: string
  readonly cwd: string
  /** A string is written as `BytePath.encode` gives its bytes: names with escaped bytes reach git exact. */
  readonly input?: Buffer | string
  /** Variables set for this run only, after the `GIT_*` of the process are stripped (a temporary `GIT_INDEX_FILE`). */
  readonly env?: Readonly<Record<string, string>>
}

/**
 * Given before every command: neither the shadow repository's own config nor a file in its
 * folder can make toolgate's git run a program, whoever wrote them: no fsmonitor (it runs on
 * `add` and `status`) and no hooks (`post-checkout` runs on the `checkout` of a revert).
 */
export const SAFE_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"] as const

const environment = (extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GIT_"))),
  ...extra,
})

/** Runs `git <args>` and succeeds with its stdout when it exits with 0. */
export const run = (args: ReadonlyArray<string>, options: RunOptions): Effect.Effect<Buffer, GitError | MissingError> =>
  Effect.callback<Buffer, GitError | MissingError>((resume) => {
    const child = spawn(options.git, [...SAFE_CONFIG, ...args], { cwd: options.cwd, env: environment(options.env), stdio: ["pipe", "pipe", "pipe"] })
    const out: Array<Buffer> = []
    const err: Array<Buffer> = []
    const settle = { done: false }
    const finish = (effect: Effect.Effect<Buffer, GitError | MissingError>) => {
      if (settle.done) return
      settle.done = true
      resume(effect)
    }
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk))
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk))
    child.on("error", (cause: NodeJS.ErrnoException) =>
      finish(
        // spawn reports a missing cwd as ENOENT too; only a present cwd means git itself is missing.
        cause.code === "ENOENT" && existsSync(options.cwd)
          ? Effect.fail(new MissingError({ git: options.git }))
          : Effect.fail(new GitError({ args: [...args], stderr: cause.code ?? String(cause) })),
      ),
    )
    child.on("close", (code) =>
      finish(
        code === 0
          ? Effect.succeed(Buffer.concat(out))
          : Effect.fail(new GitError({ args: [...args], stderr: Buffer.concat(err).toString("utf8").trim() })),
      ),
    )
    // A git that exits before reading all of stdin closes the pipe; the exit code tells what happened.
    child.stdin.on("error", () => undefined)
    child.stdin.end(typeof options.input === "string" ? BytePath.encode(options.input) : options.input)
    return Effect.sync(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    })
  })

/** Splits NUL-terminated output (`-z`) into its entries, names decoded by `BytePath.decode`. */
export const splitZ = (output: Buffer): Array<string> => BytePath.decode(output).split("\0").filter((entry) => entry !== "")

/** One index entry as `ls-files -s -z --debug` prints it. */
export interface IndexEntry {
  readonly mode: string
  readonly path: string
  /** The size recorded in the index's stat data (git keeps its low 32 bits). */
  readonly size: number
}

/** Lines of stat data `--debug` prints after each entry: ctime, mtime, dev/ino, uid/gid, size/flags. */
const DEBUG_LINES = 5

/**
 * The entries of `ls-files -s -z --debug`: `<mode> <object> <stage>\t<path>\0` then the stat
 * lines, each ending in a line break; the path is NUL-terminated, so any byte may be in it.
 * @example Git.indexEntries(Buffer.from("100644 e69d… 0\ta.txt\0  ctime: 1:0\n  mtime: 1:0\n  dev: 1\tino: 2\n  uid: 0\tgid: 0\n  size: 36\tflags: 0\n")) // [{ mode: "100644", path: "a.txt", size: 36 }]
 */
export const indexEntries = (output: Buffer): Array<IndexEntry> => {
  const text = BytePath.decode(output)
  const entries: IndexEntry[] = []
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf("\0", at)
    if (end === -1) break
    const header = text.slice(at, end)
    const tab = header.indexOf("\t")
    let cursor = end + 1
    let sizeLine = ""
    for (let line = 0; line < DEBUG_LINES; line++) {
      const next = text.indexOf("\n", cursor)
      const stop = next === -1 ? text.length : next
      sizeLine = text.slice(cursor, stop)
      cursor = stop + 1
    }
    const size = /size: (\d+)/.exec(sizeLine)?.[1]
    entries.push({ mode: header.slice(0, header.indexOf(" ")), path: header.slice(tab + 1), size: Number(size ?? 0) })
    at = cursor
  }
  return entries
}
