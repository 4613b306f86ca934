/**
 * The MCP wire over one `McpSession` (session.ts), on the SDK's low-level `Server`: toolgate owns
 * dispatch (the catalog is computed per session, the schemas are the ones the runtime
 * materializes), so `tools/list` and `tools/call` are answered here, for both protocol eras from
 * one definition. A call round that needs a person returns `input_required` with one form
 * elicitation per ask and the sealed state to a 2026-07-28 client, which retries with the answers.
 * A 2025-era client gets `elicitation/create` requests inside the call instead, sent here rather
 * than by the SDK's shim so that a form whose ask is settled meanwhile (another answerer, a
 * decline's cascade, the ask timeout) is withdrawn at once. `tools.listChanged` is advertised, and
 * `changed()` sends the notification when the catalog differs from the last one listed.
 */
export * as McpServer from "./server.js"

import {
  CLIENT_CAPABILITIES_META_KEY,
  type ElicitRequestFormParams,
  type ElicitResult,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  type RequestOptions,
  Server,
} from "@modelcontextprotocol/server"
import type { Effect } from "effect"
import type { McpAskForm } from "./ask-form.js"
import type { McpResult } from "./result.js"
import type { McpSession } from "./session.js"

export const NAME = "toolgate"

/** Runs an effect from the SDK's promise world; aborting `signal` interrupts it. */
export type Runner = <A>(effect: Effect.Effect<A>, signal?: AbortSignal) => Promise<A>

export interface Options {
  readonly version: string
  /** Called at every tools/list and tools/call: the connection is in use (not a probe). */
  readonly onRequest?: () => void
}

/** Whether declared client capabilities include form elicitation (an empty `elicitation: {}` means form). */
export const elicitsForm = (capabilities: unknown): boolean => {
  if (capabilities === null || typeof capabilities !== "object") return false
  const elicitation = (capabilities as { readonly elicitation?: unknown }).elicitation
  if (elicitation === null || typeof elicitation !== "object") return false
  const modes = elicitation as Record<string, unknown>
  return Object.keys(modes).length === 0 || modes.form !== undefined
}

type ElicitInput = (params: ElicitRequestFormParams, options?: RequestOptions) => Promise<ElicitResult>

/** One form pushed to a 2025-era client; undefined when it failed, timed out or was withdrawn. */
const elicit = async (send: ElicitInput, form: McpAskForm.Form, signal: AbortSignal, settled: Promise<void>) => {
  const withdraw = new AbortController()
  const stop = () => withdraw.abort()
  signal.addEventListener("abort", stop)
  void settled.then(stop)
  try {
    return await send({ mode: "form", message: form.message, requestedSchema: form.requestedSchema as never }, { signal: withdraw.signal, timeout: 2 ** 31 - 1 })
  } catch {
    return undefined
  } finally {
    signal.removeEventListener("abort", stop)
  }
}

export interface Handle {
  /** Builds the SDK server for the connection (what `serveStdio` calls). */
  readonly factory: () => Server
  /** Sends `tools/list_changed` when the catalog differs from what was last listed. */
  readonly changed: () => Promise<void>
}

export const make = (session: McpSession.Interface, run: Runner, options: Options): Handle => {
  const servers = new Set<Server>()
  let listed: string | undefined

  const factory = () => {
    const server = new Server(
      { name: NAME, version: options.version },
      {
        capabilities: { tools: { listChanged: true } },
        instructions: session.instructions,
      },
    )
    servers.add(server)
    server.onclose = () => {
      servers.delete(server)
    }
    server.setRequestHandler("tools/list", async () => {
      options.onRequest?.()
      const tools = await run(session.tools)
      listed = JSON.stringify(tools)
      return { tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, _meta: tool._meta })) } as never
    })
    server.setRequestHandler("tools/call", async (request, ctx) => {
      options.onRequest?.()
      // The envelope's type is empty in the SDK's declarations; its keys are the spec's.
      const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined
      const modern = envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined
      const era: McpResult.Era = modern ? "modern" : "legacy"
      const capabilities = modern ? envelope?.[CLIENT_CAPABILITIES_META_KEY] : server.getClientCapabilities()
      const state = ctx.mcpReq.requestState<unknown>()
      // A client that asked for progress (a token in `_meta`) is told what a waiting call waits for.
      const progressToken = (request.params._meta as { readonly progressToken?: string | number } | undefined)?.progressToken
      const waiting =
        progressToken === undefined
          ? undefined
          : (text: string) => void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: 0, message: text } }).catch(() => undefined)
      const input = {
        name: request.params.name,
        args: request.params.arguments ?? {},
        elicits: elicitsForm(capabilities),
        era,
        ...(waiting === undefined ? {} : { waiting }),
      }
      const signal = ctx.mcpReq.signal
      let round = await run(
        session.call({
          ...input,
          ...(typeof state === "string" ? { state } : {}),
          ...(ctx.mcpReq.inputResponses === undefined ? {} : { responses: ctx.mcpReq.inputResponses }),
        }),
        signal,
      )
      if (round.type === "input" && modern) {
        const inputRequests = Object.fromEntries(
          Object.entries(round.requests).map(([key, form]) => [key, inputRequired.elicit({ message: form.message, requestedSchema: form.requestedSchema as never })]),
        )
        return inputRequired({ inputRequests, requestState: round.state }) as never
      }
      // A 2025-era client is asked inside the call (elicitation/create), one form at a time; a
      // form whose ask is settled meanwhile (another answerer, a cascade, the timeout) is withdrawn.
      while (round.type === "input") {
        const responses: Record<string, unknown> = {}
        for (const [key, form] of Object.entries(round.requests)) {
          responses[key] = await elicit((params, options) => ctx.mcpReq.elicitInput(params, options), form, signal, run(session.settled(key)))
        }
        if (signal.aborted) {
          await run(session.cancel(round.call))
          throw signal.reason
        }
        round = await run(session.call({ ...input, state: round.state, responses }), signal)
      }
      return round.result as never
    })
    return server
  }

  const changed = async () => {
    if (listed === undefined) return
    const now = JSON.stringify(await run(session.tools))
    if (now === listed) return
    listed = now
    await Promise.all([...servers].map((server) => server.sendToolListChanged().catch(() => undefined)))
  }

  return { factory, changed }
}
