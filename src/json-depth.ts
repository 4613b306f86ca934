/**
 * How deep a parsed JSON value nests arrays and objects, found without recursion. A tool's input
 * is a few levels deep; one nested tens of thousands deep overflows the stack of whatever walks
 * it later (a digest, a schema's decode, a JSON.stringify), somewhere between a call starting and
 * its result being sent. Every surface refuses such an input before anything runs: the HTTP server
 * on its parsed body, `toolgate mcp` and the call path on the input.
 */
export * as JsonDepth from "./json-depth.js"

/** The deepest a tool's input may nest arrays and objects. */
export const MAX = 512

export const Messages = {
  tooDeep: `arrays and objects nested more than ${MAX} deep`,
} as const

/**
 * Whether `value` nests arrays and objects deeper than `limit` (a value shared twice is walked twice; JSON has no cycles).
 * @example JsonDepth.deeperThan([[1]], 1) // true
 */
export const deeperThan = (value: unknown, limit: number = MAX): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== "object") continue
    if (depth + 1 > limit) return true
    for (const item of Array.isArray(current) ? current : Object.values(current)) stack.push([item, depth + 1])
  }
  return false
}
