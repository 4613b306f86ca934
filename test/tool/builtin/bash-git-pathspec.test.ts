/**
 * The paths `git checkout`, `git restore` and `git rm` write in the work tree are write targets,
 * against real git. Under the build agent's `* * allow`, `git checkout evil -- .envrc` wrote a
 * `.envrc` committed on a branch (direnv runs it on the next `cd`), and `git rm toolgate.json`
 * removed the project's config with its denies, both unasked: the gate judged only `git`'s words.
 */
import { execFileSync } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Permission } from "../../../src/permission/permission.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import { type Services, exists, requested, withBash } from "../../lib/bash-tool.js"
import { settle } from "../../lib/file-tools.js"

const ENV = { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" }

/** A repository whose branch `evil` holds an `.envrc`, checked out on `main` without it, with a tracked toolgate.json. */
const withRepo = <A, E>(body: (tool: Effect.Success<typeof BashTool.make>, work: string) => Effect.Effect<A, E, Services>) =>
  withBash(body, async (work) => {
    const git = (...args: ReadonlyArray<string>) => execFileSync("git", args, { cwd: work, env: ENV, stdio: "pipe" })
    git("init", "-q", "-b", "main")
    await writeFile(path.join(work, "toolgate.json"), '{ "permission": [] }\n')
    git("add", "toolgate.json")
    git("commit", "-qm", "config")
    git("checkout", "-qb", "evil")
    await writeFile(path.join(work, ".envrc"), "echo PWNED\n")
    git("add", ".envrc")
    git("commit", "-qm", "evil")
    git("checkout", "-q", "main")
  })

describe("BashTool and the paths git checkout, restore and rm write", () => {
  for (const command of ["git checkout evil -- .envrc", "git restore --source=evil .envrc", "git restore -s evil -W .envrc"]) {
    it.live(`${command} asks edit on .envrc, and really writes it once allowed`, () =>
      withRepo((tool, work) =>
        Effect.gen(function* () {
          const refused = yield* Effect.scoped(settle(tool, { command }, "reject"))
          expect(refused.result._tag === "Failure" && refused.result.failure).toBeInstanceOf(Permission.DeclinedError)
          expect(requested(refused.asked)).toEqual([{ action: "edit", resources: [".envrc"] }])
          expect(yield* exists(path.join(work, ".envrc"))).toBe(false)
          yield* Effect.scoped(settle(tool, { command }, "once"))
          expect(yield* Effect.promise(() => readFile(path.join(work, ".envrc"), "utf8"))).toBe("echo PWNED\n")
        }),
      ))
  }

  it.live("git rm toolgate.json asks; --cached, which leaves the file, does not", () =>
    withRepo((tool, work) =>
      Effect.gen(function* () {
        expect(requested((yield* Effect.scoped(settle(tool, { command: "git rm -q toolgate.json" }, "reject"))).asked)).toEqual([{ action: "edit", resources: ["toolgate.json"] }])
        expect(yield* exists(path.join(work, "toolgate.json"))).toBe(true)
        expect((yield* Effect.scoped(settle(tool, { command: "git rm -q --cached toolgate.json" }, "reject"))).asked).toEqual([])
        expect(yield* exists(path.join(work, "toolgate.json"))).toBe(true)
      }),
    ))

  it.live("a pathspec git matches itself is an unknown write; switching branches asks nothing", () =>
    withRepo((tool) =>
      Effect.gen(function* () {
        for (const command of ["git checkout evil -- '*rc'", "git checkout evil -- :/.envrc"]) {
          const { asked } = yield* Effect.scoped(settle(tool, { command }, "reject"))
          expect([command, requested(asked)]).toEqual([command, [{ action: "external_directory", resources: [BashTool.UNKNOWN_DIRECTORY] }]])
        }
        for (const command of ["git checkout -q -b feature", "git checkout -q main", "git restore --staged toolgate.json"]) {
          expect([command, (yield* Effect.scoped(settle(tool, { command }, "reject"))).asked]).toEqual([command, []])
        }
      }),
    ))
})
