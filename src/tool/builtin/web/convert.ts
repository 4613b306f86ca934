/**
 * HTML conversion off the main thread: WebHtml runs in a worker, so a large page never blocks
 * the event loop (other sessions, the permission console), and a pathological one (the parser is
 * quadratic in nesting depth) is stopped by terminating its worker when the caller's timeout or
 * interruption ends the effect. A worker converts one page at a time; one that finished cleanly
 * is kept idle (unreferenced, so it never holds the process open) for the next page, warm, and
 * terminated after IDLE_MILLIS; every other worker is terminated when its conversion ends. The
 * worker heap is capped, so a page that needs more fails alone instead of taking the process
 * down. From TypeScript sources (tests, benchmarks) the worker registers tsx first.
 */
export * as WebConvert from "./convert.js"

import { Worker } from "node:worker_threads"
import { Effect, Exit, Schema } from "effect"
import type { Job, Result } from "./html-worker.js"

/** Heap of one conversion worker; a 5 MiB page needs a few hundred MB of DOM. */
export const WORKER_HEAP_MB = 1024
/** How long a finished worker waits for the next page before it is terminated. */
export const IDLE_MILLIS = 30_000

export const Messages = {
  failed: (detail: string) => `Could not convert the page: ${detail}`,
  stopped: (code: number) => `the converter stopped (exit code ${code})`,
} as const

export class ConversionError extends Schema.TaggedError<ConversionError>()("WebConvert.ConversionError", { detail: Schema.String }) {
  override get message() {
    return Messages.failed(this.detail)
  }
}

const fromSource = import.meta.url.endsWith(".ts")

/** Registers tsx in the worker, then loads the TypeScript entry. */
const SOURCE_BOOTSTRAP = `import("tsx/esm/api").then((api) => { api.register(); return import(require("node:worker_threads").workerData.entry) })`

const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB }

const spawn = () =>
  fromSource
    ? new Worker(SOURCE_BOOTSTRAP, { eval: true, workerData: { entry: new URL("./html-worker.ts", import.meta.url).href }, resourceLimits })
    : new Worker(new URL("./html-worker.js", import.meta.url), { resourceLimits })

/** The one idle worker, if any, and the timer that retires it. */
const pool: { idle?: Worker; retire?: ReturnType<typeof setTimeout> } = {}

const acquire = Effect.sync(() => {
  const worker = pool.idle ?? spawn()
  pool.idle = undefined
  clearTimeout(pool.retire)
  worker.ref()
  return worker
})

const release = (worker: Worker, exit: Exit.Exit<string, ConversionError>) =>
  Effect.promise(async () => {
    if (!Exit.isSuccess(exit) || pool.idle !== undefined) return void (await worker.terminate())
    worker.unref()
    pool.idle = worker
    pool.retire = setTimeout(() => {
      if (pool.idle !== worker) return
      pool.idle = undefined
      void worker.terminate()
    }, IDLE_MILLIS)
    pool.retire.unref()
  })

const run = (worker: Worker, job: Job) =>
  Effect.callback<string, ConversionError>((resume) => {
    const settle = (effect: Effect.Effect<string, ConversionError>) => {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit)
      resume(effect)
    }
    const failed = (detail: string) => settle(Effect.fail(new ConversionError({ detail })))
    const onMessage = (result: Result) => (result.type === "output" ? settle(Effect.succeed(result.output)) : failed(result.message))
    const onError = (error: Error) => failed(error.message)
    const onExit = (code: number) => failed(Messages.stopped(code))
    worker.on("message", onMessage).on("error", onError).on("exit", onExit)
    worker.postMessage(job)
  })

/**
 * `html` as markdown or visible text, converted in a worker; ending the effect early terminates it.
 * @example yield* WebConvert.convert("<h1>Hi</h1>", "markdown") // "# Hi"
 */
export const convert = (html: string, format: Job["format"]): Effect.Effect<string, ConversionError> =>
  Effect.acquireUseRelease(acquire, (worker) => run(worker, { html, format }), release)
