/**
 * toolgate's own folders are written by no tool (location/own-paths.ts): with the working
 * directory at the home folder, the data folder (database, snapshot repositories) and the global
 * config folder lie inside it, and every file tool and bash's redirections refuse them before
 * anything is asked, whatever the answer; the files stay as they were.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OwnPaths } from "../../src/location/own-paths.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate's own folders", () => {
  it.live("are written by no tool, even inside the working directory and with every ask answered always", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const call = (tool: string, input: unknown, onAsk: string) =>
        promise(() => runCli(["call", tool, JSON.stringify(input), "--dir", root, "--session", "ses_own", "--on-ask", onAsk], { root }))
      const globalConfig = path.join(root, ".config", "toolgate", "toolgate.json")
      yield* promise(async () => {
        await mkdir(path.dirname(globalConfig), { recursive: true })
        await writeFile(globalConfig, '{ "permission": { "read": "allow" } }\n')
      })
      // A first write makes the database and the project's snapshot repository.
      expect((yield* call("write", { path: "notes.txt", content: "one\n" }, "always")).code).toBe(ExitCode.SUCCESS)
      const [project] = yield* promise(() => readdir(path.join(root, "data", "snapshot")))
      const snapshotConfig = path.join("data", "snapshot", project as string, "config")
      // The database changes with every call (its audit records); that it is still there is checked at the end.
      const files = [path.join(root, snapshotConfig), globalConfig]
      const before = yield* promise(() => Promise.all(files.map((file) => readFile(file, "utf8"))))
      const attempts: ReadonlyArray<readonly [string, unknown, string]> = [
        ["edit", { path: snapshotConfig, oldString: "[core]", newString: '[core]\n\tfsmonitor = "touch pwned"' }, snapshotConfig],
        ["write", { path: "data/toolgate.db", content: "x" }, "data/toolgate.db"],
        ["write", { path: "data/code-cache/commands-x.bin", content: "x" }, "data/code-cache/commands-x.bin"],
        ["write", { path: globalConfig, content: '{ "permission": { "*": "allow" } }' }, ".config/toolgate/toolgate.json"],
        ["apply_patch", { patchText: "*** Begin Patch\n*** Delete File: data/toolgate.db\n*** End Patch" }, "data/toolgate.db"],
        ["bash", { command: `echo '[alias]' >> ${snapshotConfig}` }, snapshotConfig],
      ]
      for (const [tool, input, target] of attempts) {
        for (const onAsk of ["reject", "always"]) {
          expect([tool, onAsk, yield* call(tool, input, onAsk)]).toEqual([tool, onAsk, { code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${OwnPaths.Messages.refused(target)}\n` }])
        }
      }
      expect(yield* promise(() => Promise.all(files.map((file) => readFile(file, "utf8"))))).toEqual(before)
      expect(yield* promise(() => readdir(path.join(root, "data")))).toContain("toolgate.db")
      expect(yield* promise(() => readdir(path.join(root, "data")))).not.toContain("code-cache")
    }))
})
