/**
 * A model behind an OpenAI-compatible chat-completions endpoint (Ollama, vLLM, llama.cpp's
 * server, LM Studio, OpenAI), through `@ai-sdk/openai-compatible`, and the defaults `toolgate run`
 * and `toolgate serve` share. The provider package is loaded on first use only: `--help` and the
 * commands that never call a model do not read it.
 */
export * as Endpoint from "./endpoint.js"

import type { Runner } from "./runner.js"

/** Where a model is served when nothing names an endpoint: Ollama's OpenAI route. */
export const DEFAULT_BASE_URL = "http://localhost:11434/v1"
/** The variable the API key is read from when none is named. */
export const DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
export const DEFAULT_MAX_STEPS = 20
/** How long, in seconds, a model's stream may send nothing before the run fails (Runner.IDLE_TIMEOUT_MS). */
export const DEFAULT_IDLE_TIMEOUT_S = 600

export interface Options {
  /** The model id the endpoint serves. */
  readonly id: string
  readonly baseURL: string
  /** Sent as a bearer token when present; local servers need none. */
  readonly apiKey?: string
}

/** `value` as an endpoint URL without a trailing slash, or undefined when it is not http(s). */
export const baseUrlOf = (value: string): string | undefined => {
  try {
    const url = new URL(value)
    return url.protocol === "http:" || url.protocol === "https:" ? value.replace(/\/+$/, "") : undefined
  } catch {
    return undefined
  }
}

/** The chat model `options` name. */
export const model = async (options: Options): Promise<Runner.Model> => {
  const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible")
  const provider = createOpenAICompatible({ name: "openai-compatible", baseURL: options.baseURL, includeUsage: true, ...(options.apiKey === undefined || options.apiKey === "" ? {} : { apiKey: options.apiKey }) })
  return provider.chatModel(options.id)
}
