/**
 * The bash tool in a fresh file-tools harness (real files, real gate, real shell): `withBash` runs
 * `body` with the tool and the work folder, after `prepare` laid the folder out; `requested` is
 * what each ask named; `exists` whether a path is there now.
 */
import { stat } from "node:fs/promises"
import { Effect, type Layer, type Scope } from "effect"
import type { Permission } from "../../src/permission/permission.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { harnessLayer, makeHarness } from "./file-tools.js"

export type Services = Layer.Success<ReturnType<typeof harnessLayer>> | Scope.Scope

export const withBash = <A, E>(body: (tool: Effect.Success<typeof BashTool.make>, work: string) => Effect.Effect<A, E, Services>, prepare?: (work: string) => Promise<void>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    if (prepare !== undefined) yield* Effect.promise(() => prepare(harness.work))
    return yield* Effect.gen(function* () {
      const tool = yield* BashTool.make
      return yield* body(tool, harness.work)
    }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root)))
  })

/** Each ask's action and resources. */
export const requested = (asked: ReadonlyArray<Permission.Request>) => asked.map((request) => ({ action: request.action, resources: request.resources }))

export const exists = (file: string) => Effect.promise(() => stat(file).then(() => true, () => false))
