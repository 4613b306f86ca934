/**
 * The process's own streams (cli/io.ts `processIo`) in a real child process: a reader that goes
 * away (`toolgate tools | head -1`) ends the command quietly, with its own exit code and nothing
 * on stderr, as every Unix tool does. Runs the TypeScript entry through tsx, so no build is needed.
 */
import { spawn } from "node:child_process"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const bin = path.join(root, "src/cli/bin.ts")
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href

const environment = (home: string) => ({ PATH: process.env.PATH, HOME: home, TOOLGATE_DATA_DIR: path.join(home, "data") })

/** Runs `command` with its streams piped to this process; `closeStdout` closes the read end at once. */
const spawned = (command: string, args: ReadonlyArray<string>, home: string, closeStdout: boolean) =>
  Effect.promise(
    () =>
      new Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }>((resolve) => {
        const child = spawn(command, args, { cwd: home, env: environment(home), stdio: ["ignore", "pipe", "pipe"] })
        const out = { stdout: "", stderr: "" }
        // Closed before toolgate has started: its first write to stdout fails with EPIPE.
        if (closeStdout) child.stdout.destroy()
        else child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
        child.on("close", (code) => resolve({ code, ...out }))
      }),
  )

describe("Io.processIo", () => {
  it.live("ends quietly with the command's exit code when stdout's reader has gone (EPIPE)", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      expect(yield* spawned(process.execPath, ["--import", tsx, bin, "tools"], home, true)).toEqual({ code: ExitCode.SUCCESS, stdout: "", stderr: "" })
    }))

  it.live("toolgate tools | head -1 prints the first tool and nothing on stderr", () =>
    Effect.gen(function* () {
      const home = yield* tmpdir
      const [first] = (yield* promise(() => runCli(["tools"], { root: home }))).stdout.split("\n")
      // The exit code of toolgate itself, not of head, is reported on stderr after it ends.
      const line = `{ "${process.execPath}" --import "${tsx}" "${bin}" tools; echo "toolgate exited $?" >&2; } | head -1`
      expect(yield* spawned("sh", ["-c", line], home, false)).toEqual({ code: 0, stdout: `${first}\n`, stderr: `toolgate exited ${ExitCode.SUCCESS}\n` })
    }))
})
