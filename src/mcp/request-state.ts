/**
 * The `requestState` of an MCP `input_required` round (2026-07-28 MRTR; the SDK's legacy shim
 * echoes it to 2025-era clients too). It comes back from the client, so it is attacker-controlled:
 * it is sealed with HMAC-SHA256 under a key made once per process, names the waiting call and the
 * asks it answers, is bound to the digest of the call (tool name and arguments, canonical JSON),
 * expires, and is single use: `open` refuses a forged, expired, mismatched or replayed state, and
 * then nothing is answered and nothing runs.
 */
export * as McpRequestState from "./request-state.js"

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"

export interface Claims {
  /** The toolgate call (tool call id) that waits for the answers. */
  readonly call: string
  /** The pending interactions this round asked, in order. */
  readonly asks: ReadonlyArray<string>
  /** The digest of the call's tool name and arguments. */
  readonly digest: string
  /** When the state stops being accepted, in ms since the epoch. */
  readonly expires: number
  /** Makes each state unique, so that using it once spends it. */
  readonly nonce: string
}

export const Reasons = {
  forged: "it was not issued by this toolgate process",
  expired: "it has expired",
  mismatched: "it was issued for a different call",
  replayed: "it was already used",
} as const
export type Reason = keyof typeof Reasons

export const Messages = {
  refused: (reason: Reason) => `toolgate refused this retried call: its requestState is not valid (${Reasons[reason]}). Nothing was answered and nothing ran; call the tool again to be asked anew.`,
} as const

/** Canonical JSON: object keys sorted at every depth, so equal arguments give one digest. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/** The digest a state is bound to: the tool's name and its arguments. */
export const digest = (name: string, args: unknown): string => createHash("sha256").update(canonical({ name, args: args ?? {} })).digest("base64url")

export interface Sealer {
  readonly seal: (claims: Omit<Claims, "nonce" | "expires">, ttlMs: number, now: number) => string
  /** The claims of a state issued here for `expected` (a digest), spending it; or why it is refused. */
  readonly open: (state: string, expected: string, now: number) => Claims | { readonly refused: Reason }
}

const isClaims = (value: unknown): value is Claims => {
  if (value === null || typeof value !== "object") return false
  const claims = value as Record<string, unknown>
  return (
    typeof claims.call === "string" &&
    Array.isArray(claims.asks) &&
    claims.asks.every((ask) => typeof ask === "string") &&
    typeof claims.digest === "string" &&
    typeof claims.expires === "number" &&
    typeof claims.nonce === "string"
  )
}

/** A sealer with a fresh key; one per process (the key never leaves memory). */
export const make = (key: Uint8Array = randomBytes(32)): Sealer => {
  /** Spent nonces, each kept until its state would have expired anyway. */
  const spent = new Map<string, number>()
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest()
  const forget = (now: number) => {
    for (const [nonce, expires] of spent) if (expires <= now) spent.delete(nonce)
  }
  return {
    seal: (claims, ttlMs, now) => {
      const payload = Buffer.from(JSON.stringify({ ...claims, expires: now + ttlMs, nonce: randomBytes(16).toString("base64url") })).toString("base64url")
      return `${payload}.${mac(payload).toString("base64url")}`
    },
    open: (state, expected, now) => {
      const [payload, signature, ...rest] = state.split(".")
      if (payload === undefined || signature === undefined || rest.length > 0) return { refused: "forged" }
      const given = Buffer.from(signature, "base64url")
      const wanted = mac(payload)
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { refused: "forged" }
      let claims: unknown
      try {
        claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
      } catch {
        // Signed by this key but not ours to read: treated as forged.
        return { refused: "forged" }
      }
      if (!isClaims(claims)) return { refused: "forged" }
      forget(now)
      if (spent.has(claims.nonce)) return { refused: "replayed" }
      if (claims.expires <= now) return { refused: "expired" }
      if (claims.digest !== expected) return { refused: "mismatched" }
      spent.set(claims.nonce, claims.expires)
      return claims
    },
  }
}
