import { realpath } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { BashRun } from "../../../../src/tool/builtin/bash/run.js"
import { BashShell } from "../../../../src/tool/builtin/bash/shell.js"
import { tmpdir } from "../../../lib/tmp.js"

const TIMEOUT = 20_000

/** Runs `command` in a fresh temporary directory with the resolved shell. */
const run = (command: string, options: Partial<BashRun.Input> = {}) =>
  Effect.gen(function* () {
    const dir = yield* tmpdir
    const shell = yield* BashShell.resolve()
    return yield* BashRun.run({ command, cwd: dir, timeout: TIMEOUT, shell, spoolPath: path.join(dir, "tool-output", "shell_test"), ...options })
  })

describe("BashRun", () => {
  it.live("combines stdout and stderr in the order they were written", () =>
    Effect.gen(function* () {
      for (let round = 0; round < 10; round++) {
        const result = yield* run("echo a; echo b >&2; echo c; printf d >&2; echo e")
        expect(result.output).toBe("a\nb\nc\nde\n")
      }
    }))

  it.live("reports the exit code and no signal", () =>
    Effect.gen(function* () {
      const result = yield* run("echo out; exit 3")
      expect(result).toEqual({ output: "out\n", exit: 3, timedOut: false, interrupted: false, truncated: false, timeout: TIMEOUT })
      expect(BashRun.render(result)).toBe("out\n\nCommand exited with code 3.")
      expect(BashRun.toOutput(result)).toEqual({ exit: 3, timedOut: false, truncated: false })
    }))

  it.live("renders empty output as (no output)", () =>
    Effect.gen(function* () {
      const result = yield* run("true")
      expect(result.output).toBe("")
      expect(BashRun.render(result)).toBe("(no output)\n\nCommand exited with code 0.")
    }))

  it.live("reports a shell killed by a signal", () =>
    Effect.gen(function* () {
      const result = yield* run("echo bye; kill -KILL $$")
      expect(result).toMatchObject({ output: "bye\n", exit: null, signal: "SIGKILL", timedOut: false, interrupted: false })
      expect(BashRun.render(result)).toBe("bye\n\nCommand was terminated by signal SIGKILL.")
      expect(BashRun.toOutput(result)).toEqual({ exit: null, signal: "SIGKILL", timedOut: false, truncated: false })
    }))

  it.live("decodes invalid UTF-8 with replacement characters", () =>
    Effect.gen(function* () {
      const result = yield* run("printf '\\377\\376 ok \\303\\251\\n'")
      expect(result.output).toBe("\uFFFD\uFFFD ok \u00E9\n")
      expect(result.exit).toBe(0)
    }))

  it.live("runs in the given directory", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const result = yield* run("pwd", { cwd: dir })
      expect(result.output).toBe(`${yield* Effect.promise(() => realpath(dir))}\n`)
    }))

  it.live("passes the given environment, and only it", () =>
    Effect.gen(function* () {
      const env = { PATH: process.env["PATH"], TOOLGATE_RUN_TEST: "a b" }
      const result = yield* run(`printf '%s|%s' "$TOOLGATE_RUN_TEST" "\${HOME-unset}"`, { env })
      expect(result.output).toBe("a b|unset")
    }))

  it.live("uses the process environment by default", () =>
    Effect.gen(function* () {
      const result = yield* run(`printf %s "$PATH"`)
      expect(result.output).toBe(process.env["PATH"])
    }))

  it.live("gives the chosen shell the command as its -c string, unchanged", () =>
    Effect.gen(function* () {
      const bash = BashShell.which("bash", process.env) ?? "/bin/bash"
      const result = yield* run(`printf '%s|%s|%s' "$0" "$LINENO" "$BASH"`, { shell: bash })
      expect(result.output).toBe(`${bash}|1|${bash}`)
    }))

  it.live("fails with SpawnError when the directory is missing", () =>
    Effect.gen(function* () {
      const dir = yield* tmpdir
      const cwd = path.join(dir, "missing")
      const error = yield* run("true", { cwd }).pipe(Effect.flip)
      expect(error).toBeInstanceOf(BashRun.SpawnError)
      expect(error.message).toBe(BashRun.Messages.spawn((yield* BashShell.resolve()), cwd, "ENOENT"))
    }))
})

describe("BashRun notices", () => {
  const base = { output: "x\n", exit: 0, timedOut: false, interrupted: false, timeout: 120_000 } as const
  const cases = [
    { name: "exit code", result: { ...base, exit: 1 }, text: "x\n\nCommand exited with code 1." },
    { name: "exit code 0", result: base, text: "x\n\nCommand exited with code 0." },
    {
      name: "timeout",
      result: { ...base, exit: null, signal: "SIGTERM", timedOut: true, timeout: 1_500 },
      text: "x\n\nCommand timed out after 1500 ms. Retry with a larger timeout if the command is expected to take longer.",
    },
    { name: "stop", result: { ...base, exit: null, signal: "SIGTERM", interrupted: true }, text: "x\n\nCommand stopped by user." },
    { name: "no output", result: { ...base, output: "" }, text: "(no output)\n\nCommand exited with code 0." },
    { name: "output without a final newline", result: { ...base, output: "x" }, text: "x\n\nCommand exited with code 0." },
    { name: "output ending in a blank line", result: { ...base, output: "x\n\n" }, text: "x\n\n\nCommand exited with code 0." },
  ]
  for (const c of cases) it(`renders ${c.name}`, () => expect(BashRun.render(c.result)).toBe(c.text))

  it("renders a given preview in place of the output", () =>
    expect(BashRun.render({ ...base, output: "all of it" }, `tail\n\n${BashRun.Messages.truncated("/d/shell_1")}`)).toBe(
      "tail\n\n[output truncated; full output saved to: /d/shell_1]\n\nCommand exited with code 0.",
    ))

  it("declares the structured output of 07", () => {
    const decode = Schema.decodeUnknownSync(BashRun.Output)
    expect(decode({ exit: null, signal: "SIGTERM", timedOut: true, truncated: true, outputPath: "/d/shell_1" })).toEqual({
      exit: null,
      signal: "SIGTERM",
      timedOut: true,
      truncated: true,
      outputPath: "/d/shell_1",
    })
    expect(() => decode({ exit: 0, timedOut: false })).toThrow()
  })

  it("spells the notices and markers exactly", () => {
    expect(BashRun.Messages.exited(2)).toBe("Command exited with code 2.")
    expect(BashRun.Messages.timedOut(120_000)).toBe("Command timed out after 120000 ms. Retry with a larger timeout if the command is expected to take longer.")
    expect(BashRun.Messages.stopped).toBe("Command stopped by user.")
    expect(BashRun.Messages.noOutput).toBe("(no output)")
    expect(BashRun.Messages.truncated("/data/tool-output/shell_01")).toBe("[output truncated; full output saved to: /data/tool-output/shell_01]")
    expect(BashRun.Messages.notSaved("/d/shell_1", "ENOSPC")).toBe("[output truncated; the full output could not be saved to /d/shell_1: ENOSPC]")
  })
})
