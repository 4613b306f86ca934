import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { BashCommand } from "../../../../src/tool/builtin/bash/command.js"
import { BashParse } from "../../../../src/tool/builtin/bash/parse.js"

const parser = await BashParse.load()
const parse = (command: string) => parser.parse(command, { home: "/home/me" })

const RUNS = 1_500

/** Any UTF-16 code unit: lone surrogates and NUL included. */
const units = fc.string({ unit: fc.nat(0xffff).map((code) => String.fromCharCode(code)), maxLength: 300 })

/** Pieces of shell syntax, so that generated input reaches deep into the grammar. */
const WORDS = ["rm", "-rf", "x", "git", "push", "sudo", "-u", "root", "env", "A=1", "sh", "-c", "bash", "find", "-exec", "{}", "+", "xargs", "timeout", "5", "cd", "/etc", "~", "~/k", "tee", "-a", "pushd", "popd", "eval", "watch", "trap", "alias", "nice", "-n", "time", "exec", "$x", "${x}", "$(ls)", "`ls`", "*"]
const SYNTAX = [";", "&&", "||", "|", "&", "\n", "(", ")", "{", "}", "$(", "`", "if", "then", "else", "fi", "for", "in", "do", "done", "while", "case", "esac", ";;", "!", "[[", "]]", "((", "))", "f()", "function"]
const REDIRECTS = [">", ">>", "<", "2>&1", "&>", ">|", "<<", "EOF", "<<<", "/dev/null"]
const QUOTES = ["'", '"', "\\", "\\;", "\u0000", "\ud800", "é", "😀", "  ", "\t"]

const shellish = (pieces: ReadonlyArray<string>) => fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((list) => list.join(" "))
const anyShell = shellish([...WORDS, ...SYNTAX, ...REDIRECTS, ...QUOTES])
/** No quotes, escapes, redirections or odd spacing: every resource is the input's own text. */
const plainShell = shellish([...WORDS, ...SYNTAX])

/** Quote and escape characters removed, as a word's value drops them. */
const unquoted = (text: string) => text.replace(/\\\n/g, "").replace(/[\\'"]/g, "")

const wellFormed = (command: string, parsed: BashCommand.Parsed): void => {
  if (command.trim() === "") {
    expect(parsed.resources).toEqual([])
    return
  }
  expect(parsed.resources.length).toBeGreaterThan(0)
  expect(new Set(parsed.resources.map((resource) => resource.text)).size).toBe(parsed.resources.length)
  if (parsed.opaque) {
    expect(parsed.resources).toEqual([{ text: command, save: undefined }])
    return
  }
  const source = unquoted(command)
  for (const resource of parsed.resources) {
    for (const word of unquoted(resource.text).split(/\s+/).filter((token) => token !== "")) expect(source).toContain(word)
  }
}

describe("BashParse properties", () => {
  it("never throws, and answers well-formed, on any UTF-16 string", () => {
    fc.assert(
      fc.property(units, (command) => wellFormed(command, parse(command))),
      { numRuns: RUNS },
    )
  })

  it("never throws, and answers well-formed, on shell-like input", () => {
    fc.assert(
      fc.property(anyShell, (command) => wellFormed(command, parse(command))),
      { numRuns: RUNS },
    )
  })

  it("gives resources that are the input's own text when nothing is quoted or redirected (options in front of an operation may be left out)", () => {
    /** Whether the words of `resource` appear in `command` in order (a form with options removed keeps the rest). */
    const within = (command: string, resource: string) => {
      const words = command.split(/\s+/)
      let at = 0
      return resource.split(/\s+/).every((word) => {
        while (at < words.length && words[at] !== word) at++
        return at++ < words.length
      })
    }
    fc.assert(
      fc.property(plainShell, (command) => {
        const parsed = parse(command)
        if (!parsed.opaque) for (const resource of parsed.resources) expect([resource.text, command.includes(resource.text) || within(command, resource.text)]).toEqual([resource.text, true])
      }),
      { numRuns: RUNS },
    )
  })

  it("gives opaque input exactly one resource, the whole input, with no save", () => {
    fc.assert(
      fc.property(anyShell, (command) => {
        const parsed = parse(command)
        if (parsed.opaque) expect(parsed.resources).toEqual([{ text: command, save: undefined }])
      }),
      { numRuns: RUNS },
    )
  })

  it("gives a save pattern only of plain words", () => {
    fc.assert(
      fc.property(plainShell, (command) => {
        for (const { save } of parse(command).resources) {
          if (save === undefined) continue
          const words = save.endsWith(" *") ? save.slice(0, -2).split(" ") : save.split(" ")
          for (const word of words) expect(word).toMatch(/^[A-Za-z0-9_./:@%+=,-]+$/)
        }
      }),
      { numRuns: RUNS },
    )
  })

  it("survives huge and hostile inputs", () => {
    const hostile = [
      "a".repeat(1_000_000),
      "\u0000".repeat(BashParse.MAX_CHARS),
      "\ud800".repeat(BashParse.MAX_CHARS),
      "$(".repeat(BashParse.MAX_CHARS / 2),
      "a;".repeat(BashParse.MAX_CHARS / 2),
      "sudo -z ".repeat(BashParse.MAX_CHARS / 8),
      "cd a; ".repeat(BashParse.MAX_CHARS / 6),
      `sh -c ${"'".repeat(999)}`,
      `echo ${"{a,".repeat(2_000)}`,
    ]
    for (const command of hostile) wellFormed(command, parse(command))
  })
})
