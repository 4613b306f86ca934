/**
 * Worker entry for WebConvert: converts each page it is sent with WebHtml and posts back the
 * output or the error message. WebConvert gives a worker one page at a time, so terminating it
 * (timeout, interruption) ends exactly that conversion.
 */
export * as WebHtmlWorker from "./html-worker.js"

import { parentPort } from "node:worker_threads"
import { WebHtml } from "./html.js"

export interface Job {
  readonly html: string
  readonly format: "markdown" | "text"
}

export type Result = { readonly type: "output"; readonly output: string } | { readonly type: "error"; readonly message: string }

const convert = async (job: Job): Promise<Result> => {
  try {
    return { type: "output", output: job.format === "text" ? await WebHtml.toText(job.html) : await WebHtml.toMarkdown(job.html) }
  } catch (error) {
    // The converter reports a page it cannot handle (nesting deep enough to exhaust the stack) only by throwing.
    return { type: "error", message: error instanceof Error ? error.message : String(error) }
  }
}

parentPort?.on("message", (job: Job) => {
  void convert(job).then((result) => parentPort?.postMessage(result))
})
