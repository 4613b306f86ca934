/**
 * An outcome of the one call path as an MCP `tools/call` result, in one place. A success carries
 * the bounded text as `content` (images as image content) and the structured output as
 * `structuredContent`, with every string in it that is over the output limits replaced by the same
 * preview the model reads in `content` (Claude Code shows only `structuredContent`, LangChain only
 * `content`: each sees the bounded text). Everything else is `isError: true` with the exact text
 * the model would read; a decline or a dismissed question also says the person stopped the agent.
 * `_meta` names the toolgate session, the message the call was recorded under (for
 * `toolgate session revert`) and the saved full output.
 */
export * as McpResult from "./result.js"

import type { SessionTurn } from "../session/turn.js"
import type { Tool } from "../tool/tool.js"
import { ToolOutputPreview } from "../tool-output-preview.js"

export const Meta = {
  session: "toolgate/sessionID",
  message: "toolgate/messageID",
  outputPaths: "toolgate/outputPaths",
  outputPath: "toolgate/outputPath",
  /** Claude Code spills a result over this many characters to a file unless the tool raises it. */
  maxResultSize: "anthropic/maxResultSizeChars",
} as const

export const Messages = {
  stopped: (message: string) => `${message}\nThe person stopped the agent: do not retry this call or work around it; wait for their instructions.`,
} as const

/** The protocol era of a connection: `modern` (2026-07-28) or `legacy` (2025, initialize + sessions). */
export type Era = "modern" | "legacy"

export interface Content {
  readonly type: string
  readonly [key: string]: unknown
}

export interface Result {
  readonly content: ReadonlyArray<Content>
  readonly structuredContent?: unknown
  readonly isError?: boolean
  readonly _meta: Readonly<Record<string, unknown>>
}

export interface Call {
  readonly sessionID: string
  readonly messageID: string
}

/** The largest result (in characters) Claude Code should take inline for output bounded to `maxBytes`. */
export const maxResultSize = (maxBytes: number) => Math.min(500_000, 2 * maxBytes + 10_000)

const contentOf = (part: Tool.Content): Content => {
  if (part.type === "text") return { type: "text", text: part.text }
  if (part.mime.startsWith("image/")) return { type: "image", data: part.data, mimeType: part.mime }
  if (part.mime.startsWith("audio/")) return { type: "audio", data: part.data, mimeType: part.mime }
  return { type: "resource", resource: { uri: `toolgate:output/${encodeURIComponent(part.name ?? "file")}`, mimeType: part.mime, blob: part.data } }
}

/** The structured output with every string over the limits replaced by its preview, pointing at `saved`. */
export const bounded = (value: unknown, limits: ToolOutputPreview.Limits, saved: string | undefined, tail: boolean): unknown => {
  if (saved === undefined) return value
  const cut = (item: unknown): unknown => {
    if (typeof item === "string") {
      if (ToolOutputPreview.fits(item, limits)) return item
      return tail ? ToolOutputPreview.tailPreview(item, saved, limits) : ToolOutputPreview.preview(item, saved, limits)
    }
    if (Array.isArray(item)) return item.map(cut)
    if (item !== null && typeof item === "object") return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, cut(inner)]))
    return item
  }
  return cut(value)
}

/** Whether a JSON Schema describes an object at its root (2025-era clients need one; others are wrapped in `result`). */
export const objectRoot = (schema: Readonly<Record<string, unknown>>) => schema.type === "object"

export interface Options {
  readonly limits: ToolOutputPreview.Limits
  readonly era: Era
  /** The advertised output schema of the tool, when it has one. */
  readonly outputSchema?: Readonly<Record<string, unknown>>
}

/** The MCP result of an outcome. */
export const of = (outcome: SessionTurn.Outcome, call: Call, options: Options): Result => {
  const base = { [Meta.session]: call.sessionID, [Meta.message]: call.messageID }
  if (outcome.kind !== "success") {
    const text = outcome.kind === "declined" || outcome.kind === "dismissed" ? Messages.stopped(outcome.message) : outcome.message
    return { content: [{ type: "text", text }], isError: true, _meta: base }
  }
  const saved = outcome.outputPaths.at(-1)
  const meta = { ...base, ...(outcome.outputPaths.length === 0 ? {} : { [Meta.outputPaths]: outcome.outputPaths, [Meta.outputPath]: saved }) }
  const content = outcome.content.map(contentOf)
  if (options.outputSchema === undefined || outcome.structured === undefined) return { content, _meta: meta }
  const structured = bounded(outcome.structured, options.limits, saved, outcome.preview === "tail")
  // A 2025-era client reads an output schema whose root is not an object as wrapped in `result`.
  const wrapped = options.era === "legacy" && !objectRoot(options.outputSchema) ? { result: structured } : structured
  return { content, structuredContent: wrapped, _meta: meta }
}
