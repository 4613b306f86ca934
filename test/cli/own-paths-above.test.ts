/**
 * A folder above toolgate's own files is another spelling of them for a command that removes it,
 * moves it away or extracts into it; so is what `mv` takes away (`mv data old` moved the database). With the working directory at the home folder, `rm -rf
 * .config` ran under the build agent's `* * allow` and took the global config with it: the
 * person's `git push *` deny was gone from the next call on. Such a target now asks `edit` on the
 * folder as opaque input (only a rule or approval naming it allows it); nothing else asks more.
 */
import { execFileSync } from "node:child_process"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { OwnPaths } from "../../src/location/own-paths.js"
import { promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

const DENY = '{ "permission": [{ "action": "bash", "resource": "git push *", "effect": "deny" }] }\n'

describe("folders above toolgate's own files", () => {
  it.live("are not removed, moved or written into unasked, and the global config's deny stands", () =>
    Effect.gen(function* () {
      const root = yield* tmpdir
      const cli = (...argv: ReadonlyArray<string>) => promise(() => runCli([...argv, "--dir", root], { root }))
      const globalConfig = path.join(root, ".config", "toolgate", "toolgate.json")
      yield* promise(async () => {
        await mkdir(path.dirname(globalConfig), { recursive: true })
        await writeFile(globalConfig, DENY)
        await mkdir(path.join(root, "empty"))
        execFileSync("tar", ["-cf", path.join(root, "t.tar"), "-C", path.join(root, "empty"), "."])
      })
      const lines: ReadonlyArray<readonly [string, string]> = [
        ["rm -rf .config", ".config"],
        ["rm -rf ./.config/", ".config"],
        ["find .config -delete", ".config"],
        ["mv .config old", ".config"],
        ["mv .con* old", ".config"],
        ["mv -t empty .config", ".config"],
        ["chmod -R 000 .config", ".config"],
        ["tar -xf t.tar -C .config", ".config"],
      ]
      for (const [line, folder] of lines) {
        const judged = yield* cli("permission", "eval", "--tool", "bash", JSON.stringify({ command: line }))
        expect([line, judged.stdout.split("\n").filter((row) => row.startsWith("ask edit (opaque)"))]).toEqual([line, [`ask edit (opaque) "${folder}"`]])
        const ran = yield* cli("call", "bash", JSON.stringify({ command: line }), "--on-ask", "reject")
        expect([line, ran.code]).toEqual([line, ExitCode.DECLINED])
      }
      // What mv takes away is written: moving the data folder itself is refused like writing it.
      for (const onAsk of ["reject", "always"]) {
        expect(yield* cli("call", "bash", JSON.stringify({ command: "mv data old" }), "--on-ask", onAsk, "--session", "ses_own")).toEqual({ code: ExitCode.TOOL_FAILED, stdout: "", stderr: `${OwnPaths.Messages.refused("data")}\n` })
      }
      expect(yield* promise(() => readFile(globalConfig, "utf8"))).toBe(DENY)
      expect((yield* cli("permission", "eval", "bash", "git push origin main")).stdout).toBe("deny\n")
      // Beside them, nothing changes: a folder that holds none of toolgate's files.
      for (const line of ["rm -rf empty", "mkdir -p .config/other", "mv t.tar t2.tar"]) {
        expect([line, (yield* cli("permission", "eval", "bash", line)).stdout]).toEqual([line, "allow\n"])
      }
    }))
})
