/**
 * What an external MCP server's `tools/call` result becomes for toolgate: text and images as the
 * model's content (an embedded text resource as text, other resources and links named), the
 * structured content as the structured output. An `isError` result is a tool failure whose text
 * the model reads. The one output bound cuts it afterwards, like any tool's.
 */
export * as ExternalResult from "./result.js"

import type { Tool } from "../tool/tool.js"

export const Messages = {
  failed: (name: string, text: string) => (text === "" ? `${name} failed without saying why` : text),
  resource: (uri: string, mime?: string) => `[resource ${uri}${mime === undefined ? "" : ` (${mime})`}]`,
  link: (uri: string, name?: string) => `[link ${name === undefined ? uri : `${name}: ${uri}`}]`,
  empty: "(no output)",
} as const

type Block = { readonly type?: unknown; readonly [key: string]: unknown }

const str = (value: unknown) => (typeof value === "string" ? value : undefined)

/** One content block as toolgate content; a block of a type toolgate does not know is named. */
const part = (block: Block): Tool.Content => {
  if (block.type === "text") return { type: "text", text: str(block.text) ?? "" }
  if ((block.type === "image" || block.type === "audio") && typeof block.data === "string") return { type: "file", mime: str(block.mimeType) ?? "application/octet-stream", data: block.data }
  if (block.type === "resource" && block.resource !== null && typeof block.resource === "object") {
    const resource = block.resource as Block
    const text = str(resource.text)
    if (text !== undefined) return { type: "text", text }
    return { type: "text", text: Messages.resource(str(resource.uri) ?? "?", str(resource.mimeType)) }
  }
  if (block.type === "resource_link") return { type: "text", text: Messages.link(str(block.uri) ?? "?", str(block.name)) }
  return { type: "text", text: `[${String(block.type)}]` }
}

export type Converted = { readonly type: "output"; readonly output: Tool.JsonOutput } | { readonly type: "failed"; readonly message: string }

/** The result of calling `name` on its server. */
export const of = (name: string, result: { readonly content?: unknown; readonly structuredContent?: unknown; readonly isError?: unknown }): Converted => {
  const blocks = Array.isArray(result.content) ? (result.content as ReadonlyArray<Block>) : []
  const content = blocks.map(part)
  if (result.isError === true) {
    const text = content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n")
    return { type: "failed", message: Messages.failed(name, text) }
  }
  const shown = content.length > 0 ? content : [{ type: "text" as const, text: result.structuredContent === undefined ? Messages.empty : JSON.stringify(result.structuredContent, null, 2) }]
  return { type: "output", output: { content: shown, ...(result.structuredContent === undefined ? {} : { structured: result.structuredContent }) } }
}
