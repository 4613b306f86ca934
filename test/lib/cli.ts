/** Drives the real CLI in process, capturing what it prints, with home and data dir in a temp folder. */
import { Effect, Layer } from "effect"
import { CallCommand } from "../../src/cli/command/call.js"
import { Cli } from "../../src/cli/main.js"
import type { Io } from "../../src/cli/io.js"
import { Io as IoModule } from "../../src/cli/io.js"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import type { Runtime } from "../../src/runtime.js"
import type { Tool } from "../../src/tool/tool.js"

export interface Captured {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const runCli = (
  argv: ReadonlyArray<string>,
  options: {
    readonly root: string
    readonly cwd?: string
    readonly stdin?: string
    readonly tools?: Record<string, Tool.AnyTool>
    readonly answers?: string[]
    readonly tty?: boolean
    readonly extra?: Runtime.Extra<unknown>
    readonly env?: Readonly<Record<string, string>>
    /** The terminal's height (default: unknown). */
    readonly rows?: number
    /** A pager: what it is given, and whether it ran (default: none, so text to page is printed). */
    readonly page?: (text: string) => boolean
  },
): Promise<Captured> => {
  const out: string[] = []
  const err: string[] = []
  const io: Io.Io = {
    stdout: (text) => out.push(`${text}\n`),
    stderr: (text) => err.push(`${IoModule.oneLine(text)}\n`),
    stdin: () => Promise.resolve(options.stdin),
    prompt: (question) => {
      err.push(question)
      return Promise.resolve(options.answers?.shift())
    },
    isTTY: options.tty === true,
    ...(options.rows === undefined ? {} : { rows: () => options.rows }),
    ...(options.page === undefined ? {} : { page: (text: string) => Promise.resolve(options.page?.(text) ?? false) }),
    cwd: options.cwd ?? options.root,
    env: { HOME: options.root, TOOLGATE_DATA_DIR: `${options.root}/data`, ...options.env },
  }
  const extra = options.extra ?? (options.tools === undefined ? Layer.empty : Layer.effectDiscard(ApplicationTools.register(options.tools)))
  return Cli.run(argv, { io, extra }).then((code) => ({ code, stdout: out.join(""), stderr: err.join("") }))
}

export const promise = <A>(thunk: () => Promise<A>) => Effect.promise(thunk)

/** What the line `call` prints for a session it made starts with. */
const MADE = CallCommand.Messages.newSession("\u0000").split("\u0000")[0] as string

/** The id of the session a call without --session made, read from the line it printed on stderr. */
export const madeSession = (stderr: string): string => stderr.split("\n").find((line) => line.startsWith(MADE))?.slice(MADE.length).split(" ")[0] ?? ""

/** That line, as `call` prints it, for the session `stderr` names: what such a call's stderr starts with. */
export const madeLine = (stderr: string): string => `${CallCommand.Messages.newSession(madeSession(stderr))}\n`
