/**
 * What a CLI command reads and writes, as a value, so commands run the same in a terminal, a
 * child process and an in-process test. Errors go to stderr as one line each. When the reader of
 * stdout or stderr goes away (EPIPE: `toolgate tools | head -1`), the rest of what would be
 * written there is dropped and the command ends as it would have, quietly, as Unix tools do.
 */
export * as Io from "./io.js"

import { isatty } from "node:tty"
import { VisibleText } from "../visible-text.js"

export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** All of standard input, or undefined when it is a terminal (nothing piped in). */
  readonly stdin: () => Promise<string | undefined>
  /** Writes `question` to stderr as is and reads one line of the answer; undefined at end of input. */
  readonly prompt: (question: string) => Promise<string | undefined>
  readonly isTTY: boolean
  /** The terminal's height in lines, when known (the prompt cuts a longer diff). */
  readonly rows?: () => number | undefined
  /** Shows `text` through the pager at the terminal; false when no pager ran (the caller prints it instead). */
  readonly page?: (text: string) => Promise<boolean>
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  /** Calls `handler` on each SIGINT, SIGTERM or SIGHUP until the returned function is called; none in tests that do not send any. */
  readonly onSignal?: (handler: (signal: Signal) => void) => () => void
  /** Ends the process at once (a second signal). */
  readonly exit?: (code: number) => void
  /** The pid of the process that started this command; default: this process's parent. */
  readonly parent?: number
  /** Standard input and output as byte streams, for a command that speaks a protocol on them (`toolgate mcp`). */
  readonly channel?: () => Channel
}

export interface Channel {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
}

export const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const
export type Signal = (typeof SIGNALS)[number]

const listen = (handler: (signal: Signal) => void) => {
  const listeners = SIGNALS.map((signal) => [signal, () => handler(signal)] as const)
  listeners.forEach(([signal, listener]) => process.on(signal, listener))
  return () => listeners.forEach(([signal, listener]) => process.off(signal, listener))
}

/** A message on one line: line breaks and the indentation after them fold into one space. */
export const oneLine = (message: string): string => message.replace(/\s*\r?\n\s*/g, " ").trim()

const readAll = async (stream: NodeJS.ReadStream) => {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * One line from the terminal. Without a terminal on standard input (piped input, already read
 * for the JSON argument) there is nobody to answer: the answer is "none", at once, never a hang.
 */
const promptLine = async (question: string) => {
  if (process.stdin.isTTY !== true || process.stdin.readableEnded) return undefined
  // Loaded here: most commands never prompt, and every start would pay for the module.
  const { createInterface } = await import("node:readline")
  return new Promise<string | undefined>((resolve) => {
    const reader = createInterface({ input: process.stdin, output: process.stderr, terminal: false })
    const finish = (answer: string | undefined) => {
      reader.removeAllListeners()
      reader.close()
      resolve(answer)
    }
    process.stderr.write(question)
    reader.once("line", (line) => finish(line))
    reader.once("close", () => finish(undefined))
  })
}

/** The pager when `PAGER` names none: `-R` shows the diff's colours. */
export const DEFAULT_PAGER = "less -R"

/**
 * Runs `$PAGER` (a shell command, as git runs it) on `text`, its output on the terminal of
 * stderr: stdout may be piped. True when it ran and exited cleanly. A pager quit before reading
 * everything closes its input early, which is no error.
 */
const pageText = async (text: string) => {
  const { spawn } = await import("node:child_process")
  return new Promise<boolean>((resolve) => {
    const pager = process.env.PAGER?.trim() || DEFAULT_PAGER
    const child = spawn(pager, { shell: true, stdio: ["pipe", process.stderr, process.stderr] })
    child.once("error", () => resolve(false))
    child.once("exit", (code) => resolve(code === 0))
    child.stdin.once("error", () => undefined)
    child.stdin.end(`${text}\n`)
  })
}

/** Characters that do not show as themselves written as escapes (VisibleText), so a request cannot redraw the terminal or hide what runs. */
export const visible = (text: string): string => VisibleText.of(text)

const watched = new WeakSet<NodeJS.WriteStream>()

/**
 * Writes to `stream` until its reader goes away. The failed write destroys the stream, so what
 * comes after is dropped; the EPIPE itself is expected and says nothing.
 */
const writer = (stream: NodeJS.WriteStream) => {
  if (!watched.has(stream)) {
    watched.add(stream)
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") return
      // Any other write error ends the process as an unhandled stream error would have.
      throw error
    })
  }
  return (text: string) => {
    if (!stream.destroyed) stream.write(text)
  }
}

export const processIo = (): Io => {
  const out = writer(process.stdout)
  const err = writer(process.stderr)
  return {
    stdout: (text) => out(`${text}\n`),
    stderr: (text) => err(`${oneLine(text)}\n`),
    stdin: () => (process.stdin.isTTY === true ? Promise.resolve(undefined) : readAll(process.stdin)),
    prompt: promptLine,
    // Prompts go to stderr and answers come from stdin: those two decide whether a person is there.
    // Asked of the descriptors: \`process.stdin\` builds its stream (a socket for a pipe) when read.
    isTTY: isatty(0) && isatty(2),
    rows: () => process.stderr.rows,
    page: pageText,
    cwd: process.cwd(),
    env: process.env,
    onSignal: listen,
    exit: (code) => process.exit(code),
    channel: () => ({ input: process.stdin, output: process.stdout }),
  }
}
