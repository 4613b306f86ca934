/**
 * A command's stdout is its result alone. An outside review found `call --json` unparseable: a
 * warning of the snapshot's git was logged on stdout before the JSON. The built executable and a
 * real bash with no git on its PATH (snapshots say they need it, once): the warning goes to
 * stderr, and stdout parses.
 */
import { spawnSync } from "node:child_process"
import { mkdir, realpath, symlink } from "node:fs/promises"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Snapshot } from "../../src/snapshot/snapshot.js"
import { tmpdir } from "../lib/tmp.js"
import { OWN_PROCESS } from "../lib/own-process.js"

const toolgate = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli/bin.cjs")

describe("toolgate call's output streams", () => {
  it.live("logs a warning of its own on stderr, so that --json on stdout still parses", () =>
    Effect.gen(function* () {
      const root = yield* Effect.flatMap(tmpdir, (dir) => Effect.promise(() => realpath(dir)))
      const [repo, bin] = [path.join(root, "repo"), path.join(root, "bin")]
      yield* Effect.promise(() => Promise.all([mkdir(repo), mkdir(bin)]))
      // A PATH with bash on it and no git.
      const bash = spawnSync("bash", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim()
      yield* Effect.promise(() => symlink(bash, path.join(bin, "bash")))
      const env = { PATH: bin, HOME: root, TOOLGATE_DATA_DIR: path.join(root, "data"), ...OWN_PROCESS }
      const call = (...args: ReadonlyArray<string>) => spawnSync(process.execPath, [toolgate, "call", ...args, "--session", "ses_logs", "--dir", repo], { env, encoding: "utf8" })
      const echoed = call("bash", JSON.stringify({ command: "echo hi", description: "say hi" }), "--json")
      expect(echoed.status).toBe(0)
      expect(JSON.parse(echoed.stdout)).toMatchObject({ exitCode: 0, session: "ses_logs" })
      expect(echoed.stderr).toContain(Snapshot.Messages.gitMissing)
    }))
})
