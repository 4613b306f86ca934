/**
 * A command's stdout is its result alone. An outside review found `call --json` unparseable: a
 * warning of the snapshot's git (a recorded file whose folder became a link) was logged on
 * stdout before the JSON. The built executable, real git and real links: the warning goes to
 * stderr, and stdout parses.
 */
import { spawnSync } from "node:child_process"
import { mkdir, realpath, rm, symlink } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { tmpdir } from "../lib/tmp.js"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

describe("toolgate call's output streams", () => {
  it.live("logs a warning of its own on stderr, so that --json on stdout still parses", () =>
    Effect.gen(function* () {
      const root = yield* Effect.flatMap(tmpdir, (dir) => Effect.promise(() => realpath(dir)))
      const [repo, outside] = [path.join(root, "repo"), path.join(root, "outside")]
      yield* Effect.promise(() => Promise.all([mkdir(repo), mkdir(outside)]))
      const env = { PATH: process.env.PATH ?? "", HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data") }
      const call = (...args: ReadonlyArray<string>) => spawnSync(process.execPath, [bin, "call", ...args, "--session", "ses_logs", "--dir", repo], { env, encoding: "utf8" })
      expect(spawnSync("git", ["init", "-q", repo]).status).toBe(0)
      expect(call("write", JSON.stringify({ path: "d/f.txt", content: "x\n" })).status).toBe(0)
      // The recorded file's folder becomes a link: the snapshot's git refuses the path, and says so.
      yield* Effect.promise(() => rm(path.join(repo, "d"), { recursive: true }))
      yield* Effect.promise(() => symlink(outside, path.join(repo, "d")))
      const echoed = call("bash", JSON.stringify({ command: "echo hi", description: "say hi" }), "--json")
      expect(echoed.status).toBe(0)
      expect(JSON.parse(echoed.stdout)).toMatchObject({ exitCode: 0, session: "ses_logs" })
      expect(echoed.stderr).toContain("beyond a symbolic link")
    }))
})
