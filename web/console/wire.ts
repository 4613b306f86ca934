/**
 * The shapes the console and the server exchange, apart from the code that talks to the server
 * (api.ts, which needs a browser), so that the state (store.ts) and its tests need no DOM.
 */

export interface Api {
  readonly get: <A = any>(path: string) => Promise<A>
  readonly send: <A = any>(method: "POST" | "DELETE", path: string, body?: unknown) => Promise<A>
}

export interface ServerEvent {
  readonly id: string
  readonly type: string
  readonly data: any
  /** The working directory the event belongs to, when it belongs to one. */
  readonly directory?: string
}
