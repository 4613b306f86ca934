/**
 * The process and Location layers wired for tests: a real bus, real registries and a real
 * output store writing under a temporary data directory.
 */
import { Effect, Layer, Scope, Exit } from "effect"
import { Bus } from "../../src/bus.js"
import { Config } from "../../src/config.js"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { ToolOutputStore } from "../../src/tool-output-store.js"

/** The project the store keeps output for. */
export const PROJECT_ID = "prj_test"

export const runtimeLayer = (options: { readonly outputDirectory: string; readonly config?: Partial<Config.Info> }) => {
  const process = ApplicationTools.layer.pipe(Layer.provideMerge(Bus.layer))
  const location = ToolRegistry.layerWithTools.pipe(
    Layer.provideMerge(ToolOutputStore.layer({ directory: options.outputDirectory, projectID: PROJECT_ID })),
    Layer.provideMerge(Config.layerOf(options.config)),
  )
  return location.pipe(Layer.provideMerge(process))
}

/** Runs `effect` inside a fresh scope the test closes explicitly with the returned closer. */
export const openScope = Effect.gen(function* () {
  const scope = yield* Scope.make()
  return {
    run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Scope.provide(scope)(effect),
    close: Scope.close(scope, Exit.void),
  }
})
