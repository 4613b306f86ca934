/**
 * A file toolgate may not read in the project (mode 000, or 600 and another user's, as a
 * container leaves them): git failed every snapshot on it, so `rm keep.txt` went unrecorded,
 * `session diff` said nothing changed and `session revert` found no snapshot. Now such a file is
 * held by its size and times, and the rest is recorded. The built CLI in child processes, real
 * bash and git; as root (which reads everything) the CLI runs as `nobody` through setpriv.
 */
import { spawn, spawnSync } from "node:child_process"
import { chmod, chown, mkdir, readFile, readdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SessionCommand } from "../../src/cli/command/session.js"
import { BIN } from "../lib/cli-project.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const NOBODY = 65534
const root = process.getuid?.() === 0
const runnable = !root || spawnSync("setpriv", ["--version"]).status === 0

/** Everything under `dir` (and itself) handed to `nobody`. */
const giveAway = async (dir: string): Promise<void> => {
  await chown(dir, NOBODY, NOBODY)
  for (const entry of await readdir(dir, { recursive: true })) await chown(path.join(dir, entry), NOBODY, NOBODY)
}

const toolgate = (cwd: string, env: NodeJS.ProcessEnv, args: ReadonlyArray<string>) =>
  Effect.promise(
    () =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const [command, prefix] = root ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, BIN]] : [process.execPath, [BIN]]
        const child = spawn(command as string, [...(prefix as Array<string>), ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
        const out = { stdout: "", stderr: "" }
        child.stdout.on("data", (chunk: Buffer) => (out.stdout += chunk.toString()))
        child.stderr.on("data", (chunk: Buffer) => (out.stderr += chunk.toString()))
        child.once("error", reject)
        child.once("close", (code) => resolve({ code, ...out }))
      }),
  )

describe.skipIf(!runnable)("a file toolgate may not read", () => {
  it.live("does not stop the session's changes from being recorded and reverted; it is kept and named", () =>
    Effect.gen(function* () {
      const base = yield* tmpdir
      const work = path.join(base, "work")
      const home = path.join(base, "home")
      const env = { PATH: process.env.PATH ?? "", HOME: home, TOOLGATE_DATA_DIR: path.join(base, "data"), ...OWN_PROCESS }
      yield* Effect.promise(async () => {
        await mkdir(path.join(home, ".config", "toolgate"), { recursive: true })
        await writeFile(path.join(home, ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission: { "*": { "*": "allow" } } }))
        await mkdir(work)
        await writeFile(path.join(work, "keep.txt"), "the person's work\n")
        await writeFile(path.join(work, "held.txt"), "held\n")
        await writeFile(path.join(work, "secret.key"), "secret\n")
        await chmod(path.join(work, "secret.key"), 0o000)
        if (root) await giveAway(base)
      })
      const removed = yield* toolgate(work, env, ["call", "bash", JSON.stringify({ command: "rm keep.txt", description: "remove" }), "--session", "ses_r", "--message", "msg_rm"])
      expect(removed.code, removed.stderr).toBe(0)
      const locked = yield* toolgate(work, env, ["call", "bash", JSON.stringify({ command: "chmod 000 held.txt", description: "lock" }), "--session", "ses_r", "--message", "msg_lock"])
      expect(locked.code, locked.stderr).toBe(0)

      const diff = yield* toolgate(work, env, ["session", "diff", "ses_r"])
      expect(diff.stdout).toContain("D keep.txt (+0 -1)")
      expect(diff.stdout).toContain("M held.txt (+0 -0)")
      expect(diff.stdout).not.toContain("secret.key")
      const reverted = yield* toolgate(work, env, ["session", "revert", "ses_r", "msg_rm"])
      expect(reverted.code, reverted.stderr).toBe(0)
      expect(reverted.stdout.trimEnd().split("\n")).toEqual([SessionCommand.Messages.reverted("ses_r", "msg_rm"), SessionCommand.Messages.step("recreate", "keep.txt", false), SessionCommand.Messages.large("held.txt", false)])
      expect(yield* Effect.promise(() => readFile(path.join(work, "keep.txt"), "utf8"))).toBe("the person's work\n")
    }),
  )
})
