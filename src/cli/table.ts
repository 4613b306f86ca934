/**
 * Rows of text cells printed as aligned columns: every column but the last padded to its widest
 * cell, two spaces between columns, no trailing spaces. The last column is free text (a command,
 * a list of paths), so one long value does not widen every line.
 */
export * as CliTable from "./table.js"

export const GAP = "  "

/** @example CliTable.format([["ID", "AGENT"], ["ses_1", "build"]]) // "ID     AGENT\nses_1  build" */
export const format = (rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = rows.reduce<ReadonlyArray<number>>((acc, row) => row.map((cell, index) => Math.max(acc[index] ?? 0, cell.length)), [])
  return rows.map((row) => row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join(GAP).trimEnd()).join("\n")
}
