/**
 * Whether a schema was made by the same copy of `effect` as toolgate's. With two copies
 * installed (an app's own `effect` beside the one toolgate resolved), a tool built on the other
 * copy cannot run here: its effects are not this runtime's, and it returned empty output without
 * a word. `effect` is a peer dependency so that npm installs one copy; this check makes a second
 * one a clear error when the tool is made, instead of a silent wrong answer later.
 */
export * as EffectCopy from "./effect-copy.js"

import { SchemaAST } from "effect"

export const Messages = {
  twoCopies:
    "This tool's schemas come from another copy of the effect package than toolgate's. Install one copy: effect is a peer dependency of toolgate (run npm ls effect to see the copies).",
} as const

/** Every class the AST module of toolgate's copy exports: each schema node is an instance of one. */
type Class = abstract new (...args: never) => unknown
const isClass = (value: unknown): value is Class => typeof value === "function" && value.prototype !== undefined
const CLASSES: ReadonlyArray<Class> = (Object.values(SchemaAST) as ReadonlyArray<unknown>).filter(isClass)

/** Whether `node` is an instance of one of our AST classes. */
const ourNode = (node: unknown): boolean => typeof node === "object" && node !== null && CLASSES.some((type) => node instanceof type)

/** Whether `schema` is a schema of toolgate's own copy of effect. */
export const isOurs = (schema: unknown): boolean =>
  // A schema is a function with an `ast` in effect 4; an object would do too.
  (typeof schema === "function" || (typeof schema === "object" && schema !== null)) && "ast" in schema && ourNode((schema as { readonly ast: unknown }).ast)
