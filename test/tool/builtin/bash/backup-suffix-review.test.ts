/**
 * Outside review (h24): a backup made by `mv`/`cp`/`ln`/`install` is a write the gate does not
 * see. `-S SUFFIX`, `--suffix`, `-b`/`--backup` and `SIMPLE_BACKUP_SUFFIX` rename the existing
 * destination to destination+suffix, so `mv -S c x .envr` turns an unprotected `.envr` (written
 * by an earlier, allowed call) into `.envrc`. Real files, the real tool: every ask but the
 * protected edit is answered once, the protected edit rejected; the protected file must not appear.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PermissionEvaluate } from "../../../../src/permission/evaluate.js"
import { BashTool } from "../../../../src/tool/builtin/bash.js"
import { decide, parse, rule } from "../../../lib/bash-gate.js"
import { harnessLayer, makeHarness, settle } from "../../../lib/file-tools.js"

const attempt = (command: string, dest: string, made: string) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    yield* Effect.promise(() => mkdir(path.dirname(path.join(harness.work, dest)), { recursive: true }))
    yield* Effect.promise(() => mkdir(path.dirname(path.join(harness.work, made)), { recursive: true }))
    yield* Effect.promise(() => writeFile(path.join(harness.work, dest), "git push o\n"))
    // x: thirteen lines, so split's alphabetic and hex suffixes both reach `c`.
    yield* Effect.promise(() => writeFile(path.join(harness.work, "x"), "y\n".repeat(13)))
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      const { asked } = yield* settle(tool, { command, workdir: harness.work }, (request) =>
        Effect.succeed(request.action === PermissionEvaluate.PROTECTED_ACTION ? "reject" : "once"),
      )
      const target = path.join(harness.work, made)
      return {
        protectedAsked: asked.some((request) => request.action === PermissionEvaluate.PROTECTED_ACTION),
        written: existsSync(target) ? yield* Effect.promise(() => readFile(target, "utf8")) : undefined,
      }
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root)))
  }).pipe(Effect.scoped)

describe("BashTool: a backup suffix renames the destination onto a protected name", () => {
  for (const [command, dest, made] of [
    ["mv -S c x .envr", ".envr", ".envrc"],
    ["mv --suffix=c x .envr", ".envr", ".envrc"],
    ["cp -b -S c x .envr", ".envr", ".envrc"],
    ["cp --backup --suffix=rc x .env", ".env", ".envrc"],
    ["ln -f -b -S c x .envr", ".envr", ".envrc"],
    ["install -b -S c x .envr", ".envr", ".envrc"],
    ["SIMPLE_BACKUP_SUFFIX=c cp -b x .envr", ".envr", ".envrc"],
    ["mv -S c x .npmr", ".npmr", ".npmrc"],
    ["mv -S s x .gitmodule", ".gitmodule", ".gitmodules"],
    // sed's in-place backup: the original content lands at file+suffix.
    ["sed -ic s/a/b/ .envr", ".envr", ".envrc"],
    ["sed --in-place=c s/a/b/ .envr", ".envr", ".envrc"],
    // A gitfile: `.gi` + `t` is a nested repository's `.git`, pointing wherever it says.
    ["sed -it s/a/b/ sub/.gi", "sub/.gi", "sub/.git"],
    // split's output names are prefix + suffix: the third one-letter suffix is `c`.
    ["split -a 1 -l 1 x .envr", ".envr", ".envrc"],
    ["split -a1 -x -l1 x .envr", ".envr", ".envrc"],
    // util-linux rename (`rename` on Fedora/Arch, `rename.ul` on Debian): FROM TO FILE… moves FILE.
    ["rename.ul .envr .envrc .envr", ".envr", ".envrc"],
    // …and FROM is replaced in the whole path, so it moves a file into a git hook.
    ["rename.ul hk .git/hooks/post-checkout hk", "hk", ".git/hooks/post-checkout"],
  ] as const) {
    it.live(command, () =>
      Effect.gen(function* () {
        const result = yield* attempt(command, dest, made)
        expect(result).toEqual({ protectedAsked: true, written: undefined })
      }))
  }
})

describe("BashTool: Perl's rename runs its first word as code", () => {
  // Debian's `rename`, `file-rename`, `prename`: opaque as `perl -e` is, so only a rule or
  // approval naming the exact text allows it; a wildcard allow of every action asks.
  for (const command of ["rename 's/^/.git\\/hooks\\//' post-checkout", "rename 'system q(cp rx .envrc)' rx", "prename 's/x/y/' x", "file-rename 's/x/y/' x", "perl-rename 's/x/y/' x", "vidir ."])
    it(command, () => {
      const decided = decide(command, [rule("*", "allow")])
      expect([decided.effect, parse(command).opaque]).toEqual(["ask", true])
    })
})
