/**
 * What a CLI command reads and writes, as a value, so commands run the same in a terminal, a
 * child process and an in-process test. Errors go to stderr as one line each.
 */
export * as Io from "./io.js"

import { createInterface } from "node:readline"

export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** All of standard input, or undefined when it is a terminal (nothing piped in). */
  readonly stdin: () => Promise<string | undefined>
  /** Writes `question` to stderr as is and reads one line of the answer; undefined at end of input. */
  readonly prompt: (question: string) => Promise<string | undefined>
  readonly isTTY: boolean
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

/** A message on one line: line breaks and the indentation after them fold into one space. */
export const oneLine = (message: string): string => message.replace(/\s*\r?\n\s*/g, " ").trim()

const readAll = async (stream: NodeJS.ReadStream) => {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
  return Buffer.concat(chunks).toString("utf8")
}

const promptLine = (question: string) =>
  new Promise<string | undefined>((resolve) => {
    const reader = createInterface({ input: process.stdin, output: process.stderr, terminal: false })
    process.stderr.write(question)
    reader.once("line", (line) => {
      reader.close()
      resolve(line)
    })
    reader.once("close", () => resolve(undefined))
  })

export const processIo = (): Io => ({
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${oneLine(text)}\n`),
  stdin: () => (process.stdin.isTTY === true ? Promise.resolve(undefined) : readAll(process.stdin)),
  prompt: promptLine,
  isTTY: process.stdin.isTTY === true && process.stdout.isTTY === true,
  cwd: process.cwd(),
  env: process.env,
})
