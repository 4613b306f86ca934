/** A tiny tool for tests: echoes its text, counting executions so tests can prove what ran. */
import { Effect, Schema } from "effect"
import { Tool } from "../../src/tool/tool.js"

export const makeEcho = (counter = { runs: 0 }, prefix = "") =>
  Tool.make({
    description: "Echo the text back.",
    input: Schema.Struct({ text: Schema.String.annotate({ description: "What to echo" }) }),
    output: Schema.String,
    execute: ({ text }) => Effect.sync(() => {
      counter.runs++
      return `${prefix}${text}`
    }),
  })

export const context: Tool.Context = {
  sessionID: "ses_test",
  agent: "build",
  assistantMessageID: "msg_test",
  toolCallID: "call_test",
}
