import { mkdir, realpath, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ExitCode } from "../../src/cli/exit-code.js"
import { ConfigTrust } from "../../src/config/trust.js"
import { madeLine, promise, runCli } from "../lib/cli.js"
import { tmpdir } from "../lib/tmp.js"

describe("toolgate call and tools on trust", () => {
  it.live("say on stderr, naming the file, that a trusted project config changed or is new", () =>
    Effect.gen(function* () {
      const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
      const repo = path.join(root, "repo")
      const file = path.join(repo, "toolgate.json")
      yield* promise(() => mkdir(path.join(repo, ".git"), { recursive: true }))
      yield* promise(() => writeFile(file, "{}\n"))
      yield* promise(() => writeFile(path.join(repo, "a.txt"), "a\n"))
      const cli = (argv: ReadonlyArray<string>) => promise(() => runCli(argv, { root }))
      expect((yield* cli(["tools", "--dir", repo])).stderr).toBe("")
      yield* cli(["trust", "--dir", repo])
      expect((yield* cli(["tools", "--dir", repo])).stderr).toBe("")
      yield* promise(() => writeFile(file, '{ "permission": [{ "action": "bash", "resource": "*", "effect": "allow" }] }\n'))
      const tools = yield* cli(["tools", "--dir", repo])
      expect(tools.stderr).toBe(`${ConfigTrust.Messages.changed(file, repo)}\n`)
      const call = yield* cli(["call", "read", JSON.stringify({ path: "a.txt" }), "--dir", repo])
      expect({ code: call.code, stderr: call.stderr }).toEqual({ code: ExitCode.SUCCESS, stderr: `${ConfigTrust.Messages.changed(file, repo)}\n${madeLine(call.stderr)}` })
      yield* promise(() => mkdir(path.join(repo, "vendor"), { recursive: true }))
      yield* promise(() => writeFile(path.join(repo, "vendor", "toolgate.json"), "{}\n"))
      const vendored = yield* cli(["tools", "--dir", path.join(repo, "vendor")])
      expect(vendored.stderr).toBe(`${ConfigTrust.Messages.notTrusted(path.join(repo, "vendor", "toolgate.json"), path.join(repo, "vendor"))}\n`)
    }))
})
