/**
 * The built executable (`dist/`, made by `npm test` before vitest runs) in a child process, for
 * the parts that load files at run time: the bash grammar's wasm and webfetch's conversion worker.
 */
import { spawn } from "node:child_process"
import { writeFile } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { BashRun } from "../../src/tool/builtin/bash/run.js"
import { serve } from "../lib/http-server.js"
import { madeLine } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

const toolgate = (args: ReadonlyArray<string>, home: string) =>
  Effect.promise(
    () =>
      new Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...args], { cwd: home, env: { PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data"), ...OWN_PROCESS } })
        const out = { stdout: "", stderr: "" }
        child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
        child.on("close", (code) => resolve({ code, ...out }))
      }),
  )

describe("the built executable", () => {
  it.live("runs bash with the parser's grammar loaded from dist", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      yield* Effect.promise(() => writeFile(path.join(home, "a.txt"), "one\ntwo\n"))
      const result = yield* toolgate(["call", "bash", '{"command":"grep -c o a.txt && echo done"}', "--on-ask", "once"], home)
      expect(result).toEqual({ code: ExitCode.SUCCESS, stdout: `2\ndone\n\n${BashRun.Messages.exited(0)}\n`, stderr: madeLine(result.stderr) })
    }))

  it.live("fetches a page and converts it in webfetch's worker loaded from dist", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const server = yield* serve((_, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
        response.end("<h1>Hello</h1><p>world <strong>wide</strong></p>")
      })
      const result = yield* toolgate(["call", "webfetch", JSON.stringify({ url: server.url("/") }), "--on-ask", "once"], home)
      expect(result).toEqual({ code: ExitCode.SUCCESS, stdout: "# Hello\n\nworld **wide**\n", stderr: madeLine(result.stderr) })
    }))
})
