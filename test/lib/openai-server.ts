/**
 * A local model endpoint on loopback speaking the OpenAI chat-completions streaming format
 * (`POST /v1/chat/completions` with `stream: true` → server-sent `chat.completion.chunk`s, then
 * `data: [DONE]`), answering each request with the next step of a script: text deltas, then tool
 * calls with their arguments in pieces, then a finish reason and usage. What each request sent
 * (its messages and tools) is kept, so a test reads what the model was shown. Closed with the
 * test's scope (test/lib/http-server.ts). `garbage` answers a 200 that is not the format.
 */
import type { ServerResponse } from "node:http"
import { Effect } from "effect"
import { type Server, serve } from "./http-server.js"

export interface Step {
  readonly text?: string
  readonly calls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>
  /** Answer this request with a body that is not chat-completions JSON. */
  readonly garbage?: boolean
}

export interface Sent {
  readonly model: string
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content?: unknown; readonly tool_call_id?: string }>
  readonly tools?: ReadonlyArray<{ readonly function: { readonly name: string } }>
}

export interface ModelServer {
  readonly server: Server
  /** `http://127.0.0.1:<port>/v1` */
  readonly baseURL: string
  readonly sent: ReadonlyArray<Sent>
}

export const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }

const chunk = (response: ServerResponse, body: unknown) => response.write(`data: ${JSON.stringify(body)}\n\n`)

const answer = (response: ServerResponse, step: Step, model: string, index: number) => {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
  const base = { id: `chatcmpl-${index}`, object: "chat.completion.chunk", created: 1_700_000_000, model }
  const delta = (value: unknown, finish: string | null = null) => chunk(response, { ...base, choices: [{ index: 0, delta: value, finish_reason: finish }] })
  delta({ role: "assistant", content: "" })
  // text in two pieces, as a model streams it
  if (step.text !== undefined) {
    const middle = Math.ceil(step.text.length / 2)
    delta({ content: step.text.slice(0, middle) })
    delta({ content: step.text.slice(middle) })
  }
  ;(step.calls ?? []).forEach((call, position) => {
    const args = JSON.stringify(call.input)
    const middle = Math.ceil(args.length / 2)
    delta({ tool_calls: [{ index: position, id: call.id, type: "function", function: { name: call.name, arguments: args.slice(0, middle) } }] })
    delta({ tool_calls: [{ index: position, function: { arguments: args.slice(middle) } }] })
  })
  delta({}, (step.calls ?? []).length > 0 ? "tool_calls" : "stop")
  chunk(response, { ...base, choices: [], usage: USAGE })
  response.end("data: [DONE]\n\n")
}

/** Serves `script` (request n gets step n; past its end, "done"). */
export const modelServer = (script: ReadonlyArray<Step>) =>
  Effect.gen(function* () {
    const sent: Array<Sent> = []
    const server = yield* serve((request, response) => {
      if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
        response.writeHead(404, { "content-type": "application/json" })
        return response.end(JSON.stringify({ error: { message: `no route ${request.path}` } }))
      }
      const body = JSON.parse(request.body) as Sent
      const index = sent.length
      sent.push(body)
      const step = script[index] ?? { text: "done" }
      if (step.garbage === true) {
        response.writeHead(200, { "content-type": "text/event-stream" })
        return response.end("data: <html>this is not a model</html>\n\n")
      }
      return answer(response, step, body.model, index)
    })
    return { server, baseURL: server.url("/v1"), sent } satisfies ModelServer
  })

/** The text of the tool result the model was sent for `callID` in request `sent`. */
export const toolResult = (sent: Sent, callID: string): string | undefined => {
  const message = sent.messages.find((entry) => entry.role === "tool" && entry.tool_call_id === callID)
  return message === undefined ? undefined : typeof message.content === "string" ? message.content : JSON.stringify(message.content)
}
