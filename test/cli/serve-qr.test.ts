/**
 * `toolgate serve --qr` (issue 18): refused with exit 2 for a bind a phone cannot reach (the
 * default, or an explicit loopback address); on an explicit network bind with the token from the
 * environment, the real executable prints the code of the console's address (no fragment: that
 * token is never printed), the address line and the line saying the page asks for the token.
 */
import { spawn } from "node:child_process"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { renderUnicodeCompact } from "uqr"
import { ServeCommand } from "../../src/cli/command/serve.js"
import { ExitCode } from "../../src/cli/exit-code.js"
import { ConsoleQr } from "../../src/server/console-qr.js"
import { ConsoleUrl } from "../../src/server/console-url.js"
import { ServerServe } from "../../src/server/serve.js"
import { ServerToken } from "../../src/server/token.js"
import { promise, runCli } from "../lib/cli.js"
import { folders } from "../lib/server.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const bin = path.join(root, "src/cli/bin.ts")
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href

/** This machine's first address on a network, as the wildcard bind would use it. */
const network = ServerServe.reachableHost("0.0.0.0", os.networkInterfaces())

describe("toolgate serve --qr", () => {
  for (const given of [[], ["--hostname", "127.0.0.1"], ["--hostname", "localhost"]])
    it.live(`refuses ${given.length === 0 ? "the default bind" : given.join(" ")} with exit 2, before binding`, () =>
      Effect.gen(function* () {
        const { root: cwd } = yield* folders
        expect(yield* promise(() => runCli(["serve", "--port", "0", "--qr", ...given], { root: cwd }))).toEqual({
          code: ExitCode.USAGE,
          stdout: "",
          stderr: `${ServeCommand.Messages.qrLoopback(given[1] ?? "127.0.0.1")}\n`,
        })
      }))

  it("says why verbatim", () => {
    expect(ServeCommand.Messages.qrLoopback("127.0.0.1")).toBe(
      "toolgate serve --qr: a phone cannot reach 127.0.0.1, the loopback address of this machine: give --hostname an address of this machine on the network (or 0.0.0.0), with TOOLGATE_SERVER_TOKEN set",
    )
    expect(ConsoleQr.Messages.asksToken).toBe("toolgate serve: the token comes from TOOLGATE_SERVER_TOKEN and is not printed: the console page asks for it")
  })

  it.live("prints the code of the address without the token on an explicit network bind, then stops on SIGINT", () =>
    Effect.gen(function* () {
      // A machine with no network address has no bind to test this on: that is a failure, not a skip.
      expect(network, "a non-internal IPv4 address of this machine").toBeTypeOf("string")
      const { base, home, root: cwd } = yield* folders
      const token = "a-token-of-my-own-long-enough"
      const child = spawn(process.execPath, ["--import", tsx, bin, "serve", "--hostname", network ?? "", "--port", "0", "--qr"], {
        cwd,
        env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(base, "data"), [ServerToken.ENV]: token },
        stdio: ["ignore", "pipe", "pipe"],
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")))
      const out = { stderr: "", stdout: "" }
      child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
      yield* Effect.promise(
        () =>
          new Promise<void>((resolve, reject) => {
            child.stderr.on("data", (chunk: Buffer) => {
              out.stderr += chunk.toString()
              if (out.stderr.includes(`${ConsoleQr.Messages.asksToken}\n`)) resolve()
            })
            child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${out.stderr}`)))
          }),
      )
      const lines = out.stderr.split("\n")
      const url = /listening on (http:\/\/[^ ]+) /.exec(lines[1] ?? "")?.[1] ?? ""
      const address = ConsoleUrl.of(url)
      expect(url).toBe(`http://${network}:${new URL(url).port}`)
      const code = renderUnicodeCompact(address, { border: ConsoleQr.BORDER }).split("\n")
      expect(lines).toEqual([
        ServerServe.Messages.exposed(network ?? ""),
        ServerServe.Messages.listening(url, undefined),
        ...code,
        ConsoleQr.Messages.address(address),
        ConsoleQr.Messages.asksToken,
        "",
      ])
      expect(out.stderr).not.toContain(token)
      child.kill("SIGINT")
      expect(yield* Effect.promise(() => exited)).toBe(ExitCode.SUCCESS)
    }))
})
