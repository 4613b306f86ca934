/**
 * Turns an Effect schema into the JSON Schema (draft 2020-12) that model providers accept.
 * Effect's generator describes the canonical JSON codec (which `Tool.settle` decodes with), and
 * brings four things providers reject or misread: string branches for NaN/±Infinity, `null`
 * branches for optional fields (the JSON codec's spelling of `undefined`), field descriptions
 * dropped where the JSON form differs from the type (numbers, bigints, dates), and `$ref`s into a
 * separate definitions table. This module walks the schema's AST beside the generated document
 * to remove the first two (keeping `null` where the field itself accepts it), restore the
 * descriptions, and inline every non-recursive definition. It is pure and deterministic.
 */
export * as ToolJsonSchema from "./json-schema.js"

import { Schema, SchemaAST } from "effect"

export type JsonSchema = { readonly [key: string]: unknown }

const NON_FINITE = ["Infinity", "-Infinity", "NaN"]
const REF_PREFIX = "#/$defs/"

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isNonFiniteBranch = (branch: unknown) =>
  isObject(branch) && branch.type === "string" && Array.isArray(branch.enum) && branch.enum.every((v) => NON_FINITE.includes(String(v)))

const isNullBranch = (branch: unknown) => isObject(branch) && branch.type === "null" && Object.keys(branch).length === 1

/** Drops the branches `drop` selects (and duplicates) from an `anyOf`, collapsing a single survivor into its parent. */
const pruneBranches = (node: Record<string, unknown>, drop: (branch: unknown) => boolean): Record<string, unknown> => {
  if (!Array.isArray(node.anyOf)) return node
  const seen = new Set<string>()
  const branches = node.anyOf.filter((branch) => {
    const key = JSON.stringify(branch)
    if (drop(branch) || seen.has(key)) return false
    seen.add(key)
    return true
  })
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

const acceptsNull = (ast: SchemaAST.AST) => Schema.is(Schema.make(ast))(null)

/** An optional field's type is `X | undefined`; its other members are what the JSON form shows. */
const shownMember = (ast: SchemaAST.AST): SchemaAST.AST | undefined => {
  if (!SchemaAST.isUnion(ast)) return ast
  const [only, ...others] = ast.types.filter((member) => !SchemaAST.isUndefined(member))
  return only === undefined || others.length > 0 ? undefined : only
}

/** A field's description: on its type, or on the one member an optional field shows. */
const fieldDescription = (type: SchemaAST.AST): string | undefined => {
  const shown = shownMember(type)
  return SchemaAST.resolveDescription(type) ?? (shown === undefined ? undefined : SchemaAST.resolveDescription(shown))
}

/**
 * Walks the type-side AST beside its JSON Schema node: for every struct property, restores a
 * lost description and drops the `null` branch of an optional field that does not accept null.
 * Stops at `$ref`s (recursive definitions keep what Effect generated).
 */
const alongAst = (node: unknown, ast: SchemaAST.AST): unknown => {
  if (!isObject(node) || node.$ref !== undefined) return node
  if (SchemaAST.isUnion(ast)) {
    const shown = shownMember(ast)
    return shown === undefined ? node : alongAst(node, shown)
  }
  if (SchemaAST.isArrays(ast)) {
    const [rest] = ast.rest
    return rest === undefined || !isObject(node.items) ? node : { ...node, items: alongAst(node.items, rest) }
  }
  if (!SchemaAST.isObjects(ast) || !isObject(node.properties)) return node
  const properties: Record<string, unknown> = { ...node.properties }
  for (const signature of ast.propertySignatures) {
    const key = String(signature.name)
    const property = properties[key]
    if (!isObject(property)) continue
    const description = fieldDescription(signature.type)
    const described = property.description === undefined && description !== undefined ? { ...property, description } : property
    const pruned = SchemaAST.isOptional(signature.type) && !acceptsNull(signature.type) ? pruneBranches(described, isNullBranch) : described
    properties[key] = alongAst(pruneBranches(pruned, () => false), signature.type)
  }
  return { ...node, properties }
}

/** The provider-ready JSON Schema of a schema; a struct with no fields becomes an empty object schema. */
export const make = (schema: Schema.Top): JsonSchema => {
  const document = Schema.toJsonSchemaDocument(schema)
  const definitions = document.definitions as Record<string, unknown>
  const recursive = recursiveNames(definitions)
  const body = rewrite(document.schema, definitions, recursive) as JsonSchema
  const withObject = isObject(body.not) && body.not.type === "null" && Object.keys(body).length === 1 ? { type: "object", properties: {} } : body
  const cleaned = alongAst(withObject, SchemaAST.toType(schema.ast)) as JsonSchema
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

/**
 * Whether every field of a struct schema carries a non-empty description (on its type, or on the
 * member an optional field shows). When it does, `make` gives each input property that
 * description (it restores lost ones), so `undescribed` of the generated schema is empty; when it
 * does not (or the schema is no struct), the answer is "not known here" and the generated schema
 * decides.
 */
export const describesEveryField = (schema: Schema.Top): boolean => {
  const ast = SchemaAST.toType(schema.ast)
  if (!SchemaAST.isObjects(ast) || ast.indexSignatures.length > 0) return false
  return ast.propertySignatures.every((signature) => {
    const description = fieldDescription(signature.type)
    return typeof description === "string" && description.length > 0
  })
}
