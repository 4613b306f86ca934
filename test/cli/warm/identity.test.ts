/** A waiting process takes its caller's place for one command and gives it back (cli/warm/identity.ts). */
import { Console } from "node:console"
import { Writable } from "node:stream"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WarmIdentity } from "../../../src/cli/warm/identity.js"
import type { WarmWire } from "../../../src/cli/warm/wire.js"
import { tmpdir } from "../../lib/tmp.js"

const request = (cwd: string): WarmWire.Request => ({
  t: "request",
  version: 1,
  fingerprint: "",
  argv: ["call", "read"],
  script: "/x/bin.cjs",
  cwd,
  env: { ONLY: "this" },
  umask: 0o077,
  ppid: 1,
  isTTY: false,
  rows: undefined,
})

describe("WarmIdentity", () => {
  it.live("takes the whole environment, directory, umask, argv and console, and gives them back", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const before = { env: { ...process.env }, cwd: process.cwd(), umask: process.umask(), argv: [...process.argv], console: globalThis.console }
      const printed: Array<string> = []
      const console = new Console(new Writable({ write: (chunk, _encoding, done) => (printed.push(String(chunk)), done()) }))
      const restore = WarmIdentity.adopt(request(root), console)
      try {
        expect({ ...process.env }).toEqual({ ONLY: "this" })
        expect(process.cwd()).toBe(root)
        expect(process.umask()).toBe(0o077)
        expect(process.argv).toEqual([process.execPath, "/x/bin.cjs", "call", "read"])
        globalThis.console.log("to the caller")
      } finally {
        restore()
        process.chdir(before.cwd)
      }
      expect(printed).toEqual(["to the caller\n"])
      expect({ ...process.env }).toEqual(before.env)
      expect([process.umask(), process.argv, globalThis.console]).toEqual([before.umask, before.argv, before.console])
    }))

  it.live("changes nothing when the caller's directory cannot be entered", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const before = { env: { ...process.env }, cwd: process.cwd() }
      expect(() => WarmIdentity.adopt(request(`${root}/gone`), globalThis.console)).toThrow()
      expect([{ ...process.env }, process.cwd()]).toEqual([before.env, before.cwd])
    }))
})
