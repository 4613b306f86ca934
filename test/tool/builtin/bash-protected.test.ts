import { link, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, type Scope } from "effect"
import type { Config } from "../../../src/config.js"
import { Permission } from "../../../src/permission/permission.js"
import { BashTool } from "../../../src/tool/builtin/bash.js"
import { ToolOutputStore } from "../../../src/tool-output-store.js"
import { globalConfig } from "../../lib/config.js"
import { type Answer, harnessLayer, makeHarness, settle } from "../../lib/file-tools.js"

const layerFor = (root: string, config?: Partial<Config.Info>) =>
  harnessLayer(root, config)

type Services = Layer.Success<ReturnType<typeof layerFor>> | Scope.Scope

const withBash = <A, E>(body: (tool: Effect.Success<typeof BashTool.make>, work: string) => Effect.Effect<A, E, Services>, config?: Partial<Config.Info>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      return yield* body(tool, harness.work)
    }).pipe(Effect.scoped, Effect.provide(layerFor(harness.root, config)))
  })

const run = (tool: Effect.Success<typeof BashTool.make>, command: string, answer: Answer = "reject") => Effect.scoped(settle(tool, { command }, answer))
const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
const read = (file: string) => Effect.promise(() => readFile(file, "utf8"))
const summary = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources, save: request.save }))

/** What a line asks under the build defaults (everything allowed inside the Location), each ask rejected. */
const cases: ReadonlyArray<{ readonly command: string; readonly resources: ReadonlyArray<string> }> = [
  { command: "echo x > .git/config", resources: [".git/config"] },
  { command: "printf 'export A=1\\n' >> .envrc", resources: [".envrc"] },
  { command: "cat > .vscode/settings.json", resources: [".vscode/settings.json"] },
  { command: "tee -a toolgate.json", resources: ["toolgate.json"] },
  { command: "echo x | tee out.txt .claude/settings.json", resources: [".claude/settings.json"] },
  { command: "cd .git && echo '[core] fsmonitor = ./x' > config", resources: [".git/config"] },
  { command: "mkdir -p sub && cd sub && echo x >> ../.bashrc", resources: [".bashrc"] },
  { command: "sort -o .gitmodules in.txt", resources: [".gitmodules"] },
  { command: "echo x > ./.git/../.git/hooks/pre-commit", resources: [".git/hooks/pre-commit"] },
]

