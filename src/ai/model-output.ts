/**
 * An outcome of the one call path as the AI SDK hands it back to the model: a success is its
 * content (text parts as text, files as image or file data), anything else its message as an
 * error text. Used by the tool set (`toModelOutput`) and by the runner (tool-result parts), so the
 * model reads the same thing either way.
 */
export * as ModelOutput from "./model-output.js"

import type { ToolResultPart } from "ai"
import type { SessionTurn } from "../session/turn.js"
import type { Tool } from "../tool/tool.js"

/** The `output` of a tool-result part. */
export type Output = ToolResultPart["output"]

type ContentPart = Extract<Output, { type: "content" }>["value"][number]

const part = (content: Tool.Content): ContentPart =>
  content.type === "text"
    ? { type: "text", text: content.text }
    : content.mime.startsWith("image/")
      ? { type: "image-data", data: content.data, mediaType: content.mime }
      : { type: "file-data", data: content.data, mediaType: content.mime, ...(content.name === undefined ? {} : { filename: content.name }) }

/** What the model reads for `outcome`. */
export const of = (outcome: SessionTurn.Outcome): Output => {
  if (outcome.kind !== "success") return { type: "error-text", value: outcome.message }
  // Text alone stays plain text, which every provider accepts; files need the content form.
  if (outcome.content.every((content) => content.type === "text")) {
    return { type: "text", value: outcome.content.map((content) => (content as { text: string }).text).join("\n") }
  }
  return { type: "content", value: outcome.content.map(part) }
}
