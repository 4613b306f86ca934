/**
 * Sortable identifiers: `<prefix>_<12 hex digits of milliseconds><4 hex counter><10 random base62>`.
 * Within one process, IDs made later sort after IDs made earlier (a counter breaks ties inside
 * one millisecond, and a clock that goes backwards is held at the last value seen). Across
 * processes they sort by time to the millisecond; the random tail keeps them unique.
 */
export * as Id from "./id.js"

import { randomFillSync } from "node:crypto"

export const PREFIXES = ["ses", "msg", "call", "tool", "shell", "per", "psv", "que", "aud"] as const
export type Prefix = (typeof PREFIXES)[number]

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const RANDOM_LENGTH = 10
const MAX_COUNTER = 0xffff

const clock = { last: 0, counter: 0 }

const next = (now: number) => {
  if (now > clock.last) {
    clock.last = now
    clock.counter = 0
    return clock
  }
  clock.counter += 1
  if (clock.counter > MAX_COUNTER) {
    // More than 65 536 ids in one millisecond: borrow the next millisecond to stay ordered.
    clock.last += 1
    clock.counter = 0
  }
  return clock
}

/** Random bytes drawn from one buffer refilled when used up: a call to the generator per id cost more than the id. */
const pool = { bytes: Buffer.alloc(4096), used: 4096 }

const random = (length: number) => {
  if (pool.used + length > pool.bytes.length) {
    randomFillSync(pool.bytes)
    pool.used = 0
  }
  const bytes = pool.bytes.subarray(pool.used, pool.used + length)
  pool.used += length
  let text = ""
  for (const byte of bytes) text += ALPHABET[byte % ALPHABET.length]
  return text
}

/** @example Id.create("ses") // "ses_0193a4c2b1f00000aZ3kP9qLx2" */
export const create = (prefix: Prefix): string => {
  const { last, counter } = next(Date.now())
  return `${prefix}_${last.toString(16).padStart(12, "0")}${counter.toString(16).padStart(4, "0")}${random(RANDOM_LENGTH)}`
}

/** The millisecond time encoded in an id made by `create`. */
export const timestamp = (id: string): number => Number.parseInt(id.slice(id.indexOf("_") + 1, id.indexOf("_") + 13), 16)