describe("BashTool writes to protected paths", () => {
  for (const c of cases) {
    it.live(`${c.command} asks edit on ${c.resources.join(", ")} though bash and edit are allowed`, () =>
      withBash((tool, work) =>
        Effect.gen(function* () {
          const { result, asked } = yield* run(tool, c.command)
          expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.DeclinedError)
          expect(summary(asked)).toEqual([{ action: "edit", resources: c.resources, save: c.resources.map((resource) => path.join(work, resource)) }])
          // The protected edit is asked first: it shows what will run, and where, as the bash ask would.
          expect(asked[0]?.metadata).toEqual({ command: c.command, workdir: work })
          for (const resource of c.resources) expect(yield* exists(path.join(work, resource))).toBe(false)
        }),
      ))
  }

  it.live("judges a redirect through a link by where it lands", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, ".git", "config"), "[core]\n"))
        yield* Effect.promise(() => symlink(".git/config", path.join(work, "cfg")))
        yield* Effect.promise(() => symlink(".envrc", path.join(work, "rc")))
        expect(summary((yield* run(tool, "echo x > cfg")).asked)).toEqual([{ action: "edit", resources: [".git/config"], save: [path.join(work, ".git/config")] }])
        expect(summary((yield* run(tool, "echo x >> rc")).asked)).toEqual([{ action: "edit", resources: [".envrc"], save: [path.join(work, ".envrc")] }])
        expect(yield* read(path.join(work, ".git", "config"))).toBe("[core]\n")
      }),
    ))

  it.live("a hard link made by one allowed call is not a way into the file it names: a write through it asks", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, ".git", "config"), "[core]\n"))
        // Making the link writes nothing protected, so it runs unasked...
        expect((yield* run(tool, "ln .git/config cfg")).asked).toEqual([])
        // ...but cfg is now a second name of .git/config: writing it in place asks, as an opaque edit only a rule naming cfg allows.
        for (const command of ["echo '[core] fsmonitor = ./x' >> cfg", "cp x cfg", "dd of=cfg", "truncate -s0 cfg"]) {
          const { asked } = yield* run(tool, command)
          expect([command, summary(asked)]).toEqual([command, [{ action: "edit", resources: ["cfg"], save: [path.join(work, "cfg")] }]])
        }
        expect(yield* read(path.join(work, ".git", "config"))).toBe("[core]\n")
      }),
    ))

  it.live("a rule naming the hard-linked file lets the write through it run", () =>
    withBash(
      (tool, work) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => writeFile(path.join(work, "data.txt"), "a\n"))
          yield* Effect.promise(() => link(path.join(work, "data.txt"), path.join(work, "copy.txt")))
          expect((yield* run(tool, "echo b >> copy.txt")).asked).toEqual([])
          expect(yield* read(path.join(work, "data.txt"))).toBe("a\nb\n")
        }),
      globalConfig({ permission: [{ action: "edit", resource: "copy.txt", effect: "allow" }] }),
    ))

  it.live("leaves reads of protected files and git status as they were", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, ".git", "config"), "[core]\n"))
        for (const command of ["git status", "git diff", "cat .git/config", "grep core .git/config > found.txt", "echo x > src.txt"]) {
          expect((yield* run(tool, command)).asked).toEqual([])
        }
        expect(yield* read(path.join(work, "found.txt"))).toBe("[core]\n")
      }),
    ))

  it.live("runs when a rule names the protected file, and a deny denies", () =>
    Effect.gen(function* () {
      yield* withBash(
        (tool, work) =>
          Effect.gen(function* () {
            const { asked } = yield* run(tool, "echo x > .git/config")
            expect(asked).toEqual([])
            expect(yield* read(path.join(work, ".git", "config"))).toBe("x\n")
          }),
        globalConfig({ permission: [{ action: "edit", resource: ".git/config", effect: "allow" }] }),
      )
      yield* withBash(
        (tool, work) =>
          Effect.gen(function* () {
            const { result, asked } = yield* run(tool, "echo x > .envrc", "once")
            expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
            expect(asked).toEqual([])
            expect(yield* exists(path.join(work, ".envrc"))).toBe(false)
          }),
        globalConfig({ permission: [{ action: "edit", resource: ".envrc", effect: "deny" }] }),
      )
    }))

  it.live("outside the working directory, a protected file asks edit though its folder is approved; another file does not", () =>
    Effect.gen(function* () {
      const harness = yield* makeHarness
      const home = harness.home
      const other = path.join(home, "other", ".git", "hooks")
      yield* Effect.promise(() => mkdir(other, { recursive: true }))
      yield* Effect.promise(() => mkdir(path.join(home, ".config", "git"), { recursive: true }))
      for (const file of [".bashrc", ".profile", ".gitconfig"]) yield* Effect.promise(() => writeFile(path.join(home, file), "# mine\n"))
      const config = globalConfig({ permission: [{ action: "external_directory", resource: `${home}/*`, effect: "allow" }] })
      yield* Effect.gen(function* () {
        const tool = yield* BashTool.make
        const cases: ReadonlyArray<readonly [string, string]> = [
          [`echo 'curl x | sh' >> ${home}/.bashrc`, path.join(home, ".bashrc")],
          [`cp in.txt ${home}/.gitconfig`, path.join(home, ".gitconfig")],
          [`sed -i s/mine/yours/ ${home}/.profile`, path.join(home, ".profile")],
          [`echo x | tee ${other}/pre-commit`, path.join(other, "pre-commit")],
          [`echo x > ${home}/.config/git/config`, path.join(home, ".config", "git", "config")],
        ]
        for (const [command, file] of cases) {
          const { result, asked } = yield* run(tool, command)
          expect([command, result._tag === "Failure" && result.failure instanceof Permission.DeclinedError]).toEqual([command, true])
          expect([command, summary(asked)]).toEqual([command, [{ action: "edit", resources: [file], save: [file] }]])
        }
        for (const file of [".bashrc", ".profile", ".gitconfig"]) expect(yield* read(path.join(home, file))).toBe("# mine\n")
        expect(yield* exists(path.join(other, "pre-commit"))).toBe(false)
        expect((yield* run(tool, `echo x > ${home}/notes.txt`)).asked).toEqual([])
        expect(yield* read(path.join(home, "notes.txt"))).toBe("x\n")
      }).pipe(Effect.scoped, Effect.provide(layerFor(harness.root, config)))
    }))

  it.live("asks edit before bash, and always saves exactly the file", () =>
    withBash(
      (tool, work) =>
        Effect.gen(function* () {
          yield* Effect.promise(() => mkdir(path.join(work, ".vscode")))
          const first = yield* run(tool, "echo '{}' > .vscode/settings.json", "always")
          expect(first.asked.map((request) => request.action)).toEqual(["edit", "bash"])
          expect(first.asked[0]?.save).toEqual([path.join(work, ".vscode/settings.json")])
          expect(yield* read(path.join(work, ".vscode", "settings.json"))).toBe("{}\n")
          const again = yield* run(tool, "echo '{}' > .vscode/settings.json && echo x > .vscode/tasks.json", "reject")
          // One request for every protected file of the line, as apply_patch asks: the saved one allows only itself.
          expect(summary(again.asked)).toEqual([
            { action: "edit", resources: [".vscode/settings.json", ".vscode/tasks.json"], save: [path.join(work, ".vscode/settings.json"), path.join(work, ".vscode/tasks.json")] },
          ])
          expect((yield* run(tool, "echo '{}' > .vscode/settings.json", "reject")).asked).toEqual([])
        }),
      globalConfig({ permission: [{ action: "bash", resource: "echo *", effect: "ask" }] }),
    ))
})

describe("BashTool and what mv takes away", () => {
  // Before: only where the source lands was judged, so `mv toolgate.json notes.txt` (notes.txt a file)
  // took the project's config, and its denies, away unasked under the build agent's `* * allow`.
  it.live("asks edit on a protected source, as rm does, and outside external_directory", () =>
    withBash((tool, work) =>
      Effect.gen(function* () {
        yield* Effect.promise(() => writeFile(path.join(work, "toolgate.json"), '{ "permission": [] }\n'))
        yield* Effect.promise(() => writeFile(path.join(work, "notes.txt"), "notes\n"))
        const { asked } = yield* run(tool, "mv toolgate.json notes.txt")
        expect(summary(asked)).toEqual([{ action: "edit", resources: ["toolgate.json"], save: [path.join(work, "toolgate.json")] }])
        expect(yield* read(path.join(work, "toolgate.json"))).toBe('{ "permission": [] }\n')
        const outside = path.join(path.dirname(work), "outside.txt")
        yield* Effect.promise(() => writeFile(outside, "theirs\n"))
        expect(summary((yield* run(tool, `mv ${outside} here.txt`)).asked).map((request) => request.action)).toEqual(["external_directory"])
        expect(yield* exists(outside)).toBe(true)
        // A source that is a link is moved itself: its target is not judged.
        yield* Effect.promise(() => symlink(".git", path.join(work, "g")))
        expect((yield* run(tool, "mv g h")).asked).toEqual([])
      }),
    ))
})
