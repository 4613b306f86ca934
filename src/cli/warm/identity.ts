/**
 * A waiting process takes its caller's place for one command (cli/warm/server.ts): the caller's
 * environment (the whole of it: no variable of an earlier command or of its own start is left),
 * directory, umask, arguments and console (its parent pid is the `Io`'s, relay-io.ts), and gives them back afterwards, so the
 * next command starts from the same blank state.
 */
export * as WarmIdentity from "./identity.js"

import { Console } from "node:console"
import type { WarmWire } from "./wire.js"

interface Saved {
  readonly env: Record<string, string | undefined>
  readonly umask: number
  readonly argv: ReadonlyArray<string>
  readonly console: Console
}

const replaceEnv = (env: Readonly<Record<string, string | undefined>>) => {
  for (const key of Object.keys(process.env)) delete process.env[key]
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value
}

/** Becomes the caller of `request`, with `console` writing to it; the function that undoes it. Throws when the caller's directory cannot be entered (nothing changed then). */
export const adopt = (request: WarmWire.Request, console: Console): (() => void) => {
  process.chdir(request.cwd)
  const saved: Saved = { env: { ...process.env }, umask: process.umask(request.umask), argv: process.argv, console: globalThis.console }
  replaceEnv(request.env)
  process.argv = [process.execPath, request.script, ...request.argv]
  globalThis.console = console
  process.exitCode = undefined
  return () => {
    replaceEnv(saved.env)
    process.chdir("/")
    process.umask(saved.umask)
    process.argv = [...saved.argv]
    globalThis.console = saved.console
    process.exitCode = undefined
  }
}
