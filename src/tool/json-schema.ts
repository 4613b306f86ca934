/**
 * Turns an Effect schema into the JSON Schema (draft 2020-12) that model providers accept.
 * Effect's generator describes the canonical JSON codec, which brings three things providers
 * reject or misread: string branches for NaN/±Infinity, `null` branches for optional fields
 * (the JSON codec's spelling of `undefined`), and `$ref`s into a separate definitions table.
 * This module removes the first two (keeping `null` where the field really accepts it) and
 * inlines every non-recursive definition. It is pure and deterministic.
 */
export * as ToolJsonSchema from "./json-schema.js"

import { Schema } from "effect"

export type JsonSchema = { readonly [key: string]: unknown }

const NON_FINITE = ["Infinity", "-Infinity", "NaN"]
const REF_PREFIX = "#/$defs/"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isNonFiniteBranch = (branch: unknown) =>
  isObject(branch) && branch.type === "string" && Array.isArray(branch.enum) && branch.enum.every((v) => NON_FINITE.includes(String(v)))

const isNullBranch = (branch: unknown) => isObject(branch) && branch.type === "null" && Object.keys(branch).length === 1

/** Drops the branches `keep` rejects from an `anyOf`, collapsing a single survivor into its parent. */
const pruneBranches = (node: Record<string, unknown>, drop: (branch: unknown) => boolean): Record<string, unknown> => {
  if (!Array.isArray(node.anyOf)) return node
  const branches = node.anyOf.filter((branch) => !drop(branch))
  const { anyOf: _, ...rest } = node
  if (branches.length === 1 && isObject(branches[0])) return { ...branches[0], ...rest }
  return { ...rest, anyOf: branches }
}

const referencesOf = (node: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(node)) node.forEach((item) => referencesOf(item, into))
  if (!isObject(node)) return into
  if (typeof node.$ref === "string" && node.$ref.startsWith(REF_PREFIX)) into.add(node.$ref.slice(REF_PREFIX.length))
  Object.values(node).forEach((value) => referencesOf(value, into))
  return into
}

/** Names of definitions that can reach themselves through `$ref`s. */
const recursiveNames = (definitions: Record<string, unknown>): Set<string> => {
  const edges = new Map(Object.entries(definitions).map(([name, body]) => [name, referencesOf(body, new Set())]))
  const reaches = (from: string, target: string, seen: Set<string>): boolean =>
    [...(edges.get(from) ?? [])].some((next) => next === target || (!seen.has(next) && reaches(next, target, seen.add(next))))
  return new Set([...edges.keys()].filter((name) => reaches(name, name, new Set())))
}

const rewrite = (node: unknown, definitions: Record<string, unknown>, recursive: Set<string>): unknown => {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, definitions, recursive))
  if (!isObject(node)) return node
  const ref = typeof node.$ref === "string" && node.$ref.startsWith(REF_PREFIX) ? node.$ref.slice(REF_PREFIX.length) : undefined
  if (ref !== undefined && !recursive.has(ref) && definitions[ref] !== undefined) {
    const { $ref: _, ...siblings } = node
    return rewrite({ ...(definitions[ref] as object), ...siblings }, definitions, recursive)
  }
  const pruned = pruneBranches(node, isNonFiniteBranch)
  const entries = Object.entries(pruned)
    .filter(([key, value]) => !(key === "additionalProperties" && value === true))
    .map(([key, value]) => [key, rewrite(value, definitions, recursive)] as const)
  return Object.fromEntries(entries)
}

/** Field names of a struct whose schema does not accept `null` itself. */
const nullFreeFields = (schema: Schema.Top): Set<string> => {
  const fields = (schema as { fields?: Record<string, Schema.Top> }).fields ?? {}
  return new Set(
    Object.entries(fields)
      .filter(([key, field]) => !Schema.is(Schema.Struct({ [key]: field }))({ [key]: null }))
      .map(([key]) => key),
  )
}

const dropOptionalNulls = (node: JsonSchema, nullFree: Set<string>): JsonSchema => {
  if (!isObject(node.properties)) return node
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : [])
  const properties = Object.fromEntries(
    Object.entries(node.properties).map(([key, value]) => [
      key,
      !required.has(key) && nullFree.has(key) && isObject(value) ? pruneBranches(value, isNullBranch) : value,
    ]),
  )
  return { ...node, properties }
}

/** The provider-ready JSON Schema of a schema; a struct with no fields becomes an empty object schema. */
export const make = (schema: Schema.Top): JsonSchema => {
  const document = Schema.toJsonSchemaDocument(schema)
  const definitions = document.definitions as Record<string, unknown>
  const recursive = recursiveNames(definitions)
  const body = rewrite(document.schema, definitions, recursive) as JsonSchema
  const withObject = isObject(body.not) && body.not.type === "null" && Object.keys(body).length === 1 ? { type: "object", properties: {} } : body
  const cleaned = dropOptionalNulls(withObject, nullFreeFields(schema))
  if (recursive.size === 0) return cleaned
  const kept = Object.fromEntries([...recursive].map((name) => [name, rewrite(definitions[name], definitions, recursive)]))
  return { ...cleaned, $defs: kept }
}

/** Input properties that carry no `description` (the model would have to guess what they mean). */
export const undescribed = (schema: JsonSchema): string[] =>
  isObject(schema.properties)
    ? Object.entries(schema.properties)
        .filter(([, value]) => !isObject(value) || typeof value.description !== "string" || value.description.length === 0)
        .map(([key]) => key)
    : []
