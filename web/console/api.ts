/**
 * The console's only way to the server: its public HTTP API with the bearer token, and the event
 * stream `/api/event` read with fetch (EventSource cannot send a header). The token comes from the
 * URL fragment once, is kept in sessionStorage and removed from the address bar; it is never put
 * in a query string.
 */
import type { Api, ServerEvent } from "./wire.js"

export type { Api, ServerEvent } from "./wire.js"

export const TOKEN_KEY = "toolgate.token"

/** Takes `#token=…` off the address (into sessionStorage); returns the token to use, if any. */
export const takeToken = (): string | undefined => {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash)
  if (match?.[1] !== undefined) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]))
    history.replaceState(null, "", `${location.pathname}#/asks`)
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}


export const make = (token: string): Api => {
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await response.text()
    const json = text === "" ? undefined : JSON.parse(text)
    if (!response.ok) throw new ApiError(response.status, json?.message ?? `${response.status}`)
    return json
  }
  return { get: (path) => request("GET", path), send: (method, path, body) => request(method, path, body) }
}


/**
 * Reads `/api/event` until `signal` aborts, reconnecting with `Last-Event-ID` after a drop so
 * nothing is missed; `onState` says whether the stream is live.
 */
export const events = (token: string, onEvent: (event: ServerEvent) => void, onState: (live: boolean) => void, signal: AbortSignal) => {
  const last = { id: undefined as string | undefined }
  const connect = async (): Promise<void> => {
    const response = await fetch("/api/event", { headers: { authorization: `Bearer ${token}`, ...(last.id === undefined ? {} : { "last-event-id": last.id }) }, signal })
    if (!response.ok || response.body === null) throw new ApiError(response.status, "event stream refused")
    onState(true)
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ""
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += value
      const frames = buffer.split("\n\n")
      buffer = frames.pop() ?? ""
      for (const frame of frames) {
        const fields = Object.fromEntries(frame.split("\n").filter((line) => line !== "" && !line.startsWith(":")).map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trimStart()]))
        if (fields.data === undefined) continue
        if (fields.id !== undefined) last.id = fields.id
        const parsed = JSON.parse(fields.data) as { type: string; data?: unknown; location?: { directory?: string } }
        onEvent({ id: fields.id ?? "", type: parsed.type, data: parsed.data, ...(parsed.location?.directory === undefined ? {} : { directory: parsed.location.directory }) })
      }
    }
  }
  void (async () => {
    while (!signal.aborted) {
      await connect().catch(() => undefined)
      if (signal.aborted) return
      onState(false)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  })()
}
